//! Challenges (issue 33, lichess's shape): a signed-in player or bot asks another account for a
//! game; the challenged accepts (the game is made as the lobby makes its games) or declines, the
//! challenger may cancel, and an unanswered challenge expires (after 60 s by default:
//! `--challenge-expiry`). The state lives in
//! the store, so any process answers any of them; each account's event stream (`feed`) shows
//! them with its games. A change rings the bell of both accounts' streams: here directly, on the
//! other processes through `NOTIFY` on PostgreSQL (else they see it at their next tick).

mod feed;

pub use feed::{Feed, FeedEvent, QUIET, STREAMS_PER_ACCOUNT, TICK};

use crate::accounts::Caller;
use crate::bell::Bell;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::games::{Games, settings_of};
use crate::lobby::set_up;
use crate::time::now;
use gmo_engine::Color;
use gmo_store::{
    ACCOUNT_CHANNEL, AcceptedChallenge, Account, Challenge, ChallengeState, Leader, NewChallenge,
    Notice, Pool, challenge_seat_token, token_hash,
};
use gmo_types::{AccountId, ByColor, ChallengeId, ColorWish, GameId, Millis, Username};
use std::sync::Arc;

/// The most open challenges one account may have made.
pub const MAX_OPEN: u32 = 20;
/// The most games from challenges one account plays at once (a bot that takes on more than it
/// can play would lose them on the clock).
pub const MAX_PLAYING: u32 = 32;
/// The most bots `GET /api/bots/online` lists.
pub const BOTS_LISTED: u32 = 100;
/// The longest decline reason, in characters.
pub const MAX_REASON: usize = 100;
/// What a decline says when it gives no reason.
pub const DEFAULT_REASON: &str = "generic";

/// What a challenge asks for.
#[derive(Debug, Clone)]
pub struct ChallengeRequest {
    pub width: Option<u8>,
    pub height: Option<u8>,
    pub initial: Millis,
    pub increment: Option<Millis>,
    pub wish: ColorWish,
    pub rated: bool,
    /// The preset both seats are asked to set up with (a code or a name).
    pub preset: Option<String>,
}

/// A challenge accepted: the game and the accepter's seat and token.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub game: GameId,
    pub color: Color,
    pub token: String,
}

/// The challenges part of the service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Challenges {
    games: Games,
    /// How long a challenge waits for an answer.
    expiry: Millis,
    /// Wakes this process's event streams of an account.
    bell: Arc<Bell<AccountId>>,
}

impl Challenges {
    pub fn new(games: Games, expiry: Millis) -> Challenges {
        let streams = STREAMS_PER_ACCOUNT as usize;
        Challenges {
            games,
            expiry,
            bell: Arc::new(Bell::new(streams)),
        }
    }

    /// The bell of this process's event streams (tests check nothing leaks).
    pub fn bell(&self) -> &Arc<Bell<AccountId>> {
        &self.bell
    }

    /// Wakes both sides' event streams, here and on the other processes.
    async fn ring(&self, challenge: &Challenge) {
        for account in [&challenge.challenger.account, &challenge.challenged.account] {
            self.bell.ring(account);
            let store = self.games.store();
            if let Err(error) = store.notify_on(ACCOUNT_CHANNEL, account.as_str()).await {
                tracing::warn!(%error, "a change of a challenge could not be announced");
            }
        }
    }

    /// Rings this process's event streams of the accounts other processes announce, until the
    /// server stops (nothing on SQLite).
    pub async fn listen_forever(self) {
        loop {
            let mut notifications = match self.games.store().listen_on(ACCOUNT_CHANNEL).await {
                Ok(Some(notifications)) => notifications,
                Ok(None) => return,
                Err(error) => {
                    tracing::warn!(%error, "cannot listen for challenges; retrying");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    continue;
                }
            };
            loop {
                match notifications.next().await {
                    Ok(Notice::Payload(id)) => {
                        if let Ok(id) = AccountId::parse(&id) {
                            self.bell.ring(&id);
                        }
                    }
                    Ok(Notice::Lost) => self.bell.ring_all(),
                    Err(error) => {
                        tracing::warn!(%error, "listening for challenges failed; retrying");
                        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    }
                }
            }
        }
    }

