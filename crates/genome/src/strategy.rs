//! proptest strategies for random valid genomes, shared with the crates that build on this one
//! (feature `proptest`), so that every crate tests against the same idea of "any genome".

use crate::{Block, Content, Debuff, Genome, Outcome, Owner, Step, StepKind};
use proptest::prelude::*;

pub fn content() -> impl Strategy<Value = Content> {
    prop_oneof![
        Just(Content::Mover),
        Just(Content::Target),
        Just(Content::Nothing)
    ]
}

pub fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![
        1 => Just(Outcome::Forbidden),
        3 => (content(), content()).prop_map(|(from, to)| Outcome::Leaves { from, to }),
    ]
}

pub fn step() -> impl Strategy<Value = Step> {
    let kind = prop_oneof![
        Just(StepKind::Marking),
        Just(StepKind::Plain),
        Just(StepKind::Still)
    ];
    (kind, 0u8..9).prop_map(|(kind, number)| Step { kind, number })
}

/// An owner before de-duplication: `None` is `HSH`, else the index of a debuff.
fn raw_owner() -> impl Strategy<Value = Option<usize>> {
    prop::option::of(0..Debuff::ALL.len())
}

type RawBlock = (Option<usize>, Option<usize>, [Outcome; 3], Vec<Step>);

fn raw_block() -> impl Strategy<Value = RawBlock> {
    (
        raw_owner(),
        raw_owner(),
        [outcome(), outcome(), outcome()],
        prop::collection::vec(step(), 1..=Block::MAX_STEPS),
    )
}

/// Random valid genomes of fewer than `max_blocks` blocks: a debuff that was already used becomes
/// `HSH`, so each appears once.
pub fn genome(max_blocks: usize) -> impl Strategy<Value = Genome> {
    prop::collection::vec(raw_block(), 0..max_blocks).prop_map(|raw| {
        let mut used = Vec::new();
        let mut owner = |choice: Option<usize>| match choice.map(|i| Debuff::ALL[i]) {
            Some(debuff) if !used.contains(&debuff) => {
                used.push(debuff);
                Owner::Mover(debuff)
            }
            _ => Owner::Opponent,
        };
        let blocks = raw
            .into_iter()
            .map(|(from, to, [on_own, on_opponent, on_empty], steps)| Block {
                owner_from: owner(from),
                owner_to: owner(to),
                on_own,
                on_opponent,
                on_empty,
                steps,
            })
            .collect();
        Genome { blocks }
    })
}
