//! The static evaluation, from the side to move's point of view. What matters in GMO chess:
//! - kings: losing any one loses the game, so a king the opponent can take or convert next move
//!   is a large penalty, and one the side to move can take is a won game ([`Assessment::wins`]);
//! - material, valued by mobility ([`crate::values`]), not by a fixed table;
//! - mobility: how many moves each side has now;
//! - king safety: enemy destinations next to each king;
//! - pawns close to promotion.

use crate::node::{Context, Node};
use gmo_engine::{
    Bitboard, Board, Color, GenomeTable, Square, destinations_on, for_each_move_on, king_rule,
};

/// Per legal move.
const MOBILITY: i32 = 3;
/// Per enemy destination on a square next to a king.
const KING_ZONE: i32 = 6;
/// The first king the opponent threatens: the side to move can often still save it.
const KING_THREAT: i32 = 250;
/// Every further threatened king: one move rarely saves two.
const MORE_KINGS_THREAT: i32 = 900;
/// A pawn one step from promotion is worth about this much extra (quadratic in progress).
const PROMOTION_GAIN: i32 = 150;
/// Having the move is worth a little.
const TEMPO: i32 = 10;

/// A static judgement of a node.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Assessment {
    /// Centi-pawn-like units for the side to move.
    pub score: i32,
    /// The side to move can take or convert an enemy king now without losing one of its own.
    pub wins: bool,
    /// The side to move has no ply: it loses.
    pub stuck: bool,
}

/// Per side: what its pieces reach and are worth.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    moves: i32,
    attacks: u64,
    material: i32,
    pawns: i32,
}

pub(crate) fn assess(ctx: &Context, node: &Node) -> Assessment {
    let board = &node.board;
    let table = ctx.table();
    let stm = node.side();
    let tallies = Color::BOTH.map(|c| tally(ctx, board, c));
    let [us, them] = [stm, stm.opponent()].map(|c| tallies[c.index()]);
    let kings = |c: Color| board.kings().0 & board.side(c).0;
    let promotion_due = node.due().is_some();
    let wins = !promotion_due
        && us.attacks & kings(stm.opponent()) != 0
        && kings_taken(table, board, stm) > 0;
    let threatened = if them.attacks & kings(stm) != 0 {
        kings_taken(table, board, stm.opponent())
    } else {
        0
    };
    let threat = match threatened {
        0 => 0,
        n => KING_THREAT + MORE_KINGS_THREAT * (n as i32 - 1),
    };
    let zone = |side: Color, enemy: &Tally| -> i32 {
        let exposed: u32 = Bitboard(kings(side))
            .iter()
            .map(|k| (ring(board, k) & enemy.attacks).count_ones())
            .sum();
        exposed as i32 * KING_ZONE
    };
    let side_score = |t: &Tally| t.material + t.pawns + MOBILITY * t.moves;
    let score = side_score(&us) - side_score(&them) - zone(stm, &them) + zone(stm.opponent(), &us)
        - threat
        + TEMPO;
    let stuck = !promotion_due && us.moves == 0;
    Assessment { score, wins, stuck }
}

fn tally(ctx: &Context, board: &Board, color: Color) -> Tally {
    let table = ctx.table();
    let mut t = Tally::default();
    let size = board.size();
    let span = i32::from(size.height()) - 2;
    for sq in board.side(color) {
        let dest = destinations_on(table, board, sq);
        t.moves += dest.count_ones() as i32;
        t.attacks |= dest;
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        t.material += ctx.values.of(piece.genome, color);
        if piece.pawn && span > 0 {
            let y = i32::from(sq.y());
            let progress = match color {
                Color::White => y - 1,
                Color::Black => i32::from(size.height()) - 2 - y,
            }
            .clamp(0, span);
            t.pawns += PROMOTION_GAIN * progress * progress / (span * span);
        }
    }
    t
}

/// How many distinct enemy kings `side` could take or convert with one move that costs it none
/// of its own (whether or not it is `side`'s turn).
pub(crate) fn kings_taken(table: &GenomeTable, board: &Board, side: Color) -> u32 {
    let targets = board.kings().0 & board.side(side.opponent()).0;
    let before = Color::BOTH.map(|c| board.king_count(c));
    let mut taken = 0u64;
    for_each_move_on(table, board, side, |from, to, effect| {
        if targets & to.bit() == 0 || taken & to.bit() != 0 {
            return;
        }
        let Some(mover) = board.piece_at(from) else {
            return;
        };
        let mut after = *board;
        after.apply(from, to, effect, mover);
        let counts = Color::BOTH.map(|c| after.king_count(c));
        let lost = king_rule(before, counts).map(|(result, _)| result);
        if lost == Some(gmo_engine::GameResult::loss_of(side.opponent())) {
            taken |= to.bit();
        }
    });
    taken.count_ones()
}

/// The squares next to `square` (no wrap), on the board.
fn ring(board: &Board, square: Square) -> u64 {
    let size = board.size();
    let (x, y) = (i32::from(square.x()), i32::from(square.y()));
    let mut mask = 0u64;
    for dy in -1..=1 {
        for dx in -1..=1 {
            if let Some(s) = size.square_i(x + dx, y + dy).filter(|&s| s != square) {
                mask |= s.bit();
            }
        }
    }
    mask
}
