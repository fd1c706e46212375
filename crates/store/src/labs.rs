//! Labs: sandbox boards, stored as opaque JSON with the hash of their token. A save is a single
//! version-checked update: labs have no record to keep in step, so no lock is needed.

use crate::claim::parse_digest;
use crate::secret::token_matches;
use crate::{Store, StoreError};
use gmo_types::LabId;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A stored lab.
#[derive(Debug, Clone, PartialEq)]
pub struct Lab<B> {
    pub id: LabId,
    /// How many saves it has had; pass it back to [`Store::save_lab`].
    pub version: i64,
    pub token_hash: [u8; 32],
    pub width: u16,
    pub height: u16,
    pub board: B,
}

impl<B> Lab<B> {
    /// Whether a bearer token opens this lab.
    pub fn opens(&self, token: &str) -> bool {
        token_matches(token, &self.token_hash)
    }
}

/// A lab's board as stored, not decoded yet: check the token ([`Lab::opens`]) before paying
/// for [`Lab::decode`], so that a refused request costs no parsing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedBoard(String);

impl EncodedBoard {
    /// The stored size in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Lab<EncodedBoard> {
    /// The lab with its board decoded.
    pub fn decode<B: DeserializeOwned>(self) -> Result<Lab<B>, StoreError> {
        Ok(Lab {
            board: serde_json::from_str(&self.board.0)?,
            id: self.id,
            version: self.version,
            token_hash: self.token_hash,
            width: self.width,
            height: self.height,
        })
    }
}

const INSERT: &str = "INSERT INTO labs (id, token, version, width, height, board) \
     VALUES ($1, $2, 0, $3, $4, $5)";
const LOAD: &str = "SELECT id, version, token, width, height, board FROM labs WHERE id = $1";
const SAVE: &str = "UPDATE labs SET board = $3, version = version + 1, \
     updated_at = CURRENT_TIMESTAMP WHERE id = $1 AND version = $2";
const VERSION: &str = "SELECT version FROM labs WHERE id = $1";

type LabRow = (String, i64, Vec<u8>, i32, i32, String);

impl Store {
    /// Stores a new lab at version 0 and returns its (random) id.
    pub async fn create_lab<B: Serialize>(
        &self,
        token_hash: &[u8; 32],
        width: u16,
        height: u16,
        board: &B,
    ) -> Result<LabId, StoreError> {
        let id = LabId::from_bits(rand::random());
        let board = serde_json::to_string(board)?;
        writing!(self, pool => {
            sqlx::query(INSERT)
                .bind(id.as_str())
                .bind(&token_hash[..])
                .bind(i32::from(width))
                .bind(i32::from(height))
                .bind(&board)
                .execute(pool)
                .await
                .map(drop)
        })?;
        Ok(id)
    }

    /// A lab by id.
    pub async fn load_lab<B: DeserializeOwned>(&self, id: &LabId) -> Result<Lab<B>, StoreError> {
        self.load_lab_encoded(id).await?.decode()
    }

    /// A lab by id, its board still as stored.
    pub async fn load_lab_encoded(&self, id: &LabId) -> Result<Lab<EncodedBoard>, StoreError> {
        let row: Option<LabRow> = reading!(self, pool => {
            sqlx::query_as(LOAD).bind(id.as_str()).fetch_optional(pool).await
        })?;
        let (stored_id, version, token, width, height, board) = row.ok_or_else(|| not_found(id))?;
        let size = |n: i32| {
            u16::try_from(n).map_err(|_| StoreError::Corrupt(format!("a board size of {n}")))
        };
        Ok(Lab {
            id: LabId::parse(&stored_id)?,
            version,
            token_hash: parse_digest(&token)?,
            width: size(width)?,
            height: size(height)?,
            board: EncodedBoard(board),
        })
    }

    /// Saves a lab's board over version `expected_version` and returns the new version; a stale
    /// version gets [`StoreError::Stale`] and nothing changes.
    pub async fn save_lab<B: Serialize>(
        &self,
        id: &LabId,
        expected_version: i64,
        board: &B,
    ) -> Result<i64, StoreError> {
        let board = serde_json::to_string(board)?;
        let saved = writing!(self, pool => {
            sqlx::query(SAVE)
                .bind(id.as_str())
                .bind(expected_version)
                .bind(&board)
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        if saved == 1 {
            return Ok(expected_version + 1);
        }
        let found: Option<i64> = reading!(self, pool => {
            sqlx::query_scalar(VERSION).bind(id.as_str()).fetch_optional(pool).await
        })?;
        match found {
            Some(found) => Err(StoreError::Stale {
                expected: expected_version,
                found,
            }),
            None => Err(not_found(id)),
        }
    }
}

fn not_found(id: &LabId) -> StoreError {
    StoreError::NotFound {
        what: "lab",
        key: id.to_string(),
    }
}
