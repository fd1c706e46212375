//! The in-process hub: one broadcast channel per watched game. Every change of a game (made here,
//! by a timer or sweep, or announced by another process through the database) is published once;
//! each stream renders it for its own viewer.

use gmo_engine::{Color, Game, PlyView, Viewer};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// How many updates a slow stream may fall behind before it must resynchronise.
const CAPACITY: usize = 256;

/// What a line of a game's stream says happened (docs/service.md: the stream's `"type"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineType {
    /// A move was made (the line carries its `ply`).
    Move,
    /// A pawn was promoted (the line carries its `ply`).
    Promotion,
    /// A seat loaded its preset, toggled a king or declared ready.
    Setup,
    /// Both seats are ready: the game and White's clock start.
    Start,
    /// A move froze the game: both clocks stand still until `frozen_until`.
    Clock,
    /// The game is over (`status` and `reason` say how).
    End,
    /// The stream fell behind: this is the game as it is now.
    Resync,
    /// A seat offered a draw (`game.draw_offer` names it).
    DrawOffer,
    /// The pending draw offer was declined: the other seat moved.
    DrawDeclined,
    /// The other seat accepted the draw offer: an `end` line follows (reason `agreement`).
    DrawAgreed,
    /// A seat asked for a rematch (`color`); after the end, on seats' streams only.
    RematchOffer,
    /// Both seats asked for a rematch: the line names the new game and this seat's token in it.
    Rematch,
    /// A seat's holder opened the game for the first time (`game.seats.<color>.joined` turned
    /// `true`); no change of the game, so the line repeats the last version shown.
    Joined,
}

/// News of a finished game's rematch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RematchNews {
    /// This seat asked for one.
    Asked(Color),
    /// Both asked: this is the new game's id.
    Started(String),
}

/// A ply as each kind of viewer may see it (hidden genomes differ).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PlyViews {
    pub white: Option<PlyView>,
    pub black: Option<PlyView>,
    pub spectator: Option<PlyView>,
}

impl PlyViews {
    pub fn for_viewer(&self, viewer: Viewer) -> Option<&PlyView> {
        match viewer {
            Viewer::Player(Color::White) => self.white.as_ref(),
            Viewer::Player(Color::Black) => self.black.as_ref(),
            Viewer::Spectator => self.spectator.as_ref(),
        }
    }
}

/// One committed change of a game.
#[derive(Debug, Clone)]
pub struct Update {
    /// The game's version after the change: streams skip what they have already shown.
    pub version: i64,
    /// The stream line types this change makes, in order (a move, then the end, …).
    pub kinds: Vec<LineType>,
    pub ply: PlyViews,
    pub game: Arc<Game>,
    /// Rematch news: not a change of the game (its version stays), shown to seats' streams.
    pub rematch: Option<RematchNews>,
    /// Which seats were taken when the update was made (`crate::games::joined`).
    pub joined: gmo_store::Joined,
}

impl Update {
    /// Whether this is news of a seat joining: no change of the game (its version stays).
    pub fn is_join(&self) -> bool {
        self.kinds == [LineType::Joined]
    }
}

/// The channels of the games someone watches in this process. A game's channel exists only
/// while it has a subscriber: the last [`Subscription`] to go removes it.
#[derive(Debug, Default)]
pub struct Hub {
    channels: Mutex<HashMap<String, broadcast::Sender<Arc<Update>>>>,
}

/// One stream's place on a game's channel; dropping it leaves the channel, and the channel goes
/// with its last subscriber.
#[derive(Debug)]
pub struct Subscription {
    hub: Arc<Hub>,
    id: String,
    receiver: Option<broadcast::Receiver<Arc<Update>>>,
}

impl Hub {
    /// Starts receiving the updates of game `id` published from now on. Subscribe only to a game
    /// that exists and the caller may see: the channel lives as long as the subscription.
    pub fn subscribe(self: &Arc<Self>, id: &str) -> Subscription {
        let receiver = self
            .lock()
            .entry(id.to_owned())
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe();
        Subscription {
            hub: self.clone(),
            id: id.to_owned(),
            receiver: Some(receiver),
        }
    }

    /// Hands an update to the game's watchers, if it has any.
    pub fn publish(&self, id: &str, update: Update) {
        if let Some(sender) = self.lock().get(id) {
            // No receiver is possible only for a moment (the last one is leaving): ignore it.
            let _ = sender.send(Arc::new(update));
        }
    }

    /// Whether anyone in this process watches game `id`.
    pub fn watched(&self, id: &str) -> bool {
        self.lock()
            .get(id)
            .is_some_and(|sender| sender.receiver_count() > 0)
    }

    /// How many games have a channel (someone watches them): for tests and metrics.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no game has a channel.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<Arc<Update>>>> {
        // The map stays consistent even if a holder panicked: every edit is one call.
        self.channels
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Subscription {
    /// The next update (see [`broadcast::Receiver::recv`]).
    pub async fn recv(&mut self) -> Result<Arc<Update>, broadcast::error::RecvError> {
        match &mut self.receiver {
            Some(receiver) => receiver.recv().await,
            None => Err(broadcast::error::RecvError::Closed),
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        drop(self.receiver.take());
        let mut channels = self.hub.lock();
        // Under the map's lock no one can subscribe meanwhile: an unheard channel can go.
        if channels
            .get(&self.id)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            channels.remove(&self.id);
        }
    }
}
