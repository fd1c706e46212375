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

    pub fn last(&self) -> Option<&Event> {
        self.tail
            .last()
            .or_else(|| self.blocks.last().and_then(|block| block.last()))
    }

    pub fn iter(&self) -> impl Iterator<Item = &Event> + '_ {
        self.blocks
            .iter()
            .flat_map(|block| block.iter())
            .chain(self.tail.iter())
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
            assert!(log.iter().eq(events.iter()), "{len} events in order");
            assert_eq!(log.last(), events.last());
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
        assert_eq!(copy.to_vec()[2 * BLOCK - 1], event(1_000));
        assert_eq!(copy.last(), Some(&event(1_001)));
        assert_ne!(copy, original);
        let mut again = original.clone();
        again.push(event(1_000));
        again.push(event(1_001));
        assert_eq!(copy, again, "equal logs compare equal across blocks");
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
