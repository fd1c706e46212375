//! The random debuffs (rules §4.2) checked against the rules' own numbers rather than the engine's
//! records: where deviation lands, with what frequency (χ² at significance 0.001), what mutation
//! yields inside a move, and that a whole game with both debuffs replays exactly from its record.

use crate::game::{GameStatus, Settings};
use crate::game_tests::{at, ms, play_randomly, set_up};
use crate::position::Position;
use crate::record::{Event, replay};
use crate::square::{BoardSize, Color, Square};
use crate::{Game, Piece};
use gmo_genome::chi_squared::assert_fits;
use gmo_genome::{Genome, standard};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A rook that deviates (owner-from `HSA`) and never wraps (owner-to `HAA`).
const DEVIATING_ROOK: &str = "AHH HSA HAA CHA CHA CHA HHA SAS AAA AAA AAA";
/// A rook that deviates (`HSA`) and mutates (`HCC`), and wraps.
const DEVIATING_MUTATING_ROOK: &str = "AHH HSA HCC CHA CHA CHA HHA SAS AAA AAA AAA";

const DRAWS: u64 = 9_000;

/// The nine offsets `(dx, dy)` in a fixed order.
fn offsets() -> Vec<(i32, i32)> {
    (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .collect()
}

/// The landing frequencies rules §4.2 gives for a move to `to`: each of the nine offsets with
/// probability 1/9; an offset off the board (no wrap) leaves the destination as it was.
fn expected_landings(size: BoardSize, to: Square) -> Vec<((i32, i32), f64)> {
    let mut expected: Vec<((i32, i32), f64)> = Vec::new();
    for (dx, dy) in offsets() {
        let on_board = size
            .square_i(i32::from(to.x()) + dx, i32::from(to.y()) + dy)
            .is_some();
        let landing = if on_board { (dx, dy) } else { (0, 0) };
        match expected.iter_mut().find(|(o, _)| *o == landing) {
            Some((_, p)) => *p += 1.0 / 9.0,
            None => expected.push((landing, 1.0 / 9.0)),
        }
    }
    expected
}

/// Plays `from`→`to` with the deviating rook `DRAWS` times from the same position and counts
/// where it lands, as offsets from `to`.
fn landings(size: BoardSize, from: Square, to: Square, seed: u64) -> Vec<((i32, i32), u64)> {
    let mut position = Position::new(size);
    let genome = Genome::parse(DEVIATING_ROOK).expect("valid");
    let id = position.intern(&genome).expect("room");
    position
        .put(from, Piece::new(id, Color::White))
        .expect("on the board");
    assert!(
        position.moves_from(from).iter().any(|m| m.to == to),
        "{from}→{to} is not a move of the test piece"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts: Vec<((i32, i32), u64)> = Vec::new();
    for _ in 0..DRAWS {
        let ply = position.clone().play(from, to, &mut rng).expect("legal");
        let landed = ply.drawn.landed;
        assert!(
            size.contains(landed),
            "{from}→{to} landed off the board on {landed}"
        );
        let offset = (
            i32::from(landed.x()) - i32::from(to.x()),
            i32::from(landed.y()) - i32::from(to.y()),
        );
        assert!(
            offset.0.abs() <= 1 && offset.1.abs() <= 1,
            "{from}→{to} landed on {landed}: not a neighbour without wrap"
        );
        match counts.iter_mut().find(|(o, _)| *o == offset) {
            Some((_, n)) => *n += 1,
            None => counts.push((offset, 1)),
        }
    }
    counts
}

fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

#[test]
fn deviation_lands_on_each_in_board_neighbour_with_the_rules_frequency() {
    let standard_size = BoardSize::STANDARD;
    let small = BoardSize::new(5, 5).expect("5×5");
    // Degrees of freedom = in-board offsets − 1; critical values of χ² at significance 0.001.
    let cases = [
        ("interior d6", standard_size, sq("d4"), sq("d6"), 8, 26.124),
        ("west edge a4", standard_size, sq("d4"), sq("a4"), 5, 20.515),
        ("east edge h4", standard_size, sq("d4"), sq("h4"), 5, 20.515),
        ("corner a8", standard_size, sq("a4"), sq("a8"), 3, 16.266),
        ("5×5 corner e5", small, sq("e1"), sq("e5"), 3, 16.266),
        ("5×5 bottom edge c1", small, sq("e1"), sq("c1"), 5, 20.515),
    ];
    for (seed, (what, size, from, to, df, critical)) in (1..).zip(cases) {
        let expected = expected_landings(size, to);
        let counts = landings(size, from, to, seed);
        for (offset, _) in &counts {
            assert!(
                expected.iter().any(|(o, _)| o == offset),
                "{what}: landed on offset {offset:?}, which the rules never give"
            );
        }
        let observed: Vec<u64> = expected
            .iter()
            .map(|(o, _)| counts.iter().find(|(c, _)| c == o).map_or(0, |(_, n)| *n))
            .collect();
        let probabilities: Vec<f64> = expected.iter().map(|(_, p)| *p).collect();
        assert_fits(what, &observed, &probabilities, df, critical);
    }
}

#[test]
fn a_mutating_move_gives_the_mover_a_valid_one_letter_change_or_none() {
    let genome = Genome::parse(DEVIATING_MUTATING_ROOK).expect("valid");
    let dna = genome.to_string();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut changed = 0;
    for _ in 0..2_000 {
        let mut position = Position::new(BoardSize::STANDARD);
        let id = position.intern(&genome).expect("room");
        position
            .put(sq("d4"), Piece::new(id, Color::White))
            .expect("on the board");
        let ply = position.play(sq("d4"), sq("d6"), &mut rng).expect("legal");
        let mutant = ply.drawn.mutation.expect("the piece mutates");
        let after = mutant.to_string();
        assert_eq!(
            Genome::parse(&after).as_ref(),
            Ok(&mutant),
            "{after} is valid"
        );
        let differing = dna
            .bytes()
            .zip(after.bytes())
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(
            after.len(),
            dna.len(),
            "{after}: one letter replaced, none added"
        );
        assert!(
            differing <= 1,
            "{dna} → {after}: {differing} letters changed"
        );
        changed += usize::from(differing == 1);
        // The piece that arrives is a copy of the mutated mover.
        let arrived = position
            .piece_at(ply.drawn.landed)
            .expect("the mover arrived");
        let arrived = position.genome(arrived.genome).expect("interned");
        assert_eq!(arrived.genome(), &mutant);
    }
    // This rook has 33 letters and many valid changes: "none valid in 20 tries" is rare.
    assert!(changed > 1_900, "only {changed} of 2000 moves mutated");
}

/// Back ranks in which both random debuffs are common, with the standard king on file d.
fn random_preset() -> Vec<Genome> {
    let parse = |dna: &str| Genome::parse(dna).expect("valid");
    let deviating_knight = parse("AHH HSA HAC HHH CHA CHA HHA CAC SAS AAC ACA");
    let mutating_bishop = parse("AHH HCC HAA HHH CHA CHA HHA CAS SAS ASS ACS");
    let both = parse(DEVIATING_MUTATING_ROOK);
    let named = |n: &str| standard::by_name(n).expect("standard");
    vec![
        both.clone(),
        deviating_knight.clone(),
        mutating_bishop.clone(),
        named("king"),
        named("queen"),
        mutating_bishop,
        deviating_knight,
        both,
    ]
}

#[test]
fn a_game_with_both_random_debuffs_replays_exactly_from_its_record() {
    let (mut deviated, mut mutated, mut ended) = (0, 0, 0);
    for seed in 0..12 {
        let mut game = set_up(Settings::default(), seed, &random_preset(), 3);
        game.ready(Color::White, at(0)).expect("ready");
        game.ready(Color::Black, at(0)).expect("ready");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        play_randomly(&mut game, &mut rng, at(0), ms(50), 200, |_| false);
        for event in game.events().iter() {
            if let Event::Move {
                to,
                landed,
                mutated_to,
                ..
            } = event
            {
                deviated += usize::from(to != landed);
                mutated += usize::from(mutated_to.is_some());
            }
        }
        ended += usize::from(game.status() != GameStatus::InProgress);
        // Through JSON, as a store keeps it.
        let json = serde_json::to_string(&game.record()).expect("record");
        let record = serde_json::from_str(&json).expect("record loads");
        assert_eq!(replay(&record), Ok(game.clone()), "seed {seed}");
        // The draws come from the record, not from the seed: another seed replays the same game.
        let mut reseeded: crate::GameRecord = record;
        reseeded.seed = seed + 1_000;
        let again: Game = replay(&reseeded).expect("replays with any seed");
        assert_eq!(
            again.position().board(),
            game.position().board(),
            "seed {seed}"
        );
        assert_eq!(again.events(), game.events());
        assert_eq!(
            (again.status(), again.reason()),
            (game.status(), game.reason())
        );
    }
    assert!(deviated > 20, "only {deviated} deviations in 12 games");
    assert!(mutated > 20, "only {mutated} mutations in 12 games");
    assert!(ended > 0, "no game ended");
}

#[test]
fn a_game_restored_from_any_earlier_snapshot_replays_the_events_since_to_the_same_game() {
    let mut replayed = 0;
    for seed in 0..6 {
        let mut game = set_up(Settings::default(), seed, &random_preset(), 3);
        game.ready(Color::White, at(0)).expect("ready");
        game.ready(Color::Black, at(0)).expect("ready");
        let start = game.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        play_randomly(&mut game, &mut rng, at(0), ms(50), 200, |_| false);
        let events = game.events().to_vec();
        replayed += events.len();
        // A server's snapshot: the state after the first `k` events, through JSON, as stored.
        let mut earlier = start;
        for k in 0..=events.len() {
            if k % 5 == 0 || k == events.len() {
                let json = serde_json::to_string(&earlier).expect("snapshot");
                let mut restored: Game = serde_json::from_str(&json).expect("snapshot loads");
                restored
                    .replay_events(&events[k..])
                    .unwrap_or_else(|e| panic!("seed {seed}, snapshot after {k}: {e}"));
                assert_eq!(restored, game, "seed {seed}, snapshot after {k}");
                assert_eq!(restored.clock(), game.clock(), "seed {seed}, after {k}");
            }
            if let Some(event) = events.get(k) {
                earlier
                    .replay_events(std::slice::from_ref(event))
                    .expect("the next event");
            }
        }
    }
    assert!(replayed > 100, "only {replayed} events in 6 games");
}
