//! Games: settings, seat-token hashes, the engine's state (opaque JSON) and the record of plies.
//! A change is one transaction: lock the game, check its version, append the ply, write the
//! next version (and, now and then, the state), commit (on PostgreSQL all of it in one
//! statement). The state is a snapshot after the first `state_plies` plies: a change that is a
//! ply may leave it as it is, and the game is then its snapshot plus the plies since, which
//! keeps a move's write to its ply and a few columns.

use crate::claim::parse_digest;
use crate::players::{Player, PlayerRow, RatedEnd};
use crate::secret::token_matches;
use crate::{Store, StoreError};
use gmo_types::{AccountId, ByColor, Color, GameId, GameStatus, Millis, Timestamp};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// What a game is created with; fixed for its life.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    pub width: u16,
    pub height: u16,
    /// The time each side's clock starts with.
    pub clock_initial: Millis,
    /// `Some(name)` when a bot plays that side (and the seat has no token).
    pub white_bot: Option<String>,
    pub black_bot: Option<String>,
}

/// A game as first stored (version 0, empty record).
#[derive(Debug, Clone)]
pub struct NewGame<'a, S> {
    pub settings: &'a GameSettings,
    /// [`crate::token_hash`] of each seat's token; `None` for a bot's seat.
    pub white_token: Option<[u8; 32]>,
    pub black_token: Option<[u8; 32]>,
    pub status: GameStatus,
    pub state: &'a S,
    /// When the running clock falls, if one runs from the start.
    pub deadline: Option<Timestamp>,
    /// The bot's first turn, when a bot is to move from the start (a game between bots).
    pub bot_turn: Option<BotTurn>,
    /// [`crate::token_hash`] of the creator's token, which may stop the game (games between bots).
    pub creator_token: Option<[u8; 32]>,
    /// The account each seat belongs to from the start (a game from accounts' seeks).
    pub accounts: ByColor<Option<AccountId>>,
    /// Whether the game changes its players' ratings when it ends.
    pub rated: bool,
    /// When it was made (its place among an account's games).
    pub created: Timestamp,
}

/// A bot's next turn as a change leaves it: from when the bot may act, and the lease of the
/// process that will act for it (the one that made the change, so that its bot acts at once;
/// any process takes the turn over once the lease has run out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotTurn {
    /// From when the bot may act.
    pub due: Timestamp,
    /// The process holding the lease (an opaque name it gave itself).
    pub holder: String,
    /// Until when the lease holds.
    pub lease_until: Timestamp,
}

/// A stored game.
#[derive(Debug, Clone, PartialEq)]
pub struct Game<S> {
    pub id: GameId,
    /// How many changes were applied; pass it back to [`Store::apply`].
    pub version: i64,
    pub status: GameStatus,
    pub finished: bool,
    pub settings: GameSettings,
    pub white_token: Option<[u8; 32]>,
    pub black_token: Option<[u8; 32]>,
    /// The hash of the creator's token, for a game between bots.
    pub creator_token: Option<[u8; 32]>,
    /// The state after the first `state_plies` plies of the record (the later plies rebuild the
    /// game from it).
    pub state: S,
    pub state_plies: i64,
    /// Length of the record.
    pub plies: i64,
    /// When the running clock falls; `None` when no clock runs.
    pub deadline: Option<Timestamp>,
    /// Whether each seat's holder has opened the game with its token ([`Store::join`]).
    pub joined: Joined,
    /// The account each seat belongs to, if any ([`Store::link`]).
    pub players: ByColor<Option<Player>>,
    pub rated: bool,
    pub created_at: Timestamp,
}

/// Whether each seat's holder has opened the game: set by the first request with that seat's
/// token, never cleared, and no change of the game (its version stays).
pub type Joined = ByColor<bool>;

/// What one indexed read tells of a stored game: its version, who has joined, whose account
/// each seat is, whether each seat's account has been deleted, and whether its rating changes
/// are written (none of which changes the version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub version: i64,
    pub joined: Joined,
    pub accounts: ByColor<Option<AccountId>>,
    /// Whether the seat's account was deleted (false without an account).
    pub deleted: ByColor<bool>,
    pub rating_diffs: bool,
}

