//! Who plays a game: the account of each seat (linked once, never changed), the rating it was
//! linked with, and — for a rated game — the rating change its end made. A rated game's end
//! changes both accounts' ratings in the transaction that ends it, so it is rated exactly once,
//! whichever process ends it and however.

use crate::games::{ChangeRow, GAMES, LOCK_POSTGRES, LOCK_SQLITE};
use crate::{Store, StoreError};
use gmo_types::{AccountId, ByColor, Color, GameId, GameStatus, Rating, Timestamp, Username};

/// How a rated game's end changes its players' ratings: their ratings before and the winner
/// (`None`: a draw) → their ratings after. The game service passes its Glicko-2.
pub type Rater = fn(ByColor<Rating>, Option<Color>) -> ByColor<Rating>;

/// What a change that ends a rated game carries, to rate it in the same transaction.
#[derive(Debug, Clone, Copy)]
pub struct RatedEnd {
    pub rate: Rater,
    /// When the game ended (the rating history's point).
    pub at: Timestamp,
}

/// Two rated ends are alike when they end at the same instant with the same rater (compared by
/// address: the service has one).
impl PartialEq for RatedEnd {
    fn eq(&self, other: &RatedEnd) -> bool {
        self.at == other.at && std::ptr::fn_addr_eq(self.rate, other.rate)
    }
}

/// A seat's account.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    pub account: AccountId,
    pub username: Username,
    /// The account was deleted since (its name is not shown).
    pub deleted: bool,
    /// The rating and deviation when the seat was linked.
    pub rating: f64,
    pub deviation: f64,
    /// The change the game's end made to the rating, once a rated game is over.
    pub rating_diff: Option<i64>,
    /// A bot account (issue 33).
    pub bot: bool,
}

/// The players' columns of a game row.
#[derive(sqlx::FromRow)]
pub(crate) struct PlayerRow {
    white_account: Option<String>,
    black_account: Option<String>,
    white_username: Option<String>,
    black_username: Option<String>,
    white_deleted_ms: Option<i64>,
    black_deleted_ms: Option<i64>,
    white_rating: Option<f64>,
    black_rating: Option<f64>,
    white_deviation: Option<f64>,
    black_deviation: Option<f64>,
    white_rating_diff: Option<i64>,
    black_rating_diff: Option<i64>,
    white_is_bot: Option<bool>,
    black_is_bot: Option<bool>,
}

impl PlayerRow {
    pub(crate) fn into_players(self) -> Result<ByColor<Option<Player>>, StoreError> {
        let player = |account: Option<String>,
                      username: Option<String>,
                      deleted: Option<i64>,
                      rating: Option<f64>,
                      deviation: Option<f64>,
                      diff: Option<i64>,
                      bot: Option<bool>|
         -> Result<Option<Player>, StoreError> {
            let Some(account) = account else {
                return Ok(None);
            };
            let username = username.ok_or_else(|| {
                StoreError::Corrupt(format!("a game names account {account}, which is missing"))
            })?;
            Ok(Some(Player {
                account: account.parse()?,
                username: Username::parse(&username).map_err(StoreError::Corrupt)?,
                deleted: deleted.is_some(),
                rating: rating.unwrap_or(Rating::NEW.value),
                deviation: deviation.unwrap_or(Rating::NEW.deviation),
                rating_diff: diff,
                bot: bot.unwrap_or(false),
            }))
        };
        Ok(ByColor::new(
            player(
                self.white_account,
                self.white_username,
                self.white_deleted_ms,
                self.white_rating,
                self.white_deviation,
                self.white_rating_diff,
                self.white_is_bot,
            )?,
            player(
                self.black_account,
                self.black_username,
                self.black_deleted_ms,
                self.black_rating,
                self.black_deviation,
                self.black_rating_diff,
                self.black_is_bot,
            )?,
        ))
    }
}

const LINK_WHITE: &str = "UPDATE games SET white_account = $2, \
     white_rating = (SELECT rating FROM accounts WHERE id = $2), \
     white_deviation = (SELECT deviation FROM accounts WHERE id = $2) \
     WHERE id = $1 AND white_account IS NULL AND NOT finished AND white_bot IS NULL \
     AND (black_account IS NULL OR black_account <> $2)";
const LINK_BLACK: &str = "UPDATE games SET black_account = $2, \
     black_rating = (SELECT rating FROM accounts WHERE id = $2), \
     black_deviation = (SELECT deviation FROM accounts WHERE id = $2) \
     WHERE id = $1 AND black_account IS NULL AND NOT finished AND black_bot IS NULL \
     AND (white_account IS NULL OR white_account <> $2)";
pub(crate) const RATED_GAME: &str =
    "SELECT white_account, black_account, rated, white_rating_diff FROM games WHERE id = $1";
pub(crate) const RATINGS_POSTGRES: &str = "SELECT id, rating, deviation, volatility FROM accounts \
     WHERE id IN ($1, $2) ORDER BY id FOR UPDATE";
pub(crate) const RATINGS_SQLITE: &str = "SELECT id, rating, deviation, volatility FROM accounts \
     WHERE id IN ($1, $2) ORDER BY id";
pub(crate) const SET_RATING: &str = "UPDATE accounts SET rating = $2, deviation = $3, volatility = $4, \
     rated_games = rated_games + 1 WHERE id = $1";
pub(crate) const ADD_HISTORY: &str = "INSERT INTO rating_history (account_id, game_id, at_ms, value, \
     deviation) VALUES ($1, $2, $3, $4, $5)";
pub(crate) const SET_DIFFS: &str =
    "UPDATE games SET white_rating_diff = $2, black_rating_diff = $3 WHERE id = $1";

