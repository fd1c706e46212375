//! What any process does for events in the background: start the games nobody started within
//! `--event-start-after` (60 s) of their pairing (the state is in the database, so whichever process
//! runs finds them, after a crash too), and ring this process's event streams when another
//! process pairs a round (PostgreSQL `NOTIFY`).

use super::Events;
use crate::error::PlayError;
use crate::time::now;
use gmo_store::Notice;
use std::time::Duration;

/// The most games one sweep starts.
const BATCH: u32 = 64;

impl Events {
    /// Starts the due games every `every`, until the server stops.
    pub async fn sweep_forever(self, every: Duration) {
        let mut interval = tokio::time::interval(every);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            if let Err(error) = self.start_due().await {
                tracing::warn!(%error, "could not start events' due games");
            }
        }
    }

    /// Starts the games due to start by themselves now → how many this call started.
    pub async fn start_due(&self) -> Result<usize, PlayError> {
        let mut started = 0;
        for game in self.store.due_starts(now(), BATCH).await? {
            match self.games.start_by_itself(&game).await {
                Ok(Some(_)) => started += 1,
                Ok(None) => {}
                // Another process started it first, or it changed meanwhile: looked at again.
                Err(error) => {
                    tracing::debug!(%game, %error, "an event's game did not start here");
                    continue;
                }
            }
            self.store.started_by_itself(&game).await?;
        }
        Ok(started)
    }

    /// Rings this process's streams of the events other processes announce, until the server
    /// stops (nothing on SQLite).
    pub async fn listen_forever(self) {
        let mut notifications = match self.store.listen_on(gmo_store::EVENT_CHANNEL).await {
            Ok(Some(notifications)) => notifications,
            Ok(None) => return,
            Err(error) => {
                tracing::error!(%error, "cannot listen for other processes' event changes");
                return;
            }
        };
        loop {
            match notifications.next().await {
                Ok(Notice::Payload(payload)) => {
                    if let Ok(id) = payload.parse() {
                        self.bell.ring(&id);
                    }
                }
                Ok(Notice::Lost) => self.bell.ring_all(),
                Err(error) => {
                    tracing::warn!(%error, "listening for event changes failed; retrying");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }
}
