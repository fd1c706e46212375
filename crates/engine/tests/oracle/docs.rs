//! The check values the documentation states (`docs/rules.md`, `docs/variants.md`), recomputed,
//! so that the documents cannot drift from the code and the vectors.
//!
//! A checked table or diagram follows a marker line `<!-- check: KIND … -->`:
//! - `genomes`: rows `| name | DNA | code |` — the DNA parses and has that code; a standard name
//!   (`rook`, …) must also be the standard DNA;
//! - `preset`: rows `| name | canonical text | code |` — the named preset's genome codes, joined,
//!   and their code (`default` is the only named preset);
//! - `perft`: rows `| position | depth | nodes |` — the engine's count from `default start`, or
//!   from the record on line N of the repository's perft vectors (`perft.jsonl line N`), and the
//!   vectors hold the same count;
//! - `errors`: rows `| DNA | error | codon | offset |` — the genome error's machine code and place;
//! - `diagram NAME SQUARE [WxH]`: the next fenced block is the board (8 × 8 unless given) with the
//!   genome `NAME` (from a `genomes` table of the same document) on SQUARE as White: `P` the piece
//!   (`@` if it may also move onto its own square), `o` a White and `e` a Black piece of no moves
//!   (`O`, `E` where the piece may move onto them), `x` an empty destination, `.` any other empty
//!   square; the rank lines start with the rank's number.

use crate::vectors::{Folder, Kind};
use gmo_engine::{BoardSize, Color, Piece, Position, Square, perft};
use gmo_genome::{Code, Genome, preset_code, preset_text, standard};
use std::collections::HashMap;
use std::path::PathBuf;

fn document(name: &str) -> (String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    (format!("docs/{name}"), text)
}

/// A checked block: its marker's words and the lines after the marker.
struct Checked<'a> {
    line: usize,
    words: Vec<&'a str>,
    rest: Vec<&'a str>,
}

fn checked_blocks(text: &str) -> Vec<Checked<'_>> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let inner = line
                .trim()
                .strip_prefix("<!-- check:")?
                .strip_suffix("-->")?;
            Some(Checked {
                line: i + 1,
                words: inner.split_whitespace().collect(),
                rest: lines[i + 1..].to_vec(),
            })
        })
        .collect()
}

/// The body rows of the table right after a marker, cells trimmed and without backticks.
fn table_rows(block: &Checked) -> Vec<Vec<String>> {
    let rows: Vec<Vec<String>> = block
        .rest
        .iter()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.trim_start().starts_with('|'))
        .skip(2) // the header and the |---| line
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().replace('`', ""))
                .collect()
        })
        .collect();
    assert!(
        !rows.is_empty(),
        "line {}: an empty checked table",
        block.line
    );
    rows
}

/// The fenced block right after a marker.
fn fenced(block: &Checked) -> Vec<String> {
    let mut lines = block.rest.iter().skip_while(|l| l.trim().is_empty());
    let fence = lines.next().map(|l| l.trim_start());
    assert!(
        fence.is_some_and(|f| f.starts_with("```")),
        "line {}: a diagram marker must be followed by a fenced block",
        block.line
    );
    lines
        .take_while(|l| !l.trim_start().starts_with("```"))
        .map(|l| l.trim_end().to_string())
        .collect()
}

fn number(cell: &str) -> u64 {
    cell.replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("{cell:?} is not a number"))
}

/// Checks every `genomes` table; returns the genomes by name.
fn check_genomes(doc: &str, blocks: &[Checked]) -> HashMap<String, Genome> {
    let mut named = HashMap::new();
    for block in blocks.iter().filter(|b| b.words[0] == "genomes") {
        for row in table_rows(block) {
            let (name, dna, code) = (&row[0], &row[1], &row[2]);
            let genome =
                Genome::parse(dna).unwrap_or_else(|e| panic!("{doc}:{}: {name}: {e}", block.line));
            assert_eq!(
                genome.code().to_string(),
                *code,
                "{doc}:{}: the code of {name}",
                block.line
            );
            if let Some(standard_dna) = standard::dna_by_name(name) {
                assert_eq!(genome.to_string(), standard_dna, "{doc}: {name}");
            }
            named.insert(name.clone(), genome);
        }
    }
    named
}

