//! Connecting: the URL picks the backend at run time, and the migrations run before the store is
//! handed out.

use crate::StoreError;
use crate::backend::{Backend, Dialect};
use crate::batch::Batcher;
use crate::held::TEST_IDLE_AFTER;
use sqlx::Connection;
use sqlx::postgres::PgPoolOptions;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use std::str::FromStr;
use std::time::Duration;

/// How long a statement waits for a PostgreSQL connection (a free one, or a new one while the
/// database refuses) before it fails as unavailable.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// The game service's persistent state. Cheap to clone: clones share the connection pools.
#[derive(Debug, Clone)]
pub struct Store {
    pub(crate) backend: Backend,
    /// On PostgreSQL, the writers that commit changes of many games together.
    pub(crate) batcher: Option<Batcher>,
}

/// How long a connection waits for SQLite's write lock held by another process.
const SQLITE_BUSY: Duration = Duration::from_secs(10);
const SQLITE_READERS: u32 = 4;
/// The PostgreSQL pool's size unless told otherwise: commits in flight at once share a WAL
/// flush, so a pool much smaller than the clients moving at once caps the moves a second.
pub const DEFAULT_POSTGRES_CONNECTIONS: u32 = 16;

impl Store {
    /// Connects to `postgres://…` (or `postgresql://…`) or `sqlite://path` (the file is created
    /// when missing) and brings the schema up to date.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, DEFAULT_POSTGRES_CONNECTIONS).await
    }

    /// [`Store::connect`] with a PostgreSQL pool of `connections` (at least 1; SQLite has one
    /// writer whatever it is).
    pub async fn connect_with(url: &str, connections: u32) -> Result<Store, StoreError> {
        let backend = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            connect_postgres(url, connections.max(1)).await?
        } else if url.starts_with("sqlite:") {
            connect_sqlite(url).await?
        } else {
            return Err(StoreError::InvalidUrl(format!(
                "expected postgres://… or sqlite://…, got {:?}",
                url.split(':').next().unwrap_or_default()
            )));
        };
        tracing::info!(backend = backend.name(), "store connected and migrated");
        let batcher = match &backend {
            Backend::Postgres(pool) => Some(Batcher::start(pool)),
            Backend::Sqlite { .. } => None,
        };
        Ok(Store { backend, batcher })
    }

    /// `"postgres"` or `"sqlite"`.
    pub fn backend_name(&self) -> &'static str {
        self.backend.name()
    }

    pub(crate) fn dialect(&self) -> Dialect {
        self.backend.dialect()
    }

    /// Whether the database answers (for `/healthz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        reading!(self, pool => sqlx::query("SELECT 1").execute(pool).await.map(drop))?;
        Ok(())
    }

    /// Waits for the connections to finish their work and closes them.
    pub async fn close(&self) {
        match &self.backend {
            Backend::Postgres(pool) => pool.close().await,
            Backend::Sqlite { read, write } => {
                read.close().await;
                write.close().await;
            }
        }
    }
}

async fn connect_postgres(url: &str, connections: u32) -> Result<Backend, StoreError> {
    let pool = PgPoolOptions::new()
        .max_connections(connections)
        // A database that does not answer is 503 within this, before the request's own
        // timeout (10 s) would make it a 408; a request that waits longer for a free
        // connection is better refused too.
        .acquire_timeout(ACQUIRE_TIMEOUT)
        // The pool's own test is a round trip on every acquire: under load that was one round
        // trip more per statement. A connection idle for a while (the database may have
        // restarted meanwhile) is still tested; one in steady use proves itself by its work.
        .test_before_acquire(false)
        .before_acquire(|connection, taken| {
            Box::pin(async move {
                if taken.idle_for >= TEST_IDLE_AFTER {
                    connection.ping().await?;
                }
                Ok(true)
            })
        })
        .connect(url)
        .await?;
    // sqlx takes an advisory lock, so several servers starting at once migrate only once.
    sqlx::migrate!("../../migrations/postgres")
        .run(&pool)
        .await?;
    Ok(Backend::Postgres(pool))
}

async fn connect_sqlite(url: &str) -> Result<Backend, StoreError> {
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|_| StoreError::InvalidUrl("not a valid sqlite:// URL".to_owned()))?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        // FULL syncs the log on every commit: an acknowledged move survives even a power cut,
        // not only a killed process.
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        .busy_timeout(SQLITE_BUSY);
    let write = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options.clone())
        .await?;
    sqlx::migrate!("../../migrations/sqlite")
        .run(&write)
        .await?;
    // An in-memory database exists only on its own connection: read through the writer there.
    let read = if url.contains(":memory:") || url.contains("mode=memory") {
        write.clone()
    } else {
        SqlitePoolOptions::new()
            .max_connections(SQLITE_READERS)
            .connect_with(options.read_only(true))
            .await?
    };
    Ok(Backend::Sqlite { read, write })
}
