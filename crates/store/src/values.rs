//! Value evaluations of genomes (migration 0009): one per genome code, kept with it. An
//! evaluation is asked for once (later asks join it), claimed by one process at a time under a
//! lease, counted game by game, and taken over by any process when its lease runs out. Both caps
//! (evaluations waiting or running, and evaluations running) are counted in the database, under
//! a lock, so that they hold across processes: an advisory lock on PostgreSQL, `BEGIN IMMEDIATE`
//! on SQLite.

use crate::backend::Dialect;
use crate::{Store, StoreError};
use gmo_types::{EvaluationState, Timestamp};

/// An evaluation as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueJob {
    /// The genome's code.
    pub code: String,
    /// The standard piece the genome replaces (`knight`).
    pub replaced: String,
    /// The bot spec both sides use (`search:300n`).
    pub bot: String,
    pub seed: u64,
    /// Games asked for.
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub state: EvaluationState,
    pub error: Option<String>,
    pub holder: Option<String>,
    /// Until when `holder`'s lease holds.
    pub lease_until: Option<Timestamp>,
    pub queued_at: Timestamp,
    /// When it was done, or failed.
    pub finished_at: Option<Timestamp>,
}

impl ValueJob {
    /// Games played so far.
    pub fn played(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// What to evaluate, and how.
#[derive(Debug, Clone, Copy)]
pub struct NewValueJob<'a> {
    pub code: &'a str,
    pub replaced: &'a str,
    pub bot: &'a str,
    pub seed: u64,
    pub games: u32,
}

/// The answer to asking for an evaluation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// Stored now, queued.
    Started(ValueJob),
    /// One was asked for before (it may be done): this is it.
    Joined(ValueJob),
    /// As many evaluations as may wait or run are waiting or running; nothing was stored.
    QueueFull,
}

