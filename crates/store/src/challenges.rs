//! Challenges (issue 33, migration 0019): one account asks another for a game, lichess's way.
//!
//! A challenge is `open` until it is `accepted` (with its game), `declined` or `canceled`; an
//! open one past its expiry reads as expired wherever it is read, so every process agrees
//! without a sweep. Accepting is one transaction that closes the challenge and creates the game:
//! the `UPDATE … WHERE state = 'open'` takes the row, so two accepts never both create one.

use crate::backend::Dialect;
use crate::games::NewGame;
use crate::seeks::Pool;
use crate::{Store, StoreError};
use gmo_types::{AccountId, ChallengeId, Color, ColorWish, GameId, Millis, Timestamp, Username};
use serde::Serialize;

/// The channel changes of challenges are announced on (the payload is an account's id: its event
/// streams look again at once instead of at their next tick).
pub const ACCOUNT_CHANNEL: &str = "gmo_accounts";

/// One side of a challenge, as the accounts table has it now.
#[derive(Debug, Clone, PartialEq)]
pub struct Party {
    pub account: AccountId,
    pub username: Username,
    pub bot: bool,
    pub rating: f64,
    pub deviation: f64,
}

/// Where a challenge stands, as stored (an open one may have expired: see
/// [`Challenge::expired`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChallengeState {
    Open,
    /// Accepted: its game, and the challenger's colour there.
    Accepted {
        game: GameId,
        challenger: Color,
    },
    Declined {
        reason: String,
    },
    Canceled,
}

/// A stored challenge.
#[derive(Debug, Clone, PartialEq)]
pub struct Challenge {
    pub id: ChallengeId,
    pub challenger: Party,
    pub challenged: Party,
    pub pool: Pool,
    pub color: ColorWish,
    pub preset: Option<String>,
    pub created_at: Timestamp,
    pub expires_at: Timestamp,
    pub state: ChallengeState,
    /// What each seat's token is derived from ([`crate::challenge_seat_token`]).
    pub secret: String,
    /// Whether its game is over (or gone); `false` before it has one.
    pub game_over: bool,
}

impl Challenge {
    /// Whether it is open but past its expiry at `now`.
    pub fn expired(&self, now: Timestamp) -> bool {
        self.state == ChallengeState::Open && self.expires_at <= now
    }

    /// Whether it is open and not expired at `now`.
    pub fn is_open(&self, now: Timestamp) -> bool {
        self.state == ChallengeState::Open && !self.expired(now)
    }
}

/// What an accept did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AcceptedChallenge {
    /// The game was made.
    Game(GameId),
    /// The challenge was no longer open.
    Closed,
    /// This account plays as many games from challenges as it may.
    Busy(AccountId),
}

/// A challenge to store.
#[derive(Debug, Clone)]
pub struct NewChallenge {
    pub challenger: AccountId,
    pub challenged: AccountId,
    pub pool: Pool,
    pub color: ColorWish,
    pub preset: Option<String>,
    pub now: Timestamp,
    pub expires: Timestamp,
    pub secret: String,
}

#[derive(sqlx::FromRow)]
struct ChallengeRow {
    id: String,
    challenger: String,
    challenged: String,
    challenger_name: String,
    challenged_name: String,
    challenger_bot: bool,
    challenged_bot: bool,
    challenger_rating: f64,
    challenged_rating: f64,
    challenger_deviation: f64,
    challenged_deviation: f64,
    width: i32,
    height: i32,
    clock_initial_ms: i64,
    clock_increment_ms: i64,
    rated: bool,
    color: String,
    preset: Option<String>,
    created_ms: i64,
    expires_ms: i64,
    state: String,
    reason: Option<String>,
    game_id: Option<String>,
    challenger_color: Option<String>,
    secret: String,
    game_finished: Option<bool>,
}

const COLUMNS: &str = "c.id, c.challenger, c.challenged, ca.username AS challenger_name, \
     cb.username AS challenged_name, ca.bot AS challenger_bot, cb.bot AS challenged_bot, \
     ca.rating AS challenger_rating, cb.rating AS challenged_rating, \
     ca.deviation AS challenger_deviation, cb.deviation AS challenged_deviation, c.width, \
     c.height, c.clock_initial_ms, c.clock_increment_ms, c.rated, c.color, c.preset, \
     c.created_ms, c.expires_ms, c.state, c.reason, c.game_id, c.challenger_color, c.secret, \
     g.finished AS game_finished";
