//! Property test: the fast paths (ray records, used to count moves, to search and to find kings in
//! danger) list exactly the moves of the reference-order walker (`ordered_moves`, which follows
//! each walk square by square and is checked against the oracle's move lists), for random
//! genomes (wrapping, turning back, every debuff) on random boards of every size.

use crate::compile::Effect;
use crate::movegen::{destinations, for_each_move, ordered_moves};
use crate::piece::Piece;
use crate::position::Position;
use crate::square::{BoardSize, Color, Square};
use gmo_genome::{Genome, standard};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// Standard genomes a third of the time, random ones otherwise.
fn genome() -> impl Strategy<Value = Genome> {
    prop_oneof![
        1 => (0..standard::STANDARD.len())
            .prop_map(|i| standard::by_name(standard::STANDARD[i].0).unwrap_or_default()),
        2 => gmo_genome::strategy::genome(4),
    ]
}

/// A piece: its square's index, its genome's index, and whether it is Black's.
type Placed = (u8, usize, bool);

/// A board of `width × height` with pieces on some squares.
fn board() -> impl Strategy<Value = (u8, u8, Vec<Genome>, Vec<Placed>)> {
    (
        BoardSize::MIN..=BoardSize::MAX,
        BoardSize::MIN..=BoardSize::MAX,
    )
        .prop_flat_map(|(width, height)| {
            let cells = usize::from(width) * usize::from(height);
            (
                Just(width),
                Just(height),
                prop::collection::vec(genome(), 1..4),
                prop::collection::vec((0..cells, 0usize..4, any::<bool>()), 1..=cells),
            )
                .prop_map(move |(width, height, genomes, pieces)| {
                    let at =
                        |cell: usize| cell / usize::from(width) * 8 + cell % usize::from(width);
                    let pieces = pieces
                        .into_iter()
                        .map(|(cell, g, black)| (at(cell) as u8, g % genomes.len(), black))
                        .collect();
                    (width, height, genomes, pieces)
                })
        })
}

fn key(effect: Effect) -> String {
    format!("{effect:?}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fast_paths_list_the_walkers_moves((width, height, genomes, pieces) in board()) {
        let size = BoardSize::new(width, height).expect("a size in range");
        let mut position = Position::new(size);
        let ids: Vec<_> = genomes
            .iter()
            .map(|g| position.intern(g).expect("room"))
            .collect();
        for &(index, g, black) in &pieces {
            let color = if black { Color::Black } else { Color::White };
            let square = Square::from_index(index).expect("on the layout");
            position.put(square, Piece::new(ids[g], color)).expect("on the board");
        }
        let board = position.board();
        for (from, piece) in board.pieces() {
            let cg = position.genomes().compiled(piece.genome);
            let walked: BTreeMap<u8, String> = ordered_moves(cg, from, piece.color, board)
                .into_iter()
                .map(|m| (m.to.index() as u8, key(m.effect)))
                .collect();
            let mut listed = Vec::new();
            for_each_move(cg, from, piece.color, board, |to, effect| {
                listed.push((to.index() as u8, key(effect)));
            });
            let fast: BTreeMap<u8, String> = listed.iter().cloned().collect();
            prop_assert_eq!(fast.len(), listed.len(), "a destination twice: {:?}", listed);
            prop_assert_eq!(&fast, &walked, "{} {}", from, cg.dna());
            let mask = walked.keys().fold(0u64, |m, &s| m | 1 << s);
            prop_assert_eq!(destinations(cg, from, piece.color, board), mask);
        }
    }
}
