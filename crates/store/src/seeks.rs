//! The lobby's seeks and their pairing (docs/architecture.md, "Lobby").
//!
//! A seek is open until a pairing gives it a game (`game_id`, `seat`) or it is withdrawn
//! (deleted). Pairing is one transaction that creates the game and marks both seeks. On
//! PostgreSQL it first takes a transaction-scoped advisory lock on the seek's pool (clock and
//! board), so two new seeks of one pool are matched one after the other and can never both stay
//! open unseen by each other; the match itself is read `FOR UPDATE SKIP LOCKED`, so a seek that an
//! accept or a withdrawal holds is passed over instead of waited for. SQLite's `BEGIN IMMEDIATE`
//! serialises every writer. Whoever pairs a seek announces it on [`SEEK_CHANNEL`] at commit.
//!
//! Liveness lives in `seek_pulses` (when the seek's stream last showed it alive): only seeks
//! alive since the caller's cutoff are listed, matched or accepted, and the sweep deletes the
//! others, from whichever process runs it.

use crate::backend::Dialect;
use crate::games::NewGame;
use crate::{Store, StoreError};
use gmo_types::{AccountId, ByColor, Color, ColorWish, GameId, Millis, Rating, SeekId, Timestamp};
use serde::Serialize;

/// The channel pairings are announced on (the payload is the seek's id).
pub const SEEK_CHANNEL: &str = "gmo_seeks";

/// What a seek is for: seeks pair only within one pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pool {
    pub width: u16,
    pub height: u16,
    /// The time each side's clock starts with.
    pub initial: Millis,
    /// The time added to a side's clock for each of its moves.
    pub increment: Millis,
    /// Whether its games are rated (rated seeks are accounts' and pair only with each other).
    pub rated: bool,
}

impl Pool {
    /// The advisory lock's key (PostgreSQL hashes it).
    fn key(&self) -> String {
        format!(
            "{}x{}:{}+{}{}",
            self.width,
            self.height,
            self.initial.ms(),
            self.increment.ms(),
            if self.rated { ":rated" } else { "" }
        )
    }
}

/// A seek to open.
#[derive(Debug, Clone)]
pub struct NewSeek<'a> {
    /// [`crate::token_hash`] of the seek's token.
    pub token: [u8; 32],
    /// [`crate::token_hash`] of the seat token its seeker gets on pairing.
    pub seat_token: [u8; 32],
    /// Who opens it, for the per-client bound.
    pub client: &'a str,
    pub pool: Pool,
    pub wish: ColorWish,
    pub now: Timestamp,
    /// The seeker's account, if signed in: its seat will be the account's.
    pub account: Option<AccountId>,
}

/// How many open seeks there may be.
#[derive(Debug, Clone, Copy)]
pub struct SeekLimits {
    pub per_client: u32,
    pub overall: u32,
}

/// What opening a seek did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opened {
    /// Opened under this id.
    Open(SeekId),
    /// The client has `per_client` open seeks already; nothing was stored.
    ClientFull,
    /// The lobby has `overall` open seeks already; nothing was stored.
    LobbyFull,
}

/// A stored seek.
#[derive(Debug, Clone, PartialEq)]
pub struct Seek {
    pub id: SeekId,
    pub token: [u8; 32],
    pub seat_token: [u8; 32],
    pub pool: Pool,
    pub wish: ColorWish,
    pub created_at: Timestamp,
    /// The game and the seat it was paired into, once paired.
    pub paired: Option<(GameId, Color)>,
    /// The seeker's account, if any.
    pub account: Option<AccountId>,
    /// Its name (in the lobby's list only).
    pub username: Option<String>,
    /// Its rating now (in the lobby's list only).
    pub rating: Option<Rating>,
}

/// Where a seek stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeekState {
    Open,
    Paired {
        game: GameId,
        seat: Color,
    },
    /// Withdrawn, or never was.
    Gone,
}

/// What an accept did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepted {
    /// Game `game` was created; the taker plays `seat`.
    Paired { game: GameId, seat: Color },
    /// Another pairing took the seek first.
    Taken,
    /// Withdrawn, gone quiet, or never was.
    Gone,
    /// A rated seek, and the taker is no other account.
    NotForYou,
}

