//! Move generation (rules §3) over compiled walk tables.

use crate::board::Board;
use crate::compile::{CompiledGenome, Effect, TargetKind, Walk};
use crate::rays::Targets;
use crate::square::{Color, Square};
use crate::table::GenomeTable;

/// A legal move of one piece: identified by `(from, to)`, carrying what it leaves behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LegalMove {
    pub from: Square,
    pub to: Square,
    pub effect: Effect,
}

/// The squares one walk reaches: its path up to and including the first occupied square.
#[inline]
fn path_reach(cg: &CompiledGenome, walk: &Walk, occupied: u64) -> u64 {
    if walk.full & occupied == 0 {
        return walk.full;
    }
    let mut reach = 0u64;
    for &s in cg.path_of(walk) {
        let bit = 1u64 << s;
        reach |= bit;
        if occupied & bit != 0 {
            break;
        }
    }
    reach
}

/// Who stands where, as the pieces of `color` see it.
#[inline(always)]
pub(crate) fn targets(board: &Board, color: Color) -> Targets {
    Targets::new(board.side_bits(color), board.side_bits(color.opponent()))
}

/// Calls `f(block, emitted)` for each block of the piece on `from`, in DNA order.
#[inline(always)]
fn emits(cg: &CompiledGenome, from: Square, targets: &Targets, f: impl FnMut(u16, u64)) {
    let walk_reach = |walk: usize, occupied| path_reach(cg, &cg.walks[walk], occupied);
    cg.rays.emits(from.index(), targets, walk_reach, f);
}

/// Every destination of a piece of `color` on `from`, filters applied. Enough to count moves.
#[inline(always)]
pub(crate) fn destinations_for(
    cg: &CompiledGenome,
    from: Square,
    color: Color,
    targets: &Targets,
) -> u64 {
    let mut all = 0u64;
    emits(cg, from, targets, |_, emitted| all |= emitted);
    all & cg.filter[color.index()][from.index() & 63]
}

/// Every destination of a piece of `color` on `from`, filters applied.
#[inline]
pub(crate) fn destinations(cg: &CompiledGenome, from: Square, color: Color, board: &Board) -> u64 {
    destinations_for(cg, from, color, &targets(board, color))
}

/// Calls `f` for every legal move of the piece of `color` on `from`, block by block (within a
/// block in square order rather than emission order: cheaper, and enough where order is moot).
#[inline]
pub(crate) fn for_each_move(
    cg: &CompiledGenome,
    from: Square,
    color: Color,
    board: &Board,
    mut f: impl FnMut(Square, Effect),
) {
    let targets = targets(board, color);
    let opp = targets.opp;
    let empty = !(targets.own | opp);
    let filter = cg.filter[color.index()][from.index() & 63];
    let mut taken = 0u64;
    emits(cg, from, &targets, |block, emitted| {
        let mut bits = emitted & !taken & filter;
        taken |= emitted;
        let rule = &cg.rules[block as usize];
        while bits != 0 {
            let index = bits.trailing_zeros();
            bits &= bits - 1;
            // TargetKind's order: own 0, opponent 1, empty 2.
            let kind = ((opp >> index) & 1) | (((empty >> index) & 1) << 1);
            if let Some(effect) = rule.effects[kind as usize] {
                f(Square::from_index_unchecked(index as u8), effect);
            }
        }
    });
}

/// The legal moves of the piece of `color` on `from`, in the reference's order: candidates as
/// emitted, the first per destination kept, then the filters.
pub(crate) fn ordered_moves(
    cg: &CompiledGenome,
    from: Square,
    color: Color,
    board: &Board,
) -> Vec<LegalMove> {
    let filter = cg.filter[color.index()][from.index()];
    let mut taken = 0u64;
    let mut moves = Vec::new();
    for walk in cg.walks_from(from) {
        let rule = &cg.rules[walk.block as usize];
        for &s in cg.path_of(walk) {
            let to = Square::from_index_unchecked(s);
            let kind = board.target_kind(to, color);
            match rule.effects[kind as usize] {
                Some(effect) if taken & to.bit() == 0 => {
                    taken |= to.bit();
                    if filter & to.bit() != 0 {
                        moves.push(LegalMove { from, to, effect });
                    }
                }
                _ => {}
            }
            if kind != TargetKind::Empty {
                break;
            }
        }
    }
    moves
}

