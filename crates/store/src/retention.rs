//! Retention: what nobody will come back to is deleted, in batches, by any process (each batch
//! one statement; on PostgreSQL concurrent sweepers skip each other's rows). Games never started
//! (still in setup) and labs not changed for a while go; games that started stay for good, with
//! their records.

use crate::backend::Dialect;
use crate::{Store, StoreError};
use std::time::Duration;

/// Rows older than `$1` seconds, oldest first, at most `$2` (`{table}`, `{when}`, `{filter}` are
/// filled in per query).
const POSTGRES: &str = "DELETE FROM {table} WHERE id IN (SELECT id FROM {table} \
     WHERE {filter} {when} < CURRENT_TIMESTAMP - make_interval(secs => $1) \
     ORDER BY {when} LIMIT $2 FOR UPDATE SKIP LOCKED)";
/// SQLite keeps `CURRENT_TIMESTAMP` as `YYYY-MM-DD HH:MM:SS` text, which `datetime` also writes,
/// so the texts compare as the times do.
const SQLITE: &str = "DELETE FROM {table} WHERE id IN (SELECT id FROM {table} \
     WHERE {filter} {when} < datetime('now', printf('-%f seconds', $1)) \
     ORDER BY {when} LIMIT $2)";

impl Store {
    /// Deletes up to `limit` games still in setup that were created more than `age` ago;
    /// returns how many it deleted.
    pub async fn expire_unstarted_games(
        &self,
        age: Duration,
        limit: u32,
    ) -> Result<u64, StoreError> {
        self.expire("games", "status = 'setup' AND", "created_at", age, limit)
            .await
    }

    /// Deletes up to `limit` labs last changed more than `age` ago; returns how many.
    pub async fn expire_idle_labs(&self, age: Duration, limit: u32) -> Result<u64, StoreError> {
        self.expire("labs", "", "updated_at", age, limit).await
    }

    async fn expire(
        &self,
        table: &str,
        filter: &str,
        when: &str,
        age: Duration,
        limit: u32,
    ) -> Result<u64, StoreError> {
        let template = match self.dialect() {
            Dialect::Postgres => POSTGRES,
            Dialect::Sqlite => SQLITE,
        };
        let sql = template
            .replace("{table}", table)
            .replace("{filter}", filter)
            .replace("{when}", when);
        let done = writing!(self, pool => {
            sqlx::query(&sql)
                .bind(age.as_secs_f64())
                .bind(i64::from(limit))
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(done)
    }
}
