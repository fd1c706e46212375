//! Property tests on random genomes, board sizes, sides and languages: every picture is
//! well-formed XML, marks exactly the destinations the engine gives (on the empty board or onto an
//! enemy piece), is the same bytes when drawn again, keeps every row within its width, and in
//! Slovak says no English word and has the English legend's lines.

use crate::language_tests::{english_in, overflowing};
use crate::tests::{engine_destinations, marks};
use crate::{Diagram, Language, Options, legend, render};
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
        slovak in any::<bool>(),
    ) {
        let color = if white { Color::White } else { Color::Black };
        let language = if slovak { Language::Sk } else { Language::En };
        let options = Options { width, height, color, label: None, language };
        let svg = render(&genome, &options).expect("a valid size");
        let marked = marks(&svg);
        let squares: BTreeSet<String> = marked.iter().map(|(s, _)| s.clone()).collect();
        prop_assert_eq!(marked.len(), squares.len(), "a square marked twice");
        prop_assert_eq!(squares, engine_destinations(&genome, &options));
        prop_assert_eq!(render(&genome, &options).expect("again"), svg.clone());
        prop_assert_eq!(overflowing(&svg), []);
        if slovak {
            prop_assert_eq!(english_in(&svg, &genome.code().to_string()), Vec::<&str>::new());
            let diagram = Diagram::new(&genome, &options).expect("a diagram");
            let keys = |language| -> Vec<_> {
                legend(&diagram, language).into_iter().map(|line| line.key).collect()
            };
            prop_assert_eq!(keys(Language::En), keys(Language::Sk));
        }
    }
}