impl<S> Game<S> {
    /// The seat a bearer token is for, if any.
    pub fn seat_of(&self, token: &str) -> Option<Color> {
        let holds =
            |hash: &Option<[u8; 32]>| hash.as_ref().is_some_and(|h| token_matches(token, h));
        if holds(&self.white_token) {
            Some(Color::White)
        } else if holds(&self.black_token) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// Whether a bearer token is the creator's (a game between bots has one).
    pub fn created_by(&self, token: &str) -> bool {
        self.creator_token
            .as_ref()
            .is_some_and(|hash| token_matches(token, hash))
    }
}

/// One change of a game: the ply to append to its record (if the change is a ply), and what the
/// game is afterwards.
#[derive(Debug, Clone, PartialEq)]
pub struct Change<P, S> {
    pub ply: Option<P>,
    /// The state after the change, to be stored as the game's snapshot; `None` keeps the last
    /// snapshot (only for a ply, which the record keeps: the game is the snapshot plus the plies
    /// since). A change without a ply must carry the state.
    pub state: Option<S>,
    pub status: GameStatus,
    /// The next time the clock falls; ignored (stored as none) when `finished`.
    pub deadline: Option<Timestamp>,
    pub finished: bool,
    /// The bot's turn, when a bot is to move next; ignored (stored as none) when `finished`.
    pub bot_turn: Option<BotTurn>,
    /// For the change that ends a rated game (not aborted): how its players' ratings change,
    /// in the same transaction.
    pub rated: Option<RatedEnd>,
}

/// A game row as SQL returns it; both backends decode it.
#[derive(sqlx::FromRow)]
pub(crate) struct GameRow {
    id: String,
    version: i64,
    status: String,
    finished: bool,
    width: i32,
    height: i32,
    clock_initial_ms: i64,
    white_bot: Option<String>,
    black_bot: Option<String>,
    white_token: Option<Vec<u8>>,
    black_token: Option<Vec<u8>>,
    creator_token: Option<Vec<u8>>,
    state: String,
    state_plies: i64,
    plies: i64,
    deadline_ms: Option<i64>,
    white_joined: bool,
    black_joined: bool,
    rated: bool,
    created_ms: i64,
    #[sqlx(flatten)]
    players: PlayerRow,
}

/// The columns of a game row (`g`) with its players' accounts (`wa`, `ba`), as [`GAMES`] joins
/// them.
pub(crate) const GAME_COLUMNS: &str = "g.id, g.version, g.status, g.finished, g.width, \
     g.height, g.clock_initial_ms, g.white_bot, g.black_bot, g.white_token, g.black_token, \
     g.creator_token, g.state, g.state_plies, g.plies, g.deadline_ms, g.white_joined, \
     g.black_joined, g.rated, g.created_ms, g.white_account, g.black_account, \
     wa.username AS white_username, ba.username AS black_username, \
     wa.deleted_ms AS white_deleted_ms, ba.deleted_ms AS black_deleted_ms, g.white_rating, \
     g.black_rating, g.white_deviation, g.black_deviation, g.white_rating_diff, \
     g.black_rating_diff, wa.bot AS white_is_bot, ba.bot AS black_is_bot";

/// Games (`g`) with their players' accounts.
pub(crate) const GAMES: &str = "games g LEFT JOIN accounts wa ON wa.id = g.white_account \
     LEFT JOIN accounts ba ON ba.id = g.black_account";

pub(crate) const INSERT: &str = "INSERT INTO games (id, version, status, finished, width, height, \
     clock_initial_ms, white_bot, black_bot, white_token, black_token, state, plies, deadline_ms, \
     bot_due_ms, bot_holder, bot_lease_ms, creator_token, rated, created_ms, white_account, \
     black_account, white_rating, white_deviation, black_rating, black_deviation) \
     VALUES ($1, 0, $2, FALSE, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, $12, $13, $14, $15, $16, \
     $17, $18, $19, (SELECT rating FROM accounts WHERE id = $18), \
     (SELECT deviation FROM accounts WHERE id = $18), \
     (SELECT rating FROM accounts WHERE id = $19), \
     (SELECT deviation FROM accounts WHERE id = $19))";
pub(crate) const LOCK_POSTGRES: &str = "SELECT version, plies FROM games WHERE id = $1 FOR UPDATE";
pub(crate) const LOCK_SQLITE: &str = "SELECT version, plies FROM games WHERE id = $1";
pub(crate) const APPEND_PLY: &str = "INSERT INTO plies (game_id, seq, ply) VALUES ($1, $2, $3)";
pub(crate) const WRITE_GAME: &str = "UPDATE games SET version = $2, status = $3, finished = $4, \
     state = COALESCE($5, state), \
     state_plies = CASE WHEN $5 IS NULL THEN state_plies ELSE $6 END, plies = $6, \
     deadline_ms = $7, bot_due_ms = $8, bot_holder = $9, bot_lease_ms = $10, \
     updated_at = CURRENT_TIMESTAMP WHERE id = $1";
pub(crate) const RECORD_SINCE: &str =
    "SELECT ply FROM plies WHERE game_id = $1 AND seq >= $2 ORDER BY seq";
const RECORD: &str = "SELECT ply FROM plies WHERE game_id = $1 ORDER BY seq";
const EXISTS: &str = "SELECT version FROM games WHERE id = $1";
const HEAD: &str = "SELECT g.version, g.white_joined, g.black_joined, g.white_account, \
     g.black_account, g.white_rating_diff IS NOT NULL, \
     EXISTS (SELECT 1 FROM accounts a WHERE a.id = g.white_account AND a.deleted_ms IS NOT NULL), \
     EXISTS (SELECT 1 FROM accounts a WHERE a.id = g.black_account AND a.deleted_ms IS NOT NULL) \
     FROM games g WHERE g.id = $1";
const JOIN_WHITE: &str =
    "UPDATE games SET white_joined = TRUE WHERE id = $1 AND white_joined = FALSE";
const JOIN_BLACK: &str =
    "UPDATE games SET black_joined = TRUE WHERE id = $1 AND black_joined = FALSE";

/// A change as it is written: JSON texts, and the deadline it keeps in ms since the epoch.
pub(crate) struct ChangeRow {
    pub ply: Option<String>,
    pub state: Option<String>,
    pub status: &'static str,
    pub deadline_ms: Option<i64>,
    pub finished: bool,
    pub bot_turn: Option<BotTurn>,
}

impl ChangeRow {
    pub(crate) fn of<P: Serialize, S: Serialize>(
        change: &Change<P, S>,
    ) -> Result<ChangeRow, StoreError> {
        if change.ply.is_none() && change.state.is_none() {
            return Err(StoreError::Corrupt(
                "a change that is not a ply must write the state".into(),
            ));
        }
        Ok(ChangeRow {
            ply: change.ply.as_ref().map(serde_json::to_string).transpose()?,
            state: change
                .state
                .as_ref()
                .map(serde_json::to_string)
                .transpose()?,
            status: change.status.name(),
            // A finished game has no running clock, so the sweep never sees it again.
            deadline_ms: change
                .deadline
                .filter(|_| !change.finished)
                .map(Timestamp::ms),
            finished: change.finished,
            // Nor does a bot act in it.
            bot_turn: change.bot_turn.clone().filter(|_| !change.finished),
        })
    }

