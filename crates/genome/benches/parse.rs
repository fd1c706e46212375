//! Parsing speed: the six standard genomes, and long random valid genomes built from a seeded
//! generator so that every run measures the same DNA.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gmo_genome::standard::STANDARD;
use gmo_genome::{Block, Content, Debuff, Genome, Outcome, Owner, Step, StepKind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const CONTENTS: [Content; 3] = [Content::Mover, Content::Target, Content::Nothing];
const KINDS: [StepKind; 3] = [StepKind::Marking, StepKind::Plain, StepKind::Still];

fn outcome(rng: &mut impl Rng) -> Outcome {
    match rng.random_range(0..4) {
        0 => Outcome::Forbidden,
        _ => Outcome::Leaves {
            from: CONTENTS[rng.random_range(0..3)],
            to: CONTENTS[rng.random_range(0..3)],
        },
    }
}

/// The opponent, or a debuff not used yet (each may appear once per genome).
fn owner(rng: &mut impl Rng, unused: &mut Vec<Debuff>) -> Owner {
    if unused.is_empty() || rng.random_bool(0.8) {
        return Owner::Opponent;
    }
    Owner::Mover(unused.swap_remove(rng.random_range(0..unused.len())))
}

fn block(rng: &mut impl Rng, unused: &mut Vec<Debuff>) -> Block {
    let steps = (0..rng.random_range(1..=Block::MAX_STEPS))
        .map(|_| Step {
            kind: KINDS[rng.random_range(0..3)],
            number: rng.random_range(0..9),
        })
        .collect();
    Block {
        owner_from: owner(rng, unused),
        owner_to: owner(rng, unused),
        on_own: outcome(rng),
        on_opponent: outcome(rng),
        on_empty: outcome(rng),
        steps,
    }
}

/// The canonical DNA of a random valid genome of `blocks` blocks.
fn random_dna(blocks: usize, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut unused = Debuff::ALL.to_vec();
    let blocks = (0..blocks).map(|_| block(&mut rng, &mut unused)).collect();
    Genome { blocks }.to_string()
}

fn standard(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse/standard");
    for (name, dna) in STANDARD {
        group.throughput(Throughput::Bytes(dna.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), dna, |b, dna| {
            b.iter(|| Genome::parse(black_box(dna)))
        });
    }
    group.finish();
}

fn random(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse/random");
    for blocks in [10, 50, 200] {
        let dna = random_dna(blocks, 42);
        assert!(Genome::parse(&dna).is_ok(), "generated DNA must be valid");
        group.throughput(Throughput::Bytes(dna.len() as u64));
        group.bench_with_input(BenchmarkId::new("blocks", blocks), &dna, |b, dna| {
            b.iter(|| Genome::parse(black_box(dna)))
        });
    }
    let spaced = Genome::parse(&random_dna(50, 42)).map(|g| g.spaced().to_string());
    if let Ok(spaced) = spaced {
        group.throughput(Throughput::Bytes(spaced.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("spaced-lowercase", 50),
            &spaced,
            |b, dna| {
                let lower = dna.to_lowercase();
                b.iter(|| Genome::parse(black_box(&lower)))
            },
        );
    }
    group.finish();
}

criterion_group!(benches, standard, random);
criterion_main!(benches);
