//! Species labels (rules §5.6): what a player sees instead of an opponent's genome. A label is a
//! hash of the game's secret seed and the canonical DNA, so equal genomes share a label, while a
//! player who knows a DNA cannot compute its label without the seed (which stays hidden until the
//! record opens at the end).

use crate::compile::CompiledGenome;
use crate::table::GenomeTable;
use gmo_genome::{Code, sha256};
use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};

/// One label per genome of the table, indexed by [`crate::GenomeId::index`]. Labels are distinct:
/// on the (rare) collision of two hashes the later genome, in table order, is salted again.
pub fn species_labels(seed: u64, table: &GenomeTable) -> Vec<String> {
    extend(seed, table.entries(), &[])
}

/// The labels of `entries`, of which the first `known.len()` have the labels `known` already: a
/// label depends only on the genomes before it, so a table that grew keeps its labels.
fn extend(seed: u64, entries: &[Arc<CompiledGenome>], known: &[String]) -> Vec<String> {
    let mut taken: HashSet<String> = known.iter().cloned().collect();
    let mut labels = known.to_vec();
    for compiled in entries.get(known.len()..).unwrap_or_default() {
        let mut salt = 0u32;
        loop {
            let label = label(seed, compiled.dna(), salt);
            if taken.insert(label.clone()) {
                labels.push(label);
                break;
            }
            salt += 1;
        }
    }
    labels
}

/// A game's labels, kept with the table entries they were computed for, so that each view of the
/// game does not hash every genome again. Entries are shared pointers: the same pointer is the
/// same compiled genome, and a table that grew reuses the labels of its prefix.
#[derive(Debug, Default)]
pub(crate) struct LabelCache(Mutex<Labelled>);

#[derive(Debug, Default, Clone)]
struct Labelled {
    entries: Vec<Arc<CompiledGenome>>,
    labels: Arc<Vec<String>>,
}

impl LabelCache {
    /// The labels of `table` in a game with `seed` (the seed never changes for one game).
    pub(crate) fn labels(&self, seed: u64, table: &GenomeTable) -> Arc<Vec<String>> {
        let mut cached = self.lock();
        let entries = table.entries();
        let known = cached
            .entries
            .iter()
            .zip(entries)
            .take_while(|(a, b)| Arc::ptr_eq(a, b))
            .count();
        if known == entries.len() && known == cached.entries.len() {
            return cached.labels.clone();
        }
        let labels = Arc::new(extend(seed, entries, &cached.labels[..known]));
        *cached = Labelled {
            entries: entries.to_vec(),
            labels: labels.clone(),
        };
        labels
    }

    fn lock(&self) -> MutexGuard<'_, Labelled> {
        // Every edit is one assignment, so the value is whole even if a holder panicked.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Clone for LabelCache {
    fn clone(&self) -> Self {
        LabelCache(Mutex::new(self.lock().clone()))
    }
}

fn label(seed: u64, dna: &str, salt: u32) -> String {
    let digest = sha256(&format!("species:{seed}:{salt}:{dna}"));
    format!("sp-{}", Code::from_digest(&digest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::BoardSize;
    use gmo_genome::{Genome, standard};

    #[test]
    fn labels_are_per_game_distinct_and_opaque() {
        let mut table = GenomeTable::new(BoardSize::STANDARD);
        for (_, dna) in standard::STANDARD {
            table
                .intern(&Genome::parse(dna).expect("standard"))
                .expect("room");
        }
        let a = species_labels(1, &table);
        let b = species_labels(2, &table);
        assert_eq!(a, species_labels(1, &table));
        assert_eq!(a.iter().collect::<HashSet<_>>().len(), a.len());
        assert_ne!(a, b);
        let cache = LabelCache::default();
        assert_eq!(*cache.labels(1, &table), a);
        assert_eq!(*cache.labels(1, &table), a);
        let mut grown = table.clone();
        grown
            .intern(&Genome::parse("AHH HCC HSA CHA CHA CHA HHA SAS").expect("a genome"))
            .expect("room");
        assert_eq!(*cache.labels(1, &grown), species_labels(1, &grown));
        assert_eq!(cache.labels(1, &grown)[..a.len()], a[..]);
        let mut other = GenomeTable::new(BoardSize::STANDARD);
        other
            .intern(&Genome::parse("AHH HCC HSA CHA CHA CHA HHA SAS").expect("a genome"))
            .expect("room");
        assert_eq!(*cache.labels(1, &other), species_labels(1, &other));
        for ((_, compiled), label) in table.iter().zip(&a) {
            assert!(!label.contains(compiled.genome().code().as_str()));
            assert!(!label.contains(compiled.dna()));
        }
    }
}
