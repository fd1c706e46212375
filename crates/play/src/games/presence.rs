//! Whether each player is there, as on lichess: a seat's stream pulses while it is open, a seat
//! not seen for a while (`--away-after`, 12 s) is away, and a seat whose opponent has been away
//! long enough (`--claim-after`, 60 s) may claim the victory.

use super::Games;
use super::change::{Actor, Changed};
use crate::bot_seats;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::progress::Act;
use crate::stored::Stored;
use crate::time::now;
use gmo_engine::Color;
use gmo_types::{ByColor, GameId, Millis, Timestamp};

/// The most often an open seat stream shows its player there.
const LONGEST_TICK: std::time::Duration = std::time::Duration::from_secs(5);

/// When a player is away, and when the other may claim the victory.
#[derive(Debug, Clone, Copy)]
pub struct Absence {
    /// A seat not seen for this long is away.
    pub away_after: Millis,
    /// How long a player must have been away before the other may claim the victory.
    pub claim_after: Millis,
}

/// Whether a seat's player is there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Presence {
    pub present: bool,
    /// Since when an away player has been away (last seen, or the start for one never seen).
    pub away_since: Option<Timestamp>,
}

impl Games {
    /// How often an open seat stream shows its player there: well within the time after which a
    /// seat is away (less than half of it, at most every 5 s).
    pub fn presence_tick(&self) -> std::time::Duration {
        (self.absence.away_after.to_std() * 2 / 5)
            .clamp(std::time::Duration::from_millis(50), LONGEST_TICK)
    }

    /// How long a player must have been away before the other may claim the victory.
    pub fn claim_after(&self) -> Millis {
        self.absence.claim_after
    }

    /// Notes that `seat`'s player has game `id` open now.
    pub async fn pulse(&self, id: &GameId, seat: Color) -> PlayResult<()> {
        Ok(self.store.pulse_seat(id, seat, now()).await?)
    }

    /// Whether each player of game `id` is there now (a bot always is).
    pub async fn presence(&self, id: &GameId) -> PlayResult<ByColor<Presence>> {
        let stored = self.load(id).await?;
        self.presence_of(&stored, now()).await
    }

    async fn presence_of(&self, stored: &Stored, now: Timestamp) -> PlayResult<ByColor<Presence>> {
        let seen = self.store.seats_seen(&stored.id).await?;
        let started = stored.state.started();
        Ok(seen.map(|color, seen| {
            if bot_seats::bot_of(&stored.settings, color).is_some() {
                return Presence {
                    present: true,
                    away_since: None,
                };
            }
            let present = seen.is_some_and(|seen| now.since(seen) < self.absence.away_after);
            Presence {
                present,
                away_since: if present { None } else { seen.or(started) },
            }
        }))
    }

    /// The holder of `token` claims the victory on game `id`: its opponent has been away long
    /// enough (refused otherwise, saying how long is left).
    pub async fn claim_victory(&self, id: &GameId, token: &str) -> PlayResult<Changed> {
        let stored = self.load(id).await?;
        let seat = self.seat_of(&stored, token).await?;
        let opponent = seat.opponent();
        if bot_seats::bot_of(&stored.settings, opponent).is_some() {
            return Err(PlayError::refused(
                PlayCode::OpponentPresent,
                "your opponent is a bot: it never leaves",
            ));
        }
        let now = now();
        let away = self
            .presence_of(&stored, now)
            .await?
            .get(opponent)
            .away_since;
        let away_for = away.map(|since| now.since(since));
        let claim_after = self.absence.claim_after;
        if away_for.is_none_or(|away_for| away_for < claim_after) {
            let wait = claim_after - away_for.unwrap_or(Millis::ZERO);
            return Err(PlayError::refused(
                PlayCode::OpponentPresent,
                format!(
                    "you may claim the victory once your opponent has been away for {} s; {}",
                    claim_after.ms() / 1_000,
                    match away_for {
                        Some(_) => format!("wait {} s more", (wait.ms() + 999) / 1_000),
                        None => "your opponent is here".to_owned(),
                    }
                ),
            ));
        }
        self.change(id, Actor::Token(token), |game, seat, now| {
            game.claim_victory(seat, now)?;
            Ok(Act::Claimed)
        })
        .await
    }
}
