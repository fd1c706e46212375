//! Genome and preset references as requests give them, checked at the edge: a value that could
//! never be stored is refused before any query (PostgreSQL refuses a NUL byte in text with an
//! error, not a miss), with a message that says which it was and what is allowed. (Ids are
//! `gmo_types`' `GameId`, `SeekId` and `LabId`, checked the same way.)

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use std::fmt;
use std::ops::Deref;

/// The longest genome or preset name the service hands out or accepts.
pub const MAX_NAME: usize = 32;

/// What a refused value is echoed as: at most 40 characters, escaped.
fn shown(raw: &str) -> String {
    let mut head: String = raw.chars().take(40).collect();
    if head.len() < raw.len() {
        head.push('…');
    }
    format!("{head:?}")
}

/// A code (6 letters of Crockford base32) or a name: 1 to [`MAX_NAME`] of `a-z 0-9 - _`, in
/// either case, surrounding white space ignored. The normal form is trimmed and lower case.
fn reference(raw: &str) -> Option<String> {
    let key = raw.trim().to_ascii_lowercase();
    let fits = (1..=MAX_NAME).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    fits.then_some(key)
}

macro_rules! checked_string {
    ($(#[$doc:meta])* $name:ident, $check:expr, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name(String);

        impl $name {
            /// The value, or why it is refused.
            pub fn parse(raw: &str) -> Result<$name, String> {
                let check: fn(&str) -> Option<String> = $check;
                check(raw)
                    .map($name)
                    .ok_or_else(|| format!(concat!($what, "; got {}"), shown(raw)))
            }
        }

        impl Deref for $name {
            type Target = str;

            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl From<$name> for String {
            fn from(value: $name) -> String {
                value.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
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

checked_string!(
    /// A stored genome named by its code or a name.
    GenomeRef,
    reference,
    "a genome is named by its code (6 letters of 0-9, a-z without i, l, o, u) or a name (1 to 32 of a-z, 0-9, - and _)"
);

checked_string!(
    /// A stored preset named by its code or a name (`default`).
    PresetRef,
    reference,
    "a preset is named by its code (6 letters of 0-9, a-z without i, l, o, u) or a name such as `default` (1 to 32 of a-z, 0-9, - and _)"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_codes_or_small_names() {
        assert_eq!(
            GenomeRef::parse(" Rook ").map(String::from),
            Ok("rook".into())
        );
        assert_eq!(
            PresetRef::parse("emcym3").map(String::from),
            Ok("emcym3".into())
        );
        for bad in ["", "x\0", "x y", "é", &"a".repeat(33), "../x"] {
            let refused = GenomeRef::parse(bad).expect_err(bad);
            assert!(refused.contains("a genome is named by"), "{refused}");
            assert!(refused.contains(&format!("{:?}", bad.chars().take(40).collect::<String>())));
        }
    }

    #[test]
    fn a_long_value_is_echoed_cut_short() {
        let refused = GenomeRef::parse(&"z".repeat(10_000)).expect_err("too long");
        assert!(refused.len() < 240, "{refused}");
    }
}
