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

/// A stored name (a status, a colour wish, an evaluation state) that is none of its set's.
impl From<gmo_types::UnknownName> for StoreError {
    fn from(error: gmo_types::UnknownName) -> StoreError {
        StoreError::Corrupt(error.to_string())
    }
}

/// A stored id (a game's, a seek's, a lab's) that is no id.
impl From<gmo_types::BadId> for StoreError {
    fn from(error: gmo_types::BadId) -> StoreError {
        StoreError::Corrupt(error.to_string())
    }
}

impl StoreError {
    /// Whether the database could not be reached (a lost or refused connection, no connection
    /// free in time, the pool closed) rather than refusing or failing a statement: worth
    /// retrying shortly, and nothing the caller did wrong.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            StoreError::Database(
                sqlx::Error::Io(_)
                    | sqlx::Error::PoolTimedOut
                    | sqlx::Error::PoolClosed
                    | sqlx::Error::WorkerCrashed
            )
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_unreachable_database_is_unavailable() {
        let lost = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        for unreachable in [
            sqlx::Error::Io(lost),
            sqlx::Error::PoolTimedOut,
            sqlx::Error::PoolClosed,
            sqlx::Error::WorkerCrashed,
        ] {
            assert!(StoreError::Database(unreachable).is_unavailable());
        }
        for other in [
            StoreError::Database(sqlx::Error::RowNotFound),
            StoreError::Database(sqlx::Error::Protocol("bad".into())),
            StoreError::Corrupt("a digest of 3 bytes".into()),
            StoreError::Stale {
                expected: 1,
                found: 2,
            },
        ] {
            assert!(!other.is_unavailable(), "{other:?}");
        }
    }
}
