//! Fuzzes the DNA parser: no input may panic it, a valid genome prints to canonical DNA that
//! parses back to itself with the same code, and an error points at what it names.

#![no_main]

use gmo_genome::{ErrorKind, Genome, GenomeError, canonicalize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|dna: &str| {
    match Genome::parse(dna) {
        Ok(genome) => check_valid(dna, &genome),
        Err(err) => check_error(dna, &err),
    }
});

fn check_valid(dna: &str, genome: &Genome) {
    let canonical = genome.to_string();
    assert_eq!(canonicalize(dna).as_deref(), Ok(canonical.as_str()));
    let again = Genome::parse(&canonical).expect("canonical DNA parses");
    assert_eq!(&again, genome);
    assert_eq!(again.code(), genome.code());
    let spaced = Genome::parse(&genome.spaced().to_string()).expect("spaced DNA parses");
    assert_eq!(&spaced, genome);
}

fn check_error(dna: &str, err: &GenomeError) {
    assert_eq!(err.codon, err.offset / 3, "{err:?}");
    assert!(!err.to_string().is_empty());
    let stripped: Vec<char> = dna.chars().filter(|c| !c.is_whitespace()).collect();
    match canonicalize(dna) {
        // Letter and length errors come first, from canonicalisation itself.
        Err(first) => {
            assert_eq!(&first, err);
            match err.kind {
                ErrorKind::BadLetter => {
                    assert_eq!(stripped[err.offset].to_string(), err.found, "{err:?}");
                }
                ErrorKind::BadLength => {
                    assert_eq!(err.offset % 3, 0, "{err:?}");
                    assert_eq!(stripped.len() - err.offset, err.found.len(), "{err:?}");
                }
                other => panic!("canonicalize reported {other:?}"),
            }
        }
        Ok(canonical) => {
            assert!(
                err.offset % 3 == 0 && err.offset <= canonical.len(),
                "{err:?}"
            );
            if err.found.is_empty() {
                assert_eq!(err.offset, canonical.len(), "{err:?}");
            } else {
                assert!(canonical[err.offset..].starts_with(&err.found), "{err:?}");
            }
        }
    }
}
