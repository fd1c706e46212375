//! A game's full state as plain data, so that a server can store it as JSON and load it back
//! without replaying (the compiled genomes are rebuilt from their DNA on load).

use crate::clock::Clock;
use crate::game::{Game, GameStatus, Reason, Seat, Settings};
use crate::position::{EndReason, GameResult};
use crate::record::Event;
use crate::snapshot::{BadData, BoardData};
use crate::square::{ByColor, Color};
use gmo_types::Timestamp;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSnapshot {
    pub settings: Settings,
    pub seed: u64,
    pub status: GameStatus,
    pub reason: Option<Reason>,
    pub seats: ByColor<Seat>,
    pub clock: Clock,
    pub frozen_until: Option<Timestamp>,
    /// Absent in games stored before draw offers existed.
    #[serde(default)]
    pub draw_offer: Option<Color>,
    pub started_ms: Option<Timestamp>,
    /// When the running first-move timer runs out; absent in games stored before they existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move_until: Option<Timestamp>,
    pub board: BoardData,
    pub setup: Option<BoardData>,
    pub events: Vec<Event>,
}

impl Game {
    pub fn snapshot(&self) -> GameSnapshot {
        GameSnapshot {
            events: self.events.to_vec(),
            ..self.snapshot_without_events()
        }
    }

    /// The snapshot with an empty record, for a store that keeps the events apart (copying a long
    /// record only to drop it would cost a move as much as the rest of the snapshot).
    pub fn snapshot_without_events(&self) -> GameSnapshot {
        GameSnapshot {
            settings: self.settings,
            seed: self.seed,
            status: self.status,
            reason: self.reason,
            seats: self.seats,
            clock: self.clock,
            frozen_until: self.frozen_until,
            draw_offer: self.draw_offer,
            started_ms: self.started,
            first_move_until: self.first_move_until,
            board: BoardData::of(&self.position),
            setup: self.setup.clone(),
            events: Vec::new(),
        }
    }
}

impl From<Game> for GameSnapshot {
    fn from(game: Game) -> Self {
        game.snapshot()
    }
}

impl TryFrom<GameSnapshot> for Game {
    type Error = BadData;

    fn try_from(snapshot: GameSnapshot) -> Result<Game, BadData> {
        let mut game =
            Game::new(snapshot.settings, snapshot.seed).map_err(|e| BadData(e.to_string()))?;
        let mut position = snapshot.board.to_position()?;
        if position.size() != game.position.size() {
            return Err(BadData("the board does not have the settings' size".into()));
        }
        position.set_ended(king_rule_verdict(snapshot.status, snapshot.reason));
        game.position = position;
        game.status = snapshot.status;
        game.reason = snapshot.reason;
        game.seats = snapshot.seats;
        game.clock = snapshot.clock;
        game.frozen_until = snapshot.frozen_until;
        game.draw_offer = snapshot.draw_offer;
        game.started = snapshot.started_ms;
        game.first_move_until = snapshot.first_move_until;
        game.setup = snapshot.setup;
        game.events = snapshot.events.into();
        Ok(game)
    }
}

/// The position's own record of a king-rule ending, which a stored game restores.
fn king_rule_verdict(
    status: GameStatus,
    reason: Option<Reason>,
) -> Option<(GameResult, EndReason)> {
    let result = match status {
        GameStatus::WhiteWon => GameResult::WhiteWon,
        GameStatus::BlackWon => GameResult::BlackWon,
        GameStatus::Draw => GameResult::Draw,
        _ => return None,
    };
    match reason? {
        Reason::KingLost => Some((result, EndReason::KingLost)),
        Reason::KingsLost => Some((result, EndReason::BothKingsLost)),
        _ => None,
    }
}
