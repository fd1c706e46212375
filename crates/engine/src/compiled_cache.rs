//! Compiled genomes shared by every game of the process. Compiling a genome builds its walk
//! tables for every square (most of the CPU time of setting up a game), and a server sets up many
//! games with the same few genomes. A compiled genome depends only on its DNA and the board size
//! and never changes, so sharing it changes no result. Entries are weak: a genome no position
//! holds any more is compiled again when it comes back.

use crate::compile::CompiledGenome;
use crate::square::BoardSize;
use gmo_genome::Genome;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// Beyond this many entries the dead ones are dropped; if all are alive, new genomes are compiled
/// without being shared (so the map stays bounded whatever the clients send).
const CAPACITY: usize = 4_096;

type Shared = HashMap<(String, BoardSize), Weak<CompiledGenome>>;

fn shared() -> &'static Mutex<Shared> {
    static SHARED: OnceLock<Mutex<Shared>> = OnceLock::new();
    SHARED.get_or_init(Mutex::default)
}

/// `genome` (whose canonical DNA is `dna`) compiled for `size`, shared with every position that
/// holds it already.
pub(crate) fn compiled(genome: &Genome, dna: String, size: BoardSize) -> Arc<CompiledGenome> {
    let key = (dna, size);
    if let Some(found) = lock().get(&key).and_then(Weak::upgrade) {
        return found;
    }
    // Compiled outside the lock: another thread may compile the same genome meanwhile; the
    // first to store it wins, so that equal genomes held at once are one.
    let fresh = Arc::new(CompiledGenome::new(genome.clone(), size));
    let mut map = lock();
    if let Some(first) = map.get(&key).and_then(Weak::upgrade) {
        return first;
    }
    if map.len() >= CAPACITY {
        map.retain(|_, entry| entry.strong_count() > 0);
    }
    if map.len() < CAPACITY {
        map.insert(key, Arc::downgrade(&fresh));
    }
    fresh
}

fn lock() -> std::sync::MutexGuard<'static, Shared> {
    // Every edit is one call on the map, so it is whole even if a holder panicked.
    shared()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::compiled;
    use crate::square::BoardSize;
    use gmo_genome::standard;
    use std::sync::Arc;

    #[test]
    fn equal_genomes_share_one_compilation_per_board_size_while_held() {
        let rook = standard::by_name("rook").expect("standard");
        let dna = rook.to_string();
        let small = BoardSize::new(5, 5).expect("5×5");
        let one = compiled(&rook, dna.clone(), BoardSize::STANDARD);
        let two = compiled(&rook, dna.clone(), BoardSize::STANDARD);
        assert!(Arc::ptr_eq(&one, &two));
        let other = compiled(&rook, dna.clone(), small);
        assert!(!Arc::ptr_eq(&one, &other));
        assert_eq!(other.size(), small);
        assert_eq!(one.dna(), dna);
    }
}
