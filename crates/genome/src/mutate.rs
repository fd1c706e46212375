//! The mutation debuff (rules §4.2): a random one-letter change of the canonical DNA, kept only if
//! the result is still a genome. The random source is injected so that a game replays exactly.

use crate::ast::Genome;
use rand::Rng;

/// How many random one-letter changes are tried before the genome is left as it was.
pub const TRIES: usize = 20;

const LETTERS: [u8; 4] = *b"SACH";

/// Mutates a genome: up to [`TRIES`] tries, each replacing one random letter of the canonical DNA
/// by one of the three other letters; the first try that parses is the new genome. If none does
/// (or the DNA is empty) the genome stays.
pub fn mutate(genome: &Genome, rng: &mut impl Rng) -> Genome {
    first_valid_mutation(&genome.to_string(), rng).unwrap_or_else(|| genome.clone())
}

/// The first of up to [`TRIES`] random one-letter changes of `dna` that parses. Works on any
/// string over `SACH`, valid or not, so that the fall-back can be tested on DNA where no change is
/// valid.
fn first_valid_mutation(dna: &str, rng: &mut impl Rng) -> Option<Genome> {
    if dna.is_empty() {
        return None;
    }
    (0..TRIES).find_map(|_| Genome::parse(&one_letter_change(dna, rng)).ok())
}

/// `dna` with one random letter replaced by a different letter of `SACH`.
fn one_letter_change(dna: &str, rng: &mut impl Rng) -> String {
    let mut letters = dna.as_bytes().to_vec();
    let index = rng.random_range(0..letters.len());
    let others: Vec<u8> = LETTERS
        .into_iter()
        .filter(|&l| l != letters[index])
        .collect();
    letters[index] = others[rng.random_range(0..others.len())];
    // Only ASCII letters were swapped for ASCII letters.
    String::from_utf8(letters).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standard::STANDARD;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn differing_letters(a: &str, b: &str) -> usize {
        assert_eq!(a.len(), b.len(), "{a} and {b} differ in length");
        a.bytes().zip(b.bytes()).filter(|(x, y)| x != y).count()
    }

    fn standard_genomes() -> Vec<Genome> {
        STANDARD
            .iter()
            .map(|(_, dna)| Genome::parse(dna).expect("standard genome"))
            .collect()
    }

    #[test]
    fn a_mutation_changes_exactly_one_letter_and_stays_valid() {
        let mut changed = 0;
        for seed in 0..200 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for genome in standard_genomes() {
                let mutant = mutate(&genome, &mut rng);
                let (before, after) = (genome.to_string(), mutant.to_string());
                assert_eq!(Genome::parse(&after), Ok(mutant.clone()));
                if mutant != genome {
                    assert_eq!(differing_letters(&before, &after), 1, "{before} → {after}");
                    changed += 1;
                }
            }
        }
        // Every standard genome has step letters that can change, so most tries succeed.
        assert!(
            changed > 600,
            "only {changed} of 1200 mutations changed the genome"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_mutant() {
        for genome in standard_genomes() {
            let run = |seed| mutate(&genome, &mut ChaCha8Rng::seed_from_u64(seed));
            assert_eq!(run(7), run(7));
            let mutants: Vec<Genome> = (0..20).map(run).collect();
            assert!(
                mutants.iter().any(|m| *m != mutants[0]),
                "20 seeds gave one mutant of {genome}"
            );
        }
    }

    #[test]
    fn the_empty_genome_stays_empty() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(mutate(&Genome::default(), &mut rng), Genome::default());
    }

    /// Every one-letter change of `dna`, to show that none of them parses.
    fn all_one_letter_changes(dna: &str) -> Vec<String> {
        (0..dna.len())
            .flat_map(|i| {
                LETTERS.into_iter().filter_map(move |l| {
                    let mut letters = dna.as_bytes().to_vec();
                    (letters[i] != l).then(|| {
                        letters[i] = l;
                        String::from_utf8(letters).expect("ascii")
                    })
                })
            })
            .collect()
    }

    #[test]
    fn dna_without_a_valid_one_letter_change_falls_back_to_none() {
        let dna = "HHH".repeat(10);
        let changes = all_one_letter_changes(&dna);
        assert_eq!(changes.len(), 3 * dna.len());
        assert!(changes.iter().all(|c| Genome::parse(c).is_err()));
        for seed in 0..50 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            assert_eq!(first_valid_mutation(&dna, &mut rng), None);
        }
    }

    /// The distribution rules §4.2 gives, worked out independently of [`mutate`]: each try picks
    /// one of the `3 × len` one-letter changes uniformly (a position, then one of the three other
    /// letters), so the first valid try is uniform over the valid changes, and all 20 tries fail
    /// with probability `q^20`, `q` being the share of invalid changes.
    #[test]
    fn mutants_are_drawn_uniformly_from_the_valid_one_letter_changes() {
        // One block whose outcomes are all HHH: only its step and its two owner codons can change
        // validly, so that "all 20 tries fail" is common enough to be counted.
        let dna = "AHHHSHHSHHHHHHHHHHHHASAS";
        let genome = Genome::parse(dna).expect("valid");
        let valid: Vec<String> = all_one_letter_changes(dna)
            .into_iter()
            .filter(|c| Genome::parse(c).is_ok())
            .collect();
        let changes = 3 * dna.len();
        let q = 1.0 - valid.len() as f64 / changes as f64;
        let unchanged = q.powi(TRIES as i32);
        let mut expected = vec![(1.0 - unchanged) / valid.len() as f64; valid.len()];
        expected.push(unchanged);
        let mut observed = vec![0u64; valid.len() + 1];
        let mut rng = ChaCha8Rng::seed_from_u64(20_260_415);
        for _ in 0..40_000 {
            let mutant = mutate(&genome, &mut rng).to_string();
            let slot = match valid.iter().position(|v| *v == mutant) {
                Some(i) => i,
                None if mutant == dna => valid.len(),
                None => panic!("{mutant} is neither a valid one-letter change of {dna} nor {dna}"),
            };
            observed[slot] += 1;
        }
        // 12 valid changes (6 in the step, 3 in each owner codon) + "unchanged": 12 degrees of
        // freedom; the χ² critical value at significance 0.001 is 32.909.
        assert_eq!(valid.len(), 12, "{valid:?}");
        crate::chi_squared::assert_fits("mutation", &observed, &expected, 12, 32.909);
    }
}
