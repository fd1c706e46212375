//! Open event streams (issue 33, migration 0019): one row per `GET /api/stream/event`, pulsed
//! while it is open, so that every process counts an account's streams (at most a few) and
//! lists the bots online from the same rows. A row whose pulses stopped (its process died) no
//! longer counts and is deleted by the next opening.

use crate::backend::Dialect;
use crate::users::Leader;
use crate::{Store, StoreError};
use gmo_types::{AccountId, Rating, Timestamp, Username};

const ACCOUNT_LOCK: &str = "SELECT pg_advisory_xact_lock(7369016, hashtext($1))";
const FORGET_QUIET: &str = "DELETE FROM event_streams WHERE seen_ms < $1";
const OPEN_OF: &str = "SELECT COUNT(*) FROM event_streams WHERE account_id = $1";
const INSERT: &str = "INSERT INTO event_streams (id, account_id, seen_ms) VALUES ($1, $2, $3)";
const PULSE: &str = "UPDATE event_streams SET seen_ms = $2 WHERE id = $1";
const CLOSE: &str = "DELETE FROM event_streams WHERE id = $1";
const BOTS_ONLINE: &str = "SELECT a.username, a.rating, a.deviation, a.volatility, \
     a.rated_games FROM accounts a WHERE a.bot AND a.deleted_ms IS NULL AND EXISTS \
     (SELECT 1 FROM event_streams e WHERE e.account_id = a.id AND e.seen_ms >= $1) \
     ORDER BY a.rating DESC, a.username_key LIMIT $2";

impl Store {
    /// Records stream `id` of `account` open at `now`, unless the account has `limit` streams
    /// alive since `alive_since` already → whether it did. Streams quiet since before
    /// `alive_since` are forgotten first.
    pub async fn open_event_stream(
        &self,
        id: &str,
        account: &AccountId,
        now: Timestamp,
        alive_since: Timestamp,
        limit: u32,
    ) -> Result<bool, StoreError> {
        let opened = transaction!(self, |tx, dialect| {
            if dialect == Dialect::Postgres {
                sqlx::query(ACCOUNT_LOCK)
                    .bind(account.as_str())
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query(FORGET_QUIET)
                .bind(alive_since.ms())
                .execute(&mut *tx)
                .await?;
            let open: i64 = sqlx::query_scalar(OPEN_OF)
                .bind(account.as_str())
                .fetch_one(&mut *tx)
                .await?;
            if open >= i64::from(limit) {
                false
            } else {
                sqlx::query(INSERT)
                    .bind(id)
                    .bind(account.as_str())
                    .bind(now.ms())
                    .execute(&mut *tx)
                    .await?;
                true
            }
        });
        Ok(opened)
    }

    /// Shows stream `id` alive at `now`.
    pub async fn pulse_event_stream(&self, id: &str, now: Timestamp) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(PULSE).bind(id).bind(now.ms()).execute(pool).await.map(drop)
        })?;
        Ok(())
    }

    /// Forgets stream `id` (it closed).
    pub async fn close_event_stream(&self, id: &str) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(CLOSE).bind(id).execute(pool).await.map(drop)
        })?;
        Ok(())
    }

    /// Up to `limit` live bot accounts with an event stream alive since `alive_since`, best
    /// rating first.
    pub async fn bots_online(
        &self,
        alive_since: Timestamp,
        limit: u32,
    ) -> Result<Vec<Leader>, StoreError> {
        let rows: Vec<(String, f64, f64, f64, i64)> = reading!(self, pool => {
            sqlx::query_as(BOTS_ONLINE)
                .bind(alive_since.ms())
                .bind(i64::from(limit))
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
                    rated_games: u32::try_from(games).unwrap_or(u32::MAX),
                })
            })
            .collect()
    }
}
