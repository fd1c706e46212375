//! Sides.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A side; `"white"` or `"black"` in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = String;

    fn from_str(name: &str) -> Result<Color, String> {
        match name {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(format!("`{other}` is not a side (white or black)")),
        }
    }
}

/// One value per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ByColor<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColor<T> {
    pub const fn new(white: T, black: T) -> Self {
        ByColor { white, black }
    }

    pub const fn get(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// Each side's value through `f`.
    pub fn map<U>(self, mut f: impl FnMut(Color, T) -> U) -> ByColor<U> {
        ByColor {
            white: f(Color::White, self.white),
            black: f(Color::Black, self.black),
        }
    }

    /// Both sides' values by reference.
    pub const fn as_ref(&self) -> ByColor<&T> {
        ByColor {
            white: &self.white,
            black: &self.black,
        }
    }

    /// The sides whose value satisfies `f`, White first.
    pub fn sides_where(&self, mut f: impl FnMut(&T) -> bool) -> impl Iterator<Item = Color> {
        let chosen = [f(&self.white), f(&self.black)];
        Color::BOTH
            .into_iter()
            .filter(move |color| chosen[color.index()])
    }
}

impl ByColor<bool> {
    /// Either side's flag, for flags that only ever turn on (the later of two readings is
    /// their union).
    #[must_use]
    pub const fn union(self, other: ByColor<bool>) -> ByColor<bool> {
        ByColor {
            white: self.white || other.white,
            black: self.black || other.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_name_themselves_and_parse_back() {
        for color in Color::BOTH {
            assert_eq!(color.name().parse::<Color>(), Ok(color));
            assert_eq!(color.opponent().opponent(), color);
            assert_ne!(color.opponent(), color);
        }
        assert!("White".parse::<Color>().is_err());
        assert_eq!(
            serde_json::to_string(&Color::Black).ok().as_deref(),
            Some("\"black\"")
        );
    }

    #[test]
    fn by_color_maps_and_picks_sides() {
        let flags = ByColor::new(true, false);
        assert_eq!(
            flags.map(|color, on| (color, on)).black,
            (Color::Black, false)
        );
        assert_eq!(
            flags.sides_where(|on| *on).collect::<Vec<_>>(),
            [Color::White]
        );
        assert_eq!(
            flags.union(ByColor::new(false, true)),
            ByColor::new(true, true)
        );
        assert_eq!(*ByColor::new(1, 2).get(Color::Black), 2);
    }
}
