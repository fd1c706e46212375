//! Games: what seats, bots and creators do to them, each committed and announced. Every change is
//! load → the engine call with `now` on a copy → `store.apply` at the loaded version (one
//! transaction) → announce (`change.rs`). Changes of one game are serialised in this process by a
//! per-game lock, and across processes by the version check: the loser of a race is refused
//! with `conflict` and nothing changes. A clock that has fallen ends the game on time, whoever
//! finds it (`flag.rs`).

mod change;
mod flag;
mod live;
mod new;
mod presence;
mod seats;

pub use change::Changed;
pub use flag::flag_falls;
pub use live::{LIVE_PAGE, LIVE_PAGES};
pub use new::{Created, NewGameRequest, NewSetUp, settings_of};
pub use presence::{Absence, Presence};

use crate::cache::Cache;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::hub::{Hub, Subscription, Update};
use crate::locks::Locks;
use crate::metrics::Metrics;
use crate::progress::Act;
use crate::relay::Relay;
use crate::stored::{self, Stored};
use crate::timers::Timers;
use change::Actor;
use gmo_engine::{Color, DrawOffer, Game, GameStatus, MoveView, Square, Viewer};
use gmo_genome::Genome;
use gmo_store::{Head, Joined, Player, Rematch, Store};
use gmo_types::{AccountId, ByColor, GameId, Millis, Timestamp};
use std::sync::Arc;
use tokio::sync::mpsc;

/// The legal moves of the side to move and the promotion choices ([`Games::legal`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Legal {
    pub moves: Vec<MoveView>,
    /// The names of the genomes offered for the due pawn, while one is due.
    pub promotion: Option<&'static [&'static str]>,
}

/// A bot's turn for this process to take: game `id`'s bot may act from `due`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotWake {
    pub id: GameId,
    pub due: Timestamp,
}

/// The games of the service, as this process holds them. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Games {
    store: Store,
    hub: Arc<Hub>,
    cache: Arc<Cache>,
    locks: Arc<Locks>,
    relay: Arc<Relay>,
    timers: Arc<Timers>,
    metrics: Metrics,
    /// This process's name in the database, as the holder of bot turns' leases.
    instance: Arc<str>,
    /// Where this process's bot turns go (`crate::bots` takes them).
    wakes: mpsc::Sender<BotWake>,
    /// The most live games with a bot seat in the deployment.
    max_bot_games: u32,
    /// Each side's time for its first move in new games.
    first_move: Millis,
    /// New games keep the genome language secret (`--discovery`).
    discovery: bool,
    /// When a player is away, and when the other may claim the victory.
    absence: presence::Absence,
}

/// A game as one viewer may see it now.
#[derive(Debug, Clone)]
pub struct Seen {
    pub id: GameId,
    pub version: i64,
    pub game: Arc<Game>,
    /// Which seats are taken.
    pub joined: Joined,
    pub viewer: Viewer,
    /// Whose account each seat is.
    pub players: ByColor<Option<Player>>,
    pub rated: bool,
}

/// A game's stream from here on: the game as first shown and its updates since.
#[derive(Debug)]
pub struct Watch {
    pub seen: Seen,
    pub updates: Subscription,
    /// For a seat watching a game that is over: where its rematch stands (the stream waits for
    /// it).
    pub rematch: Option<Rematch>,
}

/// What a [`Games`] is made of.
#[derive(Debug)]
pub struct Parts {
    pub store: Store,
    pub hub: Arc<Hub>,
    pub relay: Arc<Relay>,
    pub timers: Arc<Timers>,
    pub metrics: Metrics,
    pub instance: Arc<str>,
    pub wakes: mpsc::Sender<BotWake>,
    pub max_bot_games: u32,
    pub first_move: Millis,
    pub discovery: bool,
    pub absence: Absence,
}

