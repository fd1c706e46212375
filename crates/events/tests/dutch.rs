//! Every round of the reference tournaments in `tests/dutch/` (made and checked by bbpPairings,
//! see its README) paired again by `gmo_events::swiss` from the rounds before it: the pairs and
//! their colours must be the file's.

use flate2::read::GzDecoder;
use gmo_events::{Board, Outcome, Pairing, Team, swiss, trf};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

/// One tournament as the file tells it.
struct Tournament {
    name: String,
    /// The file as read.
    text: String,
    teams: usize,
    /// Per round, its boards with their results.
    rounds: Vec<Vec<Board>>,
}

/// One team's entry for one round: (opponent, White?, result) or a bye.
enum Entry {
    Game(Team, bool, char),
    Bye,
}

/// The rounds of a TRF file's `001` lines: from column 90 on, ten characters per round
/// (`  OOOO C R`: opponent's pairing number, colour, result).
fn parse(name: &str, text: &str) -> Tournament {
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("001")).collect();
    let teams = lines.len();
    let mut entries: Vec<Vec<Entry>> = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let number: usize = line[4..8].trim().parse().expect("pairing number");
        assert_eq!(number, index + 1, "{name}: players in pairing-number order");
        let rest = line.get(89..).unwrap_or("");
        let mut own = Vec::new();
        for chunk in rest.as_bytes().chunks(10) {
            let chunk = std::str::from_utf8(chunk).expect("ASCII");
            let opponent = chunk[2..6].trim();
            let colour = chunk.as_bytes()[7] as char;
            let result = chunk.as_bytes()[9] as char;
            own.push(match (opponent, colour, result) {
                ("0000", '-', 'U') => Entry::Bye,
                (o, 'w' | 'b', '1' | '0' | '=') => Entry::Game(
                    o.parse::<Team>().expect("opponent") - 1,
                    colour == 'w',
                    result,
                ),
                other => panic!("{name}: player {number}: unexpected entry {other:?}"),
            });
        }
        entries.push(own);
    }
    let count = entries.iter().map(Vec::len).max().unwrap_or(0);
    let mut rounds = vec![Vec::new(); count];
    for (team, own) in entries.iter().enumerate() {
        for (round, entry) in own.iter().enumerate() {
            let board = match *entry {
                Entry::Bye => Board {
                    white: team,
                    black: None,
                    outcome: Some(Outcome::White),
                },
                Entry::Game(black, true, result) => Board {
                    white: team,
                    black: Some(black),
                    outcome: Some(match result {
                        '1' => Outcome::White,
                        '0' => Outcome::Black,
                        _ => Outcome::Draw,
                    }),
                },
                Entry::Game(..) => continue,
            };
            rounds[round].push(board);
        }
    }
    Tournament {
        name: name.to_owned(),
        text: text.to_owned(),
        teams,
        rounds,
    }
}

fn tournaments() -> Vec<Tournament> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dutch");
    let mut paths: Vec<_> = std::fs::read_dir(&folder)
        .expect("tests/dutch")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".trf.gz"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let mut text = String::new();
            GzDecoder::new(std::fs::File::open(path).expect("open"))
                .read_to_string(&mut text)
                .expect("gzip");
            let name = path.file_name().expect("name").to_string_lossy();
            parse(name.trim_end_matches(".trf.gz"), &text)
        })
        .collect()
}

type Set = BTreeSet<(Team, Option<Team>)>;

fn set(pairings: impl IntoIterator<Item = (Team, Option<Team>)>) -> Set {
    pairings.into_iter().collect()
}

/// Pairing numbers (one-based, as in the file) of boards in one set and not the other.
fn show(boards: &Set, other: &Set) -> String {
    let only: Vec<String> = boards
        .difference(other)
        .map(|&(w, b)| match b {
            Some(b) => format!("{}-{}", w + 1, b + 1),
            None => format!("{} bye", w + 1),
        })
        .collect();
    only.join(" ")
}

/// The team-count bands of the report.
const BANDS: [(usize, usize); 4] = [(6, 12), (13, 24), (25, 40), (41, 64)];

#[test]
fn every_round_of_the_reference_tournaments_is_paired_as_bbp_pairings_does() {
    let all = tournaments();
    assert_eq!(all.len(), 200, "the 200 files of tests/dutch");
    let mut same = [0usize; 4];
    let mut total = [0usize; 4];
    let mut mismatches = Vec::new();
    for t in &all {
        let band = BANDS
            .iter()
            .position(|&(lo, hi)| (lo..=hi).contains(&t.teams))
            .expect("6 to 64 teams");
        let settings = swiss::Settings {
            rounds: u32::try_from(t.rounds.len()).expect("rounds"),
            // The file's round 1 tells the initial colour: the top seed's.
            top_seed_white: t.rounds[0]
                .iter()
                .any(|b| b.white == 0 && b.black.is_some()),
        };
        let mut before: Vec<Board> = Vec::new();
        for (round, boards) in t.rounds.iter().enumerate() {
            let expected = set(boards.iter().map(|b| (b.white, b.black)));
            let ours = swiss::pair(t.teams, &before, &settings)
                .map(|p: Vec<Pairing>| set(p.iter().map(|p| (p.white, p.black))));
            total[band] += 1;
            match ours {
                Some(ours) if ours == expected => same[band] += 1,
                Some(ours) => mismatches.push(format!(
                    "{} round {}: file has {}; ours has {}",
                    t.name,
                    round + 1,
                    show(&expected, &ours),
                    show(&ours, &expected)
                )),
                None => mismatches.push(format!("{} round {}: ours found none", t.name, round + 1)),
            }
            before.extend_from_slice(boards);
        }
    }
    for (i, &(lo, hi)) in BANDS.iter().enumerate() {
        println!(
            "{lo}-{hi} teams: {} of {} rounds identical",
            same[i], total[i]
        );
    }
    let (same, total): (usize, usize) = (same.iter().sum(), total.iter().sum());
    println!("all: {same} of {total} rounds identical");
    for m in mismatches.iter().take(40) {
        println!("{m}");
    }
    assert!(
        mismatches.is_empty(),
        "{} rounds differ, first: {}",
        mismatches.len(),
        mismatches[0]
    );
}

/// Our TRF export of each reference tournament has bbpPairings' points and round columns, line by
/// line (names, ratings and places are the event's own).
#[test]
fn the_trf_export_writes_the_rounds_as_bbp_pairings_does() {
    for t in tournaments() {
        let names: Vec<String> = (1..=t.teams).map(|i| format!("Team {i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let ours = trf::report(&trf::Report {
            name: &t.name,
            system: "Swiss Dutch",
            rounds_total: Some(u32::try_from(t.rounds.len()).expect("rounds")),
            teams: &names,
            rounds: &t.rounds,
        });
        let theirs: Vec<&str> = t.text.lines().filter(|l| l.starts_with("001")).collect();
        let ours: Vec<&str> = ours.lines().filter(|l| l.starts_with("001")).collect();
        assert_eq!(ours.len(), theirs.len(), "{}", t.name);
        for (a, b) in ours.iter().zip(&theirs) {
            assert_eq!(a[..8], b[..8], "{}: pairing number", t.name);
            assert_eq!(a[80..84], b[80..84], "{}: points of {}", t.name, &a[..8]);
            assert_eq!(a[89..], b[89..], "{}: rounds of {}", t.name, &a[..8]);
        }
    }
}
