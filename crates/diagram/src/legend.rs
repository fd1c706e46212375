//! The legend: what each kind of mark means, what the moves leave behind (in the words of
//! `Genome::explain`), whether the side edges are joined, and the debuffs. Which lines there are
//! is decided here, once; their words come from the language's [`Words`].

use crate::Language;
use crate::marks::{Diagram, Mark, MarkKind, is_special};
use crate::words::{Case, Words, words};
use gmo_engine::{Content, Effect, Square};

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

/// The legend in `language`, in a fixed order: marks used, what moves leave, edges, debuffs.
pub fn legend(diagram: &Diagram, language: Language) -> Vec<Line> {
    let words = words(language);
    let mut lines = mark_keys(diagram, words);
    lines.extend(leaves(diagram, words));
    let wraps = diagram.wraps;
    lines.push(Line {
        key: Some(Key::Edges(wraps)),
        text: words.edges(wraps).to_owned(),
    });
    for debuff in &diagram.debuffs {
        lines.push(Line::plain(words.debuff(*debuff)));
    }
    lines
}

fn mark_keys(diagram: &Diagram, words: &dyn Words) -> Vec<Line> {
    if diagram.marks.is_empty() {
        return vec![Line::plain(words.no_moves().to_owned())];
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
            text: words.mark(kind, special).to_owned(),
        })
        .collect()
}

/// What a kind of mark means, in `language`.
pub fn mark_words(kind: MarkKind, special: bool, language: Language) -> &'static str {
    words(language).mark(kind, special)
}

/// A case of what stands on the destination, whether the square is occupied, and the effect a
/// mark has in that case.
type CaseOf = (Case, bool, fn(&Mark) -> Option<Effect>);

/// What moves leave behind: one line per case (onto an empty square, an enemy piece, one of its
/// own side's pieces, itself) and wording, with the squares it applies to.
fn leaves(diagram: &Diagram, words: &dyn Words) -> Vec<Line> {
    let cases: [CaseOf; 4] = [
        (Case::Empty, false, |m| {
            m.on_empty.filter(|_| m.kind != MarkKind::Home)
        }),
        (Case::Enemy, true, |m| m.on_enemy),
        (Case::Own, true, |m| m.on_own),
        (Case::Home, true, |m| {
            m.on_empty.filter(|_| m.kind == MarkKind::Home)
        }),
    ];
    let all: Vec<&Mark> = diagram.marks.iter().chain(&diagram.own_only).collect();
    // (cases, words, squares): cases with the same words on the same squares share an entry.
    let mut entries: Vec<(Vec<Case>, String, Vec<Square>)> = Vec::new();
    for (case, occupied, effect_of) in cases {
        let mut groups: Vec<(String, Vec<Square>)> = Vec::new();
        for mark in &all {
            let Some(effect) = effect_of(mark) else {
                continue;
            };
            let said = describe(effect, occupied, words);
            match groups.iter_mut().find(|(w, _)| *w == said) {
                Some((_, squares)) => squares.push(mark.square),
                None => groups.push((said, vec![mark.square])),
            }
        }
        for (said, mut squares) in groups {
            squares.sort();
            match entries
                .iter_mut()
                .find(|(_, w, s)| *w == said && *s == squares)
            {
                Some((cases, _, _)) => cases.push(case),
                None => entries.push((vec![case], said, squares)),
            }
        }
    }
    let mut previous: &[Square] = &[];
    let mut lines = Vec::new();
    for (cases, said, squares) in &entries {
        let names = if squares == previous {
            words.same_squares().to_owned()
        } else {
            let names: Vec<String> = squares.iter().map(Square::to_string).collect();
            names.join(" ")
        };
        lines.push(Line::plain(format!(
            "{} ({names}): {said}.",
            capitalised(&join_cases(cases, words))
        )));
        previous = squares;
    }
    lines
}

/// "onto an empty square, an enemy piece or one of its own side's pieces": the preposition said
/// once.
fn join_cases(cases: &[Case], words: &dyn Words) -> String {
    let mut text = String::new();
    for (i, case) in cases.iter().enumerate() {
        let case = words.case(*case);
        let case = if i == 0 {
            case
        } else {
            case.strip_prefix(words.preposition()).unwrap_or(case)
        };
        if i > 0 {
            text.push_str(if i + 1 == cases.len() {
                words.or()
            } else {
                ", "
            });
        }
        text.push_str(case);
    }
    text
}

/// A move's effect in words: an ordinary move or capture, else what it leaves on each square
/// and who owns it, in the words of `Genome::explain`.
fn describe(effect: Effect, occupied: bool, words: &dyn Words) -> String {
    if !is_special(effect) {
        return if occupied {
            words.captures()
        } else {
            words.ordinary()
        }
        .to_owned();
    }
    let leave = |leave: gmo_engine::Leave| {
        let what = words.content(leave.what, occupied);
        match leave.what {
            Content::Nothing => what.to_owned(),
            _ => words.owned(what, leave.owner),
        }
    };
    words.leaves(&leave(effect.from), &leave(effect.to))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
