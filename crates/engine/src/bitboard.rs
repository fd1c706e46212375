//! A set of squares as 64 bits in the [`Square`] layout.

use crate::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }

    pub fn insert(&mut self, square: Square) {
        self.0 |= square.bit();
    }

    pub fn remove(&mut self, square: Square) {
        self.0 &= !square.bit();
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square, i.e. the first in square order.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl From<Square> for Bitboard {
    fn from(square: Square) -> Self {
        Bitboard(square.bit())
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        Bitboard(iter.into_iter().fold(0, |m, s| m | s.bit()))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;

    fn into_iter(self) -> BitIter {
        BitIter(self.0)
    }
}

/// The squares of a bitboard in square order.
#[derive(Debug, Clone)]
pub struct BitIter(pub u64);

impl Iterator for BitIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("square name")
    }

    #[test]
    fn iterates_in_square_order() {
        let bb: Bitboard = [sq("c3"), sq("a1"), sq("h1"), sq("b2")]
            .into_iter()
            .collect();
        let order: Vec<String> = bb.iter().map(|s| s.to_string()).collect();
        assert_eq!(order, ["a1", "h1", "b2", "c3"]);
        assert_eq!(bb.len(), 4);
        assert_eq!(bb.first(), Some(sq("a1")));
    }

    #[test]
    fn insert_remove_contains() {
        let mut bb = Bitboard::EMPTY;
        bb.insert(sq("e4"));
        assert!(bb.contains(sq("e4")));
        assert!(!bb.contains(sq("e5")));
        bb.remove(sq("e4"));
        assert!(bb.is_empty());
        assert_eq!(bb.first(), None);
    }
}
