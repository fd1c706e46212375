//! Analyses of finished games (docs/analysis.md), as jobs in the store that any process takes:
//! every `gmo serve` process, and `gmo work` processes that do nothing else.
//!
//! An analysis is asked for once per game (later asks join it), within the queue's bounds. A
//! process takes it under a lease and searches its positions one at a time on a blocking thread
//! (never on the async workers), at most `running` analyses at once in this process; after each
//! position it saves what it found and renews the lease, and a renewing task keeps the lease
//! alive while a position is searched. Every position's answer is a pure function of the record
//! (`gmo_bots::analysis`), so when a process dies its lease runs out and any process takes the
//! analysis over from the positions saved, with the same result.

use crate::bots::AbortOnDrop;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::stored;
use crate::time::now;
use gmo_bots::analysis::{self, Replayed, Searched};
pub use gmo_bots::analysis::{Accuracy, Eval, Judgement, PlyAnalysis};
use gmo_store::{Job, JobAsked, JobBounds, Store};
use gmo_types::{EvaluationState, GameId, Millis, Timestamp};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};

/// The jobs' kind in the store.
pub const KIND: &str = "analysis";
/// How long a lease holds unrenewed: after it, any process takes the analysis over.
const LEASE: Duration = Duration::from_secs(5);
/// How often a running analysis renews its lease while a position is searched.
const RENEW_EVERY: Duration = Duration::from_secs(1);
/// When an address that has as many analyses waiting as it may is told to try again.
const RETRY_AFTER_SECS: u64 = 30;

/// How analyses are bounded.
#[derive(Debug, Clone, Copy)]
pub struct AnalysisLimits {
    /// The most this process runs at once (each takes one core while it runs).
    pub running: u32,
    /// The most queued or running in the deployment.
    pub queued: u32,
    /// The most queued or running asked by one address.
    pub per_address: u32,
    /// Search nodes per position.
    pub nodes: u64,
}

/// What is kept in the job's result, saved after every position.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Saved {
    /// Positions searched so far, from the start.
    searched: Vec<Searched>,
    /// The plies judged from them.
    plies: Vec<PlyAnalysis>,
    accuracy: Option<Accuracy>,
}

/// An analysis as it stands.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub state: EvaluationState,
    /// Positions searched, of `total` (0 of 0 until a process takes it).
    pub done: u32,
    pub total: u32,
    pub plies: Vec<PlyAnalysis>,
    pub accuracy: Accuracy,
    /// Why it failed.
    pub error: Option<String>,
}

/// The analyses of the service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Analyses {
    store: Store,
    limits: AnalysisLimits,
    instance: Arc<str>,
    /// Places for analyses running in this process.
    slots: Arc<Semaphore>,
    /// Wakes the loop when an analysis is asked for or ends.
    wake: Arc<Notify>,
}

impl Analyses {
    pub fn new(store: Store, limits: AnalysisLimits, instance: Arc<str>) -> Analyses {
        Analyses {
            store,
            limits,
            instance,
            slots: Arc::new(Semaphore::new(limits.running as usize)),
            wake: Arc::default(),
        }
    }

    /// Asks for the analysis of game `id` on behalf of `address`, or joins the one asked before.
    /// Refused for an unknown game, a game in discovery, a game not over, and beyond the queue's
    /// bounds.
    pub async fn ask(&self, id: &GameId, address: &str) -> PlayResult<Analysis> {
        let stored = stored::decode(&self.store, id).await?;
        check_analysable(&stored.state)?;
        let bounds = JobBounds {
            open: self.limits.queued,
            open_per_asker: self.limits.per_address,
        };
        let asked = self
            .store
            .ask_job(KIND, id.as_str(), address, now(), bounds)
            .await?;
        match asked {
            JobAsked::Started(job) => {
                self.wake.notify_one();
                view(&job)
            }
            JobAsked::Joined(job) => view(&job),
            JobAsked::QueueFull => Err(PlayError::Full(format!(
                "this server queues at most {} analyses, and all places are taken; try again \
                 when one is done",
                self.limits.queued
            ))),
            JobAsked::AskerFull => Err(PlayError::Throttled {
                message: format!(
                    "one address may have at most {} analyses waiting or running; try again \
                     when one is done",
                    self.limits.per_address
                ),
                retry_after: RETRY_AFTER_SECS,
            }),
        }
    }

    /// The analysis of game `id` as it stands (refused when the game is unknown or in discovery,
    /// and when no analysis was asked for).
    pub async fn of(&self, id: &GameId) -> PlayResult<Analysis> {
        let stored = stored::decode(&self.store, id).await?;
        if stored.state.settings().discovery {
            return Err(discovery());
        }
        let job = self.store.job(KIND, id.as_str()).await?;
        let job = job.ok_or_else(|| {
            PlayError::not_found(
                "analysis",
                format!("{id} (never asked for: POST to start one)"),
            )
        })?;
        view(&job)
    }

