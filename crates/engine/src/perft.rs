//! perft (rules §6, tests/vectors/README.md): how many ply sequences of a given length start at a position.
//!
//! A ply is a legal move of the side to move or, while a promotion is due, the promotion of the
//! due pawn to one of the five standard pieces. A position where a side has just lost a king has
//! no plies. Clocks, freezes and the random debuffs play no part: the moves are made as listed.

use crate::board::Board;
use crate::movegen::{count_side, for_each_move};
use crate::piece::{GenomeId, Piece};
use crate::position::{Position, standard_genome};
use crate::square::Color;
use crate::table::GenomeTable;

/// The genomes a pawn may be promoted to in perft.
pub const PROMOTION_GENOMES: [&str; 5] = ["rook", "knight", "bishop", "queen", "king"];

struct Search<'a> {
    table: &'a GenomeTable,
    promotions: [GenomeId; 5],
}

/// The number of ply sequences of exactly `depth` plies from `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if position.ended().is_some() {
        return 0;
    }
    let mut position = position.clone();
    let mut promotions = [GenomeId::default(); 5];
    for (slot, name) in promotions.iter_mut().zip(PROMOTION_GENOMES) {
        match position.intern(&standard_genome(name)) {
            Ok(id) => *slot = id,
            // A table with no room for the standard pieces cannot promote; count what it can.
            Err(_) => return perft_without_promotions(&position, depth),
        }
    }
    let search = Search {
        table: position.table_arc(),
        promotions,
    };
    search.count(position.board(), position.moves_played(), depth)
}

/// Only reachable with 65,536 distinct genomes on one board: count promotions as leaves.
fn perft_without_promotions(position: &Position, depth: u32) -> u64 {
    let search = Search {
        table: position.table_arc(),
        promotions: [GenomeId::default(); 5],
    };
    if position.due_promotion().is_some() {
        return 0;
    }
    search.count(position.board(), position.moves_played(), depth)
}

impl Search<'_> {
    /// `depth ≥ 1`, and the position has not ended.
    fn count(&self, board: &Board, moves_played: u32, depth: u32) -> u64 {
        if let Some(due) = board.due_promotion() {
            if depth == 1 {
                return self.promotions.len() as u64;
            }
            let Some(pawn) = board.piece_at(due) else {
                return 0;
            };
            return self
                .promotions
                .iter()
                .map(|&genome| {
                    let mut child = *board;
                    child.set(
                        due,
                        Piece {
                            genome,
                            pawn: false,
                            ..pawn
                        },
                    );
                    self.count(&child, moves_played, depth - 1)
                })
                .sum();
        }
        let side = if moves_played % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if depth == 1 {
            return count_side(self.table, board, side);
        }
        let kings = Color::BOTH.map(|c| board.king_count(c));
        let mut total = 0;
        for from in board.side(side) {
            let Some(mover) = board.piece_at(from) else {
                continue;
            };
            let cg = self.table.compiled(mover.genome);
            for_each_move(cg, from, side, board, |to, effect| {
                let mut child = *board;
                child.apply(from, to, effect, mover);
                let lost = Color::BOTH
                    .iter()
                    .any(|&c| child.king_count(c) < kings[c.index()]);
                if !lost {
                    total += self.count(&child, moves_played + 1, depth - 1);
                }
            });
        }
        total
    }
}

/// perft with the count split by first ply, for debugging against another implementation.
pub fn divide(position: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 || position.ended().is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(due) = position.due_promotion() {
        for name in PROMOTION_GENOMES {
            let mut child = position.clone();
            if child.promote(&standard_genome(name)).is_ok() {
                out.push((format!("{due}={name}"), perft(&child, depth - 1)));
            }
        }
        return out;
    }
    for mv in position.legal_moves() {
        let mut child = position.clone();
        let drawn = crate::position::Drawn {
            landed: mv.to,
            mutation: None,
        };
        let made = child.make(
            crate::position::Mode::Lab,
            mv.from,
            mv.to,
            crate::position::Draws::Recorded(&drawn),
        );
        if let Ok(ply) = made {
            let nodes = if ply.ended.is_some() {
                u64::from(depth == 1)
            } else {
                perft(&child, depth - 1)
            };
            out.push((format!("{}{}", mv.from, mv.to), nodes));
        }
    }
    out
}