impl Games {
    pub fn new(parts: Parts) -> Games {
        let Parts {
            store,
            hub,
            relay,
            timers,
            metrics,
            instance,
            wakes,
            max_bot_games,
            first_move,
            discovery,
            absence,
        } = parts;
        Games {
            store,
            hub,
            cache: Arc::default(),
            locks: Arc::default(),
            relay,
            timers,
            metrics,
            instance,
            wakes,
            max_bot_games,
            first_move,
            discovery,
            absence,
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    pub fn timers(&self) -> &Arc<Timers> {
        &self.timers
    }

    /// Holds game `id`'s lock in this process while the turn lives: one change (or rematch ask)
    /// of a game at a time here.
    pub(crate) async fn lock(&self, id: &GameId) -> crate::locks::Turn<'_> {
        self.locks.lock(id).await
    }

    /// Counts a game made elsewhere (a rematch the store created).
    pub(crate) fn counted_creation(&self) {
        self.metrics.games_created.inc();
    }

    /// This process's name as the holder of leases.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Game `id` (refused when missing): from this process's cache while the stored version is
    /// the cached one, else decoded from the store (and cached). Who has joined is read fresh
    /// either way (in the same read as the version: joining is no change of the game).
    pub async fn load(&self, id: &GameId) -> PlayResult<Stored> {
        let head = self.store.game_head(id).await?;
        if let Some(mut stored) = self.cache.get(id, head.version) {
            stored.joined = stored.joined.union(head.joined);
            if players_moved_on(&stored, &head) {
                // Linked, or rated, since (neither changes the version): read them afresh.
                stored.players = self.store.players(id).await?;
                self.cache.put(stored.clone());
            }
            return Ok(stored);
        }
        let stored = stored::decode(&self.store, id).await?;
        self.cache.put(stored.clone());
        Ok(stored)
    }

    /// Game `id` as the holder of `token` may see it (none: a spectator).
    pub async fn show(&self, id: &GameId, token: Option<&str>) -> PlayResult<Seen> {
        let stored = self.load(id).await?;
        let viewer = self.viewer_of_token(&stored, token).await?;
        Ok(seen(id, stored, viewer))
    }

    /// Game `id` as the holder of `token`, signed in as `account`, sees it: the seat becomes the
    /// account's when it has none yet (an invite opened while signed in; never a bot's seat, an
    /// ended game's, or the other seat's account's).
    pub async fn show_linked(
        &self,
        id: &GameId,
        token: &str,
        account: &AccountId,
    ) -> PlayResult<Seen> {
        let seen = self.show(id, Some(token)).await?;
        let Viewer::Player(seat) = seen.viewer else {
            return Ok(seen);
        };
        if seen.players.get(seat).is_some() || !self.store.link(id, seat, account).await? {
            return Ok(seen);
        }
        // The cache learns of it through the next head read.
        self.show(id, Some(token)).await
    }

    /// Game `id` for its record: as [`Games::show`], once the game is over.
    pub async fn finished(&self, id: &GameId, token: Option<&str>) -> PlayResult<Seen> {
        let seen = self.show(id, token).await?;
        if !seen.game.is_over() {
            return Err(PlayError::refused(
                PlayCode::NotOver,
                format!(
                    "the record is open once the game is over; it is {}",
                    seen.game.status().name()
                ),
            ));
        }
        Ok(seen)
    }

    /// The legal moves of the piece on `at`, either side's.
    pub async fn moves(
        &self,
        id: &GameId,
        token: Option<&str>,
        at: Square,
    ) -> PlayResult<Vec<MoveView>> {
        let seen = self.show(id, token).await?;
        if !seen.game.position().size().contains(at) {
            return Err(gmo_engine::GameError::NotOnBoard(at).into());
        }
        Ok(seen.game.move_views(at))
    }

    /// Every legal move of the side to move in game `id`, and the promotion choices while a pawn
    /// is due, for a seat's holder (`token`): what an agent gets with its turn.
    pub async fn legal(&self, id: &GameId, token: &str) -> PlayResult<Legal> {
        let seen = self.show(id, Some(token)).await?;
        Ok(Legal {
            moves: seen.game.legal_move_views(),
            promotion: seen.game.promotion_choices(),
        })
    }

    /// Starts following game `id`: found and authorised first (only a game someone may watch
    /// gets a channel), then subscribed and looked at again, so that no change committed in
    /// between is missed.
    pub async fn watch(&self, id: &GameId, token: Option<&str>) -> PlayResult<Watch> {
        let first = self.show(id, token).await?;
        let updates = self.hub.subscribe(id);
        let stored = self.load(id).await?;
        let seat = matches!(first.viewer, Viewer::Player(_));
        let rematch = if seat && stored.state.is_over() {
            Some(self.store.rematch(id).await?)
        } else {
            None
        };
        Ok(Watch {
            seen: seen(id, stored, first.viewer),
            updates,
            rematch,
        })
    }

    /// Loads the seat's preset (setup only, once).
    pub async fn load_preset(
        &self,
        id: &GameId,
        token: &str,
        genomes: &[Genome],
    ) -> PlayResult<Changed> {
        self.change(id, Actor::Token(token), |game, seat, _| {
            game.load_preset(seat, genomes)?;
            Ok(Act::SetUp)
        })
        .await
    }

    /// Toggles the king flag of one of the seat's pieces (setup only).
    pub async fn toggle_king(&self, id: &GameId, token: &str, at: Square) -> PlayResult<Changed> {
        self.change(id, Actor::Token(token), |game, seat, _| {
            game.toggle_king(seat, at)?;
            Ok(Act::SetUp)
        })
        .await
    }

    /// Declares the seat ready; the game starts when both are.
    pub async fn ready(&self, id: &GameId, token: &str) -> PlayResult<Changed> {
        self.change(id, Actor::Token(token), |game, seat, now| {
            game.ready(seat, now)?;
            Ok(Act::Ready)
        })
        .await
    }

    /// Makes a move.
    pub async fn play(
        &self,
        id: &GameId,
        token: &str,
        from: Square,
        to: Square,
    ) -> PlayResult<Changed> {
        self.change(id, Actor::Token(token), |game, seat, now| {
            let ply = game.play(seat, from, to, now)?;
            Ok(Act::Moved { ply, mover: seat })
        })
        .await
    }

    /// Promotes the due pawn into `genome`.
    pub async fn promote(&self, id: &GameId, token: &str, genome: &Genome) -> PlayResult<Changed> {
        self.change(id, Actor::Token(token), |game, seat, now| {
            Ok(Act::Promoted(game.promote(seat, genome, now)?))
        })
        .await
    }

    /// Offers a draw, or accepts the other seat's pending offer. Offering again while the seat's
    /// own offer is pending changes nothing (and says nothing on the stream).
    pub async fn offer_draw(&self, id: &GameId, token: &str) -> PlayResult<Seen> {
        let stored = self.load(id).await?;
        let seat = self.seat_of(&stored, token).await?;
        if stored.state.draw_offer() == Some(seat) && !stored.state.is_over() {
            return Ok(seen(id, stored, Viewer::Player(seat)));
        }
        let changed = self
            .change(id, Actor::Token(token), |game, seat, now| {
                let offer: DrawOffer = game.offer_draw(seat, now)?;
                Ok(Act::Draw(offer))
            })
            .await?;
        Ok(changed.seen())
    }

    /// Resigns: the seat loses.
    pub async fn resign(&self, id: &GameId, token: &str) -> PlayResult<Changed> {
        self.change(id, Actor::Token(token), |game, seat, now| {
            game.resign(seat, now)?;
            Ok(Act::Resigned)
        })
        .await
    }

    /// Starts an event's game still in setup, whoever of its seats is not ready (its time to set
    /// up is over) → the change, or `None` when it had started already.
    pub async fn start_by_itself(&self, id: &GameId) -> PlayResult<Option<Changed>> {
        if self.load(id).await?.state.status() != GameStatus::Setup {
            return Ok(None);
        }
        let changed = self
            .change(id, Actor::Event, |game, _, now| {
                for color in [Color::White, Color::Black] {
                    if !game.seats().get(color).ready && game.status() == GameStatus::Setup {
                        game.ready(color, now)?;
                    }
                }
                Ok(Act::Ready)
            })
            .await?;
        Ok(Some(changed))
    }

    /// Refuses to call off or rematch game `id` when it is an event's (it is played out).
    pub(crate) async fn refuse_event_game(&self, id: &GameId, what: &str) -> PlayResult<()> {
        if self.store.event_of_game(id).await?.is_some() {
            return Err(PlayError::refused(
                PlayCode::EventGame,
                format!("an event's game cannot be {what}: play it out or resign"),
            ));
        }
        Ok(())
    }

    /// Calls the game off: a seat before White's first move; the creator of a game between bots
    /// (with its creator token) at any time before the end. Not an event's game.
    pub async fn abort(&self, id: &GameId, token: &str) -> PlayResult<Changed> {
        self.refuse_event_game(id, "aborted").await?;
        if self.load(id).await?.created_by(token) {
            return self
                .change(id, Actor::Creator(token), |game, _, now| {
                    game.stop(now)?;
                    Ok(Act::Stopped)
                })
                .await;
        }
        self.change(id, Actor::Token(token), |game, seat, now| {
            game.abort(seat, now)?;
            Ok(Act::Aborted)
        })
        .await
    }

    /// The bot whose turn it is plays `act` on game `id`, which it saw at `version` (refused
    /// when no bot is to move, or the game moved on since).
    pub async fn act_as_bot(
        &self,
        id: &GameId,
        version: i64,
        act: impl Fn(&mut Game, Color, Timestamp) -> PlayResult<Act>,
    ) -> PlayResult<Changed> {
        self.change(id, Actor::Bot(version), act).await
    }

    /// Game `id` as it is now, as an update that says nothing of what happened: for a stream
    /// that fell behind.
    pub async fn current(&self, id: &GameId) -> PlayResult<Update> {
        let stored = self.load(id).await?;
        Ok(Update {
            version: stored.version,
            happened: Vec::new(),
            joined: stored::joined(&stored),
            game: stored.state,
            rendered: Default::default(),
        })
    }

    /// Where game `id`'s rematch stands.
    pub async fn rematch_of(&self, id: &GameId) -> PlayResult<Rematch> {
        Ok(self.store.rematch(id).await?)
    }
}

fn seen(id: &GameId, stored: Stored, viewer: Viewer) -> Seen {
    Seen {
        id: id.clone(),
        joined: stored::joined(&stored),
        version: stored.version,
        game: stored.state,
        viewer,
        players: stored.players,
        rated: stored.rated,
    }
}

/// Whether the head read says more of the players than the cached game knows (a seat linked,
/// an account deleted, the rating changes written).
fn players_moved_on(stored: &Stored, head: &Head) -> bool {
    let account = |player: &Option<Player>| player.as_ref().map(|player| player.account.clone());
    let cached = ByColor::new(
        account(&stored.players.white),
        account(&stored.players.black),
    );
    let deleted = |player: &Option<Player>| player.as_ref().is_some_and(|player| player.deleted);
    let cached_deleted = ByColor::new(
        deleted(&stored.players.white),
        deleted(&stored.players.black),
    );
    let diffs = stored
        .players
        .white
        .as_ref()
        .and_then(|player| player.rating_diff);
    cached != head.accounts
        || cached_deleted != head.deleted
        || (head.rating_diffs && diffs.is_none())
}
