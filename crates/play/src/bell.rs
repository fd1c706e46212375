//! The bell that wakes this process's streams of one thing (a seek when it is paired or
//! withdrawn, an event when a round is paired) — rung here directly, and from the other
//! processes' `NOTIFY` on PostgreSQL.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// Wakes the streams of things (seeks, events) in this process, at most `limit` per thing. An
/// entry lives while a stream holds it.
#[derive(Debug)]
pub struct Bell<K> {
    waiting: Mutex<HashMap<K, (Arc<Notify>, usize)>>,
    limit: usize,
}

/// A stream's hold on its thing's bell; dropping it lets go.
#[derive(Debug)]
pub struct Ringer<K: Eq + Hash + Clone> {
    bell: Arc<Bell<K>>,
    id: K,
    pub(crate) notify: Arc<Notify>,
}

impl<K: Eq + Hash + Clone> Bell<K> {
    /// A bell that lets `limit` streams hold each thing's.
    pub fn new(limit: usize) -> Bell<K> {
        Bell {
            waiting: Mutex::default(),
            limit,
        }
    }

    /// A hold on `id`'s bell; `None` when `limit` streams hold it already.
    pub fn hold(self: &Arc<Self>, id: &K) -> Option<Ringer<K>> {
        let mut waiting = self.map();
        let (notify, holders) = waiting
            .entry(id.clone())
            .or_insert_with(|| (Arc::default(), 0));
        if *holders >= self.limit {
            return None;
        }
        *holders += 1;
        Some(Ringer {
            bell: self.clone(),
            id: id.clone(),
            notify: notify.clone(),
        })
    }

    /// Wakes `id`'s streams, if any here.
    pub fn ring(&self, id: &K) {
        if let Some((notify, _)) = self.map().get(id) {
            notify.notify_waiters();
        }
    }

    /// Wakes every thing's streams here (after a lost announcement they look again).
    pub fn ring_all(&self) {
        for (notify, _) in self.map().values() {
            notify.notify_waiters();
        }
    }

    /// How many things have a stream here (tests check nothing leaks).
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether nothing has a stream here.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<K, (Arc<Notify>, usize)>> {
        self.waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl<K: Eq + Hash + Clone> Ringer<K> {
    /// Waits for the next ring.
    pub async fn notified(&self) {
        self.notify.notified().await;
    }
}

impl<K: Eq + Hash + Clone> Drop for Ringer<K> {
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
    use gmo_types::SeekId;

    #[test]
    fn a_bell_admits_a_bounded_number_of_streams_and_forgets_them() {
        let bell = Arc::new(Bell::new(2));
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
