//! What is public of an account: its results, its games page by page, its rating history, and
//! the leaderboard.

use crate::{Store, StoreError};
use gmo_types::{AccountId, GameId, Rating, Timestamp, Username};

/// An account's finished games (aborted ones aside), by result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Results {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// A point of a rating history: the rating after one rated game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingPoint {
    pub at: Timestamp,
    pub value: f64,
    pub deviation: f64,
}

/// A row of the leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Leader {
    pub username: Username,
    pub rating: Rating,
    pub rated_games: u32,
}

const RESULTS: &str = "SELECT COUNT(*), \
     COALESCE(SUM(CASE WHEN (white_account = $1 AND status = 'white_won') \
       OR (black_account = $1 AND status = 'black_won') THEN 1 ELSE 0 END), 0), \
     COALESCE(SUM(CASE WHEN status = 'draw' THEN 1 ELSE 0 END), 0), \
     COALESCE(SUM(CASE WHEN (white_account = $1 AND status = 'black_won') \
       OR (black_account = $1 AND status = 'white_won') THEN 1 ELSE 0 END), 0) \
     FROM games WHERE (white_account = $1 OR black_account = $1) \
     AND status IN ('white_won', 'black_won', 'draw')";
const PLACE: &str = "SELECT created_ms FROM games WHERE id = $1 \
     AND (white_account = $2 OR black_account = $2)";
const GAMES_BEFORE: &str = "SELECT id FROM games WHERE (white_account = $1 OR black_account = $1) \
     AND (created_ms < $2 OR (created_ms = $2 AND id < $3)) \
     ORDER BY created_ms DESC, id DESC LIMIT $4";
const HISTORY: &str = "SELECT at_ms, value, deviation FROM rating_history \
     WHERE account_id = $1 ORDER BY at_ms, game_id LIMIT $2";
const LEADERS: &str = "SELECT username, rating, deviation, volatility, rated_games FROM accounts \
     WHERE deleted_ms IS NULL AND bot = $3 AND deviation < $1 ORDER BY rating DESC, username_key LIMIT $2";

fn count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Store {
    /// The results of `account`'s finished games.
    pub async fn results(&self, account: &AccountId) -> Result<Results, StoreError> {
        let (games, wins, draws, losses): (i64, i64, i64, i64) = reading!(self, pool => {
            sqlx::query_as(RESULTS).bind(account.as_str()).fetch_one(pool).await
        })?;
        Ok(Results {
            games: count(games),
            wins: count(wins),
            draws: count(draws),
            losses: count(losses),
        })
    }

    /// Up to `limit` of `account`'s games, newest first; after `before` (one of its games) when
    /// given → `None` when `before` is not one of its games.
    pub async fn games_of(
        &self,
        account: &AccountId,
        before: Option<&GameId>,
        limit: u32,
    ) -> Result<Option<Vec<GameId>>, StoreError> {
        let (created, last) = match before {
            None => (i64::MAX, "g".repeat(33)),
            Some(game) => {
                let created: Option<i64> = reading!(self, pool => {
                    sqlx::query_scalar(PLACE)
                        .bind(game.as_str())
                        .bind(account.as_str())
                        .fetch_optional(pool)
                        .await
                })?;
                match created {
                    Some(created) => (created, game.to_string()),
                    None => return Ok(None),
                }
            }
        };
        let ids: Vec<String> = reading!(self, pool => {
            sqlx::query_scalar(GAMES_BEFORE)
                .bind(account.as_str())
                .bind(created)
                .bind(&last)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await
        })?;
        let ids = ids.iter().map(|id| id.parse()).collect::<Result<_, _>>()?;
        Ok(Some(ids))
    }

    /// `account`'s rating after each of its rated games, oldest first (at most `limit`).
    pub async fn rating_history(
        &self,
        account: &AccountId,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows: Vec<(i64, f64, f64)> = reading!(self, pool => {
            sqlx::query_as(HISTORY)
                .bind(account.as_str())
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await
        })?;
        Ok(rows
            .into_iter()
            .map(|(at, value, deviation)| RatingPoint {
                at: Timestamp::from_ms(at),
                value,
                deviation,
            })
            .collect())
    }

    /// Up to `limit` live accounts of one pool (`bots`, or people) whose deviation is below
    /// `deviation`, best rating first: bots are rated apart from people.
    pub async fn leaders(
        &self,
        deviation: f64,
        limit: u32,
        bots: bool,
    ) -> Result<Vec<Leader>, StoreError> {
        let rows: Vec<(String, f64, f64, f64, i64)> = reading!(self, pool => {
            sqlx::query_as(LEADERS)
                .bind(deviation)
                .bind(i64::from(limit))
                .bind(bots)
                .fetch_all(pool)
                .await
        })?;
        rows.into_iter()
            .map(|(username, value, deviation, volatility, games)| {
                Ok(Leader {
                    username: Username::parse(&username).map_err(StoreError::Corrupt)?,
                    rating: Rating {
                        value,
                        deviation,
                        volatility,
                    },
                    rated_games: count(games),
                })
            })
            .collect()
    }
}
