//! Property tests: generated genomes print and parse back to themselves, no string makes the parser
//! panic, every error points at what it names, mutation always yields a valid genome, and breeding
//! is deterministic and yields valid, distinct children.

use crate::breeding::MAX_CHILDREN;
use crate::{Breeding, ErrorKind, Genome, GenomeError, Language, breed, canonicalize, mutate};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn genome() -> impl Strategy<Value = Genome> {
    crate::strategy::genome(6)
}

/// Strings of codons the grammar knows, in any order: they reach deep into the parser.
fn codon_soup() -> impl Strategy<Value = String> {
    const CODONS: [&str; 22] = [
        "AHH", "HHA", "HSH", "HHH", "HAS", "HAC", "HAA", "HCS", "HCA", "HSS", "HSC", "HCC", "HSA",
        "CHA", "AHS", "SHC", "SAS", "AAA", "CAC", "SCC", "SAH", "CAA",
    ];
    prop::collection::vec(prop::sample::select(&CODONS[..]), 0..40).prop_map(|c| c.concat())
}

/// The invariants of an error: its codon is its offset / 3, and it points at what it found.
fn check_error(dna: &str, err: &GenomeError) -> Result<(), TestCaseError> {
    prop_assert_eq!(err.codon, err.offset / 3);
    let stripped: Vec<char> = dna.chars().filter(|c| !c.is_whitespace()).collect();
    match canonicalize(dna) {
        Err(first) => {
            prop_assert_eq!(&first, err);
            prop_assert!(err.offset < stripped.len());
            match err.kind {
                ErrorKind::BadLetter => {
                    prop_assert_eq!(stripped[err.offset].to_string(), err.found.clone());
                }
                ErrorKind::BadLength => {
                    prop_assert_eq!(stripped.len() - err.offset, err.found.len());
                }
                other => prop_assert!(false, "canonicalize reported {:?}", other),
            }
        }
        Ok(canonical) => {
            prop_assert!(err.offset % 3 == 0 && err.offset <= canonical.len());
            // Only "the DNA ends here" errors sit at the end, with nothing found.
            prop_assert_eq!(err.found.is_empty(), err.offset == canonical.len());
            prop_assert!(canonical[err.offset..].starts_with(&err.found));
        }
    }
    Ok(())
}

fn check_any(dna: &str) -> Result<(), TestCaseError> {
    match Genome::parse(dna) {
        Ok(genome) => {
            prop_assert_eq!(canonicalize(dna), Ok(genome.to_string()));
            prop_assert_eq!(Genome::parse(&genome.to_string()), Ok(genome));
            Ok(())
        }
        Err(err) => check_error(dna, &err),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn canonical_print_parses_back(g in genome()) {
        prop_assert_eq!(Genome::parse(&g.to_string()), Ok(g));
    }

    #[test]
    fn spaced_and_lower_case_print_parses_back(g in genome()) {
        let spaced = g.spaced().to_string();
        prop_assert_eq!(Genome::parse(&spaced), Ok(g.clone()));
        prop_assert_eq!(Genome::parse(&spaced.to_lowercase()), Ok(g));
    }

    #[test]
    fn arbitrary_strings_never_panic(dna in any::<String>()) {
        check_any(&dna)?;
    }

    #[test]
    fn strings_over_the_dna_alphabet_never_panic(dna in "[SACHsach \n\tXé]{0,120}") {
        check_any(&dna)?;
    }

    #[test]
    fn codon_soup_never_panics(dna in codon_soup()) {
        check_any(&dna)?;
    }

    #[test]
    fn mutation_always_yields_a_valid_genome(g in genome(), seed in any::<u64>()) {
        let mutant = mutate(&g, &mut ChaCha8Rng::seed_from_u64(seed));
        let (before, after) = (g.to_string(), mutant.to_string());
        prop_assert_eq!(Genome::parse(&after), Ok(mutant.clone()));
        prop_assert_eq!(before.len(), after.len());
        let changed = before.bytes().zip(after.bytes()).filter(|(a, b)| a != b).count();
        prop_assert_eq!(changed, usize::from(mutant != g));
    }

    #[test]
    fn explain_never_panics_and_mentions_every_block(g in genome()) {
        // Each language's heading of a block, which no other line of its text begins with.
        for (language, heading) in [(Language::En, "Block "), (Language::Sk, "Blok ")] {
            let text = g.explain_in(language);
            prop_assert!(!text.is_empty());
            prop_assert_eq!(text.matches(heading).count(), g.blocks.len(), "{:?}", language);
            prop_assert_eq!(g.traits_in(language).len(), g.debuffs().iter().count());
        }
    }

    #[test]
    fn breeding_is_deterministic_for_its_inputs(
        a in genome(),
        b in genome(),
        seed in any::<u64>(),
        children in 0..=MAX_CHILDREN,
    ) {
        let breeding = Breeding { seed, children, max_letters: 4096 };
        prop_assert_eq!(breed(&a, &b, breeding), breed(&a, &b, breeding));
    }

    #[test]
    fn bred_children_are_valid_distinct_new_and_as_many_as_asked_at_most(
        a in genome(),
        b in genome(),
        seed in any::<u64>(),
        children in 0..=MAX_CHILDREN + 4,
        max_letters in 24usize..600,
    ) {
        let breeding = Breeding { seed, children, max_letters };
        let bred = breed(&a, &b, breeding);
        prop_assert!(bred.len() <= children.min(MAX_CHILDREN));
        for (i, child) in bred.iter().enumerate() {
            let dna = child.to_string();
            // Its DNA is canonical and parses back to it, so storing the DNA gives its code.
            prop_assert_eq!(canonicalize(&dna), Ok(dna.clone()));
            let parsed = Genome::parse(&dna);
            prop_assert_eq!(parsed.as_ref(), Ok(child));
            prop_assert_eq!(parsed.map(|g| g.code()), Ok(crate::Code::of(&dna)));
            prop_assert!(!child.blocks.is_empty());
            prop_assert!(dna.len() <= max_letters, "{} letters", dna.len());
            prop_assert!(child != &a && child != &b, "{} is a parent", dna);
            prop_assert!(!bred[..i].contains(child), "{} twice", dna);
        }
    }

    #[test]
    fn fewer_children_are_a_prefix_of_more(
        a in genome(),
        b in genome(),
        seed in any::<u64>(),
        few in 0..=MAX_CHILDREN,
        more in 0..=MAX_CHILDREN,
    ) {
        let (few, more) = (few.min(more), few.max(more));
        let at = |children| breed(&a, &b, Breeding { seed, children, max_letters: 4096 });
        let (small, large) = (at(few), at(more));
        prop_assert!(large.starts_with(&small), "{:?} is not a prefix of {:?}", small, large);
    }

    #[test]
    fn two_parents_with_blocks_have_children(
        a in crate::strategy::genome(4).prop_filter("a block", |g| !g.blocks.is_empty()),
        b in crate::strategy::genome(4).prop_filter("a block", |g| !g.blocks.is_empty()),
        seed in any::<u64>(),
    ) {
        // Two non-empty parents cross into at least one child that fits (no limit to speak of).
        let bred = breed(&a, &b, Breeding { seed, children: 4, max_letters: 4096 });
        prop_assert!(!bred.is_empty(), "{} × {}", a, b);
    }
}
