//! The squares and what stands on them, as bitboards plus a genome per square.

use crate::bitboard::Bitboard;
use crate::compile::{Effect, Leave, TargetKind};
use crate::piece::{GenomeId, Piece};
use crate::square::{BoardSize, Color, Square};
use gmo_genome::Content;

/// A board: plain data, cheap to copy, so that search can copy-make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    size: BoardSize,
    colors: [u64; 2],
    pawns: u64,
    kings: u64,
    /// Meaningful only on occupied squares.
    genomes: [GenomeId; 64],
}

impl Board {
    pub fn empty(size: BoardSize) -> Board {
        Board {
            size,
            colors: [0; 2],
            pawns: 0,
            kings: 0,
            genomes: [GenomeId::default(); 64],
        }
    }

    pub const fn size(&self) -> BoardSize {
        self.size
    }

    #[inline]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let bit = square.bit();
        let color = if self.colors[0] & bit != 0 {
            Color::White
        } else if self.colors[1] & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        Some(Piece {
            genome: self.genomes[square.index()],
            color,
            pawn: self.pawns & bit != 0,
            king: self.kings & bit != 0,
        })
    }

    /// Puts a piece on a square of the board, replacing what stood there. Squares off the board
    /// are refused.
    pub fn put(&mut self, square: Square, piece: Piece) -> bool {
        if !self.size.contains(square) {
            return false;
        }
        self.set(square, piece);
        true
    }

    #[inline]
    pub(crate) fn set(&mut self, square: Square, piece: Piece) {
        let bit = square.bit();
        self.colors[piece.color.index()] |= bit;
        self.colors[piece.color.opponent().index()] &= !bit;
        self.pawns = (self.pawns & !bit) | if piece.pawn { bit } else { 0 };
        self.kings = (self.kings & !bit) | if piece.king { bit } else { 0 };
        self.genomes[square.index()] = piece.genome;
    }

    #[inline]
    pub fn clear(&mut self, square: Square) {
        let keep = !square.bit();
        self.colors[0] &= keep;
        self.colors[1] &= keep;
        self.pawns &= keep;
        self.kings &= keep;
    }

    pub const fn side(&self, color: Color) -> Bitboard {
        Bitboard(self.colors[color.index()])
    }

    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.colors[0] | self.colors[1])
    }

    pub const fn pawns(&self) -> Bitboard {
        Bitboard(self.pawns)
    }

    pub const fn kings(&self) -> Bitboard {
        Bitboard(self.kings)
    }

    #[inline]
    pub(crate) fn side_bits(&self, color: Color) -> u64 {
        self.colors[color.index()]
    }

    #[inline]
    pub(crate) fn genome_at(&self, square: Square) -> GenomeId {
        self.genomes[square.index()]
    }

    /// The number of kings of a side.
    #[inline]
    pub fn king_count(&self, color: Color) -> u32 {
        (self.kings & self.colors[color.index()]).count_ones()
    }

    /// Every occupied square with its piece, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .iter()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// What `square` holds as a piece of `mover` sees it.
    #[inline]
    pub fn target_kind(&self, square: Square, mover: Color) -> TargetKind {
        let bit = square.bit();
        if self.colors[mover.index()] & bit != 0 {
            TargetKind::Own
        } else if self.colors[mover.opponent().index()] & bit != 0 {
            TargetKind::Opponent
        } else {
            TargetKind::Empty
        }
    }

    /// Pawns standing on their owner's last rank, in square order (rules §5.3).
    #[inline]
    pub fn pending_promotions(&self) -> Bitboard {
        let width_mask = (1u64 << self.size.width()) - 1;
        let top = width_mask << (8 * u32::from(self.size.height() - 1));
        Bitboard(self.pawns & ((self.colors[0] & top) | (self.colors[1] & width_mask)))
    }

    /// The promotion that is due: the first pending one.
    #[inline]
    pub fn due_promotion(&self) -> Option<Square> {
        self.pending_promotions().first()
    }

    /// Makes a move's effect (rules §4.1 steps 2 and 3): `mover` is the moving piece (after any
    /// mutation), `to` the final destination (after any deviation).
    #[inline]
    pub fn apply(&mut self, from: Square, to: Square, effect: Effect, mover: Piece) {
        let target = self.piece_at(to);
        let side = mover.color;
        let made = |leave: Leave| -> Option<Piece> {
            let source = match leave.what {
                Content::Mover => Some(mover),
                Content::Target => target,
                Content::Nothing => None,
            }?;
            Some(Piece {
                color: leave.owner.side(side),
                ..source
            })
        };
        let on_from = made(effect.from);
        let on_to = made(effect.to);
        self.clear(from);
        self.clear(to);
        if let Some(piece) = on_from {
            self.set(from, piece);
        }
        if let Some(piece) = on_to {
            self.set(to, piece);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::Party;

    fn sq(name: &str) -> Square {
        name.parse().expect("square name")
    }

    fn leave(what: Content, owner: Party) -> Leave {
        Leave { what, owner }
    }

    #[test]
    fn promotions_in_square_order() {
        let mut board = Board::empty(BoardSize::STANDARD);
        let pawn = |color| Piece {
            pawn: true,
            ..Piece::new(GenomeId(0), color)
        };
        board.set(sq("c8"), pawn(Color::White));
        board.set(sq("f1"), pawn(Color::Black));
        board.set(sq("a8"), pawn(Color::Black));
        board.set(sq("b1"), Piece::new(GenomeId(0), Color::Black));
        let pending: Vec<Square> = board.pending_promotions().iter().collect();
        assert_eq!(pending, [sq("f1"), sq("c8")]);
        assert_eq!(board.due_promotion(), Some(sq("f1")));

        let small = BoardSize::new(5, 5).expect("5×5");
        let mut board = Board::empty(small);
        board.set(sq("c5"), pawn(Color::White));
        board.set(sq("c8"), pawn(Color::White));
        assert_eq!(board.due_promotion(), Some(sq("c5")));
    }

    #[test]
    fn same_square_move_keeps_to_after_then_from_after() {
        let mut board = Board::empty(BoardSize::STANDARD);
        let mover = Piece::new(GenomeId(1), Color::White);
        board.set(sq("d4"), mover);
        // Nothing on the to square: the from leave stays, owned by the opponent.
        let effect = Effect {
            from: leave(Content::Mover, Party::Opponent),
            to: leave(Content::Nothing, Party::Mover),
        };
        board.apply(sq("d4"), sq("d4"), effect, mover);
        assert_eq!(
            board.piece_at(sq("d4")).map(|p| p.color),
            Some(Color::Black)
        );
        // Both leaves nothing: the square empties.
        let effect = Effect {
            from: leave(Content::Nothing, Party::Mover),
            to: leave(Content::Target, Party::Mover),
        };
        board.apply(sq("e4"), sq("e4"), effect, mover);
        assert_eq!(board.piece_at(sq("e4")), None);
    }

    #[test]
    fn copies_keep_flags_and_take_the_block_owner() {
        let mut board = Board::empty(BoardSize::STANDARD);
        let mover = Piece {
            king: true,
            ..Piece::new(GenomeId(1), Color::White)
        };
        let target = Piece {
            pawn: true,
            ..Piece::new(GenomeId(2), Color::Black)
        };
        board.set(sq("a1"), mover);
        board.set(sq("a2"), target);
        let effect = Effect {
            from: leave(Content::Target, Party::Mover),
            to: leave(Content::Mover, Party::Opponent),
        };
        board.apply(sq("a1"), sq("a2"), effect, mover);
        assert_eq!(
            board.piece_at(sq("a1")),
            Some(Piece {
                color: Color::White,
                ..target
            })
        );
        assert_eq!(
            board.piece_at(sq("a2")),
            Some(Piece {
                color: Color::Black,
                ..mover
            })
        );
        assert_eq!(board.king_count(Color::Black), 1);
        assert_eq!(board.king_count(Color::White), 0);
    }
}