    pub(crate) fn bot_due_ms(&self) -> Option<i64> {
        self.bot_turn.as_ref().map(|turn| turn.due.ms())
    }

    pub(crate) fn bot_holder(&self) -> Option<&str> {
        self.bot_turn.as_ref().map(|turn| turn.holder.as_str())
    }

    pub(crate) fn bot_lease_ms(&self) -> Option<i64> {
        self.bot_turn.as_ref().map(|turn| turn.lease_until.ms())
    }
}

/// Appends the ply (if any) and writes the game at `version + 1`, inside `$tx`. The game must be
/// locked and at `$version` with `$plies` plies.
macro_rules! write_change {
    ($tx:ident, $id:expr, $version:expr, $plies:expr, $row:expr) => {{
        let row: &$crate::games::ChangeRow = $row;
        let mut plies: i64 = $plies;
        if let Some(ply) = &row.ply {
            sqlx::query($crate::games::APPEND_PLY)
                .bind($id)
                .bind(plies)
                .bind(ply)
                .execute(&mut *$tx)
                .await?;
            plies += 1;
        }
        sqlx::query($crate::games::WRITE_GAME)
            .bind($id)
            .bind($version + 1)
            .bind(row.status)
            .bind(row.finished)
            .bind(row.state.as_deref())
            .bind(plies)
            .bind(row.deadline_ms)
            .bind(row.bot_due_ms())
            .bind(row.bot_holder())
            .bind(row.bot_lease_ms())
            .execute(&mut *$tx)
            .await?;
        $version + 1
    }};
}

/// Inserts a new game's row (`$id`, a [`NewGame`], its state as JSON text) through `$executor`
/// (a pool, or a transaction's connection); expands once per backend like the store's macros.
macro_rules! insert_game {
    ($executor:expr, $id:expr, $new:expr, $state:expr) => {{
        let new = $new;
        let settings = new.settings;
        let turn = new.bot_turn.as_ref();
        sqlx::query($crate::games::INSERT)
            .bind($id)
            .bind(new.status.name())
            .bind(i32::from(settings.width))
            .bind(i32::from(settings.height))
            .bind(settings.clock_initial.ms())
            .bind(settings.white_bot.as_deref())
            .bind(settings.black_bot.as_deref())
            .bind(new.white_token.as_ref().map(|h| &h[..]))
            .bind(new.black_token.as_ref().map(|h| &h[..]))
            .bind($state)
            .bind(new.deadline.map(|deadline| deadline.ms()))
            .bind(turn.map(|turn| turn.due.ms()))
            .bind(turn.map(|turn| turn.holder.as_str()))
            .bind(turn.map(|turn| turn.lease_until.ms()))
            .bind(new.creator_token.as_ref().map(|h| &h[..]))
            .bind(new.rated)
            .bind(new.created.ms())
            .bind(new.accounts.white.as_ref().map(|id| id.as_str()))
            .bind(new.accounts.black.as_ref().map(|id| id.as_str()))
            .execute($executor)
            .await
            .map(drop)
    }};
}

impl Store {
    /// Stores a new game at version 0 and returns its (random) id.
    pub async fn create_game<S: Serialize>(
        &self,
        new: &NewGame<'_, S>,
    ) -> Result<GameId, StoreError> {
        let id = GameId::from_bits(rand::random());
        let state = serde_json::to_string(new.state)?;
        writing!(self, pool => insert_game!(pool, id.as_str(), new, &state))?;
        Ok(id)
    }

