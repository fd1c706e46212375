//! The bot worker: whenever a bot is to act, it lets the bot choose on a clone of the game, off
//! the async runtime, then plays the chosen ply through the same change path as a person's
//! request.
//!
//! Bot turns are durable: a change after which a bot is to act stores the turn, leased to the
//! process that made it, which wakes its bot at once ([`crate::games::BotWake`]) and renews the
//! lease while it thinks. If that process dies (or its bot fails), the lease runs out and any
//! process's takeover loop takes the turn: the bot moves within a few seconds of a restart or of
//! a crash.

use crate::bot_seats::{self, LEASE};
use crate::error::{PlayError, PlayResult};
use crate::games::{BotWake, Games};
use crate::progress::Act;
use crate::time::now;
use gmo_bots::{BotSpec, Budget, Ply};
use gmo_engine::{Color, Game};
use gmo_types::{GameId, Millis, Timestamp};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// How often a thinking bot renews its lease.
const RENEW_EVERY: Duration = Duration::from_millis(500);
/// How many turns one look for lapsed leases takes over.
const TAKE_OVER_BATCH: u32 = 16;
/// The most a bot thinks about one ply, whatever its spec asks: a search holds a blocking thread.
const MOVE_CAP: Duration = Duration::from_millis(500);
/// A bot spends at most this fraction of its remaining clock on one ply.
const CLOCK_SHARE: i64 = 20;
/// How many times in a row one process tries a bot's turn that fails (for any reason but the
/// database being away) before it gives up and aborts the game, reason `bot_failed`: a spec it
/// cannot read, a bot that finds no ply, a ply the game refuses — failures that retrying
/// rarely mends. Some 2.5 s apart (the lease runs out, the takeover looks again).
pub const MAX_TRIES: u32 = 3;
/// The most games whose failures one process counts at once (each entry leaves when its bot acts,
/// or its game is given up); past it the counts start again, so tries stay bounded per game.
const COUNTED_GAMES: usize = 4_096;

/// Until the server stops: acts on the turns this process's changes leave (`wakes`), and every
/// `every` takes over the due turns whose lease ran out (a dead or stopped process's, or one
/// whose bot failed).
pub async fn run(games: Games, wakes: mpsc::Receiver<BotWake>, every: Duration) {
    let failures = Failures::default();
    tokio::join!(
        wake_forever(games.clone(), wakes, failures.clone()),
        take_over_forever(games, every, failures)
    );
}

/// How many times in a row each bot turn of this process failed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Failures(Arc<Mutex<HashMap<GameId, u32>>>);

impl Failures {
    fn counts(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, u32>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// One more failure of game `id`'s bot → how many in a row.
    fn failed(&self, id: &GameId) -> u32 {
        let mut counts = self.counts();
        if counts.len() >= COUNTED_GAMES && !counts.contains_key(id) {
            counts.clear();
        }
        let count = counts.entry(id.clone()).or_insert(0);
        *count += 1;
        *count
    }

    /// Game `id`'s bot acted (or its game was given up): it starts again from none.
    fn forget(&self, id: &GameId) {
        self.counts().remove(id);
    }
}

async fn wake_forever(games: Games, mut wakes: mpsc::Receiver<BotWake>, failures: Failures) {
    while let Some(wake) = wakes.recv().await {
        let games = games.clone();
        let failures = failures.clone();
        tokio::spawn(async move {
            tokio::time::sleep(now().until(wake.due)).await;
            act_logged(&games, &wake.id, &failures).await;
        });
    }
}

async fn take_over_forever(games: Games, every: Duration, failures: Failures) {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let now = now();
        let claimed = games
            .store()
            .claim_bot_turns(games.instance(), now, lease_from(now), TAKE_OVER_BATCH)
            .await;
        match claimed {
            Ok(ids) => {
                for id in ids {
                    tracing::info!(game = %id, "taking over a bot's turn");
                    let games = games.clone();
                    let failures = failures.clone();
                    tokio::spawn(async move { act_logged(&games, &id, &failures).await });
                }
            }
            Err(error) => tracing::warn!(%error, "could not look for bot turns to take over"),
        }
    }
}

/// When a lease taken or renewed at `now` runs out.
fn lease_from(now: Timestamp) -> Timestamp {
    now + Millis::from_std(LEASE)
}

