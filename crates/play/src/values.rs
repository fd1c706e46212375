//! Genome value evaluations: bot games with the genome in place of the knights, as `gmo value`
//! plays them (docs/workbench.md), run in the background and kept with the genome.
//!
//! An evaluation is claimed from the database by one process under a lease, at most
//! `max_value_jobs` at once in the deployment. Its games are played a few at a time on a blocking
//! thread (never on the async workers); after each batch the games are counted in the database
//! and the lease renewed. Every game is determined by the evaluation's seed and its number, so
//! when a process dies its lease runs out, and any process takes the evaluation over and goes on
//! from the games counted.

use crate::bots::AbortOnDrop;
use crate::error::{PlayError, PlayResult};
use crate::time::now;
use gmo_bots::BotSpec;
use gmo_bots::value::{Estimate, Tally, Trial};
use gmo_genome::Genome;
use gmo_store::{Asked, NewValueJob, Store, ValueGames, ValueJob};
use gmo_types::{Millis, Timestamp};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// The piece an evaluation replaces, its bot and its seed: as `gmo value`'s defaults, so that
/// the service and the command give the same numbers.
pub const REPLACED: &str = gmo_bots::value::DEFAULT_REPLACED;
pub const BOT: &str = gmo_bots::value::DEFAULT_BOT;
pub const SEED: u64 = 1;
/// How long an evaluation's lease holds unrenewed: after it, any process takes it over.
const LEASE: Duration = Duration::from_secs(5);
/// How often a running evaluation renews its lease while a batch is played.
const RENEW_EVERY: Duration = Duration::from_secs(1);
/// Games per batch: counted in the database (and seen by streams) after each.
const BATCH: u32 = 4;

/// How evaluations are run in the deployment.
#[derive(Debug, Clone, Copy)]
pub struct ValueLimits {
    /// The most running at once (counted in the database).
    pub running: u32,
    /// The most queued or running; asking for one more is refused.
    pub queued: u32,
    /// Games per evaluation.
    pub games: u32,
}

/// Whether an ask started an evaluation or joined the one asked for before.
#[derive(Debug, Clone)]
pub enum Evaluation {
    Started(ValueJob),
    Joined(ValueJob),
}

/// The value evaluations of the service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Values {
    store: Store,
    limits: ValueLimits,
    instance: Arc<str>,
    /// Wakes the evaluation loop when an evaluation is asked for or ends.
    wake: Arc<Notify>,
}

impl Values {
    pub fn new(store: Store, limits: ValueLimits, instance: Arc<str>) -> Values {
        Values {
            store,
            limits,
            instance,
            wake: Arc::default(),
        }
    }

    /// Starts the evaluation of the stored genome `reference` names, or joins the one asked for
    /// before (it may be done).
    pub async fn ask(&self, reference: &str) -> PlayResult<Evaluation> {
        let stored = self.store.genome(reference).await?;
        let code = stored.code.to_string();
        let new = NewValueJob {
            code: &code,
            replaced: REPLACED,
            bot: BOT,
            seed: SEED,
            games: self.limits.games,
        };
        match self
            .store
            .ask_value(&new, now(), self.limits.queued)
            .await?
        {
            Asked::Started(job) => {
                self.wake.notify_one();
                Ok(Evaluation::Started(job))
            }
            Asked::Joined(job) => Ok(Evaluation::Joined(job)),
            Asked::QueueFull => Err(PlayError::Full(format!(
                "this server evaluates at most {} genomes at a time, queue included, and all \
                 places are taken; try again when one is done",
                self.limits.queued
            ))),
        }
    }

    /// The evaluation of the genome `reference` names (refused when the genome or its
    /// evaluation is unknown).
    pub async fn of(&self, reference: &str) -> PlayResult<ValueJob> {
        let stored = self.store.genome(reference).await?;
        let code = stored.code.to_string();
        self.job(&code).await?.ok_or_else(|| {
            PlayError::not_found(
                "value evaluation",
                format!("{code} (never asked for: POST to start one)"),
            )
        })
    }

    /// The evaluation of the genome with `code`, as it stands now.
    pub async fn job(&self, code: &str) -> PlayResult<Option<ValueJob>> {
        Ok(self.store.value_job(code).await?)
    }

