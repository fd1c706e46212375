//! Every `moves*`, `games*` and `perft*` vector (`tests/vectors/`, or `$GMO_ORACLE_DIR`) must
//! agree with the engine.

#[path = "../../../tests/support/vectors.rs"]
mod vectors;

#[path = "oracle/docs.rs"]
mod docs;

use gmo_engine::{
    BoardSize, Color, Content, Drawn, GenomeId, Party, Piece, Position, Square, Status, perft,
};
use gmo_genome::Genome;
use serde_json::Value;
use vectors::{Folder, Kind};

fn size_of(record: &Value) -> BoardSize {
    let dim = |key: &str| record[key].as_u64().map_or(8, |n| n as u8);
    BoardSize::new(dim("width"), dim("height")).expect("a valid board size")
}

fn square(value: &Value) -> Square {
    let x = value[0].as_u64().expect("x") as u8;
    let y = value[1].as_u64().expect("y") as u8;
    Square::new(x, y).expect("square on the layout")
}

fn color(value: &Value) -> Color {
    value
        .as_str()
        .expect("side name")
        .parse()
        .expect("white or black")
}

fn content(letter: &str) -> Content {
    Content::from_letter(letter.as_bytes()[0]).expect("A, S or C")
}

fn party(name: &str) -> Party {
    match name {
        "me" => Party::Mover,
        "opp" => Party::Opponent,
        other => panic!("unknown owner {other}"),
    }
}

fn short(record: &Value) -> String {
    let text = record.to_string();
    if text.len() > 4000 {
        format!("{}…", &text[..4000])
    } else {
        text
    }
}

#[test]
fn oracle_vectors_agree() {
    let folder = Folder::open();
    println!("vectors from {}", folder.dir.display());
    let moves = check_moves(&folder);
    println!("{moves} move vectors agree");
    let games = check_games(&folder);
    println!("{games} game vectors agree");
    let perfts = check_perft(&folder);
    println!("{perfts} perft vectors agree");
    assert!(
        moves + games + perfts > 0,
        "no moves*, games* or perft* vectors in {}",
        folder.dir.display()
    );
}

/// A destination with what the from and to squares hold after the move.
type ListedMove = (Square, (Content, Party), (Content, Party));

fn check_moves(folder: &Folder) -> usize {
    let mut agreed = 0;
    for (where_, record) in folder.records(Kind::Moves) {
        let mut position = Position::new(size_of(&record));
        let genome = Genome::parse(record["dna"].as_str().expect("dna")).expect("valid dna");
        let id = position.intern(&genome).expect("room");
        let other = position.intern(&Genome::default()).expect("room");
        let mover = color(&record["color"]);
        let from = square(&record["from"]);
        position
            .put(from, Piece::new(id, mover))
            .expect("on the board");
        for o in record["others"].as_array().expect("others") {
            let side = match o[2].as_str() {
                Some("me") => mover,
                _ => mover.opponent(),
            };
            position
                .put(
                    Square::new(
                        o[0].as_u64().expect("x") as u8,
                        o[1].as_u64().expect("y") as u8,
                    )
                    .expect("square"),
                    Piece::new(other, side),
                )
                .expect("on the board");
        }
        let expected: Vec<ListedMove> = record["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| {
                let leave = |v: &Value| {
                    (
                        content(v[0].as_str().expect("what")),
                        party(v[1].as_str().expect("owner")),
                    )
                };
                (
                    square(&m["to"]),
                    leave(&m["from_becomes"]),
                    leave(&m["to_becomes"]),
                )
            })
            .collect();
        let got: Vec<ListedMove> = position
            .moves_from(from)
            .iter()
            .map(|m| {
                (
                    m.to,
                    (m.effect.from.what, m.effect.from.owner),
                    (m.effect.to.what, m.effect.to.owner),
                )
            })
            .collect();
        assert_eq!(
            got,
            expected,
            "{where_}: move list disagrees\nrecord: {}",
            short(&record)
        );
        assert_eq!(
            position.count_moves(mover),
            expected.len() as u64,
            "{where_}: fast count disagrees with the list"
        );
        agreed += 1;
    }
    agreed
}

fn position_from(record: &Value, pieces: &Value, ids: &mut Vec<GenomeId>) -> Position {
    gmo_engine::vector::position_from(record, pieces, ids)
        .unwrap_or_else(|e| panic!("bad position in {}: {e}", short(record)))
}