#[derive(sqlx::FromRow)]
struct SeekRow {
    id: String,
    token: Vec<u8>,
    seat_token: Vec<u8>,
    width: i32,
    height: i32,
    clock_initial_ms: i64,
    clock_increment_ms: i64,
    color: String,
    created_ms: i64,
    game_id: Option<String>,
    seat: Option<String>,
    account_id: Option<String>,
    rated: bool,
    /// Only the lobby's list reads these three.
    #[sqlx(default)]
    username: Option<String>,
    #[sqlx(default)]
    rating: Option<f64>,
    #[sqlx(default)]
    deviation: Option<f64>,
    #[sqlx(default)]
    volatility: Option<f64>,
}

const COLUMNS: &str = "s.id, s.token, s.seat_token, s.width, s.height, s.clock_initial_ms, \
     s.clock_increment_ms, s.color, s.created_ms, s.game_id, s.seat, s.account_id, s.rated";

const INSERT: &str = "INSERT INTO seeks (id, token, seat_token, client, width, height, \
     clock_initial_ms, clock_increment_ms, color, created_ms, account_id, rated) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
const INSERT_PULSE: &str = "INSERT INTO seek_pulses (seek_id, seen_ms) VALUES ($1, $2)";
const PULSE: &str = "UPDATE seek_pulses SET seen_ms = $2 WHERE seek_id = $1 AND seen_ms < $2";
const CLIENT_OPEN: &str = "SELECT COUNT(*) FROM seeks WHERE client = $1 AND game_id IS NULL";
const ALL_OPEN: &str = "SELECT COUNT(*) FROM seeks WHERE game_id IS NULL";
const CLIENT_LOCK: &str = "SELECT pg_advisory_xact_lock(7369013, hashtext($1))";
const POOL_LOCK: &str = "SELECT pg_advisory_xact_lock(7369014, hashtext($1))";
const MARK: &str = "UPDATE seeks SET game_id = $2, seat = $3 WHERE id = $1";
const FORGET_PULSE: &str = "DELETE FROM seek_pulses WHERE seek_id = $1";
const DELETE: &str = "DELETE FROM seeks WHERE id = $1";
const ANNOUNCE: &str = "SELECT pg_notify($1, $2)";
const SWEEP_QUIET: &str = "DELETE FROM seeks WHERE game_id IS NULL AND (created_ms < $2 OR id IN \
     (SELECT seek_id FROM seek_pulses WHERE seen_ms < $1))";
const SWEEP_PAIRED: &str = "DELETE FROM seeks WHERE game_id IS NOT NULL AND created_ms < $1";
const SWEEP_PULSES: &str =
    "DELETE FROM seek_pulses WHERE NOT EXISTS (SELECT 1 FROM seeks WHERE id = seek_id)";

/// A seek by id, alive or not, open or paired.
fn by_id(dialect: Dialect, lock: bool) -> String {
    let lock = match (dialect, lock) {
        (Dialect::Postgres, true) => " FOR UPDATE",
        _ => "",
    };
    format!("SELECT {COLUMNS} FROM seeks s WHERE s.id = $1{lock}")
}

/// Whether seek `$1` (open) is alive since `$2`.
const ALIVE: &str = "SELECT 1 FROM seek_pulses WHERE seek_id = $1 AND seen_ms >= $2";

/// The oldest open, alive seek of `$2`'s pool (rated `$8` or not) other than `$1`, whose wish
/// fits `$7`'s, and not of account `$9` (an account never plays itself; a rated seek pairs only
/// with another account's).
fn oldest_match(dialect: Dialect) -> String {
    let lock = match dialect {
        Dialect::Postgres => " FOR UPDATE OF s SKIP LOCKED",
        Dialect::Sqlite => "",
    };
    format!(
        "SELECT {COLUMNS} FROM seeks s JOIN seek_pulses p ON p.seek_id = s.id \
         WHERE s.game_id IS NULL AND s.id <> $1 AND s.width = $2 AND s.height = $3 \
         AND s.clock_initial_ms = $4 AND s.clock_increment_ms = $5 AND p.seen_ms >= $6 \
         AND ($7 = 'random' OR s.color = 'random' OR s.color <> $7) \
         AND s.rated = $8 AND ($8 = FALSE OR s.account_id IS NOT NULL) \
         AND (s.account_id IS NULL OR s.account_id <> COALESCE($9, '')) \
         ORDER BY s.created_ms, s.id LIMIT 1{lock}"
    )
}

fn list_sql(limit: u32) -> String {
    format!(
        "SELECT {COLUMNS}, a.username, a.rating, a.deviation, a.volatility FROM seeks s JOIN seek_pulses p ON p.seek_id = s.id \
         LEFT JOIN accounts a ON a.id = s.account_id \
         WHERE s.game_id IS NULL AND p.seen_ms >= $1 \
         ORDER BY s.created_ms DESC, s.id LIMIT {limit}"
    )
}

