//! One timer per running game this process changed last: a task that sleeps until the game's
//! clock would fall and then runs what it was armed with (the flag falling, `crate::games`). A
//! timer leaves the map when it fires, when its game's clock stops, and when another process
//! changes the game (that process then keeps the clock; the sweep covers it if it dies).
//!
//! Every move moves its game's deadline, so a game keeps one task and a move only hands it the
//! new deadline: a task spawned and another aborted per move cost more than a fifth of a move's
//! instructions (a flag's future is large and was copied into each new task;
//! docs/performance.md).

use crate::time::now;
use gmo_types::{GameId, Millis, Timestamp};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;
use tokio::task::AbortHandle;

/// A game's timer: its task, and where it reads its deadline.
#[derive(Debug)]
struct Armed {
    deadline: watch::Sender<Timestamp>,
    task: AbortHandle,
}

/// The armed timers.
#[derive(Debug, Default)]
pub struct Timers {
    armed: Mutex<HashMap<GameId, Armed>>,
}

impl Timers {
    /// Sets game `id`'s timer to run `fire` just after `deadline` (none: the clock stopped, no
    /// timer). A game that has a timer keeps its task and first `fire`; only the deadline moves.
    pub fn arm<F, Fut>(self: &Arc<Self>, id: &GameId, deadline: Option<Timestamp>, fire: F)
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let mut armed = self.map();
        let Some(deadline) = deadline else {
            // The task sees its deadline's sender gone and ends (one firing now ends after it).
            armed.remove(id);
            return;
        };
        if move_to(&armed, id, deadline) {
            return;
        }
        let (sender, receiver) = watch::channel(deadline);
        let task = tokio::spawn(self.clone().run(id.clone(), receiver, fire));
        let timer = Armed {
            deadline: sender,
            task: task.abort_handle(),
        };
        if let Some(old) = armed.insert(id.clone(), timer) {
            old.task.abort();
        }
    }

    /// Moves game `id`'s timer to `deadline` → whether the game had a timer (if not, nothing is
    /// armed: that is [`Timers::arm`]'s, which needs what to fire).
    pub fn move_to(&self, id: &GameId, deadline: Timestamp) -> bool {
        move_to(&self.map(), id, deadline)
    }

    /// Drops game `id`'s timer, if any.
    pub fn disarm(&self, id: &GameId) {
        if let Some(old) = self.map().remove(id) {
            old.task.abort();
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

    /// A timer's task: sleeps until the deadline it was last given, fires, and ends unless it
    /// was given a new deadline meanwhile.
    async fn run<F, Fut>(
        self: Arc<Self>,
        id: GameId,
        mut deadline: watch::Receiver<Timestamp>,
        fire: F,
    ) where
        F: Fn() -> Fut,
        Fut: Future<Output = ()>,
    {
        loop {
            let due = *deadline.borrow_and_update();
            // One extra millisecond: the engine judges a clock fallen strictly after it.
            let sleep = tokio::time::sleep(now().until(due + Millis::from_ms(1)));
            tokio::select! {
                () = sleep => {}
                moved = deadline.changed() => match moved {
                    Ok(()) => continue,
                    Err(_) => return,
                },
            }
            fire().await;
            if !self.still_armed(&id, &deadline) {
                return;
            }
        }
    }

    /// After a firing: whether the calling timer was given a new deadline meanwhile; if not, it
    /// leaves the map (unless another timer replaced it there).
    fn still_armed(&self, id: &GameId, deadline: &watch::Receiver<Timestamp>) -> bool {
        let mut armed = self.map();
        if deadline.has_changed().unwrap_or(false) {
            return true;
        }
        if armed
            .get(id)
            .is_some_and(|timer| tokio::task::try_id() == Some(timer.task.id()))
        {
            armed.remove(id);
        }
        false
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Armed>> {
        self.armed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Hands game `id`'s running timer its new deadline → whether there was one.
fn move_to(armed: &HashMap<GameId, Armed>, id: &GameId, deadline: Timestamp) -> bool {
    armed
        .get(id)
        .is_some_and(|timer| timer.deadline.send(deadline).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::sync::mpsc;

    fn sender(
        fired: &mpsc::UnboundedSender<Timestamp>,
    ) -> impl Fn() -> std::future::Ready<()> + Send + Sync + 'static {
        let fired = fired.clone();
        move || {
            let _ = fired.send(now());
            std::future::ready(())
        }
    }

    async fn heard(
        heard: &mut mpsc::UnboundedReceiver<Timestamp>,
        within_ms: u64,
    ) -> Option<Timestamp> {
        tokio::time::timeout(Duration::from_millis(within_ms), heard.recv())
            .await
            .ok()
            .flatten()
    }

    #[tokio::test]
    async fn a_timer_fires_once_at_its_last_deadline_and_leaves() {
        let timers = Arc::new(Timers::default());
        let (fired, mut heard_of) = mpsc::unbounded_channel();
        let id = GameId::from_bits(1);
        let soon = now() + Millis::from_ms(30);
        timers.arm(&id, Some(soon + Millis::from_ms(10_000)), sender(&fired));
        timers.arm(&id, Some(soon), sender(&fired));
        assert_eq!(timers.len(), 1, "re-arming moved the one timer");
        let at = heard(&mut heard_of, 5_000).await.expect("fired");
        assert!(
            at > soon,
            "fired after the deadline: {at:?} against {soon:?}"
        );
        assert_eq!(heard(&mut heard_of, 100).await, None, "fired once");
        assert!(timers.is_empty(), "a fired timer leaves the map");
        timers.arm(&id, None, sender(&fired));
        assert!(timers.is_empty(), "no deadline, no timer");
    }

    #[tokio::test]
    async fn a_deadline_moved_later_is_not_fired_early_and_a_stopped_clock_not_at_all() {
        let timers = Arc::new(Timers::default());
        let (fired, mut heard_of) = mpsc::unbounded_channel();
        let (moved, stopped) = (GameId::from_bits(1), GameId::from_bits(2));
        let soon = now() + Millis::from_ms(30);
        let later = soon + Millis::from_ms(300);
        timers.arm(&moved, Some(soon), sender(&fired));
        timers.arm(&moved, Some(later), sender(&fired));
        timers.arm(&stopped, Some(soon), sender(&fired));
        timers.arm(&stopped, None, sender(&fired));
        assert_eq!(timers.len(), 1, "the stopped clock's timer left");
        let at = heard(&mut heard_of, 5_000).await.expect("fired");
        assert!(
            at > later,
            "fired after the later deadline: {at:?} against {later:?}"
        );
        assert_eq!(heard(&mut heard_of, 400).await, None, "nothing else fired");
        assert!(timers.is_empty());
    }

    #[tokio::test]
    async fn a_timer_given_a_new_deadline_while_it_fires_fires_again() {
        let timers = Arc::new(Timers::default());
        let (fired, mut heard_of) = mpsc::unbounded_channel();
        let id = GameId::from_bits(7);
        let fires = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let again = {
            let (timers, id, fired, fires) =
                (timers.clone(), id.clone(), fired.clone(), fires.clone());
            move || {
                // The first firing moves the deadline on, as a flag that did not fall would.
                if fires.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
                    timers.arm(&id, Some(now() + Millis::from_ms(30)), || {
                        std::future::ready(())
                    });
                }
                let _ = fired.send(now());
                std::future::ready(())
            }
        };
        timers.arm(&id, Some(now() + Millis::from_ms(20)), again);
        assert!(heard(&mut heard_of, 5_000).await.is_some(), "first firing");
        assert!(heard(&mut heard_of, 5_000).await.is_some(), "second firing");
        assert_eq!(heard(&mut heard_of, 200).await, None, "no third");
        assert!(timers.is_empty());
    }
}