/// The winner of a game that ended `status`, or `None` for a draw; `Err(())` when the status
/// rates nothing (not over, or aborted).
pub(crate) fn outcome(status: GameStatus) -> Result<Option<Color>, ()> {
    match status {
        GameStatus::WhiteWon => Ok(Some(Color::White)),
        GameStatus::BlackWon => Ok(Some(Color::Black)),
        GameStatus::Draw => Ok(None),
        _ => Err(()),
    }
}

/// Rates game `$id` (locked in `$tx`, just ended with `$status`) if it is rated, has both
/// players and is not rated yet: both accounts' ratings, their history and the game's diffs.
macro_rules! rate_game {
    ($tx:ident, $dialect:expr, $id:expr, $status:expr, $rated:expr) => {{
        let rated: $crate::players::RatedEnd = $rated;
        let found: Option<(Option<String>, Option<String>, bool, Option<i64>)> =
            sqlx::query_as($crate::players::RATED_GAME)
                .bind($id)
                .fetch_optional(&mut *$tx)
                .await?;
        if let (Ok(winner), Some((Some(white), Some(black), true, None))) =
            ($crate::players::outcome($status), found)
        {
            let sql = $dialect.pick(
                $crate::players::RATINGS_POSTGRES,
                $crate::players::RATINGS_SQLITE,
            );
            let rows: Vec<(String, f64, f64, f64)> = sqlx::query_as(sql)
                .bind(&white)
                .bind(&black)
                .fetch_all(&mut *$tx)
                .await?;
            let rating_of = |account: &str| {
                rows.iter()
                    .find(|row| row.0 == account)
                    .map(|row| gmo_types::Rating {
                        value: row.1,
                        deviation: row.2,
                        volatility: row.3,
                    })
                    .ok_or_else(|| $crate::StoreError::Corrupt(format!("no account {account}")))
            };
            let before = gmo_types::ByColor::new(rating_of(&white)?, rating_of(&black)?);
            let after = (rated.rate)(before, winner);
            for (account, color) in [
                (&white, gmo_types::Color::White),
                (&black, gmo_types::Color::Black),
            ] {
                let now = after.get(color);
                sqlx::query($crate::players::SET_RATING)
                    .bind(account)
                    .bind(now.value)
                    .bind(now.deviation)
                    .bind(now.volatility)
                    .execute(&mut *$tx)
                    .await?;
                sqlx::query($crate::players::ADD_HISTORY)
                    .bind(account)
                    .bind($id)
                    .bind(rated.at.ms())
                    .bind(now.value)
                    .bind(now.deviation)
                    .execute(&mut *$tx)
                    .await?;
            }
            let diff =
                |color: gmo_types::Color| after.get(color).shown() - before.get(color).shown();
            sqlx::query($crate::players::SET_DIFFS)
                .bind($id)
                .bind(diff(gmo_types::Color::White))
                .bind(diff(gmo_types::Color::Black))
                .execute(&mut *$tx)
                .await?;
        }
    }};
}

impl Store {
    /// Applies the change that ends a rated game and rates it, in one transaction (never in a
    /// batch: the accounts' rows are locked too).
    pub(crate) async fn apply_rated(
        &self,
        id: &GameId,
        expected_version: i64,
        row: &ChangeRow,
        rated: RatedEnd,
    ) -> Result<i64, StoreError> {
        let status: GameStatus = row.status.parse()?;
        let version = transaction!(self, |tx, dialect| {
            let found: Option<(i64, i64)> =
                sqlx::query_as(dialect.pick(LOCK_POSTGRES, LOCK_SQLITE))
                    .bind(id.as_str())
                    .fetch_optional(&mut *tx)
                    .await?;
            let (version, plies) = found.ok_or_else(|| StoreError::NotFound {
                what: "game",
                key: id.to_string(),
            })?;
            if version != expected_version {
                return Err(StoreError::Stale {
                    expected: expected_version,
                    found: version,
                });
            }
            let version = write_change!(tx, id.as_str(), version, plies, row);
            rate_game!(tx, dialect, id.as_str(), status, rated);
            version
        });
        Ok(version)
    }

    /// The players of game `id` as they stand (refused when the game is missing).
    pub async fn players(&self, id: &GameId) -> Result<ByColor<Option<Player>>, StoreError> {
        let sql = format!(
            "SELECT g.white_account, g.black_account, wa.username AS white_username, \
             ba.username AS black_username, wa.deleted_ms AS white_deleted_ms, \
             ba.deleted_ms AS black_deleted_ms, g.white_rating, g.black_rating, \
             g.white_deviation, g.black_deviation, g.white_rating_diff, g.black_rating_diff, \
             wa.bot AS white_is_bot, ba.bot AS black_is_bot \
             FROM {GAMES} WHERE g.id = $1"
        );
        let row: Option<PlayerRow> = reading!(self, pool => {
            sqlx::query_as(&sql).bind(id.as_str()).fetch_optional(pool).await
        })?;
        row.ok_or_else(|| StoreError::NotFound {
            what: "game",
            key: id.to_string(),
        })?
        .into_players()
    }

    /// Makes `seat` of game `id` the seat of `account`, unless it has an account already, is a
    /// bot's, the game is over, or the other seat is the same account's → whether it did. Not a
    /// change of the game (its version stays), like [`Store::join`].
    pub async fn link(
        &self,
        id: &GameId,
        seat: Color,
        account: &AccountId,
    ) -> Result<bool, StoreError> {
        let sql = match seat {
            Color::White => LINK_WHITE,
            Color::Black => LINK_BLACK,
        };
        let changed = writing!(self, pool => {
            sqlx::query(sql)
                .bind(id.as_str())
                .bind(account.as_str())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(changed == 1)
    }
}
