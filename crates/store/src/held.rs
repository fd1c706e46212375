//! A connection a background writer keeps from statement to statement. The pool tests a
//! connection with a round trip when it is given back (and, after a pause, when it is taken):
//! for a writer that sends one short statement after another, that doubled its round trips.
//! Like the pool, a kept connection is tested after a pause (the database may have restarted).
//! Closing the pool waits for every connection to come back, so a task that keeps one waits for
//! work through [`Held::wait`], which gives up when the pool closes.

use sqlx::pool::{CloseEvent, PoolConnection};
use sqlx::{Connection, PgConnection, PgPool, Postgres};
use std::future::Future;
use std::time::{Duration, Instant};

/// A PostgreSQL connection idle this long is tested with a round trip before it is used again:
/// a kept one here, a pooled one by the pool (`connect.rs`).
pub(crate) const TEST_IDLE_AFTER: Duration = Duration::from_secs(1);

pub(crate) struct Held {
    pool: PgPool,
    /// The kept connection and when it was last handed out.
    connection: Option<(PoolConnection<Postgres>, Instant)>,
    closed: CloseEvent,
}

impl Held {
    pub(crate) fn new(pool: PgPool) -> Held {
        Held {
            closed: pool.close_event(),
            pool,
            connection: None,
        }
    }

    /// Runs `work` (the task's wait for something to do) unless the pool closes first → `None`
    /// then: the task must end, dropping this and with it the connection.
    pub(crate) async fn wait<F: Future>(&mut self, work: F) -> Option<F::Output> {
        self.closed.do_until(work).await.ok()
    }

    /// The kept connection (tested first if unused for a while), else one from the pool.
    pub(crate) async fn get(&mut self) -> Result<&mut PgConnection, sqlx::Error> {
        if let Some((mut connection, used)) = self.connection.take()
            && (used.elapsed() < TEST_IDLE_AFTER || connection.ping().await.is_ok())
        {
            return Ok(self.keep(connection));
        }
        let connection = self.pool.acquire().await?;
        Ok(self.keep(connection))
    }

    fn keep(&mut self, connection: PoolConnection<Postgres>) -> &mut PgConnection {
        &mut self.connection.insert((connection, Instant::now())).0
    }

    /// Gives the connection back after a failed statement: the pool tests it and closes it if it
    /// is broken, and the next [`Held::get`] takes another.
    pub(crate) fn give_back(&mut self) {
        self.connection = None;
    }
}
