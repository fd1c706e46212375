//! When the game drivers stop: after `--seconds`, or after `--plies` acknowledged plies.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// When the drivers stop: at a deadline, once a number of plies were acknowledged, or at
/// whichever comes first.
#[derive(Debug, Clone)]
pub struct Stop {
    until: Option<Instant>,
    /// Plies not yet sent, shared by all drivers; `None`: no budget.
    plies_left: Option<Arc<AtomicU64>>,
}

impl Stop {
    pub fn new(until: Option<Instant>, plies: Option<u64>) -> Stop {
        Stop {
            until,
            plies_left: plies.map(|plies| Arc::new(AtomicU64::new(plies))),
        }
    }

    pub fn running(&self) -> bool {
        let in_time = self.until.is_none_or(|until| Instant::now() < until);
        let budget = self
            .plies_left
            .as_ref()
            .is_none_or(|left| left.load(Ordering::Relaxed) > 0);
        in_time && budget
    }

    /// Takes one ply from the budget before it is sent, so that no more than the budget is ever
    /// acknowledged; false when it is time to stop.
    pub fn take(&self) -> bool {
        if self.until.is_some_and(|until| Instant::now() >= until) {
            return false;
        }
        self.plies_left.as_ref().is_none_or(|left| {
            left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok()
        })
    }

    /// Returns a ply that was taken but not acknowledged.
    pub fn give_back(&self) {
        if let Some(left) = &self.plies_left {
            left.fetch_add(1, Ordering::Relaxed);
        }
    }
}
