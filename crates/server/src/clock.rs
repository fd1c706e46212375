//! Flag falls without a request: a timer per running game in this process (it sleeps until the
//! game's deadline, then ends it on time through the normal change path), and a periodic sweep
//! of the database, which also ends the games of a process that died.

use crate::app::AppState;
use crate::games;
use crate::hub::{PlyViews, Update};
use crate::metrics::Metrics;
use crate::time::now_ms;
use gmo_engine::{Event, Game, GameSnapshot};
use gmo_store::{Change, StoreError};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::task::AbortHandle;

/// How many expired games one sweep transaction takes.
const SWEEP_BATCH: u32 = 64;

/// The armed flag timers, one per running game this process changed last. A timer leaves the
/// map when it fires, when its game ends, and when another process changes the game (that
/// process then keeps the clock; the sweep covers it if it dies).
#[derive(Debug, Default)]
pub struct Timers {
    armed: Mutex<HashMap<String, AbortHandle>>,
}

impl Timers {
    /// Replaces game `id`'s timer by one firing at `deadline_ms` (none: the clock stopped).
    pub fn arm(&self, state: &AppState, id: &str, deadline_ms: Option<i64>) {
        let mut armed = self.map();
        if let Some(old) = armed.remove(id) {
            // The timer that fired is the one committing now: it must not cancel itself.
            if tokio::task::try_id() != Some(old.id()) {
                old.abort();
            }
        }
        let Some(deadline_ms) = deadline_ms else {
            return;
        };
        let (state, game) = (state.clone(), id.to_owned());
        let task = tokio::spawn(async move {
            let wait = u64::try_from(deadline_ms.saturating_sub(now_ms())).unwrap_or(0);
            // One extra millisecond: the engine judges a clock fallen strictly after it.
            tokio::time::sleep(Duration::from_millis(wait + 1)).await;
            if let Err(error) = games::flag(&state, &game).await {
                tracing::warn!(game, ?error, "flag timer could not end the game");
            }
            state.timers.forget_fired(&game);
        });
        armed.insert(id.to_owned(), task.abort_handle());
    }

    /// Drops game `id`'s timer, if any.
    pub fn disarm(&self, id: &str) {
        if let Some(old) = self.map().remove(id) {
            old.abort();
        }
    }

    /// How many timers are armed: for tests and metrics.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether no timer is armed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes the calling timer's entry once it has run (unless it was replaced meanwhile).
    fn forget_fired(&self, id: &str) {
        let mut armed = self.map();
        if armed
            .get(id)
            .is_some_and(|handle| tokio::task::try_id() == Some(handle.id()))
        {
            armed.remove(id);
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, AbortHandle>> {
        self.armed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Sweeps every `interval` until the server stops.
pub async fn sweep_forever(state: AppState) {
    let mut ticks = tokio::time::interval(state.config.sweep_interval);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(error) = sweep_once(&state).await {
            tracing::warn!(%error, "clock sweep failed");
        }
    }
}

/// Ends every game whose clock has fallen by now, whichever process started it.
pub async fn sweep_once(state: &AppState) -> Result<usize, StoreError> {
    let now = now_ms();
    let swept = state
        .store
        .sweep_expired(now, SWEEP_BATCH, |stored: gmo_store::Game<GameSnapshot>| {
            // The row's snapshot has no events (they are the record): enough to tick the clock.
            let mut game = Game::try_from(stored.state).ok()?;
            game.tick(now).then(|| flagged(&game))
        })
        .await?;
    let count = swept.len();
    for done in swept {
        Metrics::bump(&state.metrics.games_ended);
        // Reloaded with its record, so that this process's streams and cache see the whole game.
        match games::load(state, &done.id).await {
            Ok(stored) => {
                let update = Update {
                    version: stored.version,
                    kinds: vec!["end".to_owned()],
                    ply: PlyViews::default(),
                    game: stored.state,
                };
                games::publish(state, &done.id, update);
            }
            Err(error) => tracing::warn!(game = done.id, ?error, "could not reload a swept game"),
        }
    }
    Ok(count)
}

fn flagged(game: &Game) -> Change<Event, GameSnapshot> {
    Change {
        ply: game.events().last().cloned(),
        status: game.status().name().to_owned(),
        deadline_ms: None,
        finished: game.is_over(),
        state: games::row_state(game),
    }
}
