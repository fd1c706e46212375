//! Across processes: on PostgreSQL every committed change is announced with `NOTIFY` (the game id,
//! its version and what happened, ply views included) right after its commit, and every process
//! listens, reloads the game and hands it to its own streams. On SQLite both ends do nothing.

use crate::hub::{Happened, Hub, Update};
use crate::stored;
use crate::timers::Timers;
use gmo_store::{Announcer, Joined, Notice, Store};
use gmo_types::GameId;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The cross-process side of the hub.
#[derive(Debug)]
pub struct Relay {
    store: Store,
    announcer: Announcer,
    /// This process's name on the channel, so that it skips its own announcements.
    origin: String,
    /// How this process's own announcements begin: every process hears its own too, one per
    /// change, and skipping them unread saves decoding each (a tenth of a move's CPU).
    own: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct Announcement {
    origin: String,
    id: GameId,
    version: i64,
    happened: Vec<Happened>,
    /// How many events the game's record held after the change.
    events: usize,
}

impl Relay {
    pub fn new(store: Store) -> Relay {
        let origin = gmo_store::new_id();
        Relay {
            announcer: store.announcer(),
            store,
            own: own_prefix(&origin),
            origin,
        }
    }

    /// Tells the other processes that game `id` changed (in the background: the change is
    /// committed already, and a lost announcement only delays their streams to the next one).
    /// Announcements of one game leave in the order of the calls. Nothing on SQLite, where there
    /// are no others.
    pub fn notify(&self, id: &GameId, update: &Update) {
        if self.store.backend_name() != "postgres" {
            return;
        }
        let announcement = Announcement {
            origin: self.origin.clone(),
            id: id.clone(),
            version: update.version,
            happened: update.happened.clone(),
            events: update.game.events().len(),
        };
        if let Ok(payload) = serde_json::to_string(&announcement) {
            self.announcer.announce(payload);
        }
    }

    /// Relays other processes' announcements to this process's streams, until the server stops.
    /// A game another process changed is its business now: this process's flag timer for it
    /// goes (that process armed its own; the sweep covers it if it dies).
    pub async fn run(self: Arc<Self>, hub: Arc<Hub>, timers: Arc<Timers>) {
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
                Ok(Notice::Payload(payload)) => self.relay_one(&hub, &timers, &payload).await,
                // What was announced meanwhile is lost: the watched games are shown afresh.
                Ok(Notice::Lost) => self.catch_up(&hub, &timers).await,
                Err(error) => {
                    tracing::warn!(%error, "listening for game changes failed; retrying");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
        }
    }

    async fn relay_one(&self, hub: &Hub, timers: &Timers, payload: &str) {
        if payload.starts_with(&self.own) {
            return;
        }
        let Ok(announcement) = serde_json::from_str::<Announcement>(payload) else {
            return;
        };
        if announcement.origin == self.origin {
            return;
        }
        // News (a seat joining, a rematch) changes nothing of the game: whoever keeps its clock
        // still does, and it is shown with the game as it is.
        let news = announcement.happened.iter().all(Happened::is_news);
        if !news {
            timers.disarm(&announcement.id);
        }
        if !hub.watched(&announcement.id) {
            return;
        }
        match stored::current(&self.store, &announcement.id).await {
            // Moved on since: the announcement's ply belongs to an older state, so it is shown
            // with the game rebuilt as that change left it (streams must not skip a move).
            Ok(stored) if !news && stored.version > announcement.version => {
                self.relay_stale(hub, announcement).await;
            }
            Ok(stored) => hub.publish(
                &announcement.id,
                Update {
                    version: stored.version,
                    happened: announcement.happened,
                    joined: stored::joined(&stored),
                    game: stored.state,
                    rendered: Default::default(),
                },
            ),
            Err(error) => tracing::warn!(%error, "could not reload an announced game"),
        }
    }

    /// After a lost connection: every game watched here as it is now (a stream shows it as a
    /// `resync` if it changed), its flag timer dropped as another process's change would drop
    /// it. (A timer of a game another process changed meanwhile may still fire here: it finds
    /// the clock not fallen, or the game ended, and does nothing.)
    async fn catch_up(&self, hub: &Hub, timers: &Timers) {
        for id in hub.watched_games() {
            timers.disarm(&id);
            match stored::current(&self.store, &id).await {
                Ok(stored) => hub.publish(
                    &id,
                    Update {
                        version: stored.version,
                        happened: Vec::new(),
                        joined: stored::joined(&stored),
                        game: stored.state,
                        rendered: Default::default(),
                    },
                ),
                Err(error) => tracing::warn!(game = %id, %error, "could not catch up a game"),
            }
        }
    }

    async fn relay_stale(&self, hub: &Hub, announcement: Announcement) {
        // Setup steps come before the start, which the rebuilt game has behind it already: they
        // have no ply to lose and are left out.
        if announcement.happened.contains(&Happened::SetUp) {
            return;
        }
        let id = &announcement.id;
        match crate::rewind::game_at(&self.store, id, announcement.events).await {
            Ok(game) => hub.publish(
                id,
                Update {
                    version: announcement.version,
                    happened: announcement.happened,
                    game: Arc::new(game),
                    // None known here: a stream keeps the flags it has shown (they only turn on).
                    joined: Joined::default(),
                    rendered: Default::default(),
                },
            ),
            Err(why) => tracing::debug!(game = %id, why, "an older change not shown"),
        }
    }
}

/// The start of every announcement from `origin`: the field comes first in [`Announcement`].
fn own_prefix(origin: &str) -> String {
    let origin = serde_json::to_string(origin).unwrap_or_default();
    format!("{{\"origin\":{origin},")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn announcement(origin: &str) -> String {
        serde_json::to_string(&Announcement {
            origin: origin.to_owned(),
            id: GameId::from_bits(3),
            version: 7,
            happened: Vec::new(),
            events: 12,
        })
        .expect("serialises")
    }

    #[test]
    fn a_process_knows_its_own_announcements_unread_and_no_one_elses() {
        let origin = gmo_store::new_id();
        let other = gmo_store::new_id();
        let own = own_prefix(&origin);
        assert!(
            announcement(&origin).starts_with(&own),
            "{own} against {}",
            announcement(&origin)
        );
        assert!(!announcement(&other).starts_with(&own));
        // An origin that is another's with more after it is not taken for it.
        assert!(!announcement(&format!("{origin}x")).starts_with(&own));
    }
}
