//! Property tests on random genomes, board sizes and sides: every picture is well-formed XML,
//! marks exactly the destinations the engine gives (on the empty board or onto an enemy piece),
//! and is the same bytes when drawn again.

use crate::tests::{engine_destinations, marks};
use crate::{Options, render};
use gmo_engine::Color;
use proptest::prelude::*;
use std::collections::BTreeSet;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_pieces_mark_what_the_engine_gives(
        genome in gmo_genome::strategy::genome(4),
        width in 4u8..=8,
        height in 4u8..=8,
        white in any::<bool>(),
    ) {
        let color = if white { Color::White } else { Color::Black };
        let options = Options { width, height, color, label: None };
        let svg = render(&genome, &options).expect("a valid size");
        let marked = marks(&svg);
        let squares: BTreeSet<String> = marked.iter().map(|(s, _)| s.clone()).collect();
        prop_assert_eq!(marked.len(), squares.len(), "a square marked twice");
        prop_assert_eq!(squares, engine_destinations(&genome, &options));
        prop_assert_eq!(render(&genome, &options).expect("again"), svg);
    }
}