    /// A game by id.
    pub async fn load_game<S: DeserializeOwned>(&self, id: &GameId) -> Result<Game<S>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM {GAMES} WHERE g.id = $1");
        let row: Option<GameRow> = reading!(self, pool => {
            sqlx::query_as(&sql).bind(id.as_str()).fetch_optional(pool).await
        })?;
        row.ok_or_else(|| not_found(id))?.into_game()
    }

    /// A game's version: one indexed read, so that a caller holding the game's state from that
    /// version can use it instead of loading and decoding it again.
    pub async fn game_version(&self, id: &GameId) -> Result<i64, StoreError> {
        let version: Option<i64> = reading!(self, pool => {
            sqlx::query_scalar(EXISTS).bind(id.as_str()).fetch_optional(pool).await
        })?;
        version.ok_or_else(|| not_found(id))
    }

    /// A game's version and who has joined it: the same one indexed read as
    /// [`Store::game_version`].
    pub async fn game_head(&self, id: &GameId) -> Result<Head, StoreError> {
        type HeadRow = (
            i64,
            bool,
            bool,
            Option<String>,
            Option<String>,
            bool,
            bool,
            bool,
        );
        let row: Option<HeadRow> = reading!(self, pool => {
            sqlx::query_as(HEAD).bind(id.as_str()).fetch_optional(pool).await
        })?;
        let (
            version,
            white,
            black,
            white_account,
            black_account,
            rating_diffs,
            white_deleted,
            black_deleted,
        ) = row.ok_or_else(|| not_found(id))?;
        let account = |id: Option<String>| id.as_deref().map(str::parse).transpose();
        Ok(Head {
            version,
            joined: ByColor::new(white, black),
            accounts: ByColor::new(account(white_account)?, account(black_account)?),
            deleted: ByColor::new(white_deleted, black_deleted),
            rating_diffs,
        })
    }

