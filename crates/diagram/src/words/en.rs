//! The pictures in English, as they were before there was a choice: every phrase byte for byte
//! the old one, so that an English picture never changes. What moves leave and what debuffs do
//! are said in the words of `Genome::explain`.

use super::{Case, Words};
use crate::marks::MarkKind;
use gmo_engine::{Color, Content, Party, Square};
use gmo_genome::Debuff;

#[derive(Debug)]
pub struct English;

impl Words for English {
    fn title(&self, name: &str, color: Color, width: u8, height: u8) -> String {
        format!("{name}: a {color} piece on a {width}×{height} board")
    }

    fn stands_on(&self, square: Square) -> String {
        format!("The piece stands on {square}.")
    }

    fn no_marks(&self) -> &'static str {
        "No square is marked."
    }

    fn marked(&self, count: usize, squares: &str) -> String {
        format!("Marked squares ({count}): {squares}.")
    }

    fn legend_heading(&self) -> &'static str {
        "Legend"
    }

    fn no_moves(&self) -> &'static str {
        "This piece has no moves from the middle of an empty board."
    }

    fn mark(&self, kind: MarkKind, special: bool) -> &'static str {
        match (kind, special) {
            (MarkKind::Move, false) => "Moves there (onto an empty square).",
            (MarkKind::Move, true) => {
                "Moves there (onto an empty square); the move leaves copies or changes owners \
                 (below)."
            }
            (MarkKind::NeedsTarget, false) => {
                "Moves there only onto an enemy piece (needs a target)."
            }
            (MarkKind::NeedsTarget, true) => {
                "Moves there only onto an enemy piece (needs a target); the move leaves copies or \
                 changes owners (below)."
            }
            (MarkKind::Home, _) => "May move onto its own square (below).",
        }
    }

    fn edges(&self, wraps: bool) -> &'static str {
        if wraps {
            "Dashed side edges: the left and right edges are joined for this piece; a move that \
             leaves one side comes back on the other."
        } else {
            "Solid side edges: this piece does not wrap around the left and right edges (no wrap, \
             HAA)."
        }
    }

    fn debuff(&self, debuff: Debuff) -> String {
        format!(
            "Debuff {} ({}): {}.",
            debuff.name(),
            debuff.codon(),
            debuff.effect()
        )
    }

    fn case(&self, case: Case) -> &'static str {
        match case {
            Case::Empty => "onto an empty square",
            Case::Enemy => "onto an enemy piece",
            Case::Own => "onto one of its own side's pieces",
            Case::Home => "onto its own square",
        }
    }

    fn preposition(&self) -> &'static str {
        "onto "
    }

    fn or(&self) -> &'static str {
        " or "
    }

    fn same_squares(&self) -> &'static str {
        "the same squares"
    }

    fn captures(&self) -> &'static str {
        "captures the piece there"
    }

    fn ordinary(&self) -> &'static str {
        "an ordinary move"
    }

    fn content(&self, content: Content, occupied: bool) -> &'static str {
        content.describe(occupied)
    }

    fn owned(&self, what: &str, owner: Party) -> String {
        match owner {
            Party::Mover => format!("{what}, owned by the mover,"),
            Party::Opponent => format!("{what}, owned by the opponent,"),
        }
    }

    fn leaves(&self, from: &str, to: &str) -> String {
        format!("leaves {from} on the from square and {to} on the to square")
    }
}
