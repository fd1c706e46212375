//! Jobs (migration 0020): heavy work any process takes, one job per kind and subject. A job is
//! asked for once (later asks join it) within the queue's bounds, taken by one process at a
//! time under a lease it renews as it works, its progress saved as it goes, and taken over by
//! any process when the lease runs out. Taking is one statement: on PostgreSQL
//! `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED)`, so that processes never wait on each
//! other's rows; on SQLite the same `UPDATE` on the one writer connection.

use crate::backend::Dialect;
use crate::{Store, StoreError};
use gmo_types::{EvaluationState, Timestamp};

/// A job as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    pub id: i64,
    /// What to do (`analysis`).
    pub kind: String,
    /// What to do it to (a game's id).
    pub subject: String,
    pub state: EvaluationState,
    /// Steps done so far, of `total` (0 of 0 before a process took it).
    pub done: u32,
    pub total: u32,
    /// The result so far (JSON, the kind's own), or in the end.
    pub result: Option<String>,
    pub error: Option<String>,
    pub holder: Option<String>,
    pub lease_until: Option<Timestamp>,
    pub created_at: Timestamp,
    pub finished_at: Option<Timestamp>,
}

/// The queue's bounds: jobs of a kind queued or running, in all and asked by one address.
#[derive(Debug, Clone, Copy)]
pub struct JobBounds {
    pub open: u32,
    pub open_per_asker: u32,
}

/// A job asked for: what and on what, by whom, and what it starts with (steps to do and a
/// result, the kind's own: parameters it is to be done with, say).
#[derive(Debug, Clone, Copy)]
pub struct NewJob<'a> {
    pub kind: &'a str,
    pub subject: &'a str,
    pub asker: &'a str,
    pub total: u32,
    pub result: Option<&'a str>,
}

/// The answer to asking for a job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobAsked {
    /// Stored now, queued.
    Started(Job),
    /// Asked for before (it may be done): this is it.
    Joined(Job),
    /// As many jobs as may wait or run are waiting or running; nothing was stored.
    QueueFull,
    /// This address has as many jobs waiting or running as one address may.
    AskerFull,
}

/// One key for the whole deployment: asks queue on it so that the bounds hold (PostgreSQL).
const JOB_LOCK: &str = "SELECT pg_advisory_xact_lock(7369020)";
const COLUMNS: &str = "id, kind, subject, state, done, total, result, error, holder, lease_ms, \
     created_ms, finished_ms";
const OPEN: &str = "SELECT COUNT(*) FROM jobs WHERE kind = $1 AND state IN ('queued', 'running')";
const OPEN_BY: &str = "SELECT COUNT(*) FROM jobs WHERE kind = $1 \
     AND state IN ('queued', 'running') AND asker = $2";
const INSERT: &str = "INSERT INTO jobs (kind, subject, asker, state, created_ms, total, result) \
     VALUES ($1, $2, $3, 'queued', $4, $5, $6)";
const RUNNING: &str = "SELECT COUNT(*) FROM jobs WHERE kind = $1 AND state = 'running' \
     AND lease_ms >= $2";
const NEXT: &str = "SELECT id FROM jobs WHERE kind = $1 AND state IN ('queued', 'running') \
     AND (lease_ms IS NULL OR lease_ms < $2) ORDER BY created_ms, id LIMIT 1";
const PROGRESS: &str = "UPDATE jobs SET done = $3, total = $4, result = $5, lease_ms = $6 \
     WHERE id = $1 AND holder = $2 AND state = 'running'";
const FINISH: &str = "UPDATE jobs SET state = 'done', done = $3, total = $3, result = $4, \
     holder = NULL, lease_ms = NULL, finished_ms = $5 \
     WHERE id = $1 AND holder = $2 AND state = 'running'";
const FAIL: &str = "UPDATE jobs SET state = 'failed', error = $3, holder = NULL, \
     lease_ms = NULL, finished_ms = $4 WHERE id = $1 AND holder = $2 AND state = 'running'";
const RENEW: &str = "UPDATE jobs SET lease_ms = $3 WHERE id = $1 AND holder = $2 \
     AND state = 'running'";