const FROM: &str = "challenges c JOIN accounts ca ON ca.id = c.challenger \
     JOIN accounts cb ON cb.id = c.challenged LEFT JOIN games g ON g.id = c.game_id";
const CHALLENGER_LOCK: &str = "SELECT pg_advisory_xact_lock(7369015, hashtext($1))";
const OPEN_OF: &str = "SELECT COUNT(*) FROM challenges \
     WHERE challenger = $1 AND state = 'open' AND expires_ms > $2";
const INSERT: &str = "INSERT INTO challenges (id, challenger, challenged, width, height, \
     clock_initial_ms, clock_increment_ms, rated, color, preset, created_ms, expires_ms, secret) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";
const CLOSE: &str = "UPDATE challenges SET state = $2, reason = $3, closed_ms = $4 \
     WHERE id = $1 AND state = 'open' AND expires_ms > $4";
const ACCOUNT_LOCK: &str = "SELECT pg_advisory_xact_lock(7369017, hashtext($1))";
const PLAYING: &str = "SELECT COUNT(*) FROM challenges c JOIN games g ON g.id = c.game_id \
     WHERE (c.challenger = $1 OR c.challenged = $1) AND c.state = 'accepted' AND NOT g.finished";
const ACCEPT: &str = "UPDATE challenges SET state = 'accepted', closed_ms = $2, game_id = $3, \
     challenger_color = $4 WHERE id = $1 AND state = 'open' AND expires_ms > $2";

impl Store {
    /// Stores a challenge unless its challenger has `limit` open ones already (counted in the
    /// database, under a lock on the challenger on PostgreSQL) → its id, or `None` when full.
    pub async fn open_challenge(
        &self,
        new: &NewChallenge,
        limit: u32,
    ) -> Result<Option<ChallengeId>, StoreError> {
        let id = ChallengeId::from_bits(rand::random());
        let pool = new.pool;
        let opened = transaction!(self, |tx, dialect| {
            if dialect == Dialect::Postgres {
                sqlx::query(CHALLENGER_LOCK)
                    .bind(new.challenger.as_str())
                    .execute(&mut *tx)
                    .await?;
            }
            let open: i64 = sqlx::query_scalar(OPEN_OF)
                .bind(new.challenger.as_str())
                .bind(new.now.ms())
                .fetch_one(&mut *tx)
                .await?;
            if open >= i64::from(limit) {
                None
            } else {
                sqlx::query(INSERT)
                    .bind(id.as_str())
                    .bind(new.challenger.as_str())
                    .bind(new.challenged.as_str())
                    .bind(i32::from(pool.width))
                    .bind(i32::from(pool.height))
                    .bind(pool.initial.ms())
                    .bind(pool.increment.ms())
                    .bind(pool.rated)
                    .bind(new.color.name())
                    .bind(new.preset.as_deref())
                    .bind(new.now.ms())
                    .bind(new.expires.ms())
                    .bind(&new.secret)
                    .execute(&mut *tx)
                    .await?;
                Some(id)
            }
        });
        Ok(opened)
    }