    /// Notes that `seat`'s holder has opened game `id` → whether this call was the first to
    /// (a later one changes nothing). Not a change of the game: its version stays, so no other
    /// request's change is made stale by it.
    pub async fn join(&self, id: &GameId, seat: Color) -> Result<bool, StoreError> {
        let sql = match seat {
            Color::White => JOIN_WHITE,
            Color::Black => JOIN_BLACK,
        };
        let changed = writing!(self, pool => {
            sqlx::query(sql).bind(id.as_str()).execute(pool).await.map(|done| done.rows_affected())
        })?;
        if changed == 0 {
            self.game_version(id).await?;
        }
        Ok(changed == 1)
    }

    /// Applies a change to a game at `expected_version`, in one transaction serialised with every
    /// other writer of the game, and returns the new version. A writer that read an older version
    /// gets [`StoreError::Stale`] and nothing changes.
    pub async fn apply<P: Serialize, S: Serialize>(
        &self,
        id: &GameId,
        expected_version: i64,
        change: &Change<P, S>,
    ) -> Result<i64, StoreError> {
        let row = ChangeRow::of(change)?;
        if let Some(rated) = change.rated.filter(|_| change.finished) {
            return self.apply_rated(id, expected_version, &row, rated).await;
        }
        if let crate::backend::Backend::Postgres(pool) = &self.backend {
            let row = match &self.batcher {
                Some(batcher) => match batcher.apply(id, expected_version, row).await {
                    Ok(applied) => return applied,
                    Err(row) => row,
                },
                None => row,
            };
            return apply_postgres(pool, id, expected_version, &row).await;
        }
        let version = transaction!(self, |tx, dialect| {
            let lock = dialect.pick(LOCK_POSTGRES, LOCK_SQLITE);
            let found: Option<(i64, i64)> = sqlx::query_as(lock)
                .bind(id.as_str())
                .fetch_optional(&mut *tx)
                .await?;
            let (version, plies) = found.ok_or_else(|| not_found(id))?;
            if version != expected_version {
                return Err(StoreError::Stale {
                    expected: expected_version,
                    found: version,
                });
            }
            write_change!(tx, id.as_str(), version, plies, &row)
        });
        Ok(version)
    }

    /// Every ply of a game's record, in order.
    pub async fn record<P: DeserializeOwned>(&self, id: &GameId) -> Result<Vec<P>, StoreError> {
        // One read transaction would be tidier, but the record only grows: reading the plies
        // after checking the game exists can only see more of them.
        let exists: Option<i64> = reading!(self, pool => {
            sqlx::query_scalar(EXISTS).bind(id.as_str()).fetch_optional(pool).await
        })?;
        exists.ok_or_else(|| not_found(id))?;
        let plies: Vec<String> = reading!(self, pool => {
            sqlx::query_scalar(RECORD).bind(id.as_str()).fetch_all(pool).await
        })?;
        decode_plies(&plies)
    }

    /// The plies of game `id` from the `from`th on (the record after a snapshot), in order; none
    /// for a missing game.
    pub async fn record_since<P: DeserializeOwned>(
        &self,
        id: &GameId,
        from: i64,
    ) -> Result<Vec<P>, StoreError> {
        let plies: Vec<String> = reading!(self, pool => {
            sqlx::query_scalar(RECORD_SINCE).bind(id.as_str()).bind(from).fetch_all(pool).await
        })?;
        decode_plies(&plies)
    }
}

pub(crate) fn decode_plies<P: DeserializeOwned>(plies: &[String]) -> Result<Vec<P>, StoreError> {
    plies
        .iter()
        .map(|ply| serde_json::from_str(ply).map_err(StoreError::from))
        .collect()
}