/// [`act`], its failure logged. The lease is left to run out, so that any process (this one
/// too) takes the turn over and tries again — up to [`MAX_TRIES`] times in a row in this
/// process, after which the game is aborted (reason `bot_failed`) rather than retried for ever.
/// The database being away is no failure of the bot: it is retried until the database answers.
async fn act_logged(games: &Games, id: &GameId, failures: &Failures) {
    match act(games, id).await {
        Ok(()) => failures.forget(id),
        // The game moved on while the bot thought (a resignation, a flag, another process that
        // took the turn over): nothing to retry.
        Err(PlayError::Refused { code, message }) => {
            tracing::debug!(game = %id, %code, message, "a bot's ply was overtaken");
        }
        Err(error) if error.is_unavailable() => {
            tracing::warn!(game = %id, %error, "a bot could not reach the database; it will retry");
        }
        Err(error) => {
            let tries = failures.failed(id);
            if tries < MAX_TRIES {
                tracing::warn!(game = %id, ?error, tries, "a bot failed to act; it will retry");
                return;
            }
            tracing::error!(game = %id, ?error, tries, "a bot kept failing to act; its game is aborted (bot_failed)");
            match give_up(games, id).await {
                Ok(()) => failures.forget(id),
                Err(error) => {
                    tracing::warn!(game = %id, %error, "could not abort the game of a failing bot; it will retry");
                }
            }
        }
    }
}

/// Aborts game `id` because the bot to act kept failing (reason `bot_failed`), if a bot is still
/// to act in it.
async fn give_up(games: &Games, id: &GameId) -> PlayResult<()> {
    let stored = games.load(id).await?;
    let Some(color) = stored.state.to_move() else {
        return Ok(());
    };
    if bot_seats::bot_of(&stored.settings, color).is_none() {
        return Ok(());
    }
    games
        .act_as_bot(id, stored.version, |game, seat, now| {
            game.bot_failed(seat, now)?;
            Ok(Act::BotFailed)
        })
        .await?;
    Ok(())
}

/// One bot action on game `id`, if a bot is to act and this process holds the turn; the commit
/// leases the next bot turn (if any) to this process and wakes it.
async fn act(games: &Games, id: &GameId) -> PlayResult<()> {
    let store = games.store();
    if !store
        .renew_bot_lease(id, games.instance(), lease_from(now()))
        .await?
    {
        return Ok(());
    }
    let stored = games.load(id).await?;
    let Some(color) = stored.state.to_move() else {
        return Ok(());
    };
    let Some(spec) = bot_seats::bot_of(&stored.settings, color) else {
        return Ok(());
    };
    let spec: BotSpec = spec.parse().map_err(PlayError::internal)?;
    let budget = budget(spec, &stored.state, color, now());
    // The bot reads its own clone, on a blocking thread: a search must not stall the runtime.
    // Meanwhile the lease is renewed, so that no other process takes the turn over.
    let snapshot = Game::clone(&stored.state);
    let renewing = AbortOnDrop(tokio::spawn(renew_while_thinking(
        games.clone(),
        id.clone(),
    )));
    let chosen = tokio::task::spawn_blocking(move || {
        spec.build(rand::random())
            .choose_for_game(&snapshot, budget)
    })
    .await
    .map_err(PlayError::internal)?;
    drop(renewing);
    let Some(chosen) = chosen else {
        return Err(PlayError::internal("the bot found no ply to play"));
    };
    games
        .act_as_bot(id, stored.version, |game, seat, now| {
            play(game, seat, &chosen, now)
        })
        .await?;
    Ok(())
}

async fn renew_while_thinking(games: Games, id: GameId) {
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        let lease = lease_from(now());
        if let Err(error) = games
            .store()
            .renew_bot_lease(&id, games.instance(), lease)
            .await
        {
            tracing::warn!(game = %id, %error, "could not renew a bot's lease");
        }
    }
}

/// Aborts a task when dropped.
pub(crate) struct AbortOnDrop(pub(crate) tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The time a bot may think now: what its spec asks, within [`MOVE_CAP`] and its clock's share.
fn budget(spec: BotSpec, game: &Game, color: Color, now: Timestamp) -> Budget {
    let left = game.clock().remaining_at(color, now);
    let share = left.at_least_zero().div(CLOCK_SHARE).to_std();
    let cap = MOVE_CAP.min(share).max(Duration::from_millis(1));
    match spec.budget {
        Budget::Time(asked) => Budget::Time(asked.min(cap)),
        Budget::Nodes(_) | Budget::Depth(_) => Budget::Time(cap),
    }
}

/// Plays the bot's ply for `seat` (the change path stores any genome it brings onto the board).
fn play(game: &mut Game, seat: Color, chosen: &Ply, now: Timestamp) -> PlayResult<Act> {
    match chosen {
        Ply::Move { from, to } => {
            let ply = game.play(seat, *from, *to, now)?;
            Ok(Act::Moved { ply, mover: seat })
        }
        Ply::Promotion { genome, .. } => Ok(Act::Promoted(game.promote(seat, genome, now)?)),
    }
}
