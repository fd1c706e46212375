//! Across processes: on PostgreSQL every committed change is announced with `NOTIFY` (the game id,
//! its version, the stream line types and the ply views), and every process listens, reloads the
//! game and hands it to its own streams. On SQLite both ends do nothing.

use crate::hub::{Hub, LineType, PlyViews, Update};
use gmo_engine::Game;
use gmo_store::Store;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The cross-process side of the hub.
#[derive(Debug)]
pub struct Listener {
    store: Store,
    /// This process's name on the channel, so that it skips its own announcements.
    origin: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct Announcement {
    origin: String,
    id: String,
    version: i64,
    kinds: Vec<LineType>,
    ply: PlyViews,
}

impl Listener {
    pub fn new(store: Store) -> Listener {
        Listener {
            store,
            origin: gmo_store::new_id(),
        }
    }

    /// The announcement of `update` to the other processes, for the store to send with the
    /// change (`None` on SQLite, where there are none).
    pub fn notice(&self, id: &str, update: &Update) -> Option<String> {
        if self.store.backend_name() != "postgres" {
            return None;
        }
        let announcement = Announcement {
            origin: self.origin.clone(),
            id: id.to_owned(),
            version: update.version,
            kinds: update.kinds.clone(),
            ply: update.ply.clone(),
        };
        serde_json::to_string(&announcement).ok()
    }

    /// Tells the other processes that game `id` changed (in the background: the change is
    /// committed already, and a lost announcement only delays their streams to the next one).
    pub fn notify(&self, id: &str, update: &Update) {
        let Some(payload) = self.notice(id, update) else {
            return;
        };
        let store = self.store.clone();
        tokio::spawn(async move {
            if let Err(error) = store.notify(&payload).await {
                tracing::warn!(%error, "could not announce a game change");
            }
        });
    }

    /// Relays other processes' announcements to this process's streams, until the server stops.
    pub async fn relay(self: Arc<Self>, hub: Arc<Hub>) {
        let mut notifications = match self.store.listen().await {
            Ok(Some(notifications)) => notifications,
            Ok(None) => return,
            Err(error) => {
                tracing::error!(%error, "cannot listen for other processes' game changes");
                return;
            }
        };
        loop {
            match notifications.next().await {
                Ok(payload) => self.relay_one(&hub, &payload).await,
                Err(error) => {
                    tracing::warn!(%error, "listening for game changes failed; retrying");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
        }
    }

    async fn relay_one(&self, hub: &Hub, payload: &str) {
        let Ok(announcement) = serde_json::from_str::<Announcement>(payload) else {
            return;
        };
        if announcement.origin == self.origin || !hub.watched(&announcement.id) {
            return;
        }
        match self.store.load_game::<Game>(&announcement.id).await {
            // The game as it is now (maybe newer than announced): streams skip versions seen.
            Ok(stored) => hub.publish(
                &announcement.id,
                Update {
                    version: stored.version.max(announcement.version),
                    kinds: announcement.kinds,
                    ply: announcement.ply,
                    game: Arc::new(stored.state),
                },
            ),
            Err(error) => tracing::warn!(%error, "could not reload an announced game"),
        }
    }
}
