//! The in-process hub: one broadcast channel per watched game. Every change of a game (made here,
//! by a timer or the sweep, or announced by another process through the database) is published
//! once, as an [`Update`] saying what [`Happened`]; each stream renders it for its own viewer.

use gmo_engine::{Color, Game, PlyView, Viewer};
use gmo_store::Joined;
use gmo_types::GameId;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// How many updates a slow stream may fall behind before it must resynchronise.
const CAPACITY: usize = 256;

/// What happened to a game, in the order it happened: each is one line of the game's streams.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Happened {
    /// A seat loaded its preset, toggled a king or declared ready.
    SetUp,
    /// Both seats are ready: the game and White's clock start.
    Started,
    /// A move, as each viewer may see it.
    Moved(PlyViews),
    /// A promotion, as each viewer may see it.
    Promoted(PlyViews),
    /// A move froze the game: both clocks stand still until the freeze ends.
    Froze,
    /// A seat offered a draw.
    DrawOffered,
    /// The pending draw offer was declined: the other seat moved.
    DrawDeclined,
    /// The other seat accepted the draw offer (the game ends).
    DrawAgreed,
    /// The game is over.
    Ended,
    /// A seat's holder opened the game for the first time. No change of the game: its version
    /// stays.
    Joined(Color),
    /// After the end, a seat asked for a rematch. No change of the game.
    RematchAsked(Color),
    /// Both seats asked: the rematch has started as this game. No change of the game.
    RematchStarted(GameId),
}

impl Happened {
    /// Whether this is news about the game rather than a change of it (its version stays).
    pub fn is_news(&self) -> bool {
        matches!(
            self,
            Happened::Joined(_) | Happened::RematchAsked(_) | Happened::RematchStarted(_)
        )
    }
}

/// A ply as each kind of viewer may see it (the other side's new genomes stay hidden).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlyViews {
    pub white: Option<PlyView>,
    pub black: Option<PlyView>,
    pub spectator: Option<PlyView>,
}

impl PlyViews {
    /// The ply views of every kind of viewer, each made by `view`.
    pub fn of(view: impl Fn(Viewer) -> PlyView) -> PlyViews {
        PlyViews {
            white: Some(view(Viewer::Player(Color::White))),
            black: Some(view(Viewer::Player(Color::Black))),
            spectator: Some(view(Viewer::Spectator)),
        }
    }

    pub fn for_viewer(&self, viewer: Viewer) -> Option<&PlyView> {
        match viewer {
            Viewer::Player(Color::White) => self.white.as_ref(),
            Viewer::Player(Color::Black) => self.black.as_ref(),
            Viewer::Spectator => self.spectator.as_ref(),
        }
    }
}

/// What the streams of one update have rendered, by a key of their own (the kind of viewer, the
/// kind of lines, the version a stream showed before): the first stream of a kind renders, every
/// other reuses the same bytes. Kept with the update, so it goes with its last stream.
#[derive(Debug, Default)]
pub struct Rendered(Mutex<HashMap<u64, Arc<dyn std::any::Any + Send + Sync>>>);

impl Rendered {
    /// What was rendered under `key`, rendering it with `render` if nothing was yet.
    pub fn get_or_render<T: std::any::Any + Send + Sync>(
        &self,
        key: u64,
        render: impl FnOnce() -> T,
    ) -> Option<Arc<T>> {
        let mut rendered = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = rendered
            .entry(key)
            .or_insert_with(|| Arc::new(render()) as Arc<dyn std::any::Any + Send + Sync>);
        entry.clone().downcast::<T>().ok()
    }
}

/// One committed change of a game, or news about it.
#[derive(Debug, Clone)]
pub struct Update {
    /// The game's version after the change (news repeats the version it came at): streams skip
    /// what they have already shown.
    pub version: i64,
    /// What happened, in order.
    pub happened: Vec<Happened>,
    /// The game after the change.
    pub game: Arc<Game>,
    /// Which seats were taken when the update was made.
    pub joined: Joined,
    /// Its lines as the streams rendered them (one rendering per kind of stream).
    pub rendered: Arc<Rendered>,
}

