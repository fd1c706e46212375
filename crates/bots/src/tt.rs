//! The transposition table: one entry per slot, indexed by the low bits of the Zobrist key.

/// What a stored score says about the true one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Bound {
    #[default]
    Exact,
    /// The true score is at least this (a cut-off).
    Lower,
    /// The true score is at most this (no move reached alpha).
    Upper,
}

#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Entry {
    pub key: u64,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// [`crate::node::Step::code`] of the best ply found, 0 if none.
    pub best: u16,
}

#[derive(Debug, Clone)]
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub(crate) fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table {
            entries: vec![Entry::default(); len],
            mask: len - 1,
        }
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[key as usize & self.mask];
        (entry.key == key).then_some(entry)
    }

    /// Stores an entry, keeping a deeper one of the same position.
    #[inline]
    pub(crate) fn store(&mut self, entry: Entry) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        if slot.key != entry.key || entry.depth >= slot.depth {
            *slot = entry;
        }
    }

    pub(crate) fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }
}
