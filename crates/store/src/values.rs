//! Value evaluations of genomes: jobs of kind `value` (migration 0021), one per genome code.
//! An evaluation is asked for once (later asks join it), taken by one process at a time under a
//! lease, counted game by game, and taken over by any process when its lease runs out; the
//! jobs' own calls renew, fail and release it ([`Store::renew_job_lease`], …). Both bounds
//! (evaluations waiting or running, and evaluations running) are counted under the jobs' lock,
//! so that they hold across processes.

use crate::jobs::{Job, JobAsked, JobBounds, NewJob};
use crate::{Store, StoreError};
use gmo_types::{EvaluationState, Timestamp};
use serde::{Deserialize, Serialize};

/// The jobs' kind of value evaluations.
pub const VALUE_KIND: &str = "value";

/// An evaluation as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueJob {
    /// The job's id.
    pub id: i64,
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

/// What a value job keeps as its result: how it is played, and the games counted so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Counts {
    replaced: String,
    bot: String,
    /// The seed's 64 bits, signed (as the evaluations' own table kept them).
    seed: i64,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
}

impl ValueJob {
    fn of(job: Job) -> Result<ValueJob, StoreError> {
        let text = job.result.as_deref().unwrap_or_default();
        let counts: Counts = serde_json::from_str(text).map_err(|error| {
            StoreError::Corrupt(format!("value job {}'s result: {error}", job.id))
        })?;
        Ok(ValueJob {
            id: job.id,
            code: job.subject.clone(),
            replaced: counts.replaced,
            bot: counts.bot,
            seed: counts.seed as u64,
            games: counts.games,
            wins: counts.wins,
            draws: counts.draws,
            losses: counts.losses,
            state: job.state,
            error: job.error,
            holder: job.holder,
            lease_until: job.lease_until,
            queued_at: job.created_at,
            finished_at: job.finished_at,
        })
    }

    fn counts(&self) -> Counts {
        Counts {
            replaced: self.replaced.clone(),
            bot: self.bot.clone(),
            seed: self.seed as i64,
            games: self.games,
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        }
    }
}

fn to_json(counts: &Counts) -> String {
    serde_json::to_string(counts).expect("counts serialise")
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
        let counts = Counts {
            replaced: new.replaced.to_owned(),
            bot: new.bot.to_owned(),
            seed: new.seed as i64,
            games: new.games,
            wins: 0,
            draws: 0,
            losses: 0,
        };
        let result = to_json(&counts);
        let job = NewJob {
            kind: VALUE_KIND,
            subject: new.code,
            asker: "",
            total: new.games,
            result: Some(&result),
        };
        // Evaluations are bounded in all, not per address.
        let bounds = JobBounds {
            open: max_open,
            open_per_asker: max_open,
        };
        Ok(match self.ask_new_job(&job, now, bounds).await? {
            JobAsked::Started(job) => Asked::Started(ValueJob::of(job)?),
            JobAsked::Joined(job) => Asked::Joined(ValueJob::of(job)?),
            JobAsked::QueueFull | JobAsked::AskerFull => Asked::QueueFull,
        })
    }

    /// The evaluation of genome `code`, if one was asked for.
    pub async fn value_job(&self, code: &str) -> Result<Option<ValueJob>, StoreError> {
        self.job(VALUE_KIND, code)
            .await?
            .map(ValueJob::of)
            .transpose()
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
        self.take_job_within(VALUE_KIND, holder, now, lease_until, max_running)
            .await?
            .map(ValueJob::of)
            .transpose()
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
        let Some(job) = self.value_job(code).await? else {
            return Ok(false);
        };
        let held = job.holder.as_deref() == Some(holder)
            && job.state == EvaluationState::Running
            && job.played() == played;
        if !held {
            return Ok(false);
        }
        if games.total() == 0 {
            return self.renew_job_lease(job.id, holder, lease_until).await;
        }
        let counted = ValueJob {
            wins: job.wins + games.wins,
            draws: job.draws + games.draws,
            losses: job.losses + games.losses,
            ..job.clone()
        };
        let result = to_json(&counted.counts());
        let now_played = counted.played();
        // The holder is checked again by the update: a process that took the job over since wins.
        if now_played >= job.games {
            self.finish_job(job.id, holder, job.games, &result, now)
                .await
        } else {
            self.save_job_progress(
                job.id,
                holder,
                (now_played, job.games),
                &result,
                lease_until,
            )
            .await
        }
    }
}