/// A seat as a pairing fills it: its token's hash and its account.
type Seat = ([u8; 32], Option<AccountId>);

/// The template game with each seat's token hash and account filled in.
fn seated<'a, S>(template: &NewGame<'a, S>, white: Seat, black: Seat) -> NewGame<'a, S> {
    NewGame {
        settings: template.settings,
        white_token: Some(white.0),
        black_token: Some(black.0),
        status: template.status,
        state: template.state,
        deadline: template.deadline,
        bot_turn: template.bot_turn.clone(),
        creator_token: template.creator_token,
        accounts: ByColor::new(white.1, black.1),
        rated: template.rated,
        created: template.created,
    }
}

impl Store {
    /// Opens a seek unless its client or the lobby is at its bound (counted in the database,
    /// under a per-client lock on PostgreSQL).
    pub async fn open_seek(
        &self,
        new: &NewSeek<'_>,
        limits: SeekLimits,
    ) -> Result<Opened, StoreError> {
        let id = SeekId::from_bits(rand::random());
        let pool = new.pool;
        let opened = transaction!(self, |tx, dialect| {
            if dialect == Dialect::Postgres {
                sqlx::query(CLIENT_LOCK)
                    .bind(new.client)
                    .execute(&mut *tx)
                    .await?;
            }
            let mine: i64 = sqlx::query_scalar(CLIENT_OPEN)
                .bind(new.client)
                .fetch_one(&mut *tx)
                .await?;
            let all: i64 = sqlx::query_scalar(ALL_OPEN).fetch_one(&mut *tx).await?;
            if mine >= i64::from(limits.per_client) {
                Opened::ClientFull
            } else if all >= i64::from(limits.overall) {
                Opened::LobbyFull
            } else {
                sqlx::query(INSERT)
                    .bind(id.as_str())
                    .bind(&new.token[..])
                    .bind(&new.seat_token[..])
                    .bind(new.client)
                    .bind(i32::from(pool.width))
                    .bind(i32::from(pool.height))
                    .bind(pool.initial.ms())
                    .bind(pool.increment.ms())
                    .bind(new.wish.name())
                    .bind(new.now.ms())
                    .bind(new.account.as_ref().map(AccountId::as_str))
                    .bind(pool.rated)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(INSERT_PULSE)
                    .bind(id.as_str())
                    .bind(new.now.ms())
                    .execute(&mut *tx)
                    .await?;
                Opened::Open(id)
            }
        });
        Ok(opened)
    }

    /// A seek by id (open or paired; `None` once withdrawn). Read from the writer, so that a
    /// pairing that just committed is seen.
    pub async fn seek(&self, id: &SeekId) -> Result<Option<Seek>, StoreError> {
        let sql = by_id(self.dialect(), false);
        let row: Option<SeekRow> = writing!(self, pool => {
            sqlx::query_as(&sql).bind(id.as_str()).fetch_optional(pool).await
        })?;
        row.map(SeekRow::into_seek).transpose()
    }

    /// Up to `limit` open seeks alive since `alive_since`, newest first.
    pub async fn open_seeks(
        &self,
        alive_since: Timestamp,
        limit: u32,
    ) -> Result<Vec<Seek>, StoreError> {
        let sql = list_sql(limit);
        let rows: Vec<SeekRow> = reading!(self, pool => {
            sqlx::query_as(&sql).bind(alive_since.ms()).fetch_all(pool).await
        })?;
        rows.into_iter().map(SeekRow::into_seek).collect()
    }

