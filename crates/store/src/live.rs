//! Live games to watch (migration 0016): the games in progress, the most recently changed first,
//! and the one most worth watching (rated games first).

use crate::{Store, StoreError};
use gmo_types::GameId;

const LIVE: &str = "SELECT id FROM games WHERE status = 'in_progress' \
     ORDER BY updated_at DESC, id LIMIT $1 OFFSET $2";
const TV: &str = "SELECT id FROM games WHERE status = 'in_progress' \
     ORDER BY rated DESC, updated_at DESC, id LIMIT 1";

impl Store {
    /// Up to `limit` games in progress, the most recently changed first, skipping the first
    /// `skip`.
    pub async fn live_games(&self, limit: u32, skip: u32) -> Result<Vec<GameId>, StoreError> {
        let ids: Vec<String> = reading!(self, pool => {
            sqlx::query_scalar(LIVE)
                .bind(i64::from(limit))
                .bind(i64::from(skip))
                .fetch_all(pool)
                .await
        })?;
        ids.iter()
            .map(|id| GameId::parse(id).map_err(StoreError::from))
            .collect()
    }

    /// The game in progress most worth watching: a rated one if any, the most recently changed.
    pub async fn tv_game(&self) -> Result<Option<GameId>, StoreError> {
        let id: Option<String> = reading!(self, pool => {
            sqlx::query_scalar(TV).fetch_optional(pool).await
        })?;
        Ok(id.as_deref().map(GameId::parse).transpose()?)
    }
}
