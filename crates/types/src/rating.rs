//! A player's rating: Glicko-2's value, deviation and volatility (one rating per account).
//!
//! Only the words live here; how a rated game changes two ratings is the game service's
//! (`gmo_play::ratings`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A Glicko-2 rating on the usual scale (a new player is 1500): the value, how unsure it is
/// (the deviation, in rating points) and how erratic the player's results are (the volatility).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Rating {
    pub value: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating, lichess's: 1500, deviation 500, volatility 0.09.
    pub const NEW: Rating = Rating {
        value: 1500.0,
        deviation: 500.0,
        volatility: 0.09,
    };

    /// From this deviation up a rating is provisional (shown with `?`).
    pub const PROVISIONAL_DEVIATION: f64 = 110.0;

    /// Whether the rating is still provisional: its deviation is 110 or more.
    pub fn provisional(&self) -> bool {
        self.deviation >= Rating::PROVISIONAL_DEVIATION
    }

    /// The value as players see it: rounded to a whole number.
    pub fn shown(&self) -> i64 {
        self.value.round() as i64
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::NEW
    }
}

/// The rating as players read it: `1500?` while provisional, `1623` once established.
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.provisional() { "?" } else { "" };
        write!(f, "{}{mark}", self.shown())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(value: f64, deviation: f64) -> Rating {
        Rating {
            value,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn a_new_player_is_lichess_s_and_provisional() {
        assert_eq!(Rating::NEW.value, 1500.0);
        assert_eq!(Rating::NEW.deviation, 500.0);
        assert_eq!(Rating::NEW.volatility, 0.09);
        assert_eq!(Rating::default(), Rating::NEW);
        assert!(Rating::NEW.provisional());
        assert_eq!(Rating::NEW.shown(), 1500);
        assert_eq!(Rating::NEW.to_string(), "1500?");
    }

    #[test]
    fn provisional_from_a_deviation_of_110() {
        assert!(rating(1500.0, 110.0).provisional());
        assert!(rating(1500.0, 250.0).provisional());
        assert!(!rating(1500.0, 109.99).provisional());
        assert!(!rating(1500.0, 45.0).provisional());
        assert_eq!(rating(1623.2, 60.0).to_string(), "1623");
        assert_eq!(rating(1623.2, 110.0).to_string(), "1623?");
    }

    #[test]
    fn shown_is_the_value_rounded() {
        assert_eq!(rating(1499.5, 60.0).shown(), 1500);
        assert_eq!(rating(1500.49, 60.0).shown(), 1500);
        assert_eq!(rating(1500.51, 60.0).shown(), 1501);
        assert_eq!(rating(1499.49, 60.0).shown(), 1499);
        assert_eq!(rating(400.0, 60.0).shown(), 400);
    }

    #[test]
    fn serialises_as_its_three_numbers() -> Result<(), serde_json::Error> {
        let json = serde_json::to_value(Rating::NEW)?;
        assert_eq!(
            json,
            serde_json::json!({"value": 1500.0, "deviation": 500.0, "volatility": 0.09})
        );
        let back: Rating = serde_json::from_value(json)?;
        assert_eq!(back, Rating::NEW);
        Ok(())
    }
}
