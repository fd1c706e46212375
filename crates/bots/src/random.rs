//! `random`: a uniformly random legal ply (promotions: one of the standard pieces), from a seed.

use crate::bot::{Bot, Budget, Ply};
use crate::node::Context;
use gmo_engine::Position;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Option<Ply> {
        let ctx = Context::new(position);
        let root = ctx.root()?;
        let mut steps = Vec::new();
        root.steps(&ctx, &mut steps);
        if steps.is_empty() {
            return None;
        }
        let pick = steps[self.rng.random_range(0..steps.len())];
        ctx.ply(pick)
    }
}
