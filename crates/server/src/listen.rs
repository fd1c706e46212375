//! Across processes: on PostgreSQL every committed change is announced with `NOTIFY` (the game id,
//! its version, the stream line types and the ply views) right after its commit, and every
//! process listens, reloads the game and hands it to its own streams. On SQLite both ends do
//! nothing.

use crate::clock::Timers;
use crate::hub::{Hub, LineType, PlyViews, RematchNews, Update};
use gmo_store::{Announcer, Store};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The cross-process side of the hub.
#[derive(Debug)]
pub struct Listener {
    store: Store,
    announcer: Announcer,
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
    #[serde(default)]
    rematch: Option<RematchNews>,
    /// How many events the game's record held after the change.
    #[serde(default)]
    events: Option<usize>,
}

impl Listener {
    pub fn new(store: Store) -> Listener {
        Listener {
            announcer: store.announcer(),
            store,
            origin: gmo_store::new_id(),
        }
    }

    /// The announcement of `update` to the other processes (`None` on SQLite, where there are
    /// none).
    fn notice(&self, id: &str, update: &Update) -> Option<String> {
        if self.store.backend_name() != "postgres" {
            return None;
        }
        let announcement = Announcement {
            origin: self.origin.clone(),
            id: id.to_owned(),
            version: update.version,
            kinds: update.kinds.clone(),
            ply: update.ply.clone(),
            rematch: update.rematch.clone(),
            events: Some(update.game.events().len()),
        };
        serde_json::to_string(&announcement).ok()
    }

    /// Tells the other processes that game `id` changed (in the background: the change is
    /// committed already, and a lost announcement only delays their streams to the next one).
    /// Announcements of one game leave in the order of the calls.
    pub fn notify(&self, id: &str, update: &Update) {
        if let Some(payload) = self.notice(id, update) {
            self.announcer.announce(payload);
        }
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
        // A seat joining changes nothing of the game: whoever keeps its clock still does.
        let join = announcement.kinds == [LineType::Joined];
        if !join {
            timers.disarm(&announcement.id);
        }
        if !hub.watched(&announcement.id) {
            return;
        }
        match crate::games::current_from(&self.store, &announcement.id).await {
            // Moved on since: the announcement's labels and ply belong to an older state, so it
            // is shown with the game rebuilt as that change left it (streams must not skip a
            // move). A change before the start has no ply to lose and is left out. Rematch news
            // is no change of the game: always shown with the game as it is.
            Ok(stored)
                if announcement.rematch.is_none()
                    && !join
                    && stored.version > announcement.version =>
            {
                self.relay_stale(hub, announcement).await;
            }
            Ok(stored) => hub.publish(
                &announcement.id,
                Update {
                    version: stored.version,
                    kinds: announcement.kinds,
                    ply: announcement.ply,
                    joined: crate::games::joined(&stored),
                    game: stored.state,
                    rematch: announcement.rematch,
                },
            ),
            Err(error) => tracing::warn!(%error, "could not reload an announced game"),
        }
    }

    async fn relay_stale(&self, hub: &Hub, announcement: Announcement) {
        let Some(events) = announcement.events else {
            return;
        };
        // Setup lines come before the start, which the rebuilt game has behind it already.
        if announcement.kinds.contains(&LineType::Setup) {
            return;
        }
        match crate::rewind::game_at(&self.store, &announcement.id, events).await {
            Ok(game) => hub.publish(
                &announcement.id,
                Update {
                    version: announcement.version,
                    kinds: announcement.kinds,
                    ply: announcement.ply,
                    game: Arc::new(game),
                    rematch: None,
                    // None known here: a stream keeps the flags it has shown (they only ever turn on).
                    joined: gmo_store::Joined::default(),
                },
            ),
            Err(why) => tracing::debug!(game = announcement.id, why, "an older change not shown"),
        }
    }
}
