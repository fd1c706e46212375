//! Changing a game and committing it: the one path every change takes, whoever asks.

use super::flag::flag_falls;
use super::{BotWake, Games, Seen};
use crate::bot_seats;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::hub::{Happened, Update};
use crate::progress::{Act, happened};
use crate::stored::{self, Stored, snapshot_due};
use crate::time::now;
use gmo_engine::{Color, Event, Game, GameSnapshot, GameStatus, PlyView, Viewer};
use gmo_genome::Genome;
use gmo_store::{BotTurn, Change, Joined, Player, StoreError};
use gmo_types::{ByColor, GameId, Timestamp};
use std::sync::Arc;

/// A committed change.
#[derive(Debug, Clone)]
pub struct Changed {
    pub id: GameId,
    /// The game's version after the change.
    pub version: i64,
    /// The seat that acted (for a creator's stop: the side to move, or White).
    pub seat: Color,
    /// Who asked, as a viewer: the seat, or a spectator (a creator).
    pub viewer: Viewer,
    pub game: Arc<Game>,
    pub act: Act,
    /// What happened, as the streams were told.
    pub happened: Vec<Happened>,
    pub now: Timestamp,
    /// Which seats are taken, as far as this process knows.
    pub joined: Joined,
    /// Whose account each seat is (after a rated end, with the rating changes).
    pub players: ByColor<Option<Player>>,
    pub rated: bool,
}

impl Changed {
    /// The game as whoever asked sees it now.
    pub fn seen(&self) -> Seen {
        Seen {
            id: self.id.clone(),
            version: self.version,
            game: self.game.clone(),
            joined: self.joined,
            viewer: self.viewer,
            players: self.players.clone(),
            rated: self.rated,
        }
    }

    /// The ply the change made, as whoever asked sees it (none for a change that is no ply).
    pub fn ply_view(&self) -> Option<PlyView> {
        match &self.act {
            Act::Moved { ply, mover } => Some(self.game.move_ply_view(ply, *mover, self.viewer)),
            Act::Promoted(ply) => Some(self.game.promotion_ply_view(ply, self.viewer)),
            _ => None,
        }
    }
}

/// Who asks for a change.
pub(super) enum Actor<'a> {
    /// The holder of a seat's token.
    Token(&'a str),
    /// The bot of the side to move, on the game at this version.
    Bot(i64),
    /// The creator of a game between bots (the act gets the side to move, or White).
    Creator(&'a str),
    /// The service itself, for an event (the act gets White): it starts a game nobody started.
    Event,
}

/// Whether a game was just read from the database, or may be behind it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fresh {
    Yes,
    No,
}

/// What a commit made.
pub(super) struct Committed {
    pub game: Arc<Game>,
    pub happened: Vec<Happened>,
    pub version: i64,
    pub players: ByColor<Option<Player>>,
}

enum Attempt {
    Done(Box<PlayResult<Changed>>),
    /// The game was not the stored one: nothing changed.
    Outdated,
}

impl Games {
    /// Runs `act` for `actor` on game `id` and commits what it did. A refused act changes
    /// nothing, except that a clock found fallen on the way ends the game (and that is committed
    /// and announced too).
    pub(super) async fn change(
        &self,
        id: &GameId,
        actor: Actor<'_>,
        act: impl Fn(&mut Game, Color, Timestamp) -> PlayResult<Act>,
    ) -> PlayResult<Changed> {
        let _turn = self.locks.lock(id).await;
        // First on the game as this process last committed it, without reading the database:
        // the version check of the commit (or, for a refusal, one read of the version) finds out
        // if another process moved the game on, and then the change runs once more on a fresh
        // load.
        if let Some(cached) = self.cache.latest(id) {
            match self.attempt(id, &cached, &actor, &act, Fresh::No).await {
                Attempt::Done(result) => return *result,
                Attempt::Outdated => self.cache.forget(id),
            }
        }
        let stored = self.load(id).await?;
        match self.attempt(id, &stored, &actor, &act, Fresh::Yes).await {
            Attempt::Done(result) => *result,
            // A lost race with another process: nothing changed.
            Attempt::Outdated => Err(PlayError::lost_race()),
        }
    }

