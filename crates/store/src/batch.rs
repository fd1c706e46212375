//! Changes of many games committed together on PostgreSQL. A durable change costs a commit, and a
//! commit costs a round trip, a transaction and a WAL flush; changes of different games that
//! arrive while others are being written are taken together into one statement (one
//! transaction, one flush). Each is still version-checked on its own: a stale one changes nothing
//! and gets its error, while the others commit. Nobody is answered before the commit that holds
//! their change, so durability is what it was. At low load a batch holds one change.

use crate::games::ChangeRow;
use crate::held::Held;
use crate::{StoreError, games};
use gmo_types::GameId;
use sqlx::{PgConnection, PgPool};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{Mutex, mpsc, oneshot};

/// The most changes in one statement.
const BATCH: usize = 64;
/// Statements in flight at once: while one commits, the next batch gathers and is sent. Fewer
/// writers make bigger batches, so fewer transactions; on 2 cores 1, 2, 4 and 8 writers gave
/// 2,347–2,759, 2,300–2,487, 2,018 and 1,749 moves/s (docs/performance.md). Two keep a batch that
/// waits on a lock from stalling every move.
const WRITERS: usize = 2;
/// Changes waiting for a writer; a change beyond that waits to be queued.
const QUEUE: usize = 4_096;

/// A change waiting for its batch.
struct Pending {
    id: GameId,
    expected: i64,
    row: ChangeRow,
    done: oneshot::Sender<Result<i64, StoreError>>,
}

/// Hands changes to the writers.
#[derive(Debug, Clone)]
pub(crate) struct Batcher(mpsc::Sender<Pending>);

impl Batcher {
    /// Starts the writers on the current Tokio runtime; they stop with the last clone.
    pub(crate) fn start(pool: &PgPool) -> Batcher {
        let (queue, queued) = mpsc::channel(QUEUE);
        let queued = Arc::new(Mutex::new(queued));
        for _ in 0..WRITERS {
            tokio::spawn(write_forever(pool.clone(), queued.clone()));
        }
        Batcher(queue)
    }

    /// Applies `row` to game `id` at `expected` in the next batch → the new version, or the row
    /// back when the writers are gone (their runtime stopped), for the caller to write alone.
    pub(crate) async fn apply(
        &self,
        id: &GameId,
        expected: i64,
        row: ChangeRow,
    ) -> Result<Result<i64, StoreError>, ChangeRow> {
        let (done, answer) = oneshot::channel();
        let pending = Pending {
            id: id.clone(),
            expected,
            row,
            done,
        };
        if let Err(refused) = self.0.send(pending).await {
            return Err(refused.0.row);
        }
        // A writer that stopped mid-batch (its runtime shutting down) may or may not have
        // committed it: say so rather than guess.
        Ok(answer
            .await
            .unwrap_or(Err(StoreError::Database(sqlx::Error::WorkerCrashed))))
    }
}

async fn write_forever(pool: PgPool, queued: Arc<Mutex<mpsc::Receiver<Pending>>>) {
    let mut batch = Vec::with_capacity(BATCH);
    let mut held = Held::new(pool.clone());
    loop {
        let waiting = async { queued.lock().await.recv_many(&mut batch, BATCH).await };
        let Some(1..) = held.wait(waiting).await else {
            return;
        };
        // Rows are locked in id order, so two batches of overlapping games rarely deadlock.
        batch.sort_by(|a, b| a.id.cmp(&b.id));
        let written = match held.get().await {
            Ok(connection) => write_together(connection, &batch).await,
            Err(error) => Err(error),
        };
        if written.is_err() {
            held.give_back();
        }
        answer_all(&pool, &mut batch, written).await;
    }
}

/// Answers each change of a batch; if the statement failed as a whole (a deadlock with another
/// process's batch, a lost connection), each change is written alone instead.
async fn answer_all(
    pool: &PgPool,
    batch: &mut Vec<Pending>,
    written: Result<HashMap<i64, i64>, sqlx::Error>,
) {
    match written {
        Ok(versions) => answer(pool, batch, &versions).await,
        Err(error) => {
            tracing::debug!(%error, count = batch.len(), "a batch failed; writing its changes alone");
            for pending in batch.drain(..) {
                let alone =
                    games::apply_postgres(pool, &pending.id, pending.expected, &pending.row);
                let _ = pending.done.send(alone.await);
            }
        }
    }
}

const APPLY_MANY: &str = "WITH input AS (\
       SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::bool[], $5::text[], \
         $6::text[], $7::int8[], $8::int8[], $9::text[], $10::int8[]) WITH ORDINALITY \
       AS i (id, expected, status, finished, state, ply, deadline_ms, bot_due_ms, bot_holder, \
         bot_lease_ms, n)), \
     up AS (\
       UPDATE games g SET version = g.version + 1, status = i.status, finished = i.finished, \
       state = COALESCE(i.state, g.state), \
       state_plies = CASE WHEN i.state IS NULL THEN g.state_plies \
         ELSE g.plies + CASE WHEN i.ply IS NULL THEN 0 ELSE 1 END END, \
       plies = g.plies + CASE WHEN i.ply IS NULL THEN 0 ELSE 1 END, \
       deadline_ms = i.deadline_ms, bot_due_ms = i.bot_due_ms, bot_holder = i.bot_holder, \
       bot_lease_ms = i.bot_lease_ms, updated_at = CURRENT_TIMESTAMP \
       FROM input i WHERE g.id = i.id AND g.version = i.expected \
       RETURNING g.id, g.version, g.plies, i.ply, i.n), \
     appended AS (INSERT INTO plies (game_id, seq, ply) \
       SELECT id, plies - 1, ply FROM up WHERE ply IS NOT NULL) \
     SELECT n, version FROM up";

/// The new version of each change of the batch that was applied, by its place in the batch
/// (from 1). Of two changes of one game at the same version (two writers of this process that
/// read the same version), one is applied.
async fn write_together(
    connection: &mut PgConnection,
    batch: &[Pending],
) -> Result<HashMap<i64, i64>, sqlx::Error> {
    let column = |f: fn(&Pending) -> Option<String>| batch.iter().map(f).collect::<Vec<_>>();
    let number = |f: fn(&Pending) -> Option<i64>| batch.iter().map(f).collect::<Vec<_>>();
    let rows: Vec<(i64, i64)> = sqlx::query_as(APPLY_MANY)
        .bind(batch.iter().map(|p| p.id.to_string()).collect::<Vec<_>>())
        .bind(batch.iter().map(|p| p.expected).collect::<Vec<_>>())
        .bind(batch.iter().map(|p| p.row.status).collect::<Vec<_>>())
        .bind(batch.iter().map(|p| p.row.finished).collect::<Vec<_>>())
        .bind(column(|p| p.row.state.clone()))
        .bind(column(|p| p.row.ply.clone()))
        .bind(number(|p| p.row.deadline_ms))
        .bind(number(|p| p.row.bot_due_ms()))
        .bind(column(|p| p.row.bot_holder().map(str::to_owned)))
        .bind(number(|p| p.row.bot_lease_ms()))
        .fetch_all(connection)
        .await?;
    Ok(rows.into_iter().collect())
}

/// Answers each change: its new version, or why it was not applied.
async fn answer(pool: &PgPool, batch: &mut Vec<Pending>, versions: &HashMap<i64, i64>) {
    for (n, pending) in (1..).zip(batch.drain(..)) {
        let result = match versions.get(&n) {
            Some(&version) => Ok(version),
            None => games::refusal(pool, &pending.id, pending.expected).await,
        };
        let _ = pending.done.send(result);
    }
}