    /// Every `every`, and whenever an analysis is asked for or ends, until stopped: takes the
    /// analyses this process has room for and runs them.
    pub async fn run(self, every: Duration) {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                () = self.wake.notified() => {}
            }
            self.take_all().await;
        }
    }

    async fn take_all(&self) {
        loop {
            let Ok(slot) = self.slots.clone().try_acquire_owned() else {
                return;
            };
            let now = now();
            match self
                .store
                .take_job(KIND, &self.instance, now, lease_from(now))
                .await
            {
                Ok(Some(job)) => {
                    tracing::info!(game = job.subject, done = job.done, "analysing");
                    let analyses = self.clone();
                    tokio::spawn(async move {
                        analyses.analyse(job).await;
                        drop(slot);
                        analyses.wake.notify_one();
                    });
                }
                Ok(None) => return,
                Err(error) => {
                    tracing::warn!(%error, "could not look for analyses");
                    return;
                }
            }
        }
    }

    /// Searches the positions of `job` not searched yet, saving each, while this process holds
    /// it.
    async fn analyse(&self, job: Job) {
        let (replayed, mut saved) = match self.resume(&job).await {
            Ok(found) => found,
            Err(why) => return self.fail(&job, &why).await,
        };
        let replayed = Arc::new(replayed);
        let total = count(replayed.positions.len());
        while saved.searched.len() < replayed.positions.len() {
            let k = saved.searched.len();
            let (positions, nodes) = (replayed.clone(), self.limits.nodes);
            let renewing = AbortOnDrop(tokio::spawn(self.clone().renew(job.id)));
            let searched = tokio::task::spawn_blocking(move || {
                analysis::search(&positions.positions[k], nodes)
            })
            .await;
            drop(renewing);
            match searched {
                Ok(searched) => saved.searched.push(searched),
                Err(panic) => return self.fail(&job, &format!("a search failed: {panic}")).await,
            }
            let (plies, accuracy) = analysis::judge(&replayed.plies, &saved.searched);
            saved.plies = plies;
            saved.accuracy = Some(accuracy);
            let Ok(json) = serde_json::to_string(&saved) else {
                return self.fail(&job, "the result does not serialise").await;
            };
            let done = count(saved.searched.len());
            let kept = if done == total {
                self.store
                    .finish_job(job.id, &self.instance, total, &json, now())
                    .await
            } else {
                self.store
                    .save_job_progress(
                        job.id,
                        &self.instance,
                        (done, total),
                        &json,
                        lease_from(now()),
                    )
                    .await
            };
            match kept {
                Ok(true) => {}
                // Taken over (this process was too slow to renew), or released at shutdown.
                Ok(false) => return,
                Err(error) => {
                    // The lease runs out and the analysis is taken over from the last save.
                    tracing::warn!(game = job.subject, %error, "could not save an analysis");
                    return;
                }
            }
        }
        tracing::info!(game = job.subject, "analysed");
    }

    /// The game's positions and what was saved before (a takeover goes on from there).
    async fn resume(&self, job: &Job) -> Result<(Replayed, Saved), String> {
        let id: GameId = job.subject.parse().map_err(|e| format!("{e}"))?;
        let stored = stored::decode(&self.store, &id)
            .await
            .map_err(|e| e.to_string())?;
        let record = stored.state.record();
        let replayed = tokio::task::spawn_blocking(move || analysis::replay(&record))
            .await
            .map_err(|e| e.to_string())??;
        let saved = match &job.result {
            Some(json) => serde_json::from_str(json).map_err(|e| e.to_string())?,
            None => Saved::default(),
        };
        Ok((replayed, saved))
    }

    async fn fail(&self, job: &Job, why: &str) {
        tracing::warn!(game = job.subject, why, "an analysis failed");
        if let Err(error) = self
            .store
            .fail_job(job.id, &self.instance, why, now())
            .await
        {
            tracing::warn!(game = job.subject, %error, "could not record a failed analysis");
        }
    }

    async fn renew(self, id: i64) {
        loop {
            tokio::time::sleep(RENEW_EVERY).await;
            let lease = lease_from(now());
            if let Err(error) = self.store.renew_job_lease(id, &self.instance, lease).await {
                tracing::warn!(job = id, %error, "could not renew an analysis's lease");
            }
        }
    }
}

/// Only a finished game outside discovery is analysed: in discovery the evaluations and best
/// moves would show what the other side's pieces can do.
fn check_analysable(game: &gmo_engine::Game) -> PlayResult<()> {
    if game.settings().discovery {
        return Err(discovery());
    }
    if !game.is_over() {
        return Err(PlayError::refused(
            PlayCode::NotOver,
            format!(
                "a game is analysed once it is over; it is {}",
                game.status().name()
            ),
        ));
    }
    Ok(())
}

fn discovery() -> PlayError {
    PlayError::Discovery(
        "this game keeps its genomes secret (discovery): an analysis would show what the other \
         side's pieces can do"
            .into(),
    )
}

fn view(job: &Job) -> PlayResult<Analysis> {
    let saved: Saved = match &job.result {
        Some(json) => serde_json::from_str(json).map_err(PlayError::internal)?,
        None => Saved::default(),
    };
    Ok(Analysis {
        state: job.state,
        done: job.done,
        total: job.total,
        plies: saved.plies,
        accuracy: saved.accuracy.unwrap_or(Accuracy {
            white: None,
            black: None,
        }),
        error: job.error.clone(),
    })
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// When a lease taken or renewed at `now` runs out.
fn lease_from(now: Timestamp) -> Timestamp {
    now + Millis::from_std(LEASE)
}