    /// `caller` challenges `username` → the stored challenge.
    pub async fn open(
        &self,
        caller: &Caller,
        username: &Username,
        request: ChallengeRequest,
    ) -> PlayResult<Challenge> {
        let store = self.games.store();
        let challenged = self.live_account(username).await?;
        if challenged.id == caller.account {
            return Err(PlayError::invalid(
                PlayCode::OwnChallenge,
                "`username`: a challenge goes to another account than one's own",
            ));
        }
        let pool = self.pool(caller, &challenged, &request)?;
        if let Some(preset) = &request.preset {
            // Unknown, as on the other routes that name a preset: 404 (a well-formed name the
            // document allows, which no preset has).
            store
                .preset(preset)
                .await
                .map_err(|_| PlayError::not_found("preset", preset))?;
        }
        let now = now();
        let new = NewChallenge {
            challenger: caller.account.clone(),
            challenged: challenged.id,
            pool,
            color: request.wish,
            preset: request.preset,
            now,
            expires: now + self.expiry,
            secret: gmo_store::new_token(),
        };
        let id = store.open_challenge(&new, MAX_OPEN).await?.ok_or_else(|| {
            PlayError::refused(
                PlayCode::ChallengeLimit,
                format!(
                    "an account may have at most {MAX_OPEN} open challenges; cancel one or \
                         wait for an answer"
                ),
            )
        })?;
        let challenge = self.load(&id).await?;
        self.ring(&challenge).await;
        Ok(challenge)
    }

    /// The challenge's pool, checked: the board and clock as a seek's, and a rated game on
    /// 8 × 8 between two people or two bots.
    fn pool(
        &self,
        caller: &Caller,
        challenged: &Account,
        request: &ChallengeRequest,
    ) -> PlayResult<Pool> {
        let clock = (request.initial, request.increment);
        let settings = settings_of(
            request.width,
            request.height,
            Some(clock),
            self.games.first_move(),
        )?;
        if request.rated && (settings.width, settings.height) != (8, 8) {
            return Err(PlayError::invalid(
                PlayCode::RatedBoard,
                format!(
                    "`rated`: rated games are 8 × 8; this challenge asks for {} × {}",
                    settings.width, settings.height
                ),
            ));
        }
        if request.rated && caller.bot != challenged.bot {
            return Err(PlayError::invalid(
                PlayCode::RatedPool,
                "`rated`: bots and people are rated apart; a rated game is between two bots or \
                 two people",
            ));
        }
        Ok(Pool {
            width: settings.width.into(),
            height: settings.height.into(),
            initial: settings.initial_ms,
            increment: settings.increment_ms,
            rated: request.rated,
        })
    }

    /// The challenged accepts: the game is made (the challenger's colour as wished, else a
    /// coin's) → the accepter's seat and token.
    pub async fn accept(&self, caller: &Caller, id: &ChallengeId) -> PlayResult<Accepted> {
        let challenge = self.load(id).await?;
        only(caller, &challenge.challenged.account, CHALLENGED_ONLY)?;
        still_open(&challenge)?;
        let new = set_up(challenge.pool, &self.games)?;
        let challenger = challenge
            .color
            .seat_against(ColorWish::Random, rand::random());
        let seat = |color: Color| Some(token_hash(&challenge_seat_token(&challenge.secret, color)));
        let mut row = new.row(seat(Color::White), seat(Color::Black), None, None);
        row.rated = challenge.pool.rated;
        let (mine, theirs) = (
            Some(challenge.challenged.account.clone()),
            Some(challenge.challenger.account.clone()),
        );
        row.accounts = match challenger {
            Color::White => ByColor::new(theirs, mine),
            Color::Black => ByColor::new(mine, theirs),
        };
        let store = self.games.store();
        let players = [&challenge.challenger.account, &challenge.challenged.account];
        let bound = (players, MAX_PLAYING);
        let game = match store
            .accept_challenge(id, now(), &row, challenger, bound)
            .await?
        {
            AcceptedChallenge::Game(game) => game,
            AcceptedChallenge::Closed => return Err(closed()),
            AcceptedChallenge::Busy(account) => {
                let who = if account == caller.account {
                    "you play"
                } else {
                    "the challenger plays"
                };
                return Err(PlayError::refused(
                    PlayCode::TooManyGames,
                    format!(
                        "{who} {MAX_PLAYING} games from challenges already, as many as one may \
                         at once; finish one first"
                    ),
                ));
            }
        };
        self.games.created(&game, &new, None);
        self.ring(&challenge).await;
        let color = challenger.opponent();
        Ok(Accepted {
            token: challenge_seat_token(&challenge.secret, color),
            game,
            color,
        })
    }

