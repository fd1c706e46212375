//! One timer per running game this process changed last: a task that sleeps until the game's
//! clock would fall and then runs what it was armed with (the flag falling, `crate::games`). A
//! timer leaves the map when it fires, when its game's clock stops, and when another process
//! changes the game (that process then keeps the clock; the sweep covers it if it dies).

use crate::time::now;
use gmo_types::{GameId, Millis, Timestamp};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::task::AbortHandle;

/// The armed timers.
#[derive(Debug, Default)]
pub struct Timers {
    armed: Mutex<HashMap<GameId, AbortHandle>>,
}

impl Timers {
    /// Replaces game `id`'s timer by one that runs `fire` just after `deadline` (none: the clock
    /// stopped, no timer).
    pub fn arm<F>(self: &Arc<Self>, id: &GameId, deadline: Option<Timestamp>, fire: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let mut armed = self.map();
        if let Some(old) = armed.remove(id) {
            // The timer that fired is the one committing now: it must not cancel itself.
            if tokio::task::try_id() != Some(old.id()) {
                old.abort();
            }
        }
        let Some(deadline) = deadline else {
            return;
        };
        let (timers, game) = (self.clone(), id.clone());
        let task = tokio::spawn(async move {
            // One extra millisecond: the engine judges a clock fallen strictly after it.
            tokio::time::sleep(now().until(deadline + Millis::from_ms(1))).await;
            fire.await;
            timers.forget_fired(&game);
        });
        armed.insert(id.clone(), task.abort_handle());
    }

    /// Drops game `id`'s timer, if any.
    pub fn disarm(&self, id: &GameId) {
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
    fn forget_fired(&self, id: &GameId) {
        let mut armed = self.map();
        if armed
            .get(id)
            .is_some_and(|handle| tokio::task::try_id() == Some(handle.id()))
        {
            armed.remove(id);
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, AbortHandle>> {
        self.armed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::sync::mpsc;

    #[tokio::test]
    async fn a_timer_fires_once_and_leaves_a_rearmed_one_replaces_it() {
        let timers = Arc::new(Timers::default());
        let (fired, mut heard) = mpsc::unbounded_channel();
        let id = GameId::from_bits(1);
        let soon = now() + Millis::from_ms(20);
        let first = fired.clone();
        timers.arm(&id, Some(soon + Millis::from_ms(10_000)), async move {
            let _ = first.send("late");
        });
        timers.arm(&id, Some(soon), async move {
            let _ = fired.send("soon");
        });
        assert_eq!(timers.len(), 1, "re-arming replaced the first timer");
        let got = tokio::time::timeout(Duration::from_secs(5), heard.recv()).await;
        assert_eq!(got.ok().flatten(), Some("soon"));
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(timers.is_empty(), "a fired timer leaves the map");
        timers.arm(&id, None, async {});
        assert!(timers.is_empty(), "no deadline, no timer");
    }
}
