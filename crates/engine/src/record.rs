//! A game's record (issue item 6): settings, seed, seats, the position at the start (genomes as
//! canonical DNA, kings marked) and every event with its time and what it drew. [`replay`] runs
//! the events through the same code as live play, with the recorded draws instead of the seed.

use crate::game::{Game, GameError, GameStatus, Reason, Seat, Settings};
use crate::position::{Drawn, Draws};
use crate::snapshot::BoardData;
use crate::square::{ByColor, Color, Square};
use gmo_genome::Genome;
use gmo_types::Timestamp;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Something that happened in a game, at the (effective) time it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A move: requested `from`→`to`, landed where the deviation put it, and the mover's new DNA
    /// when it mutates.
    Move {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
        from: Square,
        to: Square,
        landed: Square,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mutated_to: Option<String>,
    },
    /// The due pawn on `square` became a piece of this DNA.
    Promotion {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
        square: Square,
        genome: String,
    },
    Resign {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
        color: Color,
    },
    Abort {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
        color: Color,
    },
    /// The game was stopped without result by neither side ([`Game::stop`]).
    Stop {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
    },
    /// The bot playing `color` kept failing to act: the service gave up and aborted the game
    /// ([`Game::bot_failed`]).
    BotFailed {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
        color: Color,
    },
    /// `color` claimed the victory: the other side had left the game.
    Claim {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
        color: Color,
    },
    /// The running clock (or a first-move timer) ran out at `at_ms`.
    Time {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
    },
    /// `color` offered a draw; it stays pending until the other seat answers or moves.
    DrawOffer {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
        color: Color,
    },
    /// `color` declined the other seat's pending draw offer.
    DrawDeclined {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
        color: Color,
    },
    /// `color` accepted the other seat's pending draw offer: the game ended drawn.
    DrawAgreed {
        #[cfg_attr(feature = "openapi", schema(value_type = i64))]
        at_ms: Timestamp,
        color: Color,
    },
}

impl Event {
    /// When it happened.
    pub fn at(&self) -> Timestamp {
        match self {
            Event::Move { at_ms, .. }
            | Event::Promotion { at_ms, .. }
            | Event::Resign { at_ms, .. }
            | Event::Abort { at_ms, .. }
            | Event::Claim { at_ms, .. }
            | Event::BotFailed { at_ms, .. }
            | Event::Stop { at_ms }
            | Event::DrawOffer { at_ms, .. }
            | Event::DrawDeclined { at_ms, .. }
            | Event::DrawAgreed { at_ms, .. }
            | Event::Time { at_ms } => *at_ms,
        }
    }
}

/// Everything needed to rebuild a game exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameRecord {
    pub settings: Settings,
    pub seed: u64,
    pub seats: ByColor<Seat>,
    /// The position when the game started (or now, if it never did).
    pub setup: BoardData,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<i64>))]
    pub started_ms: Option<Timestamp>,
    pub events: Vec<Event>,
    /// How it stands at the end of the record; checked by [`replay`].
    pub status: GameStatus,
    pub reason: Option<Reason>,
}

