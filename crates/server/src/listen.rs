//! Across processes: on PostgreSQL every committed change is announced with `NOTIFY` (the game id,
//! its version, the stream line types and the ply views), and every process listens, reloads the
//! game and hands it to its own streams. On SQLite both ends do nothing.

use crate::clock::Timers;
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
    /// A game another process changed is its business now: this process's flag timer for it
    /// goes (that process armed its own; the sweep covers it if it dies).
    pub async fn relay(self: Arc<Self>, hub: Arc<Hub>, timers: Arc<Timers>) {
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
                Ok(payload) => self.relay_one(&hub, &timers, &payload).await,
                Err(error) => {
                    tracing::warn!(%error, "listening for game changes failed; retrying");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
        }
    }

    async fn relay_one(&self, hub: &Hub, timers: &Timers, payload: &str) {
        let Ok(announcement) = serde_json::from_str::<Announcement>(payload) else {
            return;
        };
        if announcement.origin == self.origin {
            return;
        }
        timers.disarm(&announcement.id);
        if !hub.watched(&announcement.id) {
            return;
        }
        match self.store.load_game::<Game>(&announcement.id).await {
            // Moved on since: the announcement's labels and ply belong to an older state. The
            // later change is announced too and will be shown, labelled by what it did.
            Ok(stored) if stored.version > announcement.version => {}
            Ok(stored) => hub.publish(
                &announcement.id,
                Update {
                    version: stored.version,
                    kinds: announcement.kinds,
                    ply: announcement.ply,
                    game: Arc::new(stored.state),
                },
            ),
            Err(error) => tracing::warn!(%error, "could not reload an announced game"),
        }
    }
}
