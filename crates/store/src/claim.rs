//! Claiming a code for a canonical text, exactly as rules §2.5 says, for genomes and presets alike.
//!
//! The full SHA-256 digest is the identity (unique column); the 30-bit code is the primary key. A
//! text that is stored already gets its code back. Otherwise the store tries the code of the text,
//! then of `text#1`, `text#2`, … and keeps the first one its insert wins. Both constraints make
//! this safe without locks: two writers of one text cannot both insert (digest), and two texts
//! cannot share a code (primary key); the loser of a race looks again and goes on.

use crate::{Store, StoreError};
use gmo_genome::{Code, sha256};

/// What is being coded: picks the table.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Coded {
    Genome,
    Preset,
}

/// Salts tried before giving up: 1000 collisions in a row would need ~2^25 stored texts per code.
const MAX_SALT: u32 = 1000;

impl Coded {
    fn what(self) -> &'static str {
        match self {
            Coded::Genome => "genome",
            Coded::Preset => "preset",
        }
    }

    fn find_sql(self) -> &'static str {
        match self {
            Coded::Genome => "SELECT code FROM genomes WHERE digest = $1",
            Coded::Preset => "SELECT code FROM presets WHERE digest = $1",
        }
    }

    fn insert_sql(self) -> &'static str {
        match self {
            Coded::Genome => {
                "INSERT INTO genomes (code, digest, dna, salt) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT DO NOTHING"
            }
            Coded::Preset => {
                "INSERT INTO presets (code, digest, text, salt) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT DO NOTHING"
            }
        }
    }
}

/// The code of `canonical`, stored now (`true`) or before (`false`).
pub(crate) async fn claim(
    store: &Store,
    coded: Coded,
    canonical: &str,
) -> Result<(Code, bool), StoreError> {
    let digest = sha256(canonical);
    if let Some(code) = find(store, coded, &digest).await? {
        return Ok((code, false));
    }
    for salt in 0..MAX_SALT {
        let code = Code::salted(canonical, salt);
        if insert(store, coded, code, &digest, canonical, salt).await? {
            return Ok((code, true));
        }
        // The insert lost: to the same text stored meanwhile (under any salt), or to another text
        // holding this code, in which case the next salt is tried.
        if let Some(code) = find(store, coded, &digest).await? {
            return Ok((code, false));
        }
    }
    Err(StoreError::CodesExhausted(coded.what()))
}

/// The code stored for a digest, if any.
async fn find(store: &Store, coded: Coded, digest: &[u8; 32]) -> Result<Option<Code>, StoreError> {
    let sql = coded.find_sql();
    let code: Option<String> = writing!(store, pool => {
        // Asked of the writer: a reader could lag behind the insert that just beat us.
        sqlx::query_scalar(sql).bind(&digest[..]).fetch_optional(pool).await
    })?;
    code.map(|text| parse_code(&text)).transpose()
}

/// Inserts a row unless its code or digest is taken; whether it did.
pub(crate) async fn insert(
    store: &Store,
    coded: Coded,
    code: Code,
    digest: &[u8; 32],
    text: &str,
    salt: u32,
) -> Result<bool, StoreError> {
    let sql = coded.insert_sql();
    let salt = i32::try_from(salt).map_err(|_| StoreError::CodesExhausted(coded.what()))?;
    let done = writing!(store, pool => {
        sqlx::query(sql)
            .bind(code.as_str())
            .bind(&digest[..])
            .bind(text)
            .bind(salt)
            .execute(pool)
            .await
            .map(|result| result.rows_affected())
    })?;
    Ok(done == 1)
}

/// A code read back from the database.
pub(crate) fn parse_code(text: &str) -> Result<Code, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Corrupt(format!("{text:?} is not a code")))
}

/// A digest read back from the database.
pub(crate) fn parse_digest(bytes: &[u8]) -> Result<[u8; 32], StoreError> {
    bytes
        .try_into()
        .map_err(|_| StoreError::Corrupt(format!("a digest of {} bytes", bytes.len())))
}
