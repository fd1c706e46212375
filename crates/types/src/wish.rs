//! The colour a seeker wishes to play.

use crate::color::Color;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// The colour a seeker wishes to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ColorWish {
    White,
    Black,
    Random,
}

impl ColorWish {
    pub const ALL: [ColorWish; 3] = [ColorWish::White, ColorWish::Black, ColorWish::Random];

    pub const fn name(self) -> &'static str {
        match self {
            ColorWish::White => "white",
            ColorWish::Black => "black",
            ColorWish::Random => "random",
        }
    }

    /// The seat a seeker wishing `self` gets when paired with one wishing `other`; `coin`
    /// decides between two who both wish for either. (Two wishes for one colour never pair.)
    pub const fn seat_against(self, other: ColorWish, coin: bool) -> Color {
        match (self, other) {
            (ColorWish::White, _) | (ColorWish::Random, ColorWish::Black) => Color::White,
            (ColorWish::Black, _) | (ColorWish::Random, ColorWish::White) => Color::Black,
            (ColorWish::Random, ColorWish::Random) if coin => Color::White,
            (ColorWish::Random, ColorWish::Random) => Color::Black,
        }
    }
}

impl FromStr for ColorWish {
    type Err = crate::UnknownName;

    fn from_str(name: &str) -> Result<ColorWish, crate::UnknownName> {
        ColorWish::ALL
            .into_iter()
            .find(|wish| wish.name() == name)
            .ok_or_else(|| crate::UnknownName {
                what: "a colour wish",
                name: name.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wishes_read_back_and_seat_as_wished() {
        for wish in ColorWish::ALL {
            assert_eq!(wish.name().parse::<ColorWish>().ok(), Some(wish));
        }
        assert!("any".parse::<ColorWish>().is_err());
        assert_eq!(
            ColorWish::White.seat_against(ColorWish::Random, false),
            Color::White
        );
        assert_eq!(
            ColorWish::Random.seat_against(ColorWish::White, true),
            Color::Black
        );
        let coin = |coin| ColorWish::Random.seat_against(ColorWish::Random, coin);
        assert_ne!(coin(true), coin(false));
    }
}