    async fn attempt(
        &self,
        id: &GameId,
        stored: &Stored,
        actor: &Actor<'_>,
        act: &impl Fn(&mut Game, Color, Timestamp) -> PlayResult<Act>,
        fresh: Fresh,
    ) -> Attempt {
        let now = now();
        let mut game = Game::clone(&stored.state);
        let mut fell = false;
        let acted = match self.actor_seat(stored, actor).await {
            Ok(seat) => {
                // A clock that has fallen ends the game before anyone acts on it.
                fell = flag_falls(&mut game, now);
                act(&mut game, seat, now).map(|act| (seat, act))
            }
            Err(refusal) => Err(refusal),
        };
        let (seat, act) = match acted {
            Ok(acted) => acted,
            Err(refusal) => {
                // Tokens never change, so a refused token needs no fresh read; anything else
                // may rest on an old version.
                if fresh == Fresh::No && !self.still_current(stored).await {
                    return Attempt::Outdated;
                }
                if fell {
                    if let Err(error) = self.commit(id, stored, game, &Act::Nothing, now).await {
                        return outdated_or_failed(error);
                    }
                }
                return Attempt::Done(Box::new(Err(refusal)));
            }
        };
        match self.commit(id, stored, game, &act, now).await {
            Ok(Committed {
                game,
                happened,
                version,
                players,
            }) => Attempt::Done(Box::new(Ok(Changed {
                id: id.clone(),
                version,
                seat,
                viewer: match actor {
                    Actor::Creator(_) | Actor::Event => Viewer::Spectator,
                    Actor::Token(_) | Actor::Bot(_) => Viewer::Player(seat),
                },
                game,
                act,
                happened,
                now,
                joined: stored::joined(stored),
                players,
                rated: stored.rated,
            }))),
            Err(error) => outdated_or_failed(error),
        }
    }

    /// The seat `actor` acts for on `stored`.
    async fn actor_seat(&self, stored: &Stored, actor: &Actor<'_>) -> PlayResult<Color> {
        match actor {
            Actor::Token(token) => self.seat_of(stored, token).await,
            Actor::Bot(version) if *version == stored.version => bot_to_move(stored),
            Actor::Bot(_) => Err(PlayError::refused(
                PlayCode::MovedOn,
                "the game changed while the bot thought",
            )),
            Actor::Creator(token) if stored.created_by(token) => {
                Ok(stored.state.to_move().unwrap_or(Color::White))
            }
            Actor::Creator(token) => Err(self.wrong_token(token, "this game").await),
            Actor::Event => Ok(Color::White),
        }
    }

    /// Whether `stored` is still the game's stored version (a refusal may rest on it).
    async fn still_current(&self, stored: &Stored) -> bool {
        matches!(self.store.game_version(&stored.id).await, Ok(v) if v == stored.version)
    }

    /// Writes `game` over `stored` (version-checked) and announces what `act` did once
    /// committed: to other processes, then to this process's streams.
    pub(super) async fn commit(
        &self,
        id: &GameId,
        stored: &Stored,
        game: Game,
        act: &Act,
        now: Timestamp,
    ) -> Result<Committed, StoreError> {
        let event = (game.events().len() > stored.state.events().len())
            .then(|| game.events().last())
            .flatten();
        // The genome the change brings onto the board is stored first, so that its code resolves
        // once the change is seen, and a failure to store it leaves the game unchanged.
        if let Some(dna) = event.and_then(new_dna) {
            let genome = Genome::parse(dna)
                .map_err(|error| StoreError::Corrupt(format!("the engine's new DNA: {error}")))?;
            self.store.put_genome(&genome).await?;
        }
        let bot_turn = bot_seats::turn(&stored.settings, &game, now, &self.instance);
        let change = change_of(stored, &game, event.cloned(), bot_turn);
        let happened = happened(&stored.state, &game, act);
        let game = Arc::new(game);
        let applied = self.store.apply(&stored.id, stored.version, &change).await;
        let version = match applied {
            Ok(version) => version,
            Err(error) => {
                // Another process may have moved the game on: decode it afresh next time.
                self.cache.forget(id);
                return Err(error);
            }
        };
        let mut next = after(stored, &change, version, game.clone());
        if change.rated.is_some() {
            // Rated in the same transaction: the rating changes are the store's to tell.
            match self.store.players(id).await {
                Ok(players) => next.players = players,
                Err(error) => {
                    tracing::warn!(game = %id, %error, "could not read a rated game's players");
                }
            }
        }
        let players = next.players.clone();
        self.cache.put(next);
        self.count(&stored.state, &game);
        if game.is_over() && !stored.state.is_over() {
            crate::library::count_end(&self.store, id, &game);
        }
        // Announced while the game's lock is held, so that its announcements leave in version
        // order.
        let update = Update {
            version,
            happened: happened.clone(),
            game: game.clone(),
            joined: stored::joined(stored),
            rendered: Default::default(),
        };
        self.publish(id, update);
        // This process holds the next bot turn's lease: its bot acts at once.
        if let Some(turn) = &change.bot_turn {
            self.wake_bot(id, turn);
        }
        Ok(Committed {
            game,
            happened,
            version,
            players,
        })
    }