/// On PostgreSQL a change is one statement (so one round trip and one implicit transaction):
/// the version-checked `UPDATE` takes the row lock and the ply is appended from its result. A
/// concurrent writer waits for the lock, then finds the version moved on and changes nothing.
/// (It announces nothing: see [`crate::Announcer`] for why announcements follow the commit.)
const APPLY_POSTGRES: &str = "WITH up AS (\
       UPDATE games SET version = version + 1, status = $3, finished = $4, \
       state = COALESCE($5, state), \
       state_plies = CASE WHEN $5::text IS NULL THEN state_plies \
         ELSE plies + CASE WHEN $6::text IS NULL THEN 0 ELSE 1 END END, \
       plies = plies + CASE WHEN $6::text IS NULL THEN 0 ELSE 1 END, deadline_ms = $7, \
       bot_due_ms = $8, bot_holder = $9, bot_lease_ms = $10, \
       updated_at = CURRENT_TIMESTAMP WHERE id = $1 AND version = $2 RETURNING id, version, plies), \
     appended AS (INSERT INTO plies (game_id, seq, ply) \
       SELECT id, plies - 1, $6 FROM up WHERE $6::text IS NOT NULL) \
     SELECT version FROM up";

pub(crate) async fn apply_postgres(
    pool: &sqlx::PgPool,
    id: &GameId,
    expected_version: i64,
    row: &ChangeRow,
) -> Result<i64, StoreError> {
    let applied: Option<i64> = sqlx::query_scalar(APPLY_POSTGRES)
        .bind(id.as_str())
        .bind(expected_version)
        .bind(row.status)
        .bind(row.finished)
        .bind(row.state.as_deref())
        .bind(row.ply.as_deref())
        .bind(row.deadline_ms)
        .bind(row.bot_due_ms())
        .bind(row.bot_holder())
        .bind(row.bot_lease_ms())
        .fetch_optional(pool)
        .await?;
    match applied {
        Some(version) => Ok(version),
        None => refusal(pool, id, expected_version).await,
    }
}

/// Why a change of game `id` at `expected_version` changed nothing: the game is missing, or it
/// moved on.
pub(crate) async fn refusal(
    pool: &sqlx::PgPool,
    id: &GameId,
    expected_version: i64,
) -> Result<i64, StoreError> {
    let found: Option<i64> = sqlx::query_scalar(EXISTS)
        .bind(id.as_str())
        .fetch_optional(pool)
        .await?;
    match found {
        Some(found) => Err(StoreError::Stale {
            expected: expected_version,
            found,
        }),
        None => Err(not_found(id)),
    }
}

impl GameRow {
    pub(crate) fn into_game<S: DeserializeOwned>(self) -> Result<Game<S>, StoreError> {
        let size = |n: i32| {
            u16::try_from(n).map_err(|_| StoreError::Corrupt(format!("a board size of {n}")))
        };
        let hash = |bytes: Option<Vec<u8>>| bytes.as_deref().map(parse_digest).transpose();
        Ok(Game {
            settings: GameSettings {
                width: size(self.width)?,
                height: size(self.height)?,
                clock_initial: Millis::from_ms(self.clock_initial_ms),
                white_bot: self.white_bot,
                black_bot: self.black_bot,
            },
            white_token: hash(self.white_token)?,
            black_token: hash(self.black_token)?,
            creator_token: hash(self.creator_token)?,
            state: serde_json::from_str(&self.state)?,
            state_plies: self.state_plies,
            id: GameId::parse(&self.id)?,
            version: self.version,
            status: self.status.parse()?,
            finished: self.finished,
            plies: self.plies,
            deadline: self.deadline_ms.map(Timestamp::from_ms),
            joined: ByColor::new(self.white_joined, self.black_joined),
            players: self.players.into_players()?,
            rated: self.rated,
            created_at: Timestamp::from_ms(self.created_ms),
        })
    }
}

fn not_found(id: &GameId) -> StoreError {
    StoreError::NotFound {
        what: "game",
        key: id.to_string(),
    }
}