fn check_presets(doc: &str, blocks: &[Checked]) -> usize {
    let mut rows = 0;
    for block in blocks.iter().filter(|b| b.words[0] == "preset") {
        for row in table_rows(block) {
            assert_eq!(
                row[0], "default",
                "{doc}:{}: only `default` is named",
                block.line
            );
            let codes: Vec<Code> = standard::DEFAULT_PRESET
                .iter()
                .map(|name| standard::by_name(name).expect("standard").code())
                .collect();
            assert_eq!(
                preset_text(&codes),
                row[1],
                "{doc}:{}: canonical text",
                block.line
            );
            assert_eq!(
                preset_code(&codes).to_string(),
                row[2],
                "{doc}:{}",
                block.line
            );
            rows += 1;
        }
    }
    rows
}

fn check_perft(doc: &str, blocks: &[Checked]) -> usize {
    let vectors = Folder::repository().records(Kind::Perft);
    let mut rows = 0;
    for block in blocks.iter().filter(|b| b.words[0] == "perft") {
        for row in table_rows(block) {
            let (depth, nodes) = (number(&row[1]) as u32, number(&row[2]));
            let place = format!("{doc}:{}: {} depth {depth}", block.line, row[0]);
            let record = if row[0] == "default start" {
                vectors.iter().find(|(_, r)| {
                    r["name"] == "default start" && r["depth"].as_u64() == Some(u64::from(depth))
                })
            } else {
                let line = row[0]
                    .strip_prefix("perft.jsonl line ")
                    .and_then(|rest| rest.split_whitespace().next())
                    .map(number)
                    .unwrap_or_else(|| panic!("{place}: unknown position"));
                let suffix = format!("perft.jsonl.gz:{line}");
                vectors.iter().find(|(at, _)| at.ends_with(&suffix))
            };
            let (_, record) = record.unwrap_or_else(|| panic!("{place}: not in the vectors"));
            assert_eq!(
                record["nodes"].as_u64(),
                Some(nodes),
                "{place}: the vectors say"
            );
            assert_eq!(record["depth"].as_u64(), Some(u64::from(depth)), "{place}");
            let mut ids = Vec::new();
            let mut position =
                gmo_engine::vector::position_from(record, &record["pieces"], &mut ids)
                    .unwrap_or_else(|e| panic!("{place}: {e}"));
            let played = record["moves_played"].as_u64().expect("moves_played") as u32;
            position.set_moves_played(played);
            if row[0] == "default start" {
                let start = Position::default_start();
                assert_eq!(
                    start.board().pieces().count(),
                    position.board().pieces().count()
                );
                position = start;
            }
            assert_eq!(perft(&position, depth), nodes, "{place}: the engine says");
            rows += 1;
        }
    }
    rows
}

fn check_errors(doc: &str, blocks: &[Checked]) -> usize {
    let mut rows = 0;
    for block in blocks.iter().filter(|b| b.words[0] == "errors") {
        for row in table_rows(block) {
            let dna = if row[0] == "(empty)" {
                ""
            } else {
                row[0].as_str()
            };
            let err = Genome::parse(dna).expect_err(&format!("{doc}: {dna:?} is rejected"));
            let got = (
                err.kind.code().to_string(),
                err.codon.to_string(),
                err.offset.to_string(),
            );
            let stated = (row[1].clone(), row[2].clone(), row[3].clone());
            assert_eq!(
                got, stated,
                "{doc}:{}: the error of {dna:?}: {err}",
                block.line
            );
            rows += 1;
        }
    }
    rows
}

/// What a diagram shows on a square, besides being a destination or not.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Mover,
    Own,
    Enemy,
}

