//! The bell that wakes the streams of seeks in this process when their seek is paired or
//! withdrawn (rung here directly, and from the other processes' `NOTIFY` on PostgreSQL).

use super::STREAMS_PER_SEEK;
use gmo_types::SeekId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// Wakes the streams of seeks in this process. An entry lives while a stream holds it.
#[derive(Debug, Default)]
pub struct Bell {
    waiting: Mutex<HashMap<SeekId, (Arc<Notify>, usize)>>,
}

/// A stream's hold on its seek's bell; dropping it lets go.
#[derive(Debug)]
pub struct Ringer {
    bell: Arc<Bell>,
    id: SeekId,
    pub(super) notify: Arc<Notify>,
}

impl Bell {
    /// A hold on seek `id`'s bell; `None` when [`STREAMS_PER_SEEK`] streams hold it already.
    pub fn hold(self: &Arc<Self>, id: &SeekId) -> Option<Ringer> {
        let mut waiting = self.map();
        let (notify, holders) = waiting
            .entry(id.clone())
            .or_insert_with(|| (Arc::default(), 0));
        if *holders >= STREAMS_PER_SEEK {
            return None;
        }
        *holders += 1;
        Some(Ringer {
            bell: self.clone(),
            id: id.clone(),
            notify: notify.clone(),
        })
    }

    /// Wakes seek `id`'s streams, if any here.
    pub fn ring(&self, id: &SeekId) {
        if let Some((notify, _)) = self.map().get(id) {
            notify.notify_waiters();
        }
    }

    /// Wakes every seek's streams here (after a lost announcement they look again).
    pub fn ring_all(&self) {
        for (notify, _) in self.map().values() {
            notify.notify_waiters();
        }
    }

    /// How many seeks have a stream here (tests check nothing leaks).
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether no seek has a stream here.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<SeekId, (Arc<Notify>, usize)>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bell_admits_a_bounded_number_of_streams_and_forgets_them() {
        let bell = Arc::new(Bell::default());
        let id = SeekId::from_bits(1);
        let first = bell.hold(&id).expect("one stream");
        let second = bell.hold(&id).expect("two streams");
        assert!(bell.hold(&id).is_none(), "a third stream is refused");
        drop(first);
        let third = bell.hold(&id).expect("room again");
        drop((second, third));
        assert_eq!(bell.len(), 0);
    }
}