    /// Every `every`, and whenever an evaluation is asked for or ends, until the server stops:
    /// claims the evaluations this process may run and runs them.
    pub async fn run(self, every: Duration) {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                () = self.wake.notified() => {}
            }
            self.claim_all().await;
        }
    }

    async fn claim_all(&self) {
        loop {
            let now = now();
            let claimed = self
                .store
                .claim_value_job(&self.instance, now, lease_from(now), self.limits.running)
                .await;
            match claimed {
                Ok(Some(job)) => {
                    tracing::info!(genome = job.code, played = job.played(), "evaluating");
                    let values = self.clone();
                    tokio::spawn(async move {
                        values.evaluate(job).await;
                        // A place is free: the next in the queue may start.
                        values.wake.notify_one();
                    });
                }
                Ok(None) => return,
                Err(error) => {
                    tracing::warn!(%error, "could not look for value evaluations");
                    return;
                }
            }
        }
    }

    /// Plays `job`'s remaining games, counting them batch by batch, while this process holds it.
    async fn evaluate(&self, job: ValueJob) {
        let trial = match self.trial_of(&job).await {
            Ok(trial) => trial,
            Err(why) => return self.fail(&job, &why).await,
        };
        let mut played = job.played();
        while played < job.games {
            let end = (played + BATCH).min(job.games);
            let batch = trial.clone();
            let renewing = AbortOnDrop(tokio::spawn(self.clone().renew(job.id)));
            let tally =
                tokio::task::spawn_blocking(move || batch.run(played..end, 1, |_| {})).await;
            drop(renewing);
            let tally = match tally {
                Ok(Ok(tally)) => tally,
                Ok(Err(why)) => return self.fail(&job, &why).await,
                Err(panic) => return self.fail(&job, &format!("a game failed: {panic}")).await,
            };
            let games = ValueGames {
                wins: tally.wins,
                draws: tally.draws,
                losses: tally.losses,
            };
            let now = now();
            let counted = self
                .store
                .count_value_games(
                    &job.code,
                    &self.instance,
                    played,
                    games,
                    lease_from(now),
                    now,
                )
                .await;
            match counted {
                Ok(true) => played = end,
                // Taken over (this process was too slow to renew), or released at shutdown.
                Ok(false) => return,
                Err(error) => {
                    // The lease runs out and the evaluation is taken over from the last count.
                    tracing::warn!(genome = job.code, %error, "could not count value games");
                    return;
                }
            }
        }
        tracing::info!(genome = job.code, "evaluated");
        self.value_entries(&job.code).await;
    }

    /// Gives the library's entries of genome `code` the value its evaluation found.
    async fn value_entries(&self, code: &str) {
        let job = match self.store.value_job(code).await {
            Ok(Some(job)) => job,
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(genome = code, %error, "could not read a finished evaluation");
                return;
            }
        };
        if let Some(pawns) = crate::library::entries::done_value(&job) {
            if let Err(error) = self.store.set_entry_value(code, pawns).await {
                tracing::warn!(genome = code, %error, "could not value the library's entries");
            }
        }
    }

    async fn trial_of(&self, job: &ValueJob) -> Result<Trial, String> {
        let stored = self
            .store
            .genome(&job.code)
            .await
            .map_err(|e| e.to_string())?;
        let genome = Genome::parse(&stored.dna).map_err(|e| e.to_string())?;
        let bot: BotSpec = job.bot.parse().map_err(|e: gmo_bots::BadSpec| e.0)?;
        Trial::new(genome, &job.replaced, bot, job.seed).map_err(|e| e.0)
    }

    async fn fail(&self, job: &ValueJob, why: &str) {
        tracing::warn!(genome = job.code, why, "a value evaluation failed");
        if let Err(error) = self
            .store
            .fail_job(job.id, &self.instance, why, now())
            .await
        {
            tracing::warn!(genome = job.code, %error, "could not record a failed evaluation");
        }
    }

    async fn renew(self, id: i64) {
        loop {
            tokio::time::sleep(RENEW_EVERY).await;
            let lease = lease_from(now());
            if let Err(error) = self.store.renew_job_lease(id, &self.instance, lease).await {
                tracing::warn!(job = id, %error, "could not renew an evaluation's lease");
            }
        }
    }
}

/// When a lease taken or renewed at `now` runs out.
fn lease_from(now: Timestamp) -> Timestamp {
    now + Millis::from_std(LEASE)
}

/// What the games of `job` counted so far say the genome is worth (none before the first game).
pub fn estimate(job: &ValueJob) -> Option<Estimate> {
    let tally = Tally {
        wins: job.wins,
        draws: job.draws,
        losses: job.losses,
    };
    if tally.games() == 0 {
        return None;
    }
    gmo_bots::value::estimate(&job.replaced, tally).ok()
}
