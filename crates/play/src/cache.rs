//! The last committed state of the games this process touched, decoded. Decoding a stored game
//! parses its JSON and compiles every genome on the board, which is most of a move's CPU time;
//! with the cache, a change of a game this process already holds costs one indexed read of the
//! game's version instead. The database stays the truth: an entry is used only while the stored
//! version is still the entry's, so a change made by another process is always seen.

use crate::stored::Stored;
use gmo_engine::Color;
use gmo_types::GameId;
use std::collections::HashMap;
use std::sync::Mutex;

/// How many games are kept; beyond it an arbitrary one is forgotten (a later load decodes it).
/// A decoded game holds its compiled genomes, up to a few hundred kB on a full 8×8 board, so
/// this bounds the cache to a few hundred MB at worst.
const CAPACITY: usize = 1_024;

#[derive(Debug, Default)]
pub struct Cache {
    games: Mutex<HashMap<GameId, Stored>>,
}

impl Cache {
    /// The game as stored at `version`, if this process holds it.
    pub fn get(&self, id: &GameId, version: i64) -> Option<Stored> {
        self.map()
            .get(id)
            .filter(|stored| stored.version == version)
            .cloned()
    }

    /// The game as this process last stored or loaded it, whatever the database holds now.
    pub fn latest(&self, id: &GameId) -> Option<Stored> {
        self.map().get(id).cloned()
    }

    /// Keeps `stored`, with the seats the entry it replaces had noted as joined: joins are noted
    /// in the entry while a change is being committed from a copy taken before them, and a seat
    /// never leaves.
    pub fn put(&self, mut stored: Stored) {
        let mut games = self.map();
        if let Some(earlier) = games.get(&stored.id) {
            stored.joined = stored.joined.union(earlier.joined);
        }
        if games.len() >= CAPACITY && !games.contains_key(&stored.id) {
            let evicted = games.keys().next().cloned();
            if let Some(evicted) = evicted {
                games.remove(&evicted);
            }
        }
        games.insert(stored.id.clone(), stored);
    }

    /// Notes in the cached game, if any, that `seat` has joined (no change of its version).
    pub fn join(&self, id: &GameId, seat: Color) {
        if let Some(stored) = self.map().get_mut(id) {
            *stored.joined.get_mut(seat) = true;
        }
    }

    pub fn forget(&self, id: &GameId) {
        self.map().remove(id);
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Stored>> {
        // Every edit is one call, so the map is consistent even if a holder panicked.
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
