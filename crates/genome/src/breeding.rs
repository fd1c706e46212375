//! Breeding: children of two genomes by block crossover, now and then with a point mutation
//! (rules §4.2's). Deterministic for the parents, the seed and the number of children asked for.
//!
//! Each try makes one candidate:
//!
//! 1. **Crossover.** One parent is drawn to go first. The child is a non-empty prefix of the first
//!    parent's blocks followed by a non-empty suffix of the second's (a parent without blocks
//!    gives none): one cut in each parent's block list, so every child has blocks of both.
//! 2. **Debuffs made unique.** A debuff may appear once in a genome (rules §2.4), so an owner
//!    codon that repeats a debuff the child already carries becomes a debuff the child does not
//!    carry anywhere, drawn uniformly — the owner stays the mover, as in the standard queen's
//!    second block — or `HSH` when all nine are taken.
//! 3. **Mutation.** With probability 1 in [`MUTATION_ONE_IN`], [`crate::mutate`]: up to 20
//!    one-letter changes, the first that is a genome kept (§4.2).
//!
//! A candidate becomes a child when it parses back to itself, is not empty, has at most
//! `max_letters` letters, and differs from both parents and from every earlier child. Tries stop
//! when enough children are found or after [`TRIES_PER_CHILD`] tries per child asked for, so a
//! pair with few distinct offspring (two empty parents have none) gives fewer.

use crate::ast::{Debuff, DebuffSet, Genome, Owner};
use crate::mutate::mutate;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Children asked for when the caller does not say.
pub const DEFAULT_CHILDREN: usize = 4;
/// The most children one call makes; more are clamped to this.
pub const MAX_CHILDREN: usize = 16;
/// Tries per child asked for before giving up on the rest.
pub const TRIES_PER_CHILD: usize = 64;
/// A candidate is mutated with probability 1 in this.
pub const MUTATION_ONE_IN: u32 = 4;

/// What to breed: the seed of the random draws, how many children, and the longest child DNA
/// (in letters) to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Breeding {
    pub seed: u64,
    /// Clamped to [`MAX_CHILDREN`].
    pub children: usize,
    pub max_letters: usize,
}

/// Up to `breeding.children` distinct valid children of `a` and `b`, the same for the same
/// arguments (see the module's documentation for the method). Asking for fewer children gives a
/// prefix of what asking for more gives.
pub fn breed(a: &Genome, b: &Genome, breeding: Breeding) -> Vec<Genome> {
    let wanted = breeding.children.min(MAX_CHILDREN);
    let mut rng = ChaCha8Rng::seed_from_u64(breeding.seed);
    let mut children: Vec<Genome> = Vec::with_capacity(wanted);
    // The number of tries depends on the children asked for only through when it stops, so
    // that fewer children are a prefix of more.
    for _ in 0..TRIES_PER_CHILD * wanted {
        if children.len() == wanted {
            break;
        }
        let candidate = candidate(a, b, &mut rng);
        if keeps(&candidate, a, b, &children, breeding.max_letters) {
            children.push(candidate);
        }
    }
    children
}

/// One try: crossover, unique debuffs, perhaps a mutation.
fn candidate(a: &Genome, b: &Genome, rng: &mut impl Rng) -> Genome {
    let (first, second) = if rng.random_bool(0.5) { (a, b) } else { (b, a) };
    let mut blocks = Vec::with_capacity(first.blocks.len() + second.blocks.len());
    if !first.blocks.is_empty() {
        let cut = rng.random_range(1..=first.blocks.len());
        blocks.extend_from_slice(&first.blocks[..cut]);
    }
    if !second.blocks.is_empty() {
        let cut = rng.random_range(0..second.blocks.len());
        blocks.extend_from_slice(&second.blocks[cut..]);
    }
    let mut child = Genome { blocks };
    unique_debuffs(&mut child, rng);
    if rng.random_ratio(1, MUTATION_ONE_IN) {
        child = mutate(&child, rng);
    }
    child
}

/// Replaces each owner codon that repeats an earlier debuff by a debuff the genome does not
/// carry anywhere (uniformly drawn), or by `HSH` when none is left.
fn unique_debuffs(genome: &mut Genome, rng: &mut impl Rng) {
    let mut taken: DebuffSet = genome.debuffs();
    let mut seen = DebuffSet::EMPTY;
    for block in &mut genome.blocks {
        for owner in [&mut block.owner_from, &mut block.owner_to] {
            let Owner::Mover(debuff) = *owner else {
                continue;
            };
            if !seen.contains(debuff) {
                seen.insert(debuff);
                continue;
            }
            let free: Vec<Debuff> = Debuff::ALL
                .into_iter()
                .filter(|d| !taken.contains(*d))
                .collect();
            *owner = if free.is_empty() {
                Owner::Opponent
            } else {
                let new = free[rng.random_range(0..free.len())];
                taken.insert(new);
                seen.insert(new);
                Owner::Mover(new)
            };
        }
    }
}

