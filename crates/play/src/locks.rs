//! One async lock per game, so that this process applies one change of a game at a time and a
//! second request waits its turn instead of losing a version race it did not need to.

use gmo_types::GameId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

#[derive(Debug, Default)]
pub struct Locks {
    games: Mutex<HashMap<GameId, Arc<AsyncMutex<()>>>>,
}

/// Held while a change of one game is made; releasing it forgets the lock when nobody waits.
#[derive(Debug)]
pub struct Turn<'a> {
    locks: &'a Locks,
    id: GameId,
    guard: Option<OwnedMutexGuard<()>>,
}

impl Locks {
    pub async fn lock(&self, id: &GameId) -> Turn<'_> {
        let lock = self
            .map()
            .entry(id.clone())
            .or_insert_with(|| Arc::new(AsyncMutex::new(())))
            .clone();
        Turn {
            locks: self,
            id: id.clone(),
            guard: Some(lock.lock_owned().await),
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Arc<AsyncMutex<()>>>> {
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        drop(self.guard.take());
        let mut games = self.locks.map();
        // Only the map holds it: nobody waits, so the entry can go.
        if games
            .get(&self.id)
            .is_some_and(|lock| Arc::strong_count(lock) == 1)
        {
            games.remove(&self.id);
        }
    }
}
