//! Where a game's or lab's random debuffs come from (rules §4.2): one ChaCha stream per move,
//! keyed by the seed and the move's number, so that no generator state has to be stored.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The generator for move number `n` (0-based) of a game or lab with this seed.
pub(crate) fn draws_for(seed: u64, n: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(n);
    rng
}

#[cfg(test)]
mod tests {
    use super::draws_for;
    use rand::RngCore;

    #[test]
    fn streams_are_repeatable_and_distinct() {
        let first = |seed, n| draws_for(seed, n).next_u64();
        assert_eq!(first(1, 2), first(1, 2));
        assert_ne!(first(1, 2), first(1, 3));
        assert_ne!(first(1, 2), first(2, 2));
    }
}