/// A board as `(x, y, side, dna, pawn, king)` in square order.
type Rows = Vec<(u8, u8, Color, String, bool, bool)>;

fn board_rows(position: &Position) -> Rows {
    position
        .board()
        .pieces()
        .map(|(sq, p)| {
            let dna = position.genome(p.genome).map(|g| g.dna().to_string());
            (
                sq.x(),
                sq.y(),
                p.color,
                dna.unwrap_or_default(),
                p.pawn,
                p.king,
            )
        })
        .collect()
}

fn expected_rows(record: &Value, rows: &Value) -> Rows {
    let genomes = record["genomes"].as_array().expect("genomes");
    let mut out: Vec<_> = rows
        .as_array()
        .expect("board")
        .iter()
        .map(|p| {
            let dna = genomes[p[3].as_u64().expect("genome index") as usize]
                .as_str()
                .expect("dna");
            let canonical = gmo_genome::canonicalize(dna).expect("valid dna");
            (
                p[0].as_u64().expect("x") as u8,
                p[1].as_u64().expect("y") as u8,
                color(&p[2]),
                canonical,
                p[4].as_bool().expect("pawn"),
                p[5].as_bool().expect("king"),
            )
        })
        .collect();
    out.sort_by_key(|r| (r.1, r.0));
    out
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::InProgress => "in_progress",
        Status::Over { result, .. } => result.name(),
    }
}

fn check_games(folder: &Folder) -> usize {
    let mut agreed = 0;
    for (where_, record) in folder.records(Kind::Games) {
        let mut ids = Vec::new();
        let mut position = position_from(&record, &record["setup"], &mut ids);
        assert_eq!(
            board_rows(&position),
            expected_rows(&record, &record["setup"]),
            "{where_}: setup"
        );
        for (n, ply) in record["plies"]
            .as_array()
            .expect("plies")
            .iter()
            .enumerate()
        {
            let context = || format!("{where_}: ply {n}: {ply}\nrecord: {}", short(&record));
            if let Some(mv) = ply.get("move") {
                let (from, to) = (square(&mv["from"]), square(&mv["to"]));
                let drawn = Drawn {
                    landed: to,
                    mutation: None,
                };
                if let Err(e) = position.replay_move(from, to, &drawn) {
                    panic!("{}\nrefused: {e}", context());
                }
            } else if let Some(pr) = ply.get("promote") {
                let at = square(&pr["at"]);
                assert_eq!(position.due_promotion(), Some(at), "{}", context());
                let dna = record["genomes"][pr["genome"].as_u64().expect("index") as usize]
                    .as_str()
                    .expect("dna");
                let genome = Genome::parse(dna).expect("valid dna");
                if let Err(e) = position.promote(&genome) {
                    panic!("{}\nrefused: {e}", context());
                }
            } else {
                panic!("{}: neither a move nor a promotion", context());
            }
            assert_eq!(
                board_rows(&position),
                expected_rows(&record, &ply["board_after"]),
                "{}\nboard_after disagrees",
                context()
            );
            let status = position.status();
            assert_eq!(
                status_name(status),
                ply["status"].as_str().expect("status"),
                "{}\nstatus disagrees",
                context()
            );
            let no_moves = matches!(
                status,
                Status::Over {
                    reason: gmo_engine::EndReason::NoLegalMoves,
                    ..
                }
            );
            if status != Status::InProgress {
                assert_eq!(
                    no_moves,
                    ply["reason"].as_str() == Some("no_legal_moves"),
                    "{}\nend reason disagrees",
                    context()
                );
            }
            let to_move = position.to_move().map(Color::name);
            assert_eq!(
                to_move,
                ply["to_move"].as_str(),
                "{}\nto_move disagrees",
                context()
            );
        }
        agreed += 1;
    }
    agreed
}

fn check_perft(folder: &Folder) -> usize {
    let mut agreed = 0;
    for (where_, record) in folder.records(Kind::Perft) {
        let mut ids = Vec::new();
        let mut position = position_from(&record, &record["pieces"], &mut ids);
        position.set_moves_played(record["moves_played"].as_u64().expect("moves_played") as u32);
        let depth = record["depth"].as_u64().expect("depth") as u32;
        let expected = record["nodes"].as_u64().expect("nodes");
        let got = perft(&position, depth);
        assert_eq!(
            got,
            expected,
            "{where_}: perft {depth} disagrees\nrecord: {}",
            short(&record)
        );
        agreed += 1;
    }
    agreed
}
