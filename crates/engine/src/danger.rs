//! Kings in danger: the kings a side would lose (rules §4.1 step 5) if the other side were to move
//! now, whoever's turn it is. A view is built after every move, so this is cheap: one destination
//! mask per attacking piece (what perft counts with), and only a piece that reaches a king
//! has its moves listed and the few that land on a king made on a copy of the board.
//!
//! A king is in danger when some legal move of an opposing piece onto its square (debuff filters
//! applied, as for any move) leaves its side with fewer kings: the king is taken (nothing is
//! left there), converted (the square ends owned by the mover) or replaced by a copy of the
//! mover. Random debuffs are not foreseen: a deviating move may miss the king or hit another
//! square, and a mutation changes no flag. Freeze windows and due promotions only delay the move,
//! so they do not make a king safe.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::compile::Effect;
use crate::movegen::{destinations, for_each_move};
use crate::square::Square;
use crate::square::{ByColor, Color};
use crate::table::GenomeTable;

/// What a move `effect` from `from` to `to` by `mover` does to the mover's kings, the random
/// debuffs not foreseen (as above): whether it removes one of them itself, and whether, the game
/// going on, the other side could then take or convert one with its next move.
pub(crate) fn move_risks(
    table: &GenomeTable,
    board: &Board,
    from: Square,
    to: Square,
    effect: Effect,
) -> KingRisks {
    let Some(mover) = board.piece_at(from) else {
        return KingRisks::default();
    };
    let side = mover.color;
    let mut after = *board;
    after.apply(from, to, effect, mover);
    let lost = |color: Color| after.king_count(color) < board.king_count(color);
    let loses_own_king = lost(side);
    // A move that costs either side a king ends the game: there is no next move.
    let over = loses_own_king || lost(side.opponent());
    KingRisks {
        loses_own_king,
        exposes_king: !over && threatened_kings(table, &after, side).0 != 0,
    }
}

/// What a move risks for its own side's kings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KingRisks {
    /// The move itself removes one of the mover's kings: it loses (or draws) at once.
    pub loses_own_king: bool,
    /// After it the other side could take or convert one of the mover's kings.
    pub exposes_king: bool,
}

/// Each side's kings in danger.
pub(crate) fn kings_in_danger(table: &GenomeTable, board: &Board) -> ByColor<Bitboard> {
    ByColor::new(
        threatened_kings(table, board, Color::White),
        threatened_kings(table, board, Color::Black),
    )
}

/// The kings of `victim` that one move of the other side would cost it.
fn threatened_kings(table: &GenomeTable, board: &Board, victim: Color) -> Bitboard {
    let attacker = victim.opponent();
    let kings = (board.kings() & board.side(victim)).0;
    let before = board.king_count(victim);
    let mut danger = 0u64;
    for from in board.side(attacker) {
        if danger == kings {
            break;
        }
        let cg = table.compiled(board.genome_at(from));
        let reached = destinations(cg, from, attacker, board) & kings & !danger;
        let Some(mover) = board.piece_at(from).filter(|_| reached != 0) else {
            continue;
        };
        for_each_move(cg, from, attacker, board, |to, effect| {
            if reached & to.bit() != 0 {
                let mut after = *board;
                after.apply(from, to, effect, mover);
                if after.king_count(victim) < before {
                    danger |= to.bit();
                }
            }
        });
    }
    Bitboard(danger)
}
