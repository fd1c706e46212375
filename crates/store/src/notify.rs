//! Cross-process announcements of game changes: PostgreSQL `NOTIFY` / `LISTEN` on one channel.
//! SQLite has no such thing (and one process per file in practice): there both are no-ops.

use crate::connect::Backend;
use crate::{Store, StoreError};
use sqlx::postgres::PgListener;

/// The channel game changes are announced on.
pub const CHANNEL: &str = "gmo_games";

/// Announcements from every process on the database, this one's included.
#[derive(Debug)]
pub struct Notifications(PgListener);

impl Notifications {
    /// The next payload; the listener reconnects by itself after a dropped connection.
    pub async fn next(&mut self) -> Result<String, StoreError> {
        Ok(self.0.recv().await?.payload().to_owned())
    }
}

impl Store {
    /// Announces `payload` to every listener (after the change it describes has committed).
    pub async fn notify(&self, payload: &str) -> Result<(), StoreError> {
        if let Backend::Postgres(pool) = &self.backend {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
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
        let mut listener = PgListener::connect_with(pool).await?;
        listener.listen(channel).await?;
        Ok(Some(Notifications(listener)))
    }
}
