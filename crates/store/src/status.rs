//! A game's status as the `games.status` column holds it. The store does not know the rules: the
//! server maps the engine's status onto this one, and the column only ever holds these names.

use crate::StoreError;
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    Setup,
    InProgress,
    WhiteWon,
    BlackWon,
    Draw,
    Aborted,
}

impl Status {
    pub const ALL: [Status; 6] = [
        Status::Setup,
        Status::InProgress,
        Status::WhiteWon,
        Status::BlackWon,
        Status::Draw,
        Status::Aborted,
    ];

    /// The name stored in the column (the API's name too).
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Setup => "setup",
            Status::InProgress => "in_progress",
            Status::WhiteWon => "white_won",
            Status::BlackWon => "black_won",
            Status::Draw => "draw",
            Status::Aborted => "aborted",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A stored name that is none of these is a corrupt row.
impl FromStr for Status {
    type Err = StoreError;

    fn from_str(name: &str) -> Result<Status, StoreError> {
        Status::ALL
            .into_iter()
            .find(|status| status.as_str() == name)
            .ok_or_else(|| StoreError::Corrupt(format!("a game status of {name:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::Status;

    #[test]
    fn every_status_reads_back_and_nothing_else_does() {
        for status in Status::ALL {
            assert_eq!(status.as_str().parse::<Status>().ok(), Some(status));
        }
        assert!("finished".parse::<Status>().is_err());
        assert!("Setup".parse::<Status>().is_err());
    }
}