const RELEASE: &str = "UPDATE jobs SET state = 'queued', holder = NULL, lease_ms = NULL \
     WHERE holder = $1 AND state = 'running'";

type Row = (
    i64,
    String,
    String,
    String,
    i64,
    i64,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i64>,
    i64,
    Option<i64>,
);

fn count(value: i64) -> Result<u32, StoreError> {
    u32::try_from(value).map_err(|_| StoreError::Corrupt(format!("a job count of {value}")))
}

fn job(row: Row) -> Result<Job, StoreError> {
    let (id, kind, subject, state, done, total, result, error, holder, lease, created, finished) =
        row;
    Ok(Job {
        id,
        kind,
        subject,
        state: state.parse()?,
        done: count(done)?,
        total: count(total)?,
        result,
        error,
        holder,
        lease_until: lease.map(Timestamp::from_ms),
        created_at: Timestamp::from_ms(created),
        finished_at: finished.map(Timestamp::from_ms),
    })
}

fn select_one() -> String {
    format!("SELECT {COLUMNS} FROM jobs WHERE kind = $1 AND subject = $2")
}

/// Takes the oldest open job of a kind nobody holds, in one statement.
fn take_sql(dialect: Dialect) -> String {
    let lock = match dialect {
        Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        Dialect::Sqlite => "",
    };
    format!(
        "UPDATE jobs SET state = 'running', holder = $3, lease_ms = $4 \
         WHERE id = ({NEXT}{lock}) RETURNING {COLUMNS}"
    )
}

impl Store {
    /// Asks for the job `kind` on `subject` for `asker`: joins the one asked for before, if any,
    /// else stores a queued one within `bounds`.
    pub async fn ask_job(
        &self,
        kind: &str,
        subject: &str,
        asker: &str,
        now: Timestamp,
        bounds: JobBounds,
    ) -> Result<JobAsked, StoreError> {
        let new = NewJob {
            kind,
            subject,
            asker,
            total: 0,
            result: None,
        };
        self.ask_new_job(&new, now, bounds).await
    }

    /// [`Store::ask_job`] for a job that starts with steps to do and a result.
    pub async fn ask_new_job(
        &self,
        new: &NewJob<'_>,
        now: Timestamp,
        bounds: JobBounds,
    ) -> Result<JobAsked, StoreError> {
        let select = select_one();
        let asked = transaction!(self, |tx, dialect| {
            if dialect == Dialect::Postgres {
                sqlx::query(JOB_LOCK).execute(&mut *tx).await?;
            }
            let existing: Option<Row> = sqlx::query_as(&select)
                .bind(new.kind)
                .bind(new.subject)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(row) = existing {
                JobAsked::Joined(job(row)?)
            } else {
                let open: i64 = sqlx::query_scalar(OPEN)
                    .bind(new.kind)
                    .fetch_one(&mut *tx)
                    .await?;
                let by: i64 = sqlx::query_scalar(OPEN_BY)
                    .bind(new.kind)
                    .bind(new.asker)
                    .fetch_one(&mut *tx)
                    .await?;
                if open >= i64::from(bounds.open) {
                    JobAsked::QueueFull
                } else if by >= i64::from(bounds.open_per_asker) {
                    JobAsked::AskerFull
                } else {
                    sqlx::query(INSERT)
                        .bind(new.kind)
                        .bind(new.subject)
                        .bind(new.asker)
                        .bind(now.ms())
                        .bind(i64::from(new.total))
                        .bind(new.result)
                        .execute(&mut *tx)
                        .await?;
                    let row: Row = sqlx::query_as(&select)
                        .bind(new.kind)
                        .bind(new.subject)
                        .fetch_one(&mut *tx)
                        .await?;
                    JobAsked::Started(job(row)?)
                }
            }
        });
        Ok(asked)
    }

    /// The job `kind` on `subject`, if one was asked for.
    pub async fn job(&self, kind: &str, subject: &str) -> Result<Option<Job>, StoreError> {
        let select = select_one();
        let row: Option<Row> = reading!(self, pool => {
            sqlx::query_as(&select).bind(kind).bind(subject).fetch_optional(pool).await
        })?;
        row.map(job).transpose()
    }