/// Games counted in one step, by their outcome for the genome's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ValueGames {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl ValueGames {
    fn total(self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// One key for the whole deployment: asks and claims queue on it (PostgreSQL).
const VALUE_LOCK: &str = "SELECT pg_advisory_xact_lock(7369009)";
const COLUMNS: &str = "code, replaced, bot, seed, games, wins, draws, losses, state, error, \
     holder, lease_ms, queued_ms, finished_ms";
const OPEN: &str = "SELECT COUNT(*) FROM genome_values WHERE state IN ('queued', 'running')";
const RUNNING: &str =
    "SELECT COUNT(*) FROM genome_values WHERE state = 'running' AND lease_ms >= $1";
const NEXT: &str = "SELECT code FROM genome_values WHERE state IN ('queued', 'running') \
     AND (holder IS NULL OR lease_ms IS NULL OR lease_ms < $1) ORDER BY queued_ms, code LIMIT 1";
const TAKE: &str = "UPDATE genome_values SET state = 'running', holder = $2, lease_ms = $3 \
     WHERE code = $1";
const INSERT: &str = "INSERT INTO genome_values (code, replaced, bot, seed, games, state, \
     queued_ms) VALUES ($1, $2, $3, $4, $5, 'queued', $6)";
const COUNT: &str = "UPDATE genome_values SET wins = wins + $4, draws = draws + $5, \
     losses = losses + $6, lease_ms = $7, \
     state = CASE WHEN wins + draws + losses + $4 + $5 + $6 >= games THEN 'done' ELSE 'running' END, \
     holder = CASE WHEN wins + draws + losses + $4 + $5 + $6 >= games THEN NULL ELSE holder END, \
     finished_ms = CASE WHEN wins + draws + losses + $4 + $5 + $6 >= games THEN $8 ELSE NULL END \
     WHERE code = $1 AND holder = $2 AND state = 'running' AND wins + draws + losses = $3";
const FAIL: &str = "UPDATE genome_values SET state = 'failed', error = $3, holder = NULL, \
     lease_ms = NULL, finished_ms = $4 WHERE code = $1 AND holder = $2 AND state = 'running'";
const RENEW: &str = "UPDATE genome_values SET lease_ms = $3 \
     WHERE code = $1 AND holder = $2 AND state = 'running'";
const RELEASE: &str = "UPDATE genome_values SET state = 'queued', holder = NULL, lease_ms = NULL \
     WHERE holder = $1 AND state = 'running'";

type Row = (
    String,
    String,
    String,
    i64,
    i64,
    i64,
    i64,
    i64,
    String,
    Option<String>,
    Option<String>,
    Option<i64>,
    i64,
    Option<i64>,
);

fn count(value: i64) -> Result<u32, StoreError> {
    u32::try_from(value).map_err(|_| StoreError::Corrupt(format!("a game count of {value}")))
}

fn job(row: Row) -> Result<ValueJob, StoreError> {
    let (
        code,
        replaced,
        bot,
        seed,
        games,
        wins,
        draws,
        losses,
        state,
        error,
        holder,
        lease_ms,
        queued_ms,
        finished_ms,
    ) = row;
    Ok(ValueJob {
        code,
        replaced,
        bot,
        // Stored as the same 64 bits, signed.
        seed: seed as u64,
        games: count(games)?,
        wins: count(wins)?,
        draws: count(draws)?,
        losses: count(losses)?,
        state: state.parse()?,
        error,
        holder,
        lease_until: lease_ms.map(Timestamp::from_ms),
        queued_at: Timestamp::from_ms(queued_ms),
        finished_at: finished_ms.map(Timestamp::from_ms),
    })
}

fn select_one() -> String {
    format!("SELECT {COLUMNS} FROM genome_values WHERE code = $1")
}

impl Store {
    /// Asks for the evaluation of genome `new.code` (stored): joins the one asked for before, if
    /// any, else stores a queued one unless `max_open` are queued or running already.
    pub async fn ask_value(
        &self,
        new: &NewValueJob<'_>,
        now: Timestamp,
        max_open: u32,
    ) -> Result<Asked, StoreError> {
        let select = select_one();
        let asked = transaction!(self, |tx, dialect| {
            if dialect == Dialect::Postgres {
                sqlx::query(VALUE_LOCK).execute(&mut *tx).await?;
            }
            let existing: Option<Row> = sqlx::query_as(&select)
                .bind(new.code)
                .fetch_optional(&mut *tx)
                .await?;
            match existing {
                Some(row) => Asked::Joined(job(row)?),
                None => {
                    let open: i64 = sqlx::query_scalar(OPEN).fetch_one(&mut *tx).await?;
                    if open >= i64::from(max_open) {
                        Asked::QueueFull
                    } else {
                        sqlx::query(INSERT)
                            .bind(new.code)
                            .bind(new.replaced)
                            .bind(new.bot)
                            .bind(new.seed as i64)
                            .bind(i64::from(new.games))
                            .bind(now.ms())
                            .execute(&mut *tx)
                            .await?;
                        let row: Row = sqlx::query_as(&select)
                            .bind(new.code)
                            .fetch_one(&mut *tx)
                            .await?;
                        Asked::Started(job(row)?)
                    }
                }
            }
        });
        Ok(asked)
    }

    /// The evaluation of genome `code`, if one was asked for.
    pub async fn value_job(&self, code: &str) -> Result<Option<ValueJob>, StoreError> {
        let select = select_one();
        let row: Option<Row> = reading!(self, pool => {
            sqlx::query_as(&select).bind(code).fetch_optional(pool).await
        })?;
        row.map(job).transpose()
    }

    /// Takes the oldest evaluation nobody holds (queued, or running under a lease that ran out)
    /// for `holder` until `lease_until`, unless `max_running` evaluations run under a live lease
    /// already. Safe from every process at once.
    pub async fn claim_value_job(
        &self,
        holder: &str,
        now: Timestamp,
        lease_until: Timestamp,
        max_running: u32,
    ) -> Result<Option<ValueJob>, StoreError> {
        let select = select_one();
        let claimed = transaction!(self, |tx, dialect| {
            if dialect == Dialect::Postgres {
                sqlx::query(VALUE_LOCK).execute(&mut *tx).await?;
            }
            let running: i64 = sqlx::query_scalar(RUNNING)
                .bind(now.ms())
                .fetch_one(&mut *tx)
                .await?;
            let next: Option<String> = if running >= i64::from(max_running) {
                None
            } else {
                sqlx::query_scalar(NEXT)
                    .bind(now.ms())
                    .fetch_optional(&mut *tx)
                    .await?
            };
            match next {
                None => None,
                Some(code) => {
                    sqlx::query(TAKE)
                        .bind(&code)
                        .bind(holder)
                        .bind(lease_until.ms())
                        .execute(&mut *tx)
                        .await?;
                    let row: Row = sqlx::query_as(&select)
                        .bind(&code)
                        .fetch_one(&mut *tx)
                        .await?;
                    Some(job(row)?)
                }
            }
        });
        Ok(claimed)
    }

    /// Counts `games` played by `holder` after the first `played` of evaluation `code`, and
    /// extends its lease to `lease_until`; the evaluation is done (and released) once every game
    /// asked for is counted. False, and nothing counted, when `holder` no longer holds it or
    /// another count came first.
    pub async fn count_value_games(
        &self,
        code: &str,
        holder: &str,
        played: u32,
        games: ValueGames,
        lease_until: Timestamp,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        if games.total() == 0 {
            return self.renew_value_lease(code, holder, lease_until).await;
        }
        let counted = writing!(self, pool => {
            sqlx::query(COUNT)
                .bind(code)
                .bind(holder)
                .bind(i64::from(played))
                .bind(i64::from(games.wins))
                .bind(i64::from(games.draws))
                .bind(i64::from(games.losses))
                .bind(lease_until.ms())
                .bind(now.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(counted == 1)
    }

    /// Ends evaluation `code`, held by `holder`, as failed, with why.
    pub async fn fail_value_job(
        &self,
        code: &str,
        holder: &str,
        error: &str,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        let failed = writing!(self, pool => {
            sqlx::query(FAIL)
                .bind(code)
                .bind(holder)
                .bind(error)
                .bind(now.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(failed == 1)
    }

    /// Extends `holder`'s lease on evaluation `code` → whether it still holds it.
    pub async fn renew_value_lease(
        &self,
        code: &str,
        holder: &str,
        lease_until: Timestamp,
    ) -> Result<bool, StoreError> {
        let renewed = writing!(self, pool => {
            sqlx::query(RENEW)
                .bind(code)
                .bind(holder)
                .bind(lease_until.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(renewed == 1)
    }

    /// Puts every evaluation `holder` runs back in the queue (a process stopping), so that any
    /// process takes them over at once.
    pub async fn release_value_jobs(&self, holder: &str) -> Result<u64, StoreError> {
        let released = writing!(self, pool => {
            sqlx::query(RELEASE)
                .bind(holder)
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(released)
    }
}