    /// Records that seek `id`'s stream is alive at `now` (it never locks the seek's row).
    pub async fn pulse_seek(&self, id: &SeekId, now: Timestamp) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(PULSE).bind(id.as_str()).bind(now.ms()).execute(pool).await.map(drop)
        })?;
        Ok(())
    }

    /// Pairs open seek `id` with the oldest open seek of its pool alive since `alive_since`
    /// whose wish fits, creating the game `template` describes (its tokens are the seeks'
    /// seat tokens), all in one transaction → where the seek stands afterwards. A seek that
    /// finds no match stays open. The second value is the seek this call paired it with.
    pub async fn pair_seek<S: Serialize>(
        &self,
        id: &SeekId,
        alive_since: Timestamp,
        template: &NewGame<'_, S>,
    ) -> Result<(SeekState, Option<SeekId>), StoreError> {
        let game_id = GameId::from_bits(rand::random());
        let state = serde_json::to_string(template.state)?;
        let coin: bool = rand::random();
        let (own_sql, match_sql) = (by_id(self.dialect(), true), oldest_match(self.dialect()));
        let outcome = transaction!(self, |tx, dialect| {
            let own: Option<SeekRow> = sqlx::query_as(&own_sql)
                .bind(id.as_str())
                .fetch_optional(&mut *tx)
                .await?;
            let Some(own) = own.map(SeekRow::into_seek).transpose()? else {
                return Ok((SeekState::Gone, None));
            };
            if let Some((game, seat)) = own.paired {
                return Ok((SeekState::Paired { game, seat }, None));
            }
            if dialect == Dialect::Postgres {
                sqlx::query(POOL_LOCK)
                    .bind(own.pool.key())
                    .execute(&mut *tx)
                    .await?;
            }
            let alive: Option<i32> = sqlx::query_scalar(ALIVE)
                .bind(id.as_str())
                .bind(alive_since.ms())
                .fetch_optional(&mut *tx)
                .await?;
            let found: Option<SeekRow> = if alive.is_none() {
                None
            } else {
                sqlx::query_as(&match_sql)
                    .bind(id.as_str())
                    .bind(i32::from(own.pool.width))
                    .bind(i32::from(own.pool.height))
                    .bind(own.pool.initial.ms())
                    .bind(own.pool.increment.ms())
                    .bind(alive_since.ms())
                    .bind(own.wish.name())
                    .bind(own.pool.rated)
                    .bind(own.account.as_ref().map(AccountId::as_str))
                    .fetch_optional(&mut *tx)
                    .await?
            };
            match found.map(SeekRow::into_seek).transpose()? {
                None => (SeekState::Open, None),
                Some(other_seek) => {
                    let seat = own.wish.seat_against(other_seek.wish, coin);
                    let mine = (own.seat_token, own.account.clone());
                    let theirs = (other_seek.seat_token, other_seek.account.clone());
                    let (white, black) = match seat {
                        Color::White => (mine, theirs),
                        Color::Black => (theirs, mine),
                    };
                    let new = seated(template, white, black);
                    insert_game!(&mut *tx, game_id.as_str(), &new, &state)?;
                    for (seek, its_seat) in [(id, seat), (&other_seek.id, seat.opponent())] {
                        sqlx::query(MARK)
                            .bind(seek.as_str())
                            .bind(game_id.as_str())
                            .bind(its_seat.name())
                            .execute(&mut *tx)
                            .await?;
                        sqlx::query(FORGET_PULSE)
                            .bind(seek.as_str())
                            .execute(&mut *tx)
                            .await?;
                        if dialect == Dialect::Postgres {
                            sqlx::query(ANNOUNCE)
                                .bind(SEEK_CHANNEL)
                                .bind(seek.as_str())
                                .execute(&mut *tx)
                                .await?;
                        }
                    }
                    let paired = SeekState::Paired {
                        game: game_id.clone(),
                        seat,
                    };
                    (paired, Some(other_seek.id))
                }
            }
        });
        Ok(outcome)
    }

    /// Takes open seek `id` (alive since `alive_since`) for a caller whose seat token hashes
    /// to `taker_token`, creating the game `template` describes, in one transaction. The taker
    /// gets the colour the seeker did not wish for, else a coin's.
    pub async fn accept_seek<S: Serialize>(
        &self,
        id: &SeekId,
        alive_since: Timestamp,
        template: &NewGame<'_, S>,
        taker_token: [u8; 32],
        taker: Option<&AccountId>,
    ) -> Result<Accepted, StoreError> {
        let game_id = GameId::from_bits(rand::random());
        let state = serde_json::to_string(template.state)?;
        let coin: bool = rand::random();
        let own_sql = by_id(self.dialect(), true);
        let outcome = transaction!(self, |tx, dialect| {
            let found: Option<SeekRow> = sqlx::query_as(&own_sql)
                .bind(id.as_str())
                .fetch_optional(&mut *tx)
                .await?;
            let Some(seek) = found.map(SeekRow::into_seek).transpose()? else {
                return Ok(Accepted::Gone);
            };
            if seek.paired.is_some() {
                return Ok(Accepted::Taken);
            }
            let other_account = taker.filter(|taker| seek.account.as_ref() != Some(*taker));
            if seek.pool.rated && other_account.is_none() {
                return Ok(Accepted::NotForYou);
            }
            let alive: Option<i32> = sqlx::query_scalar(ALIVE)
                .bind(id.as_str())
                .bind(alive_since.ms())
                .fetch_optional(&mut *tx)
                .await?;
            if alive.is_none() {
                return Ok(Accepted::Gone);
            }
            let seeker = seek.wish.seat_against(ColorWish::Random, coin);
            let theirs = (seek.seat_token, seek.account.clone());
            let mine = (taker_token, other_account.cloned());
            let (white, black) = match seeker {
                Color::White => (theirs, mine),
                Color::Black => (mine, theirs),
            };
            insert_game!(
                &mut *tx,
                game_id.as_str(),
                &seated(template, white, black),
                &state
            )?;
            sqlx::query(MARK)
                .bind(id.as_str())
                .bind(game_id.as_str())
                .bind(seeker.name())
                .execute(&mut *tx)
                .await?;
            sqlx::query(FORGET_PULSE)
                .bind(id.as_str())
                .execute(&mut *tx)
                .await?;
            if dialect == Dialect::Postgres {
                sqlx::query(ANNOUNCE)
                    .bind(SEEK_CHANNEL)
                    .bind(id.as_str())
                    .execute(&mut *tx)
                    .await?;
            }
            Accepted::Paired {
                game: game_id.clone(),
                seat: seeker.opponent(),
            }
        });
        Ok(outcome)
    }

    /// Withdraws open seek `id` → where it stood: `Open` means it is withdrawn now; a paired
    /// seek stays paired.
    pub async fn withdraw_seek(&self, id: &SeekId) -> Result<SeekState, StoreError> {
        let own_sql = by_id(self.dialect(), true);
        let before = transaction!(self, |tx, _dialect| {
            let found: Option<SeekRow> = sqlx::query_as(&own_sql)
                .bind(id.as_str())
                .fetch_optional(&mut *tx)
                .await?;
            match found.map(SeekRow::into_seek).transpose()? {
                None => SeekState::Gone,
                Some(Seek {
                    paired: Some((game, seat)),
                    ..
                }) => SeekState::Paired { game, seat },
                Some(_) => {
                    sqlx::query(DELETE)
                        .bind(id.as_str())
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(FORGET_PULSE)
                        .bind(id.as_str())
                        .execute(&mut *tx)
                        .await?;
                    SeekState::Open
                }
            }
        });
        Ok(before)
    }

    /// Withdraws the open seeks quiet since `alive_since` or opened before `opened_since`, and
    /// forgets paired seeks made before `forget_before` → how many seeks went.
    pub async fn sweep_seeks(
        &self,
        alive_since: Timestamp,
        opened_since: Timestamp,
        forget_before: Timestamp,
    ) -> Result<u64, StoreError> {
        let gone = transaction!(self, |tx, _dialect| {
            let quiet = sqlx::query(SWEEP_QUIET)
                .bind(alive_since.ms())
                .bind(opened_since.ms())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            let paired = sqlx::query(SWEEP_PAIRED)
                .bind(forget_before.ms())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            sqlx::query(SWEEP_PULSES).execute(&mut *tx).await?;
            quiet + paired
        });
        Ok(gone)
    }
}

