//! Genome codes (rules §2.5): 30 bits of SHA-256 in lower-case Crockford base32.

use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// A 6-character code in lower-case Crockford base32 (`0-9a-z` without `i l o u`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code([u8; Code::LEN]);

const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

impl Code {
    pub const LEN: usize = 6;

    /// The code of a text: its SHA-256's first 30 bits.
    pub fn of(text: &str) -> Code {
        Code::from_digest(&sha256(text))
    }

    /// The code a store hands out on the `salt`-th collision: the code of `canonical#salt`
    /// (salt 0 is the plain code).
    pub fn salted(canonical: &str, salt: u32) -> Code {
        match salt {
            0 => Code::of(canonical),
            n => Code::of(&format!("{canonical}#{n}")),
        }
    }

    /// The code from a full digest, so that a store which keeps the digest need not hash twice.
    pub fn from_digest(digest: &[u8; 32]) -> Code {
        let encoded = base32::encode(base32::Alphabet::Crockford, &digest[..4]);
        let mut code = [0u8; Code::LEN];
        for (slot, letter) in code.iter_mut().zip(encoded.bytes()) {
            *slot = letter.to_ascii_lowercase();
        }
        Code(code)
    }

    pub fn as_str(&self) -> &str {
        // Every byte comes from the ASCII alphabet, so this cannot fail.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

/// SHA-256 over a text's UTF-8 bytes: the full digest a store keeps beside a code.
pub fn sha256(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// The code of a preset: over its genome codes, file a first, joined by `-`.
pub fn preset_code(codes: &[Code]) -> Code {
    Code::of(&preset_text(codes))
}

/// A preset's canonical text: its genome codes joined by `-`.
pub fn preset_text(codes: &[Code]) -> String {
    codes.iter().map(Code::as_str).collect::<Vec<_>>().join("-")
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a string is not a code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadCode(pub String);

impl fmt::Display for BadCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a genome code: expected 6 characters of 0-9 and a-z without i, l, o, u",
            self.0
        )
    }
}

impl std::error::Error for BadCode {}

impl FromStr for Code {
    type Err = BadCode;

    /// Accepts upper case too; a code is always shown in lower case.
    fn from_str(text: &str) -> Result<Code, BadCode> {
        let lower = text.to_ascii_lowercase();
        let bytes: [u8; Code::LEN] = lower
            .as_bytes()
            .try_into()
            .map_err(|_| BadCode(text.to_owned()))?;
        if bytes.iter().all(|b| ALPHABET.contains(b)) {
            Ok(Code(bytes))
        } else {
            Err(BadCode(text.to_owned()))
        }
    }
}
