//! A flag falls: the running clock reaches zero and its side loses on time. It is found on three
//! paths, each of which calls [`flag_falls`]: the game's timer in the process that changed it
//! last ([`Games::flag`]), the sweep of the database that any process runs (which also ends the
//! games of a process that died, [`Games::sweep_once`]), and a change that finds the clock fallen
//! before it acts (`change.rs`). Whichever commits first ends the game; the others find a newer
//! version and stop quietly.

use super::Games;
use crate::progress::{Act, happened};
use crate::stored::{self, Stored, row_state};
use crate::time::now;
use gmo_engine::{Event, Game, GameSnapshot};
use gmo_store::{Change, RatedEnd, StoreError};
use gmo_types::{GameId, Timestamp};
use std::collections::HashMap;

/// How many expired games one sweep transaction takes.
const SWEEP_BATCH: u32 = 64;

/// The flag falls if the running clock has reached zero by `now`: the game ends on time, at the
/// moment the clock fell. Returns whether it did.
pub fn flag_falls(game: &mut Game, now: Timestamp) -> bool {
    game.tick(now)
}

impl Games {
    /// (Re)arms game `id`'s flag timer for its new deadline (none: its clock stopped).
    pub(super) fn arm_flag(&self, id: &GameId, deadline: Option<Timestamp>) {
        // Most moves find their game's timer running: moved, nothing to make.
        if deadline.is_some_and(|deadline| self.timers.move_to(id, deadline)) {
            return;
        }
        let (games, game) = (self.clone(), id.clone());
        self.timers.arm(id, deadline, move || {
            let (games, game) = (games.clone(), game.clone());
            async move {
                if let Err(error) = games.flag(&game).await {
                    tracing::warn!(%game, ?error, "flag timer could not end the game");
                }
            }
        });
    }

    /// Ends game `id` on time if its clock has fallen by now: what its flag timer does.
    pub async fn flag(&self, id: &GameId) -> crate::PlayResult<()> {
        let _turn = self.locks.lock(id).await;
        let stored = self.load(id).await?;
        self.end_on_time(id, &stored).await
    }

    /// Ends `stored` on time if its clock has fallen by now. Losing the race to the sweep (or to
    /// a change in another process) is no failure: the game changed first, so whoever changed it
    /// ended it or keeps its clock now.
    pub async fn end_on_time(&self, id: &GameId, stored: &Stored) -> crate::PlayResult<()> {
        let now = now();
        let mut game = Game::clone(&stored.state);
        if !flag_falls(&mut game, now) {
            return Ok(());
        }
        match self.commit(id, stored, game, &Act::Nothing, now).await {
            Ok(_) => Ok(()),
            Err(StoreError::Stale { .. }) => {
                tracing::debug!(game = %id, "the game changed before its flag timer");
                Ok(())
            }
            Err(other) => Err(other.into()),
        }
    }

    /// Ends every game whose clock has fallen by now, whichever process started it → how many.
    pub async fn sweep_once(&self) -> Result<usize, StoreError> {
        let now = now();
        let mut ended = HashMap::new();
        let swept = self
            .store
            .sweep_expired(
                now,
                SWEEP_BATCH,
                |row: gmo_store::Game<GameSnapshot>, since: Vec<Event>| {
                    // The snapshot (without the earlier events: the record keeps them) and the
                    // plies since: enough to tick the clock.
                    let id = row.id.clone();
                    let mut game = Game::try_from(row.state).ok()?;
                    if let Err(error) = game.replay_events(&since) {
                        tracing::error!(game = %id, %error, "a stored game does not replay");
                        return None;
                    }
                    let before = game.clone();
                    if !flag_falls(&mut game, now) {
                        return None;
                    }
                    ended.insert(id, happened(&before, &game, &Act::Nothing));
                    let rated = crate::ratings::rated_end(row.rated, &row.players, &game);
                    Some(flagged(&game, rated))
                },
            )
            .await?;
        let count = swept.len();
        for done in swept {
            self.metrics.games_ended.inc();
            let id = done.id;
            // Reloaded with its record, so that this process's streams and cache see the whole
            // game.
            match self.load(&id).await {
                Ok(stored) => {
                    crate::library::count_end(&self.store, &id, &stored.state);
                    let update = crate::hub::Update {
                        version: stored.version,
                        happened: ended.remove(&id).unwrap_or_default(),
                        joined: stored::joined(&stored),
                        game: stored.state,
                        rendered: Default::default(),
                    };
                    self.publish(&id, update);
                }
                Err(error) => tracing::warn!(game = %id, ?error, "could not reload a swept game"),
            }
        }
        Ok(count)
    }
}

/// What the store writes for a game whose flag fell.
fn flagged(game: &Game, rated: Option<RatedEnd>) -> Change<Event, GameSnapshot> {
    Change {
        ply: game.events().last().cloned(),
        status: game.status(),
        deadline: None,
        finished: game.is_over(),
        state: Some(row_state(game)),
        bot_turn: None,
        rated,
    }
}

impl Games {
    /// Sweeps every `every` until the server stops.
    pub async fn sweep_forever(self, every: std::time::Duration) {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if let Err(error) = self.sweep_once().await {
                tracing::warn!(%error, "clock sweep failed");
            }
        }
    }
}
