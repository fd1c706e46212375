//! One account's event stream (`GET /api/stream/event`): what it has shown, and what changed
//! since. Each look reads the account's live challenges and games from the store, so a change
//! made on any process shows within a [`TICK`]; challenges and games it showed that are no longer
//! live are read one by one to say how they ended. A change of a challenge rings its bell, so
//! challenges show at once; a game's end shows at the next tick. Its lease row bounds the streams of one
//! account across processes and tells who is online.

use crate::bell::Ringer;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::games::Games;
use crate::time::now;
use gmo_engine::{Color, GameStatus, Reason};
use gmo_store::{Challenge, ChallengeState, challenge_seat_token};
use gmo_types::{AccountId, ChallengeId, GameId, Millis, Timestamp};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// How often a stream looks again.
pub const TICK: Duration = Duration::from_secs(1);
/// A stream shows itself alive this often (every few looks).
const PULSE_EVERY: Millis = Millis::from_ms(3_000);
/// A stream not shown alive for this long is gone (its process died): it no longer counts.
pub const QUIET: Millis = Millis::from_ms(10_000);
/// The most event streams one account may have open at once.
pub const STREAMS_PER_ACCOUNT: u32 = 4;
/// The most live challenges and games one look reads.
const LIVE_LIMIT: u32 = 200;

/// What an event stream says.
#[derive(Debug, Clone)]
pub enum FeedEvent {
    /// A challenge made or received, open.
    Challenge(Box<Challenge>),
    /// A challenge canceled by its challenger (`expired`: nobody answered in time).
    Canceled { id: ChallengeId, expired: bool },
    /// A challenge declined, and why.
    Declined { id: ChallengeId, reason: String },
    /// A game of the account began: its seat and token.
    GameStart {
        game: GameId,
        color: Color,
        token: String,
    },
    /// A game of the account ended.
    GameFinish {
        game: GameId,
        status: GameStatus,
        reason: Option<Reason>,
    },
}

/// One open event stream.
#[derive(Debug)]
pub struct Feed {
    games: Games,
    account: AccountId,
    lease: String,
    pulsed: Timestamp,
    open: HashSet<ChallengeId>,
    playing: HashMap<GameId, ChallengeId>,
    /// Rings when a challenge of the account changes (none: more streams here than the bell
    /// admits, and the tick alone wakes it).
    ringer: Option<Ringer<AccountId>>,
}

impl Feed {
    /// Opens `account`'s stream unless it has [`STREAMS_PER_ACCOUNT`] open already.
    pub(super) async fn open(
        games: Games,
        account: AccountId,
        ringer: Option<Ringer<AccountId>>,
    ) -> PlayResult<Feed> {
        let lease = gmo_store::new_id();
        let now = now();
        let store = games.store();
        let opened = store
            .open_event_stream(&lease, &account, now, now - QUIET, STREAMS_PER_ACCOUNT)
            .await?;
        if !opened {
            return Err(PlayError::refused(
                PlayCode::TooManyStreams,
                format!(
                    "an account may have at most {STREAMS_PER_ACCOUNT} event streams open; \
                     close one"
                ),
            ));
        }
        Ok(Feed {
            games,
            account,
            lease,
            pulsed: now,
            open: HashSet::new(),
            playing: HashMap::new(),
            ringer,
        })
    }

    /// Waits for the bell: a challenge of the account changed (never, without a bell).
    pub async fn rung(&self) {
        match &self.ringer {
            Some(ringer) => ringer.notified().await,
            None => std::future::pending().await,
        }
    }

    /// What changed since the last look (on the first: every open challenge and game in
    /// progress); shows the stream alive every few looks.
    pub async fn look(&mut self) -> PlayResult<Vec<FeedEvent>> {
        let now = now();
        let store = self.games.store().clone();
        if now.since(self.pulsed) >= PULSE_EVERY {
            store.pulse_event_stream(&self.lease, now).await?;
            self.pulsed = now;
        }
        let live = store
            .live_challenges(&self.account, now, LIVE_LIMIT)
            .await?;
        let mut events = Vec::new();
        let mut ended = Vec::new();
        for challenge in &live {
            self.compare(challenge, now, &mut events, &mut ended);
        }
        let seen: HashSet<&ChallengeId> = live.iter().map(|challenge| &challenge.id).collect();
        let gone: Vec<ChallengeId> = self
            .open
            .iter()
            .chain(self.playing.values())
            .filter(|id| !seen.contains(id))
            .cloned()
            .collect();
        for id in gone {
            match store.challenge(&id).await? {
                Some(challenge) => self.compare(&challenge, now, &mut events, &mut ended),
                None => {
                    self.open.remove(&id);
                    self.playing.retain(|_, of| *of != id);
                }
            }
        }
        for game in ended {
            events.push(self.finish(game).await);
        }
        Ok(events)
    }

    /// The events that take `challenge` from what this stream showed to where it stands; games
    /// that ended go to `ended` (their end is read apart).
    fn compare(
        &mut self,
        challenge: &Challenge,
        now: Timestamp,
        events: &mut Vec<FeedEvent>,
        ended: &mut Vec<GameId>,
    ) {
        let id = &challenge.id;
        match &challenge.state {
            ChallengeState::Open if challenge.is_open(now) => {
                if self.open.insert(id.clone()) {
                    events.push(FeedEvent::Challenge(Box::new(challenge.clone())));
                }
            }
            ChallengeState::Open | ChallengeState::Canceled => {
                if self.open.remove(id) {
                    let expired = challenge.expired(now);
                    events.push(FeedEvent::Canceled {
                        id: id.clone(),
                        expired,
                    });
                }
            }
            ChallengeState::Declined { reason } => {
                if self.open.remove(id) {
                    let reason = reason.clone();
                    events.push(FeedEvent::Declined {
                        id: id.clone(),
                        reason,
                    });
                }
            }
            ChallengeState::Accepted { game, challenger } => {
                let shown_open = self.open.remove(id);
                let started = self.playing.contains_key(game);
                if !started && (shown_open || !challenge.game_over) {
                    events.push(self.start(challenge, game, *challenger));
                    self.playing.insert(game.clone(), id.clone());
                }
                if challenge.game_over && self.playing.remove(game).is_some() {
                    ended.push(game.clone());
                }
            }
        }
    }

    /// `game_start` for this account's seat.
    fn start(&self, challenge: &Challenge, game: &GameId, challenger: Color) -> FeedEvent {
        let color = if challenge.challenger.account == self.account {
            challenger
        } else {
            challenger.opponent()
        };
        FeedEvent::GameStart {
            game: game.clone(),
            color,
            token: challenge_seat_token(&challenge.secret, color),
        }
    }

    /// `game_finish` of `game`, as it ended (aborted when it is gone already).
    async fn finish(&self, game: GameId) -> FeedEvent {
        let (status, reason) = match self.games.show(&game, None).await {
            Ok(seen) => (seen.game.status(), seen.game.reason()),
            Err(error) => {
                tracing::warn!(%game, %error, "the end of a challenge's game could not be read");
                (GameStatus::Aborted, None)
            }
        };
        FeedEvent::GameFinish {
            game,
            status,
            reason,
        }
    }
}

impl Drop for Feed {
    /// The stream closed: its lease goes at once (else it would count until [`QUIET`]).
    fn drop(&mut self) {
        let store = self.games.store().clone();
        let lease = std::mem::take(&mut self.lease);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(error) = store.close_event_stream(&lease).await {
                    tracing::warn!(%error, "could not forget a closed event stream");
                }
            });
        }
    }
}