fn keeps(
    candidate: &Genome,
    a: &Genome,
    b: &Genome,
    children: &[Genome],
    max_letters: usize,
) -> bool {
    let dna = candidate.to_string();
    !candidate.blocks.is_empty()
        && dna.len() <= max_letters
        && candidate != a
        && candidate != b
        && !children.contains(candidate)
        && Genome::parse(&dna).as_ref() == Ok(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standard;

    fn named(name: &str) -> Genome {
        standard::by_name(name).expect("a standard genome")
    }

    fn breeding(seed: u64, children: usize) -> Breeding {
        Breeding {
            seed,
            children,
            max_letters: 4096,
        }
    }

    #[test]
    fn two_one_block_pieces_with_a_shared_debuff_have_children() {
        // The knight and the rook both spend `HAA`: a plain concatenation never parses.
        let (knight, rook) = (named("knight"), named("rook"));
        let children = breed(&knight, &rook, breeding(1, MAX_CHILDREN));
        assert_eq!(children.len(), MAX_CHILDREN, "{children:?}");
        let crossed = children
            .iter()
            .filter(|child| child.blocks.len() == 2)
            .count();
        assert!(crossed > MAX_CHILDREN / 2, "{crossed} crossed children");
        for child in &children {
            let debuffs: Vec<Debuff> = child.blocks.iter().flat_map(|b| b.debuffs()).collect();
            let unique: DebuffSet = debuffs.iter().copied().collect();
            assert_eq!(debuffs.len(), unique.iter().count(), "{child}");
        }
    }

    #[test]
    fn children_are_crossings_and_some_carry_a_mutation() {
        let (pawn, queen) = (named("pawn"), named("queen"));
        // Steps and outcomes never change by the repair: without a mutation, the child's blocks,
        // owners aside, are a prefix of one parent and a suffix of the other.
        let shape = |g: &Genome| -> Vec<String> {
            g.blocks.iter().map(|b| b.codons()[3..].concat()).collect()
        };
        let (p, q) = (shape(&pawn), shape(&queen));
        let (mut total, mut crossed) = (0, 0);
        for seed in 0..10 {
            let children = breed(&pawn, &queen, breeding(seed, MAX_CHILDREN));
            assert_eq!(children.len(), MAX_CHILDREN, "seed {seed}");
            for child in &children {
                let c = shape(child);
                let split = |first: &[String], second: &[String]| {
                    (1..c.len()).any(|at| first.starts_with(&c[..at]) && second.ends_with(&c[at..]))
                };
                total += 1;
                if split(&p, &q) || split(&q, &p) {
                    crossed += 1;
                }
            }
        }
        // A mutation (1 in 4 tries) that hits a step or an outcome breaks the shape; one in an
        // owner codon does not. So most children are plain crossings, and not all.
        assert!(crossed * 2 > total, "{crossed} of {total} crossed");
        assert!(crossed < total, "no child of {total} carries a mutation");
    }

    #[test]
    fn the_seed_decides_and_the_same_seed_repeats() {
        let (bishop, king) = (named("bishop"), named("king"));
        let one = breed(&bishop, &king, breeding(42, 8));
        assert_eq!(one, breed(&bishop, &king, breeding(42, 8)));
        assert_ne!(one, breed(&bishop, &king, breeding(43, 8)));
    }

    #[test]
    fn two_empty_parents_have_no_children_and_zero_asked_gives_none() {
        let empty = Genome::default();
        assert_eq!(breed(&empty, &empty, breeding(3, 4)), vec![]);
        assert_eq!(
            breed(&named("rook"), &named("pawn"), breeding(3, 0)),
            vec![]
        );
    }

    #[test]
    fn a_child_longer_than_the_limit_is_not_kept() {
        let (pawn, queen) = (named("pawn"), named("queen"));
        let longest = |children: &[Genome]| children.iter().map(|c| c.to_string().len()).max();
        // Two of the crossings fit in 60 letters: the pawn's first block (24) with the queen's
        // second (33), and the queen's first (33) with the pawn's second (27).
        let limited = breed(
            &pawn,
            &queen,
            Breeding {
                max_letters: 60,
                ..breeding(5, 8)
            },
        );
        assert!(!limited.is_empty());
        assert!(longest(&limited) <= Some(60), "{limited:?}");
        let free = breed(&pawn, &queen, breeding(5, 8));
        assert!(longest(&free) > Some(60), "{free:?}");
    }
}
