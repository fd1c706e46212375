//! The ids the service hands out: 128 random bits as 32 lower-case hex digits. Each kind is its
//! own type, checked once where it enters (a request's path, a stored row), so that a game id
//! is never passed where a seek's is meant and no query ever sees a value that could not be one.

use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Deref;

/// A value refused as an id, with what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadId(String);

impl fmt::Display for BadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadId {}

/// 32 lower-case hex digits.
fn is_id(raw: &str) -> bool {
    raw.len() == 32 && raw.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// What a refused value is echoed as: at most 40 characters, escaped.
fn shown(raw: &str) -> String {
    let mut head: String = raw.chars().take(40).collect();
    if head.len() < raw.len() {
        head.push('…');
    }
    format!("{head:?}")
}

fn hex(bits: u128) -> String {
    format!("{bits:032x}")
}

macro_rules! id {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// The id, or why `raw` is none.
            pub fn parse(raw: &str) -> Result<$name, BadId> {
                if is_id(raw) {
                    Ok($name(raw.to_owned()))
                } else {
                    Err(BadId(format!(
                        concat!($what, " is 32 hex digits (0-9, a-f); got {}"),
                        shown(raw)
                    )))
                }
            }

            /// The id of 128 random bits.
            pub fn from_bits(bits: u128) -> $name {
                $name(hex(bits))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl Deref for $name {
            type Target = str;

            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::str::FromStr for $name {
            type Err = BadId;

            fn from_str(raw: &str) -> Result<$name, BadId> {
                $name::parse(raw)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                let raw = String::deserialize(deserializer)?;
                $name::parse(&raw).map_err(D::Error::custom)
            }
        }
    };
}

id!(
    /// A game's id.
    GameId,
    "a game id"
);

id!(
    /// A seek's id.
    SeekId,
    "a seek id"
);

id!(
    /// A lab's id.
    LabId,
    "a lab id"
);

id!(
    /// An account's id (its username may change case, and is freed when it is deleted).
    AccountId,
    "an account id"
);

id!(
    /// A personal token's id (not its secret).
    TokenId,
    "a token id"
);

id!(
    /// An event's id.
    EventId,
    "an event id"
);

id!(
    /// A piece library entry's id.
    EntryId,
    "a library entry id"
);

id!(
    /// A challenge's id (issue 33: one account asks another for a game).
    ChallengeId,
    "a challenge id"
);

id!(
    /// A team's id (within every event: teams of two events never share one).
    TeamId,
    "a team id"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_32_lower_case_hex_digits() {
        assert!(GameId::parse("5d41402abc4b2a76b9719d911017c592").is_ok());
        for bad in [
            "",
            "a\0b",
            "5D41402ABC4B2A76B9719D911017C592",
            "nosuch",
            &"a".repeat(33),
        ] {
            let refused = LabId::parse(bad).expect_err(bad).to_string();
            assert!(
                refused.starts_with("a lab id is 32 hex digits"),
                "{refused}"
            );
        }
    }

    #[test]
    fn random_ids_are_ids_and_read_back() {
        for bits in [0, 1, u128::MAX, 0x0123_4567_89ab_cdef] {
            let id = SeekId::from_bits(bits);
            assert_eq!(SeekId::parse(id.as_str()), Ok(id.clone()));
            let json = serde_json::to_string(&id).unwrap_or_default();
            assert_eq!(serde_json::from_str::<SeekId>(&json).ok(), Some(id));
        }
        assert!(serde_json::from_str::<GameId>("\"nosuch\"").is_err());
    }

    #[test]
    fn a_long_value_is_echoed_cut_short() {
        let refused = GameId::parse(&"z".repeat(10_000)).expect_err("too long");
        assert!(refused.to_string().len() < 120, "{refused}");
    }
}