    /// Hands a committed update to other processes, then to this process: its streams, and the
    /// game's flag timer, re-armed to the game's new deadline.
    pub(crate) fn publish(&self, id: &GameId, update: Update) {
        self.relay.notify(id, &update);
        let deadline = update.game.deadline();
        self.arm_flag(id, deadline);
        self.hub.publish(id, update);
    }

    /// Hands news that changes nothing of the game (a seat joining, a rematch) to other
    /// processes, then to this process's streams; the flag timers stay as they are.
    pub(crate) fn announce(&self, id: &GameId, update: Update) {
        self.relay.notify(id, &update);
        self.hub.publish(id, update);
    }

    /// Tells this process's bot worker that game `id`'s bot is to act (a full queue leaves the
    /// turn to the takeover loop once its lease runs out).
    pub(crate) fn wake_bot(&self, id: &GameId, turn: &BotTurn) {
        let wake = BotWake {
            id: id.clone(),
            due: turn.due,
        };
        if let Err(error) = self.wakes.try_send(wake) {
            tracing::debug!(game = %id, %error, "a bot's turn is left to the takeover loop");
        }
    }

    fn count(&self, before: &Game, after: &Game) {
        if after.moves_played() > before.moves_played() {
            self.metrics.moves.inc();
        }
        if before.status() == GameStatus::Setup && after.status() != GameStatus::Setup {
            self.metrics.games_started.inc();
        }
        if after.is_over() && !before.is_over() {
            self.metrics.games_ended.inc();
        }
    }
}

fn outdated_or_failed(error: StoreError) -> Attempt {
    match error {
        StoreError::Stale { .. } => Attempt::Outdated,
        other => Attempt::Done(Box::new(Err(other.into()))),
    }
}

/// The side to move, if a bot holds its seat.
fn bot_to_move(stored: &Stored) -> PlayResult<Color> {
    match stored.state.to_move() {
        Some(color) if bot_seats::bot_of(&stored.settings, color).is_some() => Ok(color),
        _ => Err(PlayError::refused(
            PlayCode::NotBotTurn,
            "no bot is to move",
        )),
    }
}

/// The DNA of the genome a ply brings onto the board: a mutant, or a promoted pawn's new genome.
fn new_dna(event: &Event) -> Option<&str> {
    match event {
        Event::Move { mutated_to, .. } => mutated_to.as_deref(),
        Event::Promotion { genome, .. } => Some(genome),
        _ => None,
    }
}

/// The stored game after `change` into `game` committed as `version`.
fn after(
    stored: &Stored,
    change: &Change<Event, GameSnapshot>,
    version: i64,
    game: Arc<Game>,
) -> Stored {
    let finished = game.is_over();
    let plies = stored.plies + i64::from(change.ply.is_some());
    Stored {
        version,
        status: game.status(),
        finished,
        plies,
        state_plies: if change.state.is_some() {
            plies
        } else {
            stored.state_plies
        },
        deadline: game.deadline().filter(|_| !finished),
        state: game,
        ..stored.clone()
    }
}

/// What the store writes for `stored` changed into `game` (`bot_turn`: the bot turn it leaves,
/// if any).
fn change_of(
    stored: &Stored,
    game: &Game,
    ply: Option<Event>,
    bot_turn: Option<BotTurn>,
) -> Change<Event, GameSnapshot> {
    Change {
        state: snapshot_due(stored, game, ply.is_some()),
        ply,
        status: game.status(),
        deadline: game.deadline(),
        finished: game.is_over(),
        bot_turn,
        rated: crate::ratings::rated_end(stored.rated, &stored.players, game),
    }
}
