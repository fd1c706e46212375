//! An event as a FIDE Tournament Report File (TRF-16): a `012` line with its name, `XXR` with its
//! number of rounds (the line bbpPairings and JaVaFo read to know the last round), `092` with
//! the pairing system, then one `001` line per team: its pairing number (index + 1), name,
//! points, place, and per round the opponent's pairing number, the colour (`w`/`b`) and the
//! result (`1`, `=`, `0`; a pairing-allocated bye is `0000 - U`).
//!
//! Only the rounds whose boards have all ended are written, so the file is always one that a
//! pairing checker (bbpPairings `-c`, JaVaFo) reads: the round being played is in the event's
//! own view.

use crate::standings::standings;
use crate::{Board, Outcome, Team};

/// What a report needs.
#[derive(Debug, Clone, Copy)]
pub struct Report<'a> {
    pub name: &'a str,
    /// "Swiss Dutch", "Round robin"...: the `092` line.
    pub system: &'a str,
    /// The event's number of rounds, when known.
    pub rounds_total: Option<u32>,
    /// Team names, by pairing number (index).
    pub teams: &'a [&'a str],
    /// Per round, its boards.
    pub rounds: &'a [Vec<Board>],
}

/// The width of TRF's name field (columns 15–47).
const NAME: usize = 33;

/// The report as text, lines ended by `\n`.
pub fn report(report: &Report) -> String {
    let count = report.teams.len();
    let ended: Vec<&Vec<Board>> = report
        .rounds
        .iter()
        .take_while(|round| {
            round
                .iter()
                .all(|b| b.black.is_none() || b.outcome.is_some())
        })
        .collect();
    let boards: Vec<Board> = ended.iter().flat_map(|r| r.iter().copied()).collect();
    let table = standings(count, &boards);
    let mut out = format!("012 {}\n", field(report.name, 80));
    if let Some(total) = report.rounds_total {
        out.push_str(&format!("XXR {total}\n"));
    }
    out.push_str(&format!("092 {}\n", field(report.system, 80)));
    for team in 0..count {
        let line = table.iter().position(|l| l.team == team);
        let points = line.map_or(0, |at| table[at].points);
        let place = line.map_or(0, |at| at + 1);
        out.push_str(&format!(
            "001 {:>4} {:<4} {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            team + 1,
            "",
            field(report.teams[team], NAME),
            "",
            "",
            "",
            "",
            half_points(points),
            place
        ));
        for round in &ended {
            out.push_str(&entry(round, team));
        }
        out.push('\n');
    }
    out
}

/// A team's ten columns for one round (blank when it had no board).
fn entry(round: &[Board], team: Team) -> String {
    let Some(board) = round
        .iter()
        .find(|b| b.white == team || b.black == Some(team))
    else {
        return format!("  {:4} {} {}", "", " ", " ");
    };
    let Some(black) = board.black else {
        return "  0000 - U".to_owned();
    };
    let white = board.white == team;
    let opponent = if white { black } else { board.white };
    let result = match (board.outcome, white) {
        (Some(Outcome::Draw), _) => '=',
        (Some(Outcome::White), true) | (Some(Outcome::Black), false) => '1',
        _ => '0',
    };
    format!(
        "  {:>4} {} {}",
        opponent + 1,
        if white { 'w' } else { 'b' },
        result
    )
}

/// "2.5" for 5 half points.
fn half_points(half: u32) -> String {
    format!("{}.{}", half / 2, if half % 2 == 1 { 5 } else { 0 })
}

/// Printable ASCII only (the format's columns count bytes), cut to `width` characters.
fn field(text: &str, width: usize) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .take(width)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_the_columns_of_the_format() {
        let game = |white, black, outcome| Board {
            white,
            black: Some(black),
            outcome,
        };
        let rounds = vec![
            vec![
                game(0, 1, Some(Outcome::Draw)),
                Board {
                    white: 2,
                    black: None,
                    outcome: None,
                },
            ],
            vec![game(2, 0, Some(Outcome::Black)), game(1, 2, None)],
        ];
        let text = report(&Report {
            name: "Spring cup",
            system: "Swiss Dutch",
            rounds_total: Some(3),
            teams: &["Ada's team", "Žilina", "C"],
            rounds: &rounds,
        });
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "012 Spring cup");
        assert_eq!(lines[1], "XXR 3");
        assert_eq!(lines[2], "092 Swiss Dutch");
        // Round 2 is still being played: only round 1 is written.
        let first = lines[3];
        assert_eq!(&first[..8], "001    1");
        assert_eq!(first[14..47].trim_end(), "Ada's team");
        assert_eq!(&first[80..84], " 0.5");
        assert_eq!(&first[89..], "     2 w =");
        assert_eq!(lines[4][14..47].trim_end(), "?ilina");
        assert_eq!(&lines[5][80..84], " 1.0");
        assert_eq!(&lines[5][85..89], "   1", "the bye's win puts C first");
        assert_eq!(&lines[5][89..], "  0000 - U");
        assert_eq!(lines.len(), 6);
    }
}
