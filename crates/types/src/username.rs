//! Usernames: 3 to 20 of `A–Z a–z 0–9 _ -`, kept in the case they were given, unique without
//! regard to case (their [`Username::key`]).

use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The fewest and most characters of a username.
pub const USERNAME_LENGTH: std::ops::RangeInclusive<usize> = 3..=20;

/// An account's name, checked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Username(String);

impl Username {
    /// The name, or why `raw` is none (what is allowed, and what was given, cut short).
    pub fn parse(raw: &str) -> Result<Username, String> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        let length = raw.chars().count();
        if USERNAME_LENGTH.contains(&length) && raw.chars().all(allowed) {
            return Ok(Username(raw.to_owned()));
        }
        let shown: String = raw.chars().take(24).collect();
        Err(format!(
            "a username is {} to {} of A-Z, a-z, 0-9, _ and -; got {shown:?}{}",
            USERNAME_LENGTH.start(),
            USERNAME_LENGTH.end(),
            if length > 24 { "…" } else { "" }
        ))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What makes it unique: its lower case.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Username {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Username, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Username::parse(&raw).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_short_plain_and_unique_without_case() {
        let name = Username::parse("Magnus_C-1").expect("a username");
        assert_eq!(name.as_str(), "Magnus_C-1", "the case is kept");
        assert_eq!(name.key(), "magnus_c-1");
        for bad in ["ab", "a b", "x\0yz", "émile", "ab.cd", &"a".repeat(21), ""] {
            let refused = Username::parse(bad).expect_err(bad);
            assert!(refused.starts_with("a username is 3 to 20"), "{refused}");
        }
        assert!(Username::parse(&"a".repeat(20)).is_ok());
        let long = Username::parse(&"z".repeat(5_000)).expect_err("too long");
        assert!(long.len() < 120, "{long}");
    }
}