/// How many moves `color` has (pieces on every square of that side).
#[inline]
pub(crate) fn count_side(table: &GenomeTable, board: &Board, color: Color) -> u64 {
    let targets = targets(board, color);
    let mut total = 0u64;
    for from in board.side(color) {
        let cg = table.compiled(board.genome_at(from));
        total += u64::from(destinations_for(cg, from, color, &targets).count_ones());
    }
    total
}

/// Whether `color` has at least one move.
pub(crate) fn has_move(table: &GenomeTable, board: &Board, color: Color) -> bool {
    board.side(color).iter().any(|from| {
        let cg = table.compiled(board.genome_at(from));
        destinations(cg, from, color, board) != 0
    })
}

/// Calls `f(from, to, effect)` for every move of `color`'s pieces on `board`, whose genome ids
/// name entries of `table`: for searches outside this crate that copy-make boards. Pieces whose
/// genome is not in `table` have no moves.
pub fn for_each_move_on(
    table: &GenomeTable,
    board: &Board,
    color: Color,
    mut f: impl FnMut(Square, Square, Effect),
) {
    for from in board.side(color) {
        if let Some(cg) = table.get(board.genome_at(from)) {
            for_each_move(cg, from, color, board, |to, effect| f(from, to, effect));
        }
    }
}

