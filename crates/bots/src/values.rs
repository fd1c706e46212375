//! What a piece is worth: every genome is new, so no fixed table can say. A piece is worth what
//! it can reach: the average number of destinations it has on an otherwise empty board, over
//! every square, per side (forward-only pieces differ by side), computed once per genome id.

use gmo_engine::{Board, BoardSize, Color, GenomeId, GenomeTable, Piece, destinations_on};

/// A piece with no moves still blocks and shields: it is worth this much.
const BASE: i32 = 30;
/// Worth per average destination.
const PER_DESTINATION: i32 = 15;

/// Piece values by genome id and side, in centi-pawn-like units.
#[derive(Debug, Clone, Default)]
pub(crate) struct Values {
    by_genome: Vec<[i32; 2]>,
}

impl Values {
    pub(crate) fn new(table: &GenomeTable) -> Values {
        let size = table.size();
        let by_genome = table
            .iter()
            .map(|(id, _)| Color::BOTH.map(|color| value_of(table, size, id, color)))
            .collect();
        Values { by_genome }
    }

    #[inline]
    pub(crate) fn of(&self, genome: GenomeId, color: Color) -> i32 {
        self.by_genome
            .get(genome.index())
            .map_or(BASE, |v| v[color.index()])
    }
}

fn value_of(table: &GenomeTable, size: BoardSize, id: GenomeId, color: Color) -> i32 {
    let mut total = 0u32;
    let mut squares = 0u32;
    for square in size.squares() {
        let mut board = Board::empty(size);
        board.put(square, Piece::new(id, color));
        total += destinations_on(table, &board, square).count_ones();
        squares += 1;
    }
    let average_x10 = (total * 10) / squares.max(1);
    BASE + PER_DESTINATION * average_x10 as i32 / 10
}