impl Update {
    /// Whether this is news (a seat joining, a rematch) rather than a change of the game.
    pub fn is_news(&self) -> bool {
        !self.happened.is_empty() && self.happened.iter().all(Happened::is_news)
    }
}

/// The channels of the games someone watches in this process. A game's channel exists only
/// while it has a subscriber: the last [`Subscription`] to go removes it.
#[derive(Debug, Default)]
pub struct Hub {
    channels: Mutex<HashMap<GameId, broadcast::Sender<Arc<Update>>>>,
}

/// One stream's place on a game's channel; dropping it leaves the channel, and the channel goes
/// with its last subscriber.
#[derive(Debug)]
pub struct Subscription {
    hub: Arc<Hub>,
    id: GameId,
    receiver: Option<broadcast::Receiver<Arc<Update>>>,
}

/// Why a subscription got no update.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missed {
    /// The stream fell this far behind: what it missed is gone, it must look at the game afresh.
    Lagged(u64),
    /// The channel is gone.
    Closed,
}

impl Hub {
    /// Starts receiving the updates of game `id` published from now on. Subscribe only to a game
    /// that exists and the caller may see: the channel lives as long as the subscription.
    pub fn subscribe(self: &Arc<Self>, id: &GameId) -> Subscription {
        let receiver = self
            .lock()
            .entry(id.clone())
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe();
        Subscription {
            hub: self.clone(),
            id: id.clone(),
            receiver: Some(receiver),
        }
    }

    /// Hands an update to the game's watchers, if it has any.
    pub fn publish(&self, id: &GameId, update: Update) {
        if let Some(sender) = self.lock().get(id) {
            // No receiver is possible only for a moment (the last one is leaving): ignore it.
            let _ = sender.send(Arc::new(update));
        }
    }

    /// Whether anyone in this process watches game `id`.
    pub fn watched(&self, id: &GameId) -> bool {
        self.lock()
            .get(id)
            .is_some_and(|sender| sender.receiver_count() > 0)
    }

    /// The games someone in this process watches.
    pub fn watched_games(&self) -> Vec<GameId> {
        self.lock().keys().cloned().collect()
    }

    /// How many games have a channel (someone watches them): for tests and metrics.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no game has a channel.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, broadcast::Sender<Arc<Update>>>> {
        // The map stays consistent even if a holder panicked: every edit is one call.
        self.channels
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Subscription {
    /// The next update published to the game.
    pub async fn recv(&mut self) -> Result<Arc<Update>, Missed> {
        let Some(receiver) = &mut self.receiver else {
            return Err(Missed::Closed);
        };
        receiver.recv().await.map_err(|error| match error {
            broadcast::error::RecvError::Lagged(missed) => Missed::Lagged(missed),
            broadcast::error::RecvError::Closed => Missed::Closed,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rendering_is_made_once_per_key_and_shared() {
        let rendered = Rendered::default();
        let mut made = 0;
        let first = rendered.get_or_render(1, || {
            made += 1;
            vec![1_u8, 2]
        });
        let again = rendered.get_or_render(1, || {
            made += 1;
            vec![9_u8]
        });
        let other = rendered.get_or_render(2, || vec![3_u8]);
        assert_eq!(made, 1, "rendered once for key 1");
        let (first, again) = (first.expect("bytes"), again.expect("bytes"));
        assert!(
            Arc::ptr_eq(&first, &again),
            "the same bytes for every stream of a kind"
        );
        assert_eq!(other.as_deref(), Some(&vec![3_u8]));
        assert!(
            rendered.get_or_render::<String>(1, String::new).is_none(),
            "another type"
        );
    }

    #[test]
    fn only_news_is_news() {
        let id = GameId::from_bits(7);
        assert!(Happened::Joined(Color::White).is_news());
        assert!(Happened::RematchStarted(id).is_news());
        assert!(!Happened::Ended.is_news() && !Happened::Moved(PlyViews::default()).is_news());
    }
}