impl SeekRow {
    fn into_seek(self) -> Result<Seek, StoreError> {
        let size = |n: i32| {
            u16::try_from(n).map_err(|_| StoreError::Corrupt(format!("a board size of {n}")))
        };
        let digest = |bytes: &[u8]| crate::claim::parse_digest(bytes);
        let paired = match (self.game_id, self.seat.as_deref()) {
            (Some(game), Some("white")) => Some((GameId::parse(&game)?, Color::White)),
            (Some(game), Some("black")) => Some((GameId::parse(&game)?, Color::Black)),
            (None, None) => None,
            _ => return Err(StoreError::Corrupt(format!("seek {} half paired", self.id))),
        };
        Ok(Seek {
            token: digest(&self.token)?,
            seat_token: digest(&self.seat_token)?,
            pool: Pool {
                width: size(self.width)?,
                height: size(self.height)?,
                initial: Millis::from_ms(self.clock_initial_ms),
                increment: Millis::from_ms(self.clock_increment_ms),
                rated: self.rated,
            },
            wish: self.color.parse()?,
            created_at: Timestamp::from_ms(self.created_ms),
            paired,
            account: self.account_id.as_deref().map(str::parse).transpose()?,
            username: self.username,
            rating: match (self.rating, self.deviation, self.volatility) {
                (Some(value), Some(deviation), Some(volatility)) => Some(Rating {
                    value,
                    deviation,
                    volatility,
                }),
                _ => None,
            },
            id: SeekId::parse(&self.id)?,
        })
    }
}
