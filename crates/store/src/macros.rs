//! Running one piece of code on whichever backend the store has. Most SQL is shared (`$1`
//! placeholders work on both); each macro expands its body once per backend so that sqlx's types
//! line up without a wall of generic bounds.

/// Runs `$body` with `$pool` bound to the pool that serves reads.
macro_rules! reading {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.backend {
            $crate::backend::Backend::Postgres($pool) => $body,
            $crate::backend::Backend::Sqlite { read: $pool, .. } => $body,
        }
    };
}

/// Runs `$body` with `$pool` bound to the pool that serves single-statement writes.
macro_rules! writing {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.backend {
            $crate::backend::Backend::Postgres($pool) => $body,
            $crate::backend::Backend::Sqlite { write: $pool, .. } => $body,
        }
    };
}

/// Runs `$body` inside a write transaction `$tx` and commits when it has been evaluated; an early
/// return (`?`) drops the transaction, which rolls it back. `$dialect` lets the body pick the SQL
/// that differs. PostgreSQL starts a plain transaction (the body takes row locks); SQLite starts
/// `BEGIN IMMEDIATE`, taking the database's write lock at once, so that two writers never both
/// read a version and then race to upgrade their read lock.
macro_rules! transaction {
    ($store:expr, |$tx:ident, $dialect:ident| $body:expr) => {
        match &$store.backend {
            $crate::backend::Backend::Postgres(pool) => {
                let mut $tx = pool.begin().await?;
                let $dialect = $crate::backend::Dialect::Postgres;
                let out = $body;
                $tx.commit().await?;
                out
            }
            $crate::backend::Backend::Sqlite { write, .. } => {
                let mut $tx = write.begin_with("BEGIN IMMEDIATE").await?;
                let $dialect = $crate::backend::Dialect::Sqlite;
                let out = $body;
                $tx.commit().await?;
                out
            }
        }
    };
}
