//! Bots that outlive their process: a game whose bot is to move has `bot_due_ms`, and the process
//! acting for it holds a lease (`bot_holder`, `bot_lease_ms`) that it renews while it thinks. A
//! change names the next lease holder (the process that made it); any process takes over a due
//! turn whose lease ran out: `FOR UPDATE SKIP LOCKED` on PostgreSQL, so concurrent takers get
//! disjoint games; a conditional `UPDATE` on SQLite, whose writes are serialised anyway. Live
//! games with a bot seat are counted under a lock when one is created, so that a deployment's
//! cap holds across processes.

use crate::backend::Dialect;
use crate::games::NewGame;
use crate::{Store, StoreError};
use gmo_types::{GameId, Timestamp};
use serde::Serialize;

/// Who acts for a game's bot, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotLease {
    /// From when the bot may act.
    pub due: Timestamp,
    pub holder: Option<String>,
    /// Until when `holder`'s lease holds.
    pub lease_until: Option<Timestamp>,
}

pub(crate) const LIVE_BOT_GAMES: &str = "SELECT COUNT(*) FROM games \
     WHERE NOT finished AND (white_bot IS NOT NULL OR black_bot IS NOT NULL)";
/// One key for the whole deployment: creations of bot games queue on it (PostgreSQL).
pub(crate) const CAP_LOCK: &str = "SELECT pg_advisory_xact_lock(7369001)";
const CLAIM_POSTGRES: &str = "UPDATE games SET bot_holder = $1, bot_lease_ms = $2 \
     WHERE id IN (SELECT id FROM games WHERE bot_due_ms <= $3 \
       AND (bot_lease_ms IS NULL OR bot_lease_ms < $3) \
       ORDER BY bot_due_ms LIMIT $4 FOR UPDATE SKIP LOCKED) RETURNING id";
const CLAIM_SQLITE: &str = "UPDATE games SET bot_holder = $1, bot_lease_ms = $2 \
     WHERE id IN (SELECT id FROM games WHERE bot_due_ms <= $3 \
       AND (bot_lease_ms IS NULL OR bot_lease_ms < $3) \
       ORDER BY bot_due_ms LIMIT $4) RETURNING id";
const RENEW: &str = "UPDATE games SET bot_lease_ms = $3 \
     WHERE id = $1 AND bot_holder = $2 AND bot_due_ms IS NOT NULL";
const RELEASE: &str = "UPDATE games SET bot_lease_ms = NULL \
     WHERE bot_holder = $1 AND bot_due_ms IS NOT NULL";
const LEASE: &str = "SELECT bot_due_ms, bot_holder, bot_lease_ms FROM games \
     WHERE id = $1 AND bot_due_ms IS NOT NULL";

impl Store {
    /// Stores a new game like [`Store::create_game`] unless it has a bot seat and `limit` live
    /// games with a bot seat exist already, counted in the database: `None` then, and nothing
    /// is stored.
    pub async fn create_game_within<S: Serialize>(
        &self,
        new: &NewGame<'_, S>,
        limit: u32,
    ) -> Result<Option<GameId>, StoreError> {
        let settings = new.settings;
        if settings.white_bot.is_none() && settings.black_bot.is_none() {
            return self.create_game(new).await.map(Some);
        }
        let id = GameId::from_bits(rand::random());
        let state = serde_json::to_string(new.state)?;
        let created = transaction!(self, |tx, dialect| {
            if dialect == Dialect::Postgres {
                sqlx::query(CAP_LOCK).execute(&mut *tx).await?;
            }
            let live: i64 = sqlx::query_scalar(LIVE_BOT_GAMES)
                .fetch_one(&mut *tx)
                .await?;
            if live >= i64::from(limit) {
                None
            } else {
                insert_game!(&mut *tx, id.as_str(), new, &state)?;
                Some(id)
            }
        });
        Ok(created)
    }

    /// How many games with a bot seat are not over.
    pub async fn live_bot_games(&self) -> Result<i64, StoreError> {
        let live = reading!(self, pool => {
            sqlx::query_scalar(LIVE_BOT_GAMES).fetch_one(pool).await
        })?;
        Ok(live)
    }

    /// Takes up to `limit` games whose bot is due by `now` and whose lease ran out (or was
    /// released), for `holder` until `lease_until` → their ids. Safe from every process at once:
    /// no game is handed to two takers.
    pub async fn claim_bot_turns(
        &self,
        holder: &str,
        now: Timestamp,
        lease_until: Timestamp,
        limit: u32,
    ) -> Result<Vec<GameId>, StoreError> {
        let sql = self.dialect().pick(CLAIM_POSTGRES, CLAIM_SQLITE);
        let ids: Vec<String> = writing!(self, pool => {
            sqlx::query_scalar(sql)
                .bind(holder)
                .bind(lease_until.ms())
                .bind(now.ms())
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await
        })?;
        ids.iter().map(|id| Ok(GameId::parse(id)?)).collect()
    }

    /// Extends `holder`'s lease on game `id`'s bot turn to `lease_until` → whether it still holds it
    /// (false: the turn was taken over, or is no more).
    pub async fn renew_bot_lease(
        &self,
        id: &GameId,
        holder: &str,
        lease_until: Timestamp,
    ) -> Result<bool, StoreError> {
        let renewed = writing!(self, pool => {
            sqlx::query(RENEW)
                .bind(id.as_str())
                .bind(holder)
                .bind(lease_until.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(renewed == 1)
    }

    /// Lets every lease `holder` holds run out now (a process stopping), so that any other
    /// process takes those turns over at once.
    pub async fn release_bot_leases(&self, holder: &str) -> Result<u64, StoreError> {
        let released = writing!(self, pool => {
            sqlx::query(RELEASE)
                .bind(holder)
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(released)
    }

    /// Who acts for game `id`'s bot, when a bot is to move.
    pub async fn bot_lease(&self, id: &GameId) -> Result<Option<BotLease>, StoreError> {
        let row: Option<(i64, Option<String>, Option<i64>)> = reading!(self, pool => {
            sqlx::query_as(LEASE).bind(id.as_str()).fetch_optional(pool).await
        })?;
        Ok(row.map(|(due_ms, holder, lease_ms)| BotLease {
            due: Timestamp::from_ms(due_ms),
            holder,
            lease_until: lease_ms.map(Timestamp::from_ms),
        }))
    }

    /// Replaces the bot spec of game `id`'s Black seat (tests: a spec stored by an older
    /// version that this one cannot read).
    #[cfg(feature = "testing")]
    pub async fn set_black_bot(&self, id: &GameId, spec: &str) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query("UPDATE games SET black_bot = $2 WHERE id = $1")
                .bind(id.as_str())
                .bind(spec)
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(())
    }
}