    /// Takes the oldest job of `kind` nobody holds (queued, or running under a lease that ran
    /// out) for `holder` until `lease_until`. Safe from every process at once: each job goes to
    /// one taker.
    pub async fn take_job(
        &self,
        kind: &str,
        holder: &str,
        now: Timestamp,
        lease_until: Timestamp,
    ) -> Result<Option<Job>, StoreError> {
        let row: Option<Row> = match &self.backend {
            crate::backend::Backend::Postgres(pool) => {
                sqlx::query_as(&take_sql(Dialect::Postgres))
                    .bind(kind)
                    .bind(now.ms())
                    .bind(holder)
                    .bind(lease_until.ms())
                    .fetch_optional(pool)
                    .await?
            }
            crate::backend::Backend::Sqlite { write, .. } => {
                sqlx::query_as(&take_sql(Dialect::Sqlite))
                    .bind(kind)
                    .bind(now.ms())
                    .bind(holder)
                    .bind(lease_until.ms())
                    .fetch_optional(write)
                    .await?
            }
        };
        row.map(job).transpose()
    }

    /// [`Store::take_job`] unless `max_running` jobs of `kind` run under a live lease already,
    /// counted under the deployment's lock so that the bound holds across processes.
    pub async fn take_job_within(
        &self,
        kind: &str,
        holder: &str,
        now: Timestamp,
        lease_until: Timestamp,
        max_running: u32,
    ) -> Result<Option<Job>, StoreError> {
        let taken = transaction!(self, |tx, dialect| {
            if dialect == Dialect::Postgres {
                sqlx::query(JOB_LOCK).execute(&mut *tx).await?;
            }
            let running: i64 = sqlx::query_scalar(RUNNING)
                .bind(kind)
                .bind(now.ms())
                .fetch_one(&mut *tx)
                .await?;
            if running >= i64::from(max_running) {
                None
            } else {
                let row: Option<Row> = sqlx::query_as(&take_sql(dialect))
                    .bind(kind)
                    .bind(now.ms())
                    .bind(holder)
                    .bind(lease_until.ms())
                    .fetch_optional(&mut *tx)
                    .await?;
                row.map(job).transpose()?
            }
        });
        Ok(taken)
    }

    /// Saves `holder`'s progress on job `id` (`done` of `total`, the result so far) and extends
    /// its lease → whether it still holds the job (false, and nothing saved, otherwise).
    pub async fn save_job_progress(
        &self,
        id: i64,
        holder: &str,
        (done, total): (u32, u32),
        result: &str,
        lease_until: Timestamp,
    ) -> Result<bool, StoreError> {
        let saved = writing!(self, pool => {
            sqlx::query(PROGRESS)
                .bind(id)
                .bind(holder)
                .bind(i64::from(done))
                .bind(i64::from(total))
                .bind(result)
                .bind(lease_until.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(saved == 1)
    }

    /// Ends job `id`, held by `holder`, as done with `result` (`total` steps).
    pub async fn finish_job(
        &self,
        id: i64,
        holder: &str,
        total: u32,
        result: &str,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        let finished = writing!(self, pool => {
            sqlx::query(FINISH)
                .bind(id)
                .bind(holder)
                .bind(i64::from(total))
                .bind(result)
                .bind(now.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(finished == 1)
    }

    /// Ends job `id`, held by `holder`, as failed, with why.
    pub async fn fail_job(
        &self,
        id: i64,
        holder: &str,
        error: &str,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        let failed = writing!(self, pool => {
            sqlx::query(FAIL)
                .bind(id)
                .bind(holder)
                .bind(error)
                .bind(now.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(failed == 1)
    }

    /// Extends `holder`'s lease on job `id` → whether it still holds it.
    pub async fn renew_job_lease(
        &self,
        id: i64,
        holder: &str,
        lease_until: Timestamp,
    ) -> Result<bool, StoreError> {
        let renewed = writing!(self, pool => {
            sqlx::query(RENEW)
                .bind(id)
                .bind(holder)
                .bind(lease_until.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(renewed == 1)
    }

    /// Puts every job `holder` runs back in the queue (a process stopping), so that any process
    /// takes them over at once.
    pub async fn release_jobs(&self, holder: &str) -> Result<u64, StoreError> {
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