impl Game {
    pub fn record(&self) -> GameRecord {
        GameRecord {
            settings: self.settings,
            seed: self.seed,
            seats: self.seats,
            setup: self
                .setup
                .clone()
                .unwrap_or_else(|| BoardData::of(&self.position)),
            started_ms: self.started,
            events: self.events.to_vec(),
            status: self.status,
            reason: self.reason,
        }
    }
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    Setup(String),
    Event { index: usize, why: String },
    Outcome { recorded: String, replayed: String },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Setup(why) => write!(f, "the record's setup does not load: {why}"),
            ReplayError::Event { index, why } => {
                write!(f, "event {index} of the record does not replay: {why}")
            }
            ReplayError::Outcome { recorded, replayed } => write!(
                f,
                "the record says the game is {recorded}, but it replays to {replayed}"
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Rebuilds the game a record describes, state for state.
pub fn replay(record: &GameRecord) -> Result<Game, ReplayError> {
    let setup = |why: String| ReplayError::Setup(why);
    let mut game = Game::new(record.settings, record.seed).map_err(|e| setup(e.to_string()))?;
    let position = record
        .setup
        .to_position()
        .map_err(|e| setup(e.to_string()))?;
    if position.size() != game.position.size() {
        return Err(setup("the board does not have the settings' size".into()));
    }
    if position.moves_played() != 0 {
        return Err(setup("the start position has moves played".into()));
    }
    game.position = position;
    game.seats = record.seats;
    let both_ready = record.seats.white.ready && record.seats.black.ready;
    match record.started_ms {
        Some(at) if both_ready => game.start(at),
        None if !both_ready => {}
        _ => {
            return Err(setup(
                "a game starts exactly when both seats are ready".into(),
            ));
        }
    }
    game.replay_events(&record.events)?;
    let outcome = |status: GameStatus, reason: Option<Reason>| match reason {
        Some(reason) => format!("{} ({reason:?})", status.name()),
        None => status.name().to_string(),
    };
    if (game.status, game.reason) != (record.status, record.reason) {
        return Err(ReplayError::Outcome {
            recorded: outcome(record.status, record.reason),
            replayed: outcome(game.status, game.reason),
        });
    }
    Ok(game)
}

impl Game {
    /// Applies recorded events, as [`replay`] does after the setup: to a game restored from a
    /// snapshot taken after its first events, the events since, so that a server need not store
    /// the whole state with every move. Each event must come out of the engine exactly as recorded
    /// (errors count events from the start of the game). On error the game is left part-way.
    pub fn replay_events(&mut self, events: &[Event]) -> Result<(), ReplayError> {
        let first = self.events.len();
        for (offset, event) in events.iter().enumerate() {
            let index = first + offset;
            let fail = |why: String| ReplayError::Event { index, why };
            apply(self, event).map_err(|e| fail(e.to_string()))?;
            if self.events.last() != Some(event) {
                return Err(fail(format!("replaying it gave {:?}", self.events.last())));
            }
        }
        Ok(())
    }
}

/// Why one event could not be applied.
#[derive(Debug)]
enum ApplyError {
    Game(GameError),
    Genome(String),
    NoFlagFall,
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::Game(e) => e.fmt(f),
            ApplyError::Genome(e) => write!(f, "bad genome: {e}"),
            ApplyError::NoFlagFall => f.write_str("no clock had reached zero at that time"),
        }
    }
}

impl From<GameError> for ApplyError {
    fn from(e: GameError) -> Self {
        ApplyError::Game(e)
    }
}

fn parse(dna: &str) -> Result<Genome, ApplyError> {
    Genome::parse(dna).map_err(|e| ApplyError::Genome(e.to_string()))
}

fn apply(game: &mut Game, event: &Event) -> Result<(), ApplyError> {
    let side = game.position.side_to_move();
    match event {
        Event::Move {
            at_ms,
            from,
            to,
            landed,
            mutated_to,
        } => {
            let drawn = Drawn {
                landed: *landed,
                mutation: mutated_to.as_deref().map(parse).transpose()?,
            };
            let now = game.require_turn(side, *at_ms, "move")?;
            if let Some(due) = game.position.due_promotion() {
                return Err(GameError::PromotionDue(due).into());
            }
            game.make_move(side, *from, *to, now, Draws::Recorded(&drawn))?;
        }
        Event::Promotion { at_ms, genome, .. } => {
            game.promote(side, &parse(genome)?, *at_ms)?;
        }
        Event::Resign { at_ms, color } => game.resign(*color, *at_ms)?,
        Event::Abort { at_ms, color } => game.abort(*color, *at_ms)?,
        Event::Claim { at_ms, color } => game.claim_victory(*color, *at_ms)?,
        Event::Stop { at_ms } => game.stop(*at_ms)?,
        Event::BotFailed { at_ms, color } => game.bot_failed(*color, *at_ms)?,
        Event::DrawOffer { at_ms, color } | Event::DrawAgreed { at_ms, color } => {
            game.offer_draw(*color, *at_ms)?;
        }
        Event::DrawDeclined { at_ms, color } => game.decline_draw(*color, *at_ms)?,
        Event::Time { at_ms } => {
            if !game.tick(*at_ms) {
                return Err(ApplyError::NoFlagFall);
            }
        }
    }
    Ok(())
}