/// The destinations of whatever piece stands on `from` (empty if none): for evaluations outside
/// this crate (mobility, attacked squares).
pub fn destinations_on(table: &GenomeTable, board: &Board, from: Square) -> u64 {
    match (board.piece_at(from), table.get(board.genome_at(from))) {
        (Some(piece), Some(cg)) if board.size().contains(from) => {
            destinations(cg, from, piece.color, board)
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use crate::compile::{Party, TargetKind};
    use crate::piece::Piece;
    use crate::position::Position;
    use crate::square::{BoardSize, Color, Square};
    use gmo_genome::{Content, Genome};

    /// A rook-like walk with wrap: one marking step of 1 and three still steps, so every lap goes
    /// one square in the start direction.
    const WRAP_ROOK: &str = "AHH HSH HSH CHA CHA CHA HHA SAS AAA AAA AAA";

    fn sq(name: &str) -> Square {
        name.parse().expect("square name")
    }

    fn setup(dna: &str, color: Color, at: &str, others: &[(&str, Color)]) -> Position {
        setup_sized(BoardSize::STANDARD, dna, color, at, others)
    }

    fn setup_sized(
        size: BoardSize,
        dna: &str,
        color: Color,
        at: &str,
        others: &[(&str, Color)],
    ) -> Position {
        let mut position = Position::new(size);
        let id = position
            .intern(&Genome::parse(dna).expect("test DNA"))
            .expect("room");
        let blank = position.intern(&Genome::default()).expect("room");
        position
            .put(sq(at), Piece::new(id, color))
            .expect("on board");
        for (name, side) in others {
            position
                .put(sq(name), Piece::new(blank, *side))
                .expect("on board");
        }
        position
    }

    fn destinations(position: &Position, at: &str) -> Vec<String> {
        position
            .moves_from(sq(at))
            .iter()
            .map(|m| m.to.to_string())
            .collect()
    }

    fn names(list: &str) -> Vec<String> {
        list.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_left_and_right_edges_are_joined() {
        let position = setup(WRAP_ROOK, Color::White, "a1", &[]);
        assert_eq!(
            destinations(&position, "a1"),
            names("a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1 a1")
        );
        assert_eq!(position.count_moves(Color::White), 15);
        // The walk west wraps at once and meets an own piece on c1 from the other side.
        let position = setup(WRAP_ROOK, Color::White, "a1", &[("c1", Color::White)]);
        assert_eq!(
            destinations(&position, "a1"),
            names("a2 a3 a4 a5 a6 a7 a8 b1 c1 h1 g1 f1 e1 d1")
        );
    }

    #[test]
    fn no_wrap_stops_at_the_edge() {
        let rook = gmo_genome::standard::ROOK;
        let position = setup(rook, Color::White, "a1", &[]);
        assert_eq!(
            destinations(&position, "a1"),
            names("a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1")
        );
        let small = BoardSize::new(5, 4).expect("5×4");
        let position = setup_sized(small, WRAP_ROOK, Color::Black, "e2", &[]);
        assert_eq!(
            destinations(&position, "e2"),
            names("e3 e4 a2 b2 c2 d2 e2 e1")
        );
    }

    #[test]
    fn one_lap_stops_after_one_pass() {
        let dna = "AHH HSH HAC CHA CHA CHA HHA SAS AAA AAA AAA";
        let position = setup(dna, Color::White, "d4", &[]);
        assert_eq!(destinations(&position, "d4"), names("d5 e4 d3 c4"));
    }

    #[test]
    fn occupied_marks_stop_the_walk_and_obey_the_outcome() {
        // Captures only (own HHH, opponent CHA, empty CHA).
        let dna = "AHH HSH HAA HHH CHA CHA HHA SAS AAA AAA AAA";
        let others = [("d6", Color::Black), ("f4", Color::White)];
        let position = setup(dna, Color::White, "d4", &others);
        assert_eq!(
            destinations(&position, "d4"),
            names("d5 d6 e4 d3 d2 d1 c4 b4 a4")
        );
    }

    #[test]
    fn plain_steps_pass_over_pieces() {
        // A plain step of 2 north, then a marking step of 1 east (a knight-like hop).
        let dna = "AHH HSH HAA CHA CHA CHA HHA CAC SAS";
        let others = [("d5", Color::Black), ("d6", Color::Black)];
        let position = setup(dna, Color::White, "d4", &others);
        let moves = destinations(&position, "d4");
        assert!(moves.contains(&"e6".to_string()), "{moves:?}");
    }

    #[test]
    fn the_first_block_decides_the_outcome() {
        // Block 1 allows only empty squares and leaves a copy behind; block 2 allows everything.
        let dna = "AHH HSH HSH HHH HHH AHA HHA SAS AAA AAA AAA \
                   AHH HSH HAA CHA CHA CHA HHA SAS AAA AAA AAA";
        let position = setup(dna, Color::White, "d4", &[("d6", Color::Black)]);
        let moves = position.moves_from(sq("d4"));
        let d5 = moves.iter().find(|m| m.to == sq("d5")).expect("d5");
        assert_eq!(d5.effect.from.what, Content::Mover);
        assert_eq!(d5.effect.from.owner, Party::Opponent);
        let d6 = moves.iter().find(|m| m.to == sq("d6")).expect("d6");
        assert_eq!(d6.effect.from.what, Content::Nothing);
        assert_eq!(d6.effect.to.owner, Party::Mover);
        assert_eq!(
            position.board().target_kind(sq("d6"), Color::White),
            TargetKind::Opponent
        );
    }

    #[test]
    fn forward_only_depends_on_the_side() {
        let dna = "AHH HAS HSH CHA CHA CHA HHA SAS AAA AAA AAA";
        let position = setup(dna, Color::White, "d4", &[]);
        assert_eq!(destinations(&position, "d4"), names("d5 d6 d7 d8"));
        let position = setup(dna, Color::Black, "d4", &[]);
        assert_eq!(destinations(&position, "d4"), names("d3 d2 d1"));
    }

    #[test]
    fn shade_filters() {
        let same = "AHH HCS HSH CHA CHA CHA HHA SAS AAA AAA AAA";
        let position = setup(same, Color::White, "d4", &[]);
        assert_eq!(destinations(&position, "d4"), names("d6 d8 f4 h4 b4 d4 d2"));
        let other = "AHH HCA HSH CHA CHA CHA HHA SAS AAA AAA AAA";
        let position = setup(other, Color::White, "d4", &[]);
        assert_eq!(
            destinations(&position, "d4"),
            names("d5 d7 e4 g4 a4 c4 d3 d1")
        );
        let both = "AHH HCA HCS CHA CHA CHA HHA SAS AAA AAA AAA";
        let position = setup(both, Color::White, "d4", &[]);
        assert!(destinations(&position, "d4").is_empty());
    }

    #[test]
    fn adjacent_only_is_measured_without_wrap() {
        let dna = "AHH HSS HSH CHA CHA CHA HHA SAS AAA AAA AAA";
        let position = setup(dna, Color::White, "a1", &[]);
        assert_eq!(destinations(&position, "a1"), names("a2 b1 a1"));
        assert_eq!(position.count_moves(Color::White), 3);
    }

    #[test]
    fn the_empty_genome_has_no_moves() {
        let position = setup("", Color::White, "d4", &[]);
        assert!(destinations(&position, "d4").is_empty());
    }
}
