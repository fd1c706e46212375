//! A game's status: what the engine decides, the store keeps in its `status` column and the API
//! shows, under one set of names.

use crate::color::Color;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

// The store's `status` column holds the same names.
/// A game's status, as the API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    Setup,
    InProgress,
    WhiteWon,
    BlackWon,
    Draw,
    Aborted,
}

impl GameStatus {
    pub const ALL: [GameStatus; 6] = [
        GameStatus::Setup,
        GameStatus::InProgress,
        GameStatus::WhiteWon,
        GameStatus::BlackWon,
        GameStatus::Draw,
        GameStatus::Aborted,
    ];

    pub const fn loss_of(loser: Color) -> GameStatus {
        match loser {
            Color::White => GameStatus::BlackWon,
            Color::Black => GameStatus::WhiteWon,
        }
    }

    pub const fn is_over(self) -> bool {
        !matches!(self, GameStatus::Setup | GameStatus::InProgress)
    }

    /// The name on the wire and in the store's column.
    pub const fn name(self) -> &'static str {
        match self {
            GameStatus::Setup => "setup",
            GameStatus::InProgress => "in_progress",
            GameStatus::WhiteWon => "white_won",
            GameStatus::BlackWon => "black_won",
            GameStatus::Draw => "draw",
            GameStatus::Aborted => "aborted",
        }
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is none of a set's names (a stored column that holds one is corrupt).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    /// What was looked for: "a game status", "an evaluation state", …
    pub what: &'static str,
    pub name: String,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {:?}", self.what, self.name)
    }
}

impl std::error::Error for UnknownName {}

impl FromStr for GameStatus {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<GameStatus, UnknownName> {
        GameStatus::ALL
            .into_iter()
            .find(|status| status.name() == name)
            .ok_or_else(|| UnknownName {
                what: "a game status",
                name: name.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_reads_back_and_nothing_else_does() {
        for status in GameStatus::ALL {
            assert_eq!(status.name().parse::<GameStatus>().ok(), Some(status));
            let json = serde_json::to_string(&status).unwrap_or_default();
            assert_eq!(
                json,
                format!("\"{}\"", status.name()),
                "serde and name agree"
            );
        }
        assert!("finished".parse::<GameStatus>().is_err());
        assert!("Setup".parse::<GameStatus>().is_err());
    }

    #[test]
    fn a_loss_is_the_other_side_winning() {
        assert_eq!(GameStatus::loss_of(Color::White), GameStatus::BlackWon);
        assert_eq!(GameStatus::loss_of(Color::Black), GameStatus::WhiteWon);
        assert!(GameStatus::Draw.is_over() && !GameStatus::InProgress.is_over());
    }
}
