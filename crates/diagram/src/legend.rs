//! The legend's words: what each kind of mark means, what the moves leave behind (in the words of
//! `Genome::explain`), whether the side edges are joined, and the debuffs.

use crate::marks::{Diagram, Mark, MarkKind, is_special};
use gmo_engine::{Content, Effect, Party, Square};

/// The symbol a legend line is drawn with, matching the marks on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// A mark: its kind and whether the move leaves more than the mover.
    Mark(MarkKind, bool),
    /// The joined (dashed) or closed side edges.
    Edges(bool),
}

/// One entry of the legend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub key: Option<Key>,
    pub text: String,
}

impl Line {
    fn plain(text: String) -> Line {
        Line { key: None, text }
    }
}

/// The legend, in a fixed order: marks used, what moves leave, edges, debuffs.
pub fn legend(diagram: &Diagram) -> Vec<Line> {
    let mut lines = mark_keys(diagram);
    lines.extend(leaves(diagram));
    let wraps = diagram.wraps;
    lines.push(Line {
        key: Some(Key::Edges(wraps)),
        text: if wraps {
            "Dashed side edges: the left and right edges are joined for this piece; a move that \
             leaves one side comes back on the other."
        } else {
            "Solid side edges: this piece does not wrap around the left and right edges (no wrap, \
             HAA)."
        }
        .to_owned(),
    });
    for debuff in &diagram.debuffs {
        lines.push(Line::plain(format!(
            "Debuff {} ({}): {}.",
            debuff.name(),
            debuff.codon(),
            debuff.effect()
        )));
    }
    lines
}

fn mark_keys(diagram: &Diagram) -> Vec<Line> {
    if diagram.marks.is_empty() {
        return vec![Line::plain(
            "This piece has no moves from the middle of an empty board.".to_owned(),
        )];
    }
    let mut keys: Vec<(MarkKind, bool)> = diagram
        .marks
        .iter()
        .map(|m| (m.kind, m.is_special()))
        .collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|(kind, special)| Line {
            key: Some(Key::Mark(kind, special)),
            text: mark_words(kind, special).to_owned(),
        })
        .collect()
}

/// What a kind of mark means.
pub fn mark_words(kind: MarkKind, special: bool) -> &'static str {
    match (kind, special) {
        (MarkKind::Move, false) => "Moves there (onto an empty square).",
        (MarkKind::Move, true) => {
            "Moves there (onto an empty square); the move leaves copies or changes owners (below)."
        }
        (MarkKind::NeedsTarget, false) => "Moves there only onto an enemy piece (needs a target).",
        (MarkKind::NeedsTarget, true) => {
            "Moves there only onto an enemy piece (needs a target); the move leaves copies or \
             changes owners (below)."
        }
        (MarkKind::Home, _) => "May move onto its own square (below).",
    }
}

/// A case of what stands on the destination: its words, whether the square is occupied, and the
/// effect a mark has in that case.
type Case = (&'static str, bool, fn(&Mark) -> Option<Effect>);

/// What moves leave behind: one line per case (onto an empty square, an enemy piece, one of its
/// own side's pieces, itself) and wording, with the squares it applies to.
fn leaves(diagram: &Diagram) -> Vec<Line> {
    let cases: [Case; 4] = [
        ("onto an empty square", false, |m| {
            m.on_empty.filter(|_| m.kind != MarkKind::Home)
        }),
        ("onto an enemy piece", true, |m| m.on_enemy),
        ("onto one of its own side's pieces", true, |m| m.on_own),
        ("onto its own square", true, |m| {
            m.on_empty.filter(|_| m.kind == MarkKind::Home)
        }),
    ];
    let all: Vec<&Mark> = diagram.marks.iter().chain(&diagram.own_only).collect();
    // (cases, words, squares): cases with the same words on the same squares share an entry.
    let mut entries: Vec<(Vec<&str>, String, Vec<Square>)> = Vec::new();
    for (case, occupied, effect_of) in cases {
        let mut groups: Vec<(String, Vec<Square>)> = Vec::new();
        for mark in &all {
            let Some(effect) = effect_of(mark) else {
                continue;
            };
            let words = describe(effect, occupied);
            match groups.iter_mut().find(|(w, _)| *w == words) {
                Some((_, squares)) => squares.push(mark.square),
                None => groups.push((words, vec![mark.square])),
            }
        }
        for (words, mut squares) in groups {
            squares.sort();
            match entries
                .iter_mut()
                .find(|(_, w, s)| *w == words && *s == squares)
            {
                Some((cases, _, _)) => cases.push(case),
                None => entries.push((vec![case], words, squares)),
            }
        }
    }
    let mut previous: &[Square] = &[];
    let mut lines = Vec::new();
    for (cases, words, squares) in &entries {
        let names = if squares == previous {
            "the same squares".to_owned()
        } else {
            let names: Vec<String> = squares.iter().map(Square::to_string).collect();
            names.join(" ")
        };
        lines.push(Line::plain(format!(
            "{} ({names}): {words}.",
            capitalised(&join_cases(cases))
        )));
        previous = squares;
    }
    lines
}

/// "onto an empty square, an enemy piece or one of its own side's pieces".
fn join_cases(cases: &[&str]) -> String {
    let mut text = String::new();
    for (i, case) in cases.iter().enumerate() {
        let case = if i == 0 {
            case
        } else {
            case.strip_prefix("onto ").unwrap_or(case)
        };
        if i > 0 {
            text.push_str(if i + 1 == cases.len() { " or " } else { ", " });
        }
        text.push_str(case);
    }
    text
}

/// A move's effect in words: an ordinary move or capture, else what it leaves on each square
/// and who owns it, in the words of `Genome::explain`.
fn describe(effect: Effect, occupied: bool) -> String {
    if !is_special(effect) {
        return if occupied {
            "captures the piece there".to_owned()
        } else {
            "an ordinary move".to_owned()
        };
    }
    let leave = |leave: gmo_engine::Leave| {
        let what = leave.what.describe(occupied);
        match (leave.what, leave.owner) {
            (Content::Nothing, _) => what.to_owned(),
            (_, Party::Mover) => format!("{what}, owned by the mover,"),
            (_, Party::Opponent) => format!("{what}, owned by the opponent,"),
        }
    };
    format!(
        "leaves {} on the from square and {} on the to square",
        leave(effect.from),
        leave(effect.to)
    )
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
