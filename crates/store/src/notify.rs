//! Cross-process announcements of game changes: PostgreSQL `NOTIFY` / `LISTEN` on one channel.
//! SQLite has no such thing (and one process per file in practice): there both are no-ops.
//!
//! Announcements are sent after the change they describe has committed, not with it: a
//! transaction that notifies holds a database-wide lock from its commit until its WAL is flushed,
//! so notifying moves could not share a flush (group commit) and committed one after another.
//! An [`Announcer`] sends them from a task of its own, as many as are waiting in one statement,
//! in a transaction that does not wait for its flush (it writes no data).
//!
//! Nothing keeps an announcement for a listener that is away: [`Notifications`] says when its
//! connection was lost ([`Notice::Lost`]), so that its caller can catch up.

use crate::backend::Backend;
use crate::held::Held;
use crate::{Store, StoreError};
use sqlx::postgres::PgListener;
use sqlx::{PgConnection, PgPool};
use tokio::sync::mpsc;

/// How many announcements may wait to be sent; beyond that new ones are dropped (with a warning):
/// a lost announcement only delays other processes' streams until the game's next change.
const QUEUE: usize = 8_192;
/// At most this many announcements go in one statement.
const BATCH: usize = 256;
const SEND_BATCH: &str = "SELECT pg_notify($1, payload) \
     FROM (SELECT set_config('synchronous_commit', 'off', true)) AS no_flush_wait, \
     unnest($2::text[]) WITH ORDINALITY AS queued (payload, n)";

/// Sends announcements in the background, in the order they were handed over.
#[derive(Debug, Clone)]
pub struct Announcer(Option<mpsc::Sender<String>>);

impl Announcer {
    /// Queues `payload` (of a change that has committed) → whether it was queued: `false` when
    /// the queue is full or there is nobody to announce to (SQLite).
    pub fn announce(&self, payload: String) -> bool {
        let Some(queue) = &self.0 else {
            return false;
        };
        match queue.try_send(payload) {
            Ok(()) => true,
            Err(error) => {
                tracing::warn!(%error, "an announcement of a game change was dropped");
                false
            }
        }
    }
}

async fn announce_forever(pool: PgPool, mut queue: mpsc::Receiver<String>) {
    let mut batch = Vec::with_capacity(BATCH);
    let mut held = Held::new(pool);
    while let Some(1..) = held.wait(queue.recv_many(&mut batch, BATCH)).await {
        let sent = match held.get().await {
            Ok(connection) => send(connection, &batch).await,
            Err(error) => Err(error),
        };
        if let Err(error) = sent {
            held.give_back();
            tracing::warn!(%error, count = batch.len(), "could not announce game changes");
        }
        batch.clear();
    }
}

async fn send(connection: &mut PgConnection, batch: &[String]) -> Result<(), sqlx::Error> {
    sqlx::query(SEND_BATCH)
        .bind(CHANNEL)
        .bind(batch)
        .execute(connection)
        .await
        .map(drop)
}

/// The channel game changes are announced on.
pub const CHANNEL: &str = "gmo_games";

/// What a listener hears next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// An announcement's payload.
    Payload(String),
    /// The listener's connection was lost and has been made again: whatever was announced in
    /// between is lost (`NOTIFY` keeps nothing for a listener that is away), so a caller that
    /// follows something should read its state again now. What is announced from here on is
    /// heard.
    Lost,
}

/// Announcements from every process on the database, this one's included.
#[derive(Debug)]
pub struct Notifications {
    listener: PgListener,
    pool: PgPool,
    channel: String,
    /// The last read failed: the connection may be gone, and with it what was announced since.
    failed: bool,
}

impl Notifications {
    /// The next notice: a payload, or [`Notice::Lost`] once the connection was lost and made
    /// again (sqlx's listener reconnects and listens again by itself, but would hide the gap).
    /// After an error (the database away, the store closed) announcements may have been lost
    /// too: the next call listens on a new connection (or fails again) and says
    /// [`Notice::Lost`] before anything else.
    pub async fn next(&mut self) -> Result<Notice, StoreError> {
        if self.failed {
            // A new listener rather than the old one's connection, which sqlx keeps after some
            // failures (a reset) although it is dead.
            self.listener = listener(&self.pool, &self.channel).await?;
            self.failed = false;
            return Ok(Notice::Lost);
        }
        match self.listener.try_recv().await {
            Ok(Some(notification)) => Ok(Notice::Payload(notification.payload().to_owned())),
            // sqlx has connected and listened again already (its eager reconnection).
            Ok(None) => Ok(Notice::Lost),
            Err(error) => {
                self.failed = true;
                Err(error.into())
            }
        }
    }
}

/// A listener on `channel`, connected and listening.
async fn listener(pool: &PgPool, channel: &str) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(channel).await?;
    Ok(listener)
}

impl Store {
    /// Starts sending announcements from a task of its own (on PostgreSQL; on SQLite the
    /// announcer drops them). Call it inside a Tokio runtime; the task ends with the last clone.
    pub fn announcer(&self) -> Announcer {
        let Backend::Postgres(pool) = &self.backend else {
            return Announcer(None);
        };
        let (queue, queued) = mpsc::channel(QUEUE);
        tokio::spawn(announce_forever(pool.clone(), queued));
        Announcer(Some(queue))
    }

    /// Announces `payload` to every listener (after the change it describes has committed).
    pub async fn notify(&self, payload: &str) -> Result<(), StoreError> {
        self.notify_on(CHANNEL, payload).await
    }

    /// Announces `payload` on `channel` (e.g. [`crate::EVENT_CHANNEL`]); nothing on SQLite.
    pub async fn notify_on(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        if let Backend::Postgres(pool) = &self.backend {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(channel)
                .bind(payload)
                .execute(pool)
                .await?;
        }
        Ok(())
    }

    /// Starts listening for announcements; `None` on SQLite.
    pub async fn listen(&self) -> Result<Option<Notifications>, StoreError> {
        self.listen_on(CHANNEL).await
    }

    /// Starts listening on `channel` (e.g. [`crate::SEEK_CHANNEL`]); `None` on SQLite.
    pub async fn listen_on(&self, channel: &str) -> Result<Option<Notifications>, StoreError> {
        let Backend::Postgres(pool) = &self.backend else {
            return Ok(None);
        };
        Ok(Some(Notifications {
            listener: listener(pool, channel).await?,
            pool: pool.clone(),
            channel: channel.to_owned(),
            failed: false,
        }))
    }
}
