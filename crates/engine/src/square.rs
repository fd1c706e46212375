//! Squares, sides and board sizes (rules §1).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A square. Stored as `y * 8 + x` whatever the board's width, so that every board fits the same
/// 64-bit layout and square order (`y` ascending, then `x`) is plain index order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The row stride of the layout; the widest board has 8 files.
    pub const STRIDE: u8 = 8;

    /// The square `(x, y)`, if both are below 8.
    pub const fn new(x: u8, y: u8) -> Option<Square> {
        if x < Self::STRIDE && y < Self::STRIDE {
            Some(Square(y * Self::STRIDE + x))
        } else {
            None
        }
    }

    /// The square with this layout index (0..64).
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        Square(index & 63)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file: 0 = a.
    pub const fn x(self) -> u8 {
        self.0 % Self::STRIDE
    }

    /// The rank: 0 = rank 1.
    pub const fn y(self) -> u8 {
        self.0 / Self::STRIDE
    }

    /// `(x + y) mod 2`.
    pub const fn shade(self) -> u8 {
        (self.x() + self.y()) % 2
    }

    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl Square {
    /// The algebraic name's two bytes (files a–h, ranks 1–8): ASCII, so always a `str`.
    fn name(self) -> [u8; 2] {
        [b'a' + self.x(), b'1' + self.y()]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        f.write_str(std::str::from_utf8(&name).map_err(|_| fmt::Error)?)
    }
}

/// Squares travel as their algebraic names (`"e2"`), as the API spells them.
impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Written whole rather than through `Display`, which serde_json would buffer.
        let name = self.name();
        let name = std::str::from_utf8(&name).map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(name)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a square name was not understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSquare(pub String);

impl fmt::Display for BadSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a square name (a1 … h8)", self.0)
    }
}

impl std::error::Error for BadSquare {}

impl FromStr for Square {
    type Err = BadSquare;

    fn from_str(name: &str) -> Result<Square, BadSquare> {
        let bad = || BadSquare(name.to_string());
        let bytes = name.as_bytes();
        let [file, rank] = bytes else {
            return Err(bad());
        };
        let x = file.to_ascii_lowercase().wrapping_sub(b'a');
        let y = rank.wrapping_sub(b'1');
        Square::new(x, y).ok_or_else(bad)
    }
}

pub use gmo_types::{ByColor, Color};

/// A board size: 4 to 8 files and 4 to 8 ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardSize {
    width: u8,
    height: u8,
}

impl BoardSize {
    pub const MIN: u8 = 4;
    pub const MAX: u8 = 8;
    pub const STANDARD: BoardSize = BoardSize {
        width: 8,
        height: 8,
    };

    pub fn new(width: u8, height: u8) -> Result<BoardSize, BadSize> {
        let ok = |n: u8| (Self::MIN..=Self::MAX).contains(&n);
        if ok(width) && ok(height) {
            Ok(BoardSize { width, height })
        } else {
            Err(BadSize { width, height })
        }
    }

    pub const fn width(self) -> u8 {
        self.width
    }

    pub const fn height(self) -> u8 {
        self.height
    }

    /// The square `(x, y)` if it is on this board.
    pub const fn square(self, x: u8, y: u8) -> Option<Square> {
        if x < self.width && y < self.height {
            Square::new(x, y)
        } else {
            None
        }
    }

    /// The square at signed coordinates, if on the board (no wrap).
    pub fn square_i(self, x: i32, y: i32) -> Option<Square> {
        let x = u8::try_from(x).ok()?;
        let y = u8::try_from(y).ok()?;
        self.square(x, y)
    }

    pub const fn contains(self, square: Square) -> bool {
        square.x() < self.width && square.y() < self.height
    }

    /// Every square of the board in square order.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.height).flat_map(move |y| (0..self.width).filter_map(move |x| Square::new(x, y)))
    }

    /// The mask of every square of the board.
    pub fn mask(self) -> u64 {
        self.squares().fold(0, |m, s| m | s.bit())
    }

    /// The side's back rank.
    pub const fn back_rank(self, color: Color) -> u8 {
        match color {
            Color::White => 0,
            Color::Black => self.height - 1,
        }
    }

    /// The rank where the side's pawns start.
    pub const fn pawn_rank(self, color: Color) -> u8 {
        match color {
            Color::White => 1,
            Color::Black => self.height - 2,
        }
    }

    /// The rank where the side's pawns must promote.
    pub const fn last_rank(self, color: Color) -> u8 {
        self.back_rank(color.opponent())
    }

    /// The mask of one rank.
    pub fn rank_mask(self, y: u8) -> u64 {
        (0..self.width)
            .filter_map(|x| Square::new(x, y))
            .fold(0, |m, s| m | s.bit())
    }
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::STANDARD
    }
}

/// A board size outside 4×4 … 8×8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadSize {
    pub width: u8,
    pub height: u8,
}

impl fmt::Display for BadSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {}×{} board is not allowed: width and height must be 4 to 8",
            self.width, self.height
        )
    }
}

impl std::error::Error for BadSize {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algebraic_names_round_trip() {
        for y in 0..8 {
            for x in 0..8 {
                let sq = Square::new(x, y).expect("on the layout");
                let name = sq.to_string();
                assert_eq!(name.parse::<Square>(), Ok(sq));
                assert_eq!((sq.x(), sq.y()), (x, y));
            }
        }
        assert_eq!("a1".parse::<Square>().map(Square::index), Ok(0));
        assert_eq!("h8".parse::<Square>().map(Square::index), Ok(63));
        assert_eq!("d2".parse::<Square>().map(|s| (s.x(), s.y())), Ok((3, 1)));
        for bad in ["", "a", "i1", "a9", "a0", "a10", "11"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn square_order_is_rank_then_file() {
        let b2 = Square::new(1, 1).expect("b2");
        let h1 = Square::new(7, 0).expect("h1");
        assert!(h1 < b2);
    }

    #[test]
    fn sizes_are_checked() {
        assert!(BoardSize::new(3, 8).is_err());
        assert!(BoardSize::new(8, 9).is_err());
        let five = BoardSize::new(5, 5).expect("5×5 is allowed");
        assert_eq!(five.squares().count(), 25);
        assert_eq!(five.mask().count_ones(), 25);
        assert!(five.square(5, 0).is_none());
        assert_eq!(five.last_rank(Color::White), 4);
        assert_eq!(five.pawn_rank(Color::Black), 3);
    }

    #[test]
    fn shade() {
        assert_eq!(Square::new(0, 0).map(Square::shade), Some(0));
        assert_eq!(Square::new(1, 0).map(Square::shade), Some(1));
    }
}
