//! Which database a store runs on: its pools, and the SQL dialect a statement is written in. The
//! store's macros (`reading!`, `writing!`, `transaction!`) expand their bodies once per backend.

use sqlx::postgres::PgPool;
use sqlx::sqlite::SqlitePool;

#[derive(Debug, Clone)]
pub(crate) enum Backend {
    Postgres(PgPool),
    /// SQLite has one writer at a time. A one-connection pool queues this process's writers
    /// fairly instead of letting them sleep-and-retry on the file lock; readers run beside the
    /// writer thanks to the write-ahead log.
    Sqlite {
        read: SqlitePool,
        write: SqlitePool,
    },
}

impl Backend {
    /// `"postgres"` or `"sqlite"`.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Backend::Postgres(_) => "postgres",
            Backend::Sqlite { .. } => "sqlite",
        }
    }

    pub(crate) fn dialect(&self) -> Dialect {
        match self {
            Backend::Postgres(_) => Dialect::Postgres,
            Backend::Sqlite { .. } => Dialect::Sqlite,
        }
    }
}

/// Which SQL dialect a transaction body is running under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Postgres,
    Sqlite,
}

impl Dialect {
    pub(crate) fn pick(self, postgres: &'static str, sqlite: &'static str) -> &'static str {
        match self {
            Dialect::Postgres => postgres,
            Dialect::Sqlite => sqlite,
        }
    }
}
