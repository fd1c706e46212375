//! The lobby's moving parts besides its routes: the bell that wakes a seek's stream when the
//! seek is paired (rung in this process directly, and from the others' `NOTIFY` on PostgreSQL),
//! the sweep that withdraws quiet seeks (any process, state in the database), and the seat
//! token a seeker gets (derived from the seek's token, so the store never holds it).

use crate::app::AppState;
use crate::error::ApiResult;
use crate::games::{NewSetUp, settings_of};
use crate::time::now_ms;
use gmo_store::{Pool, SEEK_CHANNEL};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// A seek whose stream has been gone this long is withdrawn (issue 13: more than 10 s).
pub const QUIET_MS: i64 = 10_000;
/// How often a waiting stream shows its seek alive, looks for a match again and says `waiting`.
pub const TICK: Duration = Duration::from_secs(2);
/// The longest a seek stays open (and its stream waits): then it is withdrawn.
pub const MAX_OPEN_MS: i64 = 30 * 60_000;
/// How long a paired seek is kept for its seeker's stream to pick the game up.
pub const KEEP_PAIRED_MS: i64 = 10 * 60_000;
/// The most open seeks `GET /api/seeks` lists.
pub const LIST_LIMIT: u32 = 100;
/// The most streams one seek may have open at once in one process (a reloaded page overlaps).
pub const STREAMS_PER_SEEK: usize = 2;

/// The oldest pulse an open seek may have and still count as alive.
pub fn alive_since(now: i64) -> i64 {
    now - QUIET_MS
}

/// The seat token a seeker gets on pairing: 128 bits of SHA-256 over its seek's token, so that
/// only the seek's holder can compute it and the store keeps nothing but its hash.
pub fn seat_token_of(seek_token: &str) -> String {
    let digest = gmo_genome::sha256(&format!("gmo-seat:{seek_token}"));
    digest[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The game a seek of `pool` is paired into: made as `POST /api/games` makes one, no bots.
pub fn set_up(pool: Pool) -> ApiResult<NewSetUp> {
    let size = |n: u16| u8::try_from(n).ok();
    let settings = settings_of(
        size(pool.width),
        size(pool.height),
        Some((pool.initial_ms, Some(pool.increment_ms))),
    )?;
    NewSetUp::new(settings, None, None)
}

/// Wakes the streams of seeks in this process. An entry lives while a stream holds it.
#[derive(Debug, Default)]
pub struct Bell {
    waiting: Mutex<HashMap<String, (Arc<Notify>, usize)>>,
}

/// A stream's hold on its seek's bell; dropping it lets go.
#[derive(Debug)]
pub struct Ringer {
    bell: Arc<Bell>,
    id: String,
    pub notify: Arc<Notify>,
}

impl Bell {
    /// A hold on seek `id`'s bell; `None` when [`STREAMS_PER_SEEK`] streams hold it already.
    pub fn hold(self: &Arc<Self>, id: &str) -> Option<Ringer> {
        let mut waiting = self.map();
        let (notify, holders) = waiting
            .entry(id.to_owned())
            .or_insert_with(|| (Arc::default(), 0));
        if *holders >= STREAMS_PER_SEEK {
            return None;
        }
        *holders += 1;
        Some(Ringer {
            bell: self.clone(),
            id: id.to_owned(),
            notify: notify.clone(),
        })
    }

    /// Wakes seek `id`'s streams, if any here.
    pub fn ring(&self, id: &str) {
        if let Some((notify, _)) = self.map().get(id) {
            notify.notify_waiters();
        }
    }

    /// How many seeks have a stream here (tests check nothing leaks).
    pub fn len(&self) -> usize {
        self.map().len()
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Arc<Notify>, usize)>> {
        self.waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for Ringer {
    fn drop(&mut self) {
        let mut waiting = self.bell.map();
        if let Some((_, holders)) = waiting.get_mut(&self.id) {
            *holders -= 1;
            if *holders == 0 {
                waiting.remove(&self.id);
            }
        }
    }
}

/// The lobby's background work until the server stops: relaying other processes' pairings to
/// this process's streams, and sweeping quiet seeks.
pub async fn run(state: AppState) {
    tokio::join!(relay(state.clone()), sweep_forever(state));
}

async fn relay(state: AppState) {
    loop {
        let mut notifications = match state.store.listen_on(SEEK_CHANNEL).await {
            Ok(Some(notifications)) => notifications,
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(%error, "cannot listen for pairings; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        while let Ok(id) = notifications.next().await {
            state.seeks.ring(&id);
        }
    }
}

async fn sweep_forever(state: AppState) {
    let mut ticks = tokio::time::interval(state.config.sweep_interval);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let now = now_ms();
        let swept = state
            .store
            .sweep_seeks(alive_since(now), now - MAX_OPEN_MS, now - KEEP_PAIRED_MS)
            .await;
        if let Err(error) = swept {
            tracing::warn!(%error, "seek sweep failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_tokens_are_hex_tokens_and_differ_from_the_seek_token() {
        let seek = gmo_store::new_token();
        let seat = seat_token_of(&seek);
        assert_eq!(seat.len(), 32);
        assert!(
            seat.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        assert_ne!(seat, seek);
        assert_eq!(seat, seat_token_of(&seek));
        assert_ne!(seat, seat_token_of(&gmo_store::new_token()));
    }

    #[test]
    fn a_bell_admits_a_bounded_number_of_streams_and_forgets_them() {
        let bell = Arc::new(Bell::default());
        let first = bell.hold("a").expect("one stream");
        let second = bell.hold("a").expect("two streams");
        assert!(bell.hold("a").is_none(), "a third stream is refused");
        drop(first);
        let third = bell.hold("a").expect("room again");
        drop((second, third));
        assert_eq!(bell.len(), 0);
    }
}
