//! A game's events, cheap to clone however long the game: a server copies a game for every change
//! (the change may be refused, and the copy it started from must stay as it was), and a copy of a
//! plain list costs the whole record — a 1,000-ply game copied some 40 kB twice a move (the copy,
//! then its growth by the new event). Here full blocks of events are shared between copies and
//! only the last, partial block is copied.

use crate::Event;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// Events a shared block holds.
const BLOCK: usize = 64;

/// Every event of a game, in order.
#[derive(Clone, Default)]
pub struct EventLog {
    /// Full blocks of `BLOCK` events each, never changed once made.
    blocks: Vec<Arc<[Event]>>,
    /// The events after the last full block (fewer than `BLOCK`).
    tail: Vec<Event>,
}

impl EventLog {
    pub fn len(&self) -> usize {
        self.blocks.len() * BLOCK + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn push(&mut self, event: Event) {
        if self.tail.capacity() == 0 {
            self.tail.reserve_exact(BLOCK);
        }
        self.tail.push(event);
        if self.tail.len() == BLOCK {
            self.blocks.push(Arc::from(std::mem::take(&mut self.tail)));
        }
    }

    pub fn get(&self, index: usize) -> Option<&Event> {
        match self.blocks.get(index / BLOCK) {
            Some(block) => block.get(index % BLOCK),
            None => self.tail.get(index - self.blocks.len() * BLOCK),
        }
    }

    pub fn last(&self) -> Option<&Event> {
        self.tail
            .last()
            .or_else(|| self.blocks.last().and_then(|block| block.last()))
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Event> + '_ {
        self.blocks
            .iter()
            .flat_map(|block| block.iter())
            .chain(self.tail.iter())
    }

    /// The events from index `start` on (none when `start` is past the end).
    pub fn since(&self, start: usize) -> impl Iterator<Item = &Event> + '_ {
        self.iter().skip(start)
    }

    /// Keeps the first `len` events (all when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        if len < self.len() {
            *self = self.iter().take(len).cloned().collect();
        }
    }

    pub fn to_vec(&self) -> Vec<Event> {
        self.iter().cloned().collect()
    }
}

impl FromIterator<Event> for EventLog {
    fn from_iter<I: IntoIterator<Item = Event>>(events: I) -> EventLog {
        let mut log = EventLog::default();
        for event in events {
            log.push(event);
        }
        log
    }
}

impl<'a> IntoIterator for &'a EventLog {
    type Item = &'a Event;
    type IntoIter = Box<dyn DoubleEndedIterator<Item = &'a Event> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl From<Vec<Event>> for EventLog {
    fn from(events: Vec<Event>) -> EventLog {
        events.into_iter().collect()
    }
}

impl PartialEq for EventLog {
    fn eq(&self, other: &EventLog) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for EventLog {}

impl PartialEq<[Event]> for EventLog {
    fn eq(&self, other: &[Event]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for EventLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for EventLog {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for EventLog {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<EventLog, D::Error> {
        Vec::<Event>::deserialize(deserializer).map(EventLog::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Timestamp};

    fn event(n: usize) -> Event {
        Event::Resign {
            at_ms: Timestamp::from_ms(n as i64),
            color: Color::White,
        }
    }

    fn log_of(len: usize) -> (EventLog, Vec<Event>) {
        let events: Vec<Event> = (0..len).map(event).collect();
        (events.clone().into(), events)
    }

    #[test]
    fn a_log_reads_as_the_list_it_was_made_of_across_block_edges() {
        for len in [0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK, 3 * BLOCK + 5] {
            let (log, events) = log_of(len);
            assert_eq!(log.len(), len);
            assert_eq!(log.is_empty(), len == 0);
            assert_eq!(log.to_vec(), events);
            assert_eq!(log.last(), events.last());
            for index in [0, 1, BLOCK - 1, BLOCK, len.saturating_sub(1), len, len + 1] {
                assert_eq!(
                    log.get(index),
                    events.get(index),
                    "{len} events, index {index}"
                );
            }
            for start in [0, 1, BLOCK, len, len + 3] {
                let since: Vec<&Event> = log.since(start).collect();
                let expected: Vec<&Event> = events.iter().skip(start).collect();
                assert_eq!(since, expected, "{len} events since {start}");
            }
            assert!(log == *events.as_slice());
        }
    }

    #[test]
    fn a_copy_grows_apart_from_its_original() {
        let (original, events) = log_of(2 * BLOCK - 1);
        let mut copy = original.clone();
        copy.push(event(1_000));
        copy.push(event(1_001));
        assert_eq!(original.to_vec(), events, "the original is unchanged");
        assert_eq!(copy.len(), 2 * BLOCK + 1);
        assert_eq!(copy.get(2 * BLOCK - 1), Some(&event(1_000)));
        assert_ne!(copy, original);
        copy.truncate(events.len());
        assert_eq!(copy, original, "truncated back, equal again");
    }

    #[test]
    fn a_log_serialises_as_a_plain_list() {
        let (log, events) = log_of(BLOCK + 2);
        let json = serde_json::to_string(&log).expect("serialises");
        assert_eq!(json, serde_json::to_string(&events).expect("serialises"));
        let back: EventLog = serde_json::from_str(&json).expect("deserialises");
        assert_eq!(back, log);
    }
}
