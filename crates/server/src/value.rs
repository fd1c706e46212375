//! Genome value evaluations in the service (`POST /api/genomes/{reference}/value`): bot games with
//! the genome in place of the knights, as `gmo value` plays them (docs/workbench.md), run in the
//! background and kept with the genome.
//!
//! An evaluation is claimed from the database by one process under a lease, at most
//! [`crate::Config::max_value_jobs`] at once in the deployment. Its games are played a few at a
//! time on a blocking thread (never on the HTTP runtime); after each batch the games are counted
//! in the database and the lease renewed. Every game is determined by the evaluation's seed and
//! its number, so when a process dies its lease runs out, and any process takes the evaluation
//! over and goes on from the games counted.

use crate::app::AppState;
use crate::bot::AbortOnDrop;
use crate::time::now_ms;
use gmo_bots::BotSpec;
use gmo_bots::value::Trial;
use gmo_genome::Genome;
use gmo_store::{ValueGames, ValueJob};
use std::time::Duration;

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

fn lease_ms() -> i64 {
    i64::try_from(LEASE.as_millis()).unwrap_or(i64::MAX)
}

/// Every `sweep_interval`, and whenever an evaluation is asked for or ends, until the server
/// stops: claims the evaluations this process may run and runs them.
pub async fn run_forever(state: AppState) {
    let mut ticks = tokio::time::interval(state.config.sweep_interval);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            () = state.values.notified() => {}
        }
        loop {
            let now = now_ms();
            let claimed = state
                .store
                .claim_value_job(
                    &state.instance,
                    now,
                    now + lease_ms(),
                    state.config.max_value_jobs,
                )
                .await;
            match claimed {
                Ok(Some(job)) => {
                    tracing::info!(genome = job.code, played = job.played(), "evaluating");
                    let state = state.clone();
                    tokio::spawn(async move {
                        evaluate(&state, job).await;
                        // A place is free: the next in the queue may start.
                        state.values.notify_one();
                    });
                }
                Ok(None) => break,
                Err(error) => {
                    tracing::warn!(%error, "could not look for value evaluations");
                    break;
                }
            }
        }
    }
}

/// Plays `job`'s remaining games, counting them batch by batch, while this process holds it.
async fn evaluate(state: &AppState, job: ValueJob) {
    let trial = match trial_of(state, &job).await {
        Ok(trial) => trial,
        Err(why) => return fail(state, &job, &why).await,
    };
    let mut played = job.played();
    while played < job.games {
        let end = (played + BATCH).min(job.games);
        let batch = trial.clone();
        let renewing = AbortOnDrop(tokio::spawn(renew_while_playing(
            state.clone(),
            job.code.clone(),
        )));
        let tally = tokio::task::spawn_blocking(move || batch.run(played..end, 1, |_| {})).await;
        drop(renewing);
        let tally = match tally {
            Ok(Ok(tally)) => tally,
            Ok(Err(why)) => return fail(state, &job, &why).await,
            Err(panic) => return fail(state, &job, &format!("a game failed: {panic}")).await,
        };
        let now = now_ms();
        let games = ValueGames {
            wins: tally.wins,
            draws: tally.draws,
            losses: tally.losses,
        };
        match state
            .store
            .count_value_games(
                &job.code,
                &state.instance,
                played,
                games,
                now + lease_ms(),
                now,
            )
            .await
        {
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
}

async fn trial_of(state: &AppState, job: &ValueJob) -> Result<Trial, String> {
    let stored = state
        .store
        .genome(&job.code)
        .await
        .map_err(|e| e.to_string())?;
    let genome = Genome::parse(&stored.dna).map_err(|e| e.to_string())?;
    let bot: BotSpec = job.bot.parse().map_err(|e: gmo_bots::BadSpec| e.0)?;
    Trial::new(genome, &job.replaced, bot, job.seed).map_err(|e| e.0)
}

async fn fail(state: &AppState, job: &ValueJob, why: &str) {
    tracing::warn!(genome = job.code, why, "a value evaluation failed");
    if let Err(error) = state
        .store
        .fail_value_job(&job.code, &state.instance, why, now_ms())
        .await
    {
        tracing::warn!(genome = job.code, %error, "could not record a failed evaluation");
    }
}

async fn renew_while_playing(state: AppState, code: String) {
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        let lease = now_ms() + lease_ms();
        if let Err(error) = state
            .store
            .renew_value_lease(&code, &state.instance, lease)
            .await
        {
            tracing::warn!(genome = code, %error, "could not renew an evaluation's lease");
        }
    }
}
