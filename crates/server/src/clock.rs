//! Flag falls without a request: a timer per running game in this process (it sleeps until the
//! game's deadline, then ends it on time through the normal change path), and a periodic sweep
//! of the database, which also ends the games of a process that died.

use crate::app::AppState;
use crate::games;
use crate::hub::{LineType, PlyViews, Update};
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
        .sweep_expired(
            now,
            SWEEP_BATCH,
            |stored: gmo_store::Game<GameSnapshot>, since: Vec<Event>| {
                // The snapshot (without the earlier events: the record keeps them) and the plies
                // since: enough to tick the clock.
                let id = stored.id.clone();
                let mut game = Game::try_from(stored.state).ok()?;
                if let Err(error) = game.replay_events(&since) {
                    tracing::error!(game = id, %error, "a stored game does not replay");
                    return None;
                }
                game.tick(now).then(|| flagged(&game))
            },
        )
        .await?;
    let count = swept.len();
    for done in swept {
        Metrics::bump(&state.metrics.games_ended);
        // Reloaded with its record, so that this process's streams and cache see the whole game.
        match games::load(state, &done.id).await {
            Ok(stored) => {
                let update = Update {
                    version: stored.version,
                    kinds: vec![LineType::End],
                    ply: PlyViews::default(),
                    joined: games::joined(&stored),
                    game: stored.state,
                    rematch: None,
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
        status: game.status(),
        deadline_ms: None,
        finished: game.is_over(),
        state: Some(games::row_state(game)),
        bot_turn: None,
    }
}

#[cfg(test)]
mod tests {
    use super::sweep_once;
    use crate::{Config, games, spawn};
    use serde_json::{Value, json};
    use std::time::Duration;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite_a_timer_that_loses_to_the_sweep_is_no_failure() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        timer_loses_to_the_sweep(format!("sqlite://{}", dir.path().join("gmo.db").display())).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres_a_timer_that_loses_to_the_sweep_is_no_failure() {
        gmo_store::scratch::with_scratch_database("gmo_server_unit", timer_loses_to_the_sweep)
            .await;
    }

    /// The timer loaded the game just before its clock fell; the sweep ends it first; the
    /// timer's commit then finds a newer version. That is the game ended correctly, not an error.
    async fn timer_loses_to_the_sweep(url: String) {
        let mut config = Config::new(([127, 0, 0, 1], 0).into(), url);
        config.sweep_interval = Duration::from_secs(3_600);
        let app = spawn(config).await.expect("the server starts");
        let state = app.state().clone();
        let id = started_game(&format!("http://{}", app.addr()), 300).await;
        // Only the sweep and the test's own call may end it.
        state.timers.disarm(&id);
        let loaded = games::load(&state, &id).await.expect("the game");
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(sweep_once(&state).await.expect("a sweep"), 1);
        let late = games::end_on_time(&state, &loaded).await;
        assert!(late.is_ok(), "the timer's late attempt: {late:?}");
        let ended = games::load(&state, &id).await.expect("the game");
        assert_eq!(ended.status, gmo_engine::GameStatus::BlackWon);
        assert_eq!(ended.version, loaded.version + 1, "ended once");
        drop(state);
        app.shutdown().await.expect("the server stops");
    }

    /// A game on the default preset with `clock_ms` a side, started → its id.
    async fn started_game(base: &str, clock_ms: i64) -> String {
        let client = reqwest::Client::new();
        let send = |request: reqwest::RequestBuilder| async move {
            let response = request.send().await.expect("an answer");
            assert!(response.status().is_success(), "{response:?}");
            response.json::<Value>().await.expect("JSON")
        };
        let body = json!({"clock": {"initial_ms": clock_ms}});
        let created = send(client.post(format!("{base}/api/games")).json(&body)).await;
        let id = created["id"].as_str().expect("an id").to_owned();
        for (side, king) in [("white", "d1"), ("black", "d8")] {
            let token = created["seats"][side]["token"].as_str().expect("a token");
            let game = format!("{base}/api/games/{id}");
            let preset = json!({"preset": "default"});
            send(
                client
                    .put(format!("{game}/preset"))
                    .bearer_auth(token)
                    .json(&preset),
            )
            .await;
            send(
                client
                    .post(format!("{game}/kings/{king}"))
                    .bearer_auth(token),
            )
            .await;
            send(client.post(format!("{game}/ready")).bearer_auth(token)).await;
        }
        id
    }
}
