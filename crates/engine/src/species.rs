//! Species labels (rules §5.6): what a player sees instead of an opponent's genome. A label is a
//! hash of the game's secret seed and the canonical DNA, so equal genomes share a label, while a
//! player who knows a DNA cannot compute its label without the seed (which stays hidden until the
//! record opens at the end).

use crate::table::GenomeTable;
use gmo_genome::{Code, sha256};
use std::collections::HashSet;

/// One label per genome of the table, indexed by [`crate::GenomeId::index`]. Labels are distinct:
/// on the (rare) collision of two hashes the later genome, in table order, is salted again.
pub fn species_labels(seed: u64, table: &GenomeTable) -> Vec<String> {
    let mut taken = HashSet::new();
    table
        .iter()
        .map(|(_, compiled)| {
            let mut salt = 0u32;
            loop {
                let label = label(seed, compiled.dna(), salt);
                if taken.insert(label.clone()) {
                    return label;
                }
                salt += 1;
            }
        })
        .collect()
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
        for ((_, compiled), label) in table.iter().zip(&a) {
            assert!(!label.contains(compiled.genome().code().as_str()));
            assert!(!label.contains(compiled.dna()));
        }
    }
}
