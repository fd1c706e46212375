//! What a run cost PostgreSQL besides time: WAL bytes written and the share of HOT updates of
//! `games`, read over a connection of our own to the run's database.
//!
//! Both are approximate. The WAL position is the whole server's: anything else writing on it
//! during the run (another database, a build's tests) counts too. Table statistics reach
//! `pg_stat_user_tables` lazily (PostgreSQL 15 flushes a backend's counters at most once a
//! second, and when it exits), so they are read after `gmo serve` is gone and its backends had a
//! second to exit.

use crate::server::Gmo;
use sqlx::{Connection, PgConnection};
use std::time::Duration;

/// How long the server's backends get to exit and flush their statistics.
const FLUSH: Duration = Duration::from_secs(1);

/// The counters at one moment.
#[derive(Debug, Clone, Copy)]
struct Counters {
    /// Updates of `games`, and those of them that were HOT (no index entry written).
    updates: i64,
    hot_updates: i64,
}

/// Counters taken before a run, with the connection that reads them again after it.
#[derive(Debug)]
pub struct Wal {
    connection: PgConnection,
    lsn_before: String,
    before: Counters,
}

/// What a run cost PostgreSQL.
#[derive(Debug, Clone, Copy)]
pub struct Cost {
    pub wal_bytes: i64,
    /// Updates of `games`, and those of them that were HOT.
    pub updates: i64,
    pub hot_updates: i64,
}

impl Wal {
    /// Connects to the run's database and reads where the WAL is; call it just before the run.
    pub async fn start(url: &str) -> Wal {
        let mut connection = PgConnection::connect(url)
            .await
            .unwrap_or_else(|e| panic!("no connection to {url} for the WAL counters: {e}"));
        let lsn_before = lsn(&mut connection).await;
        let before = counters(&mut connection).await;
        Wal {
            connection,
            lsn_before,
            before,
        }
    }

    /// Reads the WAL position, stops the server so that its backends flush their statistics,
    /// and reads those; call it as soon as the run ends.
    pub async fn finish(mut self, server: Gmo) -> Cost {
        let wal_bytes =
            sqlx::query_scalar("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint")
                .bind(&self.lsn_before)
                .fetch_one(&mut self.connection)
                .await
                .expect("the WAL position is read");
        drop(server);
        tokio::time::sleep(FLUSH).await;
        let after = counters(&mut self.connection).await;
        Cost {
            wal_bytes,
            updates: after.updates - self.before.updates,
            hot_updates: after.hot_updates - self.before.hot_updates,
        }
    }
}

async fn lsn(connection: &mut PgConnection) -> String {
    sqlx::query_scalar("SELECT pg_current_wal_lsn()::text")
        .fetch_one(connection)
        .await
        .expect("the WAL position is read")
}

async fn counters(connection: &mut PgConnection) -> Counters {
    let (updates, hot_updates): (i64, i64) = sqlx::query_as(
        "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games'",
    )
    .fetch_optional(connection)
    .await
    .expect("pg_stat_user_tables is read")
    .unwrap_or((0, 0));
    Counters {
        updates,
        hot_updates,
    }
}