/// The destinations of `genome` on `from` among `others`, drawn as the documents draw them.
fn diagram(
    genome: &Genome,
    size: BoardSize,
    from: Square,
    others: &[(Square, Cell)],
) -> Vec<String> {
    let mut position = Position::new(size);
    let id = position.intern(genome).expect("room");
    let blank = position.intern(&Genome::default()).expect("room");
    position
        .put(from, Piece::new(id, Color::White))
        .expect("on the board");
    for &(square, cell) in others {
        let color = if cell == Cell::Own {
            Color::White
        } else {
            Color::Black
        };
        position
            .put(square, Piece::new(blank, color))
            .expect("on the board");
    }
    let targets: Vec<Square> = position.moves_from(from).iter().map(|m| m.to).collect();
    let cell_at = |square: Square| {
        if square == from {
            Cell::Mover
        } else {
            others
                .iter()
                .find(|(s, _)| *s == square)
                .map_or(Cell::Empty, |(_, c)| *c)
        }
    };
    (0..size.height())
        .rev()
        .map(|y| {
            let cells: Vec<&str> = (0..size.width())
                .map(|x| {
                    let square = size.square(x, y).expect("on the board");
                    match (cell_at(square), targets.contains(&square)) {
                        (Cell::Mover, false) => "P",
                        (Cell::Mover, true) => "@",
                        (Cell::Own, false) => "o",
                        (Cell::Own, true) => "O",
                        (Cell::Enemy, false) => "e",
                        (Cell::Enemy, true) => "E",
                        (Cell::Empty, false) => ".",
                        (Cell::Empty, true) => "x",
                    }
                })
                .collect();
            format!("{} {}", y + 1, cells.join(" "))
        })
        .collect()
}

/// The other pieces a drawn diagram shows: `o`/`O` own, `e`/`E` enemy.
fn pieces_drawn(rank_lines: &[String], size: BoardSize) -> Vec<(Square, Cell)> {
    let mut pieces = Vec::new();
    for line in rank_lines {
        let mut tokens = line.split_whitespace();
        let rank: u8 = tokens
            .next()
            .and_then(|r| r.parse().ok())
            .expect("a rank number");
        for (x, token) in (0u8..).zip(tokens) {
            let cell = match token {
                "o" | "O" => Cell::Own,
                "e" | "E" => Cell::Enemy,
                _ => continue,
            };
            let square = size.square(x, rank - 1).expect("a square on the board");
            pieces.push((square, cell));
        }
    }
    pieces
}

fn check_diagrams(doc: &str, blocks: &[Checked], named: &HashMap<String, Genome>) -> usize {
    let mut count = 0;
    for block in blocks.iter().filter(|b| b.words[0] == "diagram") {
        let place = format!("{doc}:{}", block.line);
        let genome = named
            .get(block.words[1])
            .unwrap_or_else(|| panic!("{place}: no genome {} in a genomes table", block.words[1]));
        let from: Square = block.words[2].parse().expect("a square");
        let size = match block.words.get(3) {
            Some(dims) => {
                let (w, h) = dims.split_once('x').expect("WxH");
                BoardSize::new(w.parse().expect("width"), h.parse().expect("height"))
                    .expect("a board size")
            }
            None => BoardSize::STANDARD,
        };
        let drawn: Vec<String> = fenced(block)
            .into_iter()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        let computed = diagram(genome, size, from, &pieces_drawn(&drawn, size));
        assert!(
            drawn == computed,
            "{place}: the diagram of {} on {from} differs from the engine's\ndrawn:\n{}\nengine:\n{}",
            block.words[1],
            drawn.join("\n"),
            computed.join("\n")
        );
        count += 1;
    }
    count
}

#[test]
fn the_rules_state_check_values_the_code_and_vectors_agree_with() {
    let (doc, text) = document("rules.md");
    let blocks = checked_blocks(&text);
    let genomes = check_genomes(&doc, &blocks);
    for (name, _) in standard::STANDARD {
        assert!(
            genomes.contains_key(name),
            "{doc} states no code for {name}"
        );
    }
    assert_eq!(check_presets(&doc, &blocks), 1, "{doc}: the default preset");
    let perfts = check_perft(&doc, &blocks);
    assert!(perfts >= 4, "{doc}: only {perfts} perft counts");
    let errors = check_errors(&doc, &blocks);
    assert!(errors >= 5, "{doc}: only {errors} error examples");
    let diagrams = check_diagrams(&doc, &blocks, &genomes);
    println!(
        "{doc}: {} genome codes, the default preset, {perfts} perft counts, {errors} errors, \
         {diagrams} diagrams agree",
        genomes.len()
    );
}

#[test]
fn the_variants_codes_and_diagrams_agree_with_the_engine() {
    let (doc, text) = document("variants.md");
    let blocks = checked_blocks(&text);
    let genomes = check_genomes(&doc, &blocks);
    let diagrams = check_diagrams(&doc, &blocks, &genomes);
    assert!(diagrams >= 3, "{doc}: only {diagrams} diagrams");
    println!(
        "{doc}: {} genome codes, {diagrams} diagrams agree",
        genomes.len()
    );
}