    /// Challenge `id`, whatever its state. Read from the writer, so that a change that just
    /// committed is seen.
    pub async fn challenge(&self, id: &ChallengeId) -> Result<Option<Challenge>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM {FROM} WHERE c.id = $1");
        let row: Option<ChallengeRow> = writing!(self, pool => {
            sqlx::query_as(&sql).bind(id.as_str()).fetch_optional(pool).await
        })?;
        row.map(ChallengeRow::into_challenge).transpose()
    }

    /// What `account`'s event stream shows: its challenges (made or received) open at `now`, and
    /// those accepted whose game is not over; oldest first, at most `limit`.
    pub async fn live_challenges(
        &self,
        account: &AccountId,
        now: Timestamp,
        limit: u32,
    ) -> Result<Vec<Challenge>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM {FROM} WHERE (c.challenger = $1 OR c.challenged = $1) \
             AND ((c.state = 'open' AND c.expires_ms > $2) \
             OR (c.state = 'accepted' AND g.finished IS NOT NULL AND NOT g.finished)) \
             ORDER BY c.created_ms, c.id LIMIT {limit}"
        );
        // From the readers: every stream looks every second, and on SQLite the one writer is
        // the moves'.
        let rows: Vec<ChallengeRow> = reading!(self, pool => {
            sqlx::query_as(&sql)
                .bind(account.as_str())
                .bind(now.ms())
                .fetch_all(pool)
                .await
        })?;
        rows.into_iter().map(ChallengeRow::into_challenge).collect()
    }

    /// Declines (`reason` given) or cancels (`None`) open challenge `id` unless it expired by
    /// `now` → whether it did.
    pub async fn close_challenge(
        &self,
        id: &ChallengeId,
        reason: Option<&str>,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        let state = if reason.is_some() {
            "declined"
        } else {
            "canceled"
        };
        let closed = writing!(self, pool => {
            sqlx::query(CLOSE)
                .bind(id.as_str())
                .bind(state)
                .bind(reason)
                .bind(now.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(closed == 1)
    }

    /// Accepts open challenge `id` (not expired by `now`), creating the game `new` describes in
    /// the same transaction; the challenger plays `challenger`. Refused while either of
    /// `players` plays `most` games from challenges already (counted under a lock on each, in
    /// the order of their ids, on PostgreSQL).
    pub async fn accept_challenge<S: Serialize>(
        &self,
        id: &ChallengeId,
        now: Timestamp,
        new: &NewGame<'_, S>,
        challenger: Color,
        (players, most): ([&AccountId; 2], u32),
    ) -> Result<AcceptedChallenge, StoreError> {
        let game = GameId::from_bits(rand::random());
        let state = serde_json::to_string(new.state)?;
        let mut ordered = players;
        ordered.sort();
        let accepted = transaction!(self, |tx, dialect| {
            for player in ordered {
                if dialect == Dialect::Postgres {
                    sqlx::query(ACCOUNT_LOCK)
                        .bind(player.as_str())
                        .execute(&mut *tx)
                        .await?;
                }
                let playing: i64 = sqlx::query_scalar(PLAYING)
                    .bind(player.as_str())
                    .fetch_one(&mut *tx)
                    .await?;
                if playing >= i64::from(most) {
                    return Ok(AcceptedChallenge::Busy(player.clone()));
                }
            }
            let taken = sqlx::query(ACCEPT)
                .bind(id.as_str())
                .bind(now.ms())
                .bind(game.as_str())
                .bind(challenger.name())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if taken == 1 {
                insert_game!(&mut *tx, game.as_str(), new, &state)?;
                AcceptedChallenge::Game(game)
            } else {
                AcceptedChallenge::Closed
            }
        });
        Ok(accepted)
    }
}

impl ChallengeRow {
    fn into_challenge(self) -> Result<Challenge, StoreError> {
        let size = |n: i32| {
            u16::try_from(n).map_err(|_| StoreError::Corrupt(format!("a board size of {n}")))
        };
        let name = |raw: &str| Username::parse(raw).map_err(StoreError::Corrupt);
        let has_game = self.game_id.is_some();
        let state = match (self.state.as_str(), self.game_id, self.challenger_color) {
            ("open", None, _) => ChallengeState::Open,
            ("accepted", Some(game), Some(color)) => ChallengeState::Accepted {
                game: GameId::parse(&game)?,
                challenger: match color.as_str() {
                    "white" => Color::White,
                    "black" => Color::Black,
                    other => return Err(StoreError::Corrupt(format!("a colour {other:?}"))),
                },
            },
            ("declined", None, _) => ChallengeState::Declined {
                reason: self.reason.unwrap_or_default(),
            },
            ("canceled", None, _) => ChallengeState::Canceled,
            (other, ..) => {
                return Err(StoreError::Corrupt(format!(
                    "challenge {} in state {other:?}",
                    self.id
                )));
            }
        };
        Ok(Challenge {
            challenger: Party {
                account: self.challenger.parse()?,
                username: name(&self.challenger_name)?,
                bot: self.challenger_bot,
                rating: self.challenger_rating,
                deviation: self.challenger_deviation,
            },
            challenged: Party {
                account: self.challenged.parse()?,
                username: name(&self.challenged_name)?,
                bot: self.challenged_bot,
                rating: self.challenged_rating,
                deviation: self.challenged_deviation,
            },
            pool: Pool {
                width: size(self.width)?,
                height: size(self.height)?,
                initial: Millis::from_ms(self.clock_initial_ms),
                increment: Millis::from_ms(self.clock_increment_ms),
                rated: self.rated,
            },
            color: self.color.parse()?,
            preset: self.preset,
            created_at: Timestamp::from_ms(self.created_ms),
            expires_at: Timestamp::from_ms(self.expires_ms),
            state,
            secret: self.secret,
            // A game the retention sweep deleted is over too.
            game_over: has_game && self.game_finished.unwrap_or(true),
            id: ChallengeId::parse(&self.id)?,
        })
    }
}
