//! Following one's seek until it is paired: each look shows the seek alive, pairs it again if a
//! match is open, or reads where it stands after the bell.

use super::Ringer;
use super::{Lobby, MAX_OPEN};
use crate::error::PlayResult;
use crate::time::now;
use gmo_engine::Color;
use gmo_store::{Pool, SeekState};
use gmo_types::{GameId, Millis, SeekId, Timestamp};
use std::sync::Arc;
use tokio::sync::Notify;

/// What woke a seek's follower.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Woke {
    /// Its [`TICK`]: time to show the seek alive and look for a match again.
    Tick,
    /// The bell: the seek was paired or withdrawn.
    Bell,
}

/// Where a followed seek stands after a look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Looked {
    /// Still open, this long.
    Waiting { age: Millis },
    /// Paired: the seeker's game, seat and seat token.
    Paired {
        game: GameId,
        seat: Color,
        token: String,
    },
    /// Withdrawn (by its owner, after its stream was gone, or after [`MAX_OPEN`]).
    Withdrawn,
    /// Nothing new (a bell that was not for a pairing).
    Unchanged,
}

/// One follower of a seek.
#[derive(Debug)]
pub struct Follow {
    pub(super) lobby: Lobby,
    pub(super) id: SeekId,
    pub(super) seat_token: String,
    pub(super) pool: Pool,
    pub(super) created: Timestamp,
    pub(super) ringer: Ringer,
}

impl Follow {
    pub fn id(&self) -> &SeekId {
        &self.id
    }

    /// Rings when the seek is paired or withdrawn.
    pub fn bell(&self) -> Arc<Notify> {
        self.ringer.notify.clone()
    }

    /// On a tick: expire, show alive, pair again if a match is open. On the bell: read where the
    /// seek stands.
    pub async fn look(&self, woke: Woke) -> PlayResult<Looked> {
        let now = now();
        let store = self.lobby.games.store();
        let expired = now.since(self.created) > MAX_OPEN;
        let seek = match woke {
            Woke::Tick if expired => store.withdraw_seek(&self.id).await?,
            Woke::Tick => {
                store.pulse_seek(&self.id, now).await?;
                self.lobby.pair(&self.id, self.pool).await?
            }
            Woke::Bell => match store.seek(&self.id).await? {
                None => SeekState::Gone,
                Some(seek) => match seek.paired {
                    Some((game, seat)) => SeekState::Paired { game, seat },
                    None => return Ok(Looked::Unchanged),
                },
            },
        };
        Ok(match seek {
            // Past its time and open: withdrawn just now.
            SeekState::Open if expired => Looked::Withdrawn,
            SeekState::Open => Looked::Waiting {
                age: now.since(self.created).at_least_zero(),
            },
            SeekState::Paired { game, seat } => Looked::Paired {
                game,
                seat,
                token: self.seat_token.clone(),
            },
            SeekState::Gone => Looked::Withdrawn,
        })
    }
}