    /// The challenged declines, with a reason (1 to [`MAX_REASON`] characters, no control
    /// characters; default [`DEFAULT_REASON`]).
    pub async fn decline(
        &self,
        caller: &Caller,
        id: &ChallengeId,
        reason: Option<&str>,
    ) -> PlayResult<()> {
        let reason = checked_reason(reason)?;
        let challenge = self.load(id).await?;
        only(caller, &challenge.challenged.account, CHALLENGED_ONLY)?;
        self.close(&challenge, Some(reason)).await
    }

    /// The challenger cancels.
    pub async fn cancel(&self, caller: &Caller, id: &ChallengeId) -> PlayResult<()> {
        let challenge = self.load(id).await?;
        only(caller, &challenge.challenger.account, CHALLENGER_ONLY)?;
        self.close(&challenge, None).await
    }

    /// `caller`'s event stream: at most [`STREAMS_PER_ACCOUNT`] open at once, across
    /// processes.
    pub async fn feed(&self, caller: &Caller) -> PlayResult<Feed> {
        let ringer = self.bell.hold(&caller.account);
        Feed::open(self.games.clone(), caller.account.clone(), ringer).await
    }

    /// The bots with an event stream open now, best rated first (at most [`BOTS_LISTED`]).
    pub async fn bots_online(&self) -> PlayResult<Vec<Leader>> {
        let alive = now() - QUIET;
        Ok(self.games.store().bots_online(alive, BOTS_LISTED).await?)
    }

    async fn close(&self, challenge: &Challenge, reason: Option<&str>) -> PlayResult<()> {
        still_open(challenge)?;
        let store = self.games.store();
        if store.close_challenge(&challenge.id, reason, now()).await? {
            self.ring(challenge).await;
            Ok(())
        } else {
            Err(closed())
        }
    }

    async fn load(&self, id: &ChallengeId) -> PlayResult<Challenge> {
        self.games
            .store()
            .challenge(id)
            .await?
            .ok_or_else(|| PlayError::not_found("challenge", id))
    }

    async fn live_account(&self, username: &Username) -> PlayResult<Account> {
        self.games
            .store()
            .account_named(username)
            .await?
            .filter(|account| account.deleted_at.is_none())
            .ok_or_else(|| PlayError::not_found("player", username))
    }
}

/// Only `party`'s account may do this to the challenge (`what` says who does what, for the 403).
fn only(caller: &Caller, party: &gmo_types::AccountId, what: &'static str) -> PlayResult<()> {
    if &caller.account == party {
        Ok(())
    } else {
        Err(PlayError::WrongToken { what })
    }
}

const CHALLENGED_ONLY: &str = "this challenge: only the challenged accepts or declines it";
const CHALLENGER_ONLY: &str = "this challenge: only its challenger cancels it";

fn still_open(challenge: &Challenge) -> PlayResult<()> {
    let now = now();
    if challenge.is_open(now) {
        return Ok(());
    }
    let state = match &challenge.state {
        _ if challenge.expired(now) => "expired",
        ChallengeState::Open => "open",
        ChallengeState::Accepted { .. } => "accepted",
        ChallengeState::Declined { .. } => "declined",
        ChallengeState::Canceled => "canceled",
    };
    Err(PlayError::refused(
        PlayCode::ChallengeClosed,
        format!("the challenge is {state} already"),
    ))
}

fn closed() -> PlayError {
    PlayError::refused(
        PlayCode::ChallengeClosed,
        "the challenge was answered, canceled or expired meanwhile",
    )
}

/// A decline's reason: 1 to [`MAX_REASON`] characters without control characters.
fn checked_reason(raw: Option<&str>) -> PlayResult<&str> {
    let Some(raw) = raw else {
        return Ok(DEFAULT_REASON);
    };
    let length = raw.chars().count();
    if (1..=MAX_REASON).contains(&length) && !raw.chars().any(char::is_control) {
        return Ok(raw);
    }
    Err(PlayError::invalid(
        PlayCode::BadChallenge,
        format!(
            "`reason`: 1 to {MAX_REASON} characters without control characters; got {length} \
             characters"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_short_text_or_the_default() {
        assert_eq!(checked_reason(None).ok(), Some(DEFAULT_REASON));
        assert_eq!(checked_reason(Some("too_fast")).ok(), Some("too_fast"));
        assert!(checked_reason(Some("")).is_err());
        assert!(checked_reason(Some("a\nb")).is_err());
        assert!(checked_reason(Some(&"x".repeat(MAX_REASON + 1))).is_err());
    }
}
