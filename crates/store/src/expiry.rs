//! The clock sweep: any server process may end games whose running clock has fallen.
//!
//! A sweep is one transaction. It takes up to `limit` games whose deadline has passed, oldest
//! first, and locks them: `FOR UPDATE SKIP LOCKED` on PostgreSQL, so concurrent sweepers (and
//! players' moves in flight) split the games between them instead of queueing; SQLite's
//! `BEGIN IMMEDIATE` holds the whole database. Each game, with the plies recorded after its
//! snapshot (the state is the snapshot plus those), is handed to the caller's `decide`,
//! which returns the change to apply (typically the engine's "flag fell" state, finished, no
//! deadline) or `None` to leave the game untouched. The changes are written like moves (the
//! version goes up by one, a ply is appended if any) and committed together; the sweep returns
//! what it wrote so the server can announce it. A game it ended no longer has a deadline, so no sweep sees it again.

use crate::games::{Change, ChangeRow, GAME_COLUMNS, GAMES, Game, GameRow, decode_plies};
use crate::{Store, StoreError};
use gmo_types::{GameId, Timestamp};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A change a sweep wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Swept<P, S> {
    pub id: GameId,
    /// The game's version after the change.
    pub version: i64,
    pub change: Change<P, S>,
}

impl Store {
    /// Ends (or otherwise changes, as `decide` says) up to `limit` games whose deadline is at or
    /// before `now`. Safe to run from every process at once: no game is handed to two sweeps,
    /// nor to a sweep while a move holds it.
    pub async fn sweep_expired<P, S, F>(
        &self,
        now: Timestamp,
        limit: u32,
        mut decide: F,
    ) -> Result<Vec<Swept<P, S>>, StoreError>
    where
        P: Serialize + DeserializeOwned,
        S: Serialize + DeserializeOwned,
        F: FnMut(Game<S>, Vec<P>) -> Option<Change<P, S>>,
    {
        let postgres = format!(
            "SELECT {GAME_COLUMNS} FROM {GAMES} WHERE g.deadline_ms <= $1 AND NOT g.finished \
             ORDER BY g.deadline_ms LIMIT $2 FOR UPDATE OF g SKIP LOCKED"
        );
        let sqlite = format!(
            "SELECT {GAME_COLUMNS} FROM {GAMES} WHERE g.deadline_ms <= $1 AND NOT g.finished \
             ORDER BY g.deadline_ms LIMIT $2"
        );
        let swept = transaction!(self, |tx, dialect| {
            let sql = match dialect {
                crate::backend::Dialect::Postgres => &postgres,
                crate::backend::Dialect::Sqlite => &sqlite,
            };
            let rows: Vec<GameRow> = sqlx::query_as(sql)
                .bind(now.ms())
                .bind(i64::from(limit))
                .fetch_all(&mut *tx)
                .await?;
            let mut swept = Vec::new();
            for row in rows {
                let game: Game<S> = row.into_game()?;
                let (id, version, plies) = (game.id.clone(), game.version, game.plies);
                let since: Vec<String> = sqlx::query_scalar(crate::games::RECORD_SINCE)
                    .bind(id.as_str())
                    .bind(game.state_plies)
                    .fetch_all(&mut *tx)
                    .await?;
                let Some(change) = decide(game, decode_plies(&since)?) else {
                    continue;
                };
                let written = ChangeRow::of(&change)?;
                let version = write_change!(tx, id.as_str(), version, plies, &written);
                if let Some(rated) = change.rated.filter(|_| change.finished) {
                    rate_game!(tx, dialect, id.as_str(), change.status, rated);
                }
                swept.push(Swept {
                    id,
                    version,
                    change,
                });
            }
            swept
        });
        Ok(swept)
    }
}
