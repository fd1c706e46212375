//! `greedy`: the ply whose resulting position evaluates best for the mover, looking one ply
//! ahead (the evaluation itself sees whether the opponent can then take a king). Ties are broken
//! at random from a seed, so that greedy games differ.

use crate::bot::{Bot, Budget, Ply};
use crate::eval::assess;
use crate::node::{Context, Node, Step};
use crate::search::{MATE, terminal_score};
use gmo_engine::Position;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Debug, Clone)]
pub struct GreedyBot {
    rng: ChaCha8Rng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// The value of `step` for the side to move at `node`.
fn value(ctx: &Context, node: &Node, step: Step) -> i32 {
    let mover = node.side();
    let child = node.child(ctx, step);
    if let Some(result) = child.ended {
        return terminal_score(result, mover, 1);
    }
    let assessment = assess(ctx, &child.node);
    let score = if assessment.wins {
        MATE - 2
    } else {
        assessment.score
    };
    if child.node.side() == mover {
        score
    } else {
        -score
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Option<Ply> {
        let ctx = Context::new(position);
        let root = ctx.root()?;
        let mut steps = Vec::new();
        root.steps(&ctx, &mut steps);
        let scored: Vec<(i32, Step)> = steps.iter().map(|&s| (value(&ctx, &root, s), s)).collect();
        let best = scored.iter().map(|&(v, _)| v).max()?;
        let top: Vec<Step> = scored
            .iter()
            .filter(|&&(v, _)| v == best)
            .map(|&(_, s)| s)
            .collect();
        let pick = top[self.rng.random_range(0..top.len())];
        ctx.ply(pick)
    }
}
