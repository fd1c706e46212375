//! Zobrist keys. A piece's key is a fixed pseudo-random function of (square, genome id, owner,
//! pawn flag, king flag); genome ids are too many for a table, so the key is a hash (SplitMix64)
//! of those fields packed together, which is as good as a random table and needs no setup.
//! A position's key XORs its pieces' keys with the turn counter's parity and the due promotion
//! (which decide the side to move).

use crate::node::Node;
use gmo_engine::{Board, Piece, Position, Square};

const PARITY: u64 = 0x9E6C_63D0_676A_9A99;
const DUE: u64 = 0xD6E8_FEB8_6659_FD93;

/// SplitMix64's finaliser: a bijective mix in which every input bit changes half the output.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[inline]
pub(crate) fn piece_key(square: Square, piece: Piece) -> u64 {
    let packed = square.index() as u64
        | (piece.genome.index() as u64) << 6
        | (piece.color.index() as u64) << 22
        | u64::from(piece.pawn) << 23
        | u64::from(piece.king) << 24;
    mix(packed)
}

/// The key of what stands on `square` (0 when empty).
#[inline]
pub(crate) fn square_key(board: &Board, square: Square) -> u64 {
    board.piece_at(square).map_or(0, |p| piece_key(square, p))
}

/// The pieces' part of a key, from scratch.
pub(crate) fn board_key(board: &Board) -> u64 {
    board.pieces().fold(0, |k, (sq, p)| k ^ piece_key(sq, p))
}

/// The pieces' key of `after`, a child of `before` that differs at most on `from` and `to`.
#[inline]
pub(crate) fn update(key: u64, before: &Board, after: &Board, from: Square, to: Square) -> u64 {
    let mut key = key ^ square_key(before, from) ^ square_key(after, from);
    if to != from {
        key ^= square_key(before, to) ^ square_key(after, to);
    }
    key
}

/// The full key from the pieces' part: adds who is to move and which promotion is due.
#[inline]
pub(crate) fn node_key(pieces: u64, node: &Node) -> u64 {
    let parity = if node.moves_played % 2 == 1 {
        PARITY
    } else {
        0
    };
    let due = node.due().map_or(0, |sq| mix(DUE ^ sq.index() as u64));
    pieces ^ parity ^ due
}

/// The Zobrist key of a position, as the search computes it.
pub fn position_key(position: &Position) -> u64 {
    let node = Node {
        board: *position.board(),
        moves_played: position.moves_played(),
    };
    node_key(board_key(&node.board), &node)
}
