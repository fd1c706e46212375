//! The one error type of the store. Its messages are safe to show to users: database details stay
//! in the `source()` chain, for logs only.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum StoreError {
    /// No row has that key: `what` is `"genome"`, `"preset"`, `"game"` or `"lab"`.
    #[error("no {what} {key:?}")]
    NotFound { what: &'static str, key: String },
    /// A preset names a genome that is not stored.
    #[error("unknown genome {0:?}")]
    UnknownGenome(String),
    /// A preset must have exactly one genome per file of the board.
    #[error("a preset for this board needs {expected} genomes, got {got}")]
    WrongPresetLength { expected: usize, got: usize },
    /// Another writer changed the row first: reload and try again.
    #[error("stale version {expected}: the stored version is {found}")]
    Stale { expected: i64, found: i64 },
    /// The database URL is neither `postgres://…` nor `sqlite://…`.
    #[error("invalid database URL: {0}")]
    InvalidUrl(String),
    /// A caller's value could not be written as JSON, or a stored one read back.
    #[error("data could not be (de)serialised")]
    Json(#[from] serde_json::Error),
    /// A stored row breaks an invariant of the schema (e.g. a digest that is not 32 bytes).
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// Every code tried for a DNA was taken (rules §2.5); practically unreachable.
    #[error("no free code for this {0}")]
    CodesExhausted(&'static str),
    #[error("the database failed")]
    Database(#[source] sqlx::Error),
    #[error("the database schema could not be migrated")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        StoreError::Database(error)
    }
}
