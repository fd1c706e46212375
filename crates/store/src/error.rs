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
    /// Whether the database could not be reached or could not serve the statement now (a lost,
    /// refused or terminated connection, no connection free in time, the pool closed, a database
    /// shutting down or starting up, a serialization failure or deadlock) rather than refusing
    /// it for good: worth retrying shortly, and nothing the caller did wrong. Such a statement
    /// did not commit.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Database(error) if unavailable(error))
    }
}

/// See [`StoreError::is_unavailable`].
fn unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(error) => {
            if let Some(postgres) = error.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
                postgres_unavailable(postgres.code())
            } else {
                // SQLite's, whose code is its (extended) result code.
                error.code().is_some_and(|code| sqlite_busy(&code))
            }
        }
        _ => false,
    }
}

/// PostgreSQL's SQLSTATEs of a database that is away or could not serve a statement now: class
/// 08 (connection exception), 57P01 `admin_shutdown` (`pg_terminate_backend`, a fast shutdown),
/// 57P02 `crash_shutdown`, 57P03 `cannot_connect_now` (starting up, shutting down), 57P04
/// `database_dropped`, 57P05 `idle_session_timeout`, 53300 `too_many_connections`, 40001
/// `serialization_failure`, 40P01 `deadlock_detected`.
fn postgres_unavailable(code: &str) -> bool {
    code.starts_with("08")
        || (code.starts_with("57P0") && code != "57P00")
        || matches!(code, "53300" | "40001" | "40P01")
}

/// SQLite's result codes (extended: the primary code in the low byte) of a database locked by
/// another writer for longer than the busy timeout: `SQLITE_BUSY` (5), `SQLITE_LOCKED` (6).
fn sqlite_busy(code: &str) -> bool {
    code.parse::<u32>()
        .is_ok_and(|code| matches!(code & 0xff, 5 | 6))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_codes_of_a_database_away_are_unavailable() {
        for away in [
            "57P01", "57P02", "57P03", "57P04", "57P05", "08000", "08003", "08006", "08001",
            "08004", "53300", "40001", "40P01",
        ] {
            assert!(postgres_unavailable(away), "{away}");
        }
        // A unique violation, a syntax error, a check, a cancelled statement: not the database
        // being away.
        for refused in [
            "23505", "42601", "23514", "57014", "57000", "40002", "22P02",
        ] {
            assert!(!postgres_unavailable(refused), "{refused}");
        }
    }

    #[test]
    fn sqlite_busy_and_locked_are_unavailable() {
        // SQLITE_BUSY, SQLITE_BUSY_RECOVERY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED,
        // SQLITE_LOCKED_SHAREDCACHE.
        for busy in ["5", "261", "517", "6", "262"] {
            assert!(sqlite_busy(busy), "{busy}");
        }
        // SQLITE_CONSTRAINT_UNIQUE, SQLITE_ERROR, SQLITE_CORRUPT, SQLITE_FULL.
        for other in ["2067", "1", "11", "13", "x"] {
            assert!(!sqlite_busy(other), "{other}");
        }
    }

    #[tokio::test]
    async fn a_locked_sqlite_database_is_unavailable() {
        use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
        let dir = tempfile::tempdir().expect("a temporary directory");
        let options = SqliteConnectOptions::new()
            .filename(dir.path().join("t.db"))
            .create_if_missing(true)
            .busy_timeout(std::time::Duration::from_millis(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(2)
            .connect_with(options)
            .await
            .expect("a pool");
        sqlx::query("CREATE TABLE t (x)")
            .execute(&pool)
            .await
            .expect("a table");
        let mut holder = pool.begin().await.expect("a transaction");
        sqlx::query("INSERT INTO t VALUES (1)")
            .execute(&mut *holder)
            .await
            .expect("the writer holds the lock");
        let refused = sqlx::query("INSERT INTO t VALUES (2)")
            .execute(&pool)
            .await
            .expect_err("locked by the other writer");
        assert!(StoreError::Database(refused).is_unavailable());
    }

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
