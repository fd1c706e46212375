//! Every `genomes*` vector (`tests/vectors/`, or `$GMO_ORACLE_DIR`) must be accepted or rejected
//! exactly as the reference says.

#[path = "../../../tests/support/vectors.rs"]
mod vectors;

use gmo_genome::Genome;
use vectors::{Folder, Kind};

#[test]
fn genome_vectors_agree() {
    let folder = Folder::open();
    let records = folder.records(Kind::Genomes);
    assert!(
        !records.is_empty(),
        "no genomes* vectors in {}",
        folder.dir.display()
    );
    for (place, record) in &records {
        let dna = record["dna"]
            .as_str()
            .unwrap_or_else(|| panic!("{place}: no dna"));
        let valid = record["valid"]
            .as_bool()
            .unwrap_or_else(|| panic!("{place}: no valid"));
        let parsed = Genome::parse(dna);
        assert_eq!(
            parsed.is_ok(),
            valid,
            "{place}: disagreement on {record}\nour parser said: {parsed:?}"
        );
        if let Ok(genome) = parsed {
            let canonical = gmo_genome::canonicalize(dna).expect("valid DNA canonicalises");
            assert_eq!(
                genome.to_string(),
                canonical,
                "{place}: printing is not canonical"
            );
        }
    }
    println!(
        "{} genome vectors agree ({})",
        records.len(),
        folder.dir.display()
    );
}
