//! The explanation in English: the words of [`crate::Genome::explain`], which tests, the command
//! line and the English pages depend on to the byte.

use super::words::{Case, MoveKind, Words};
use crate::{Content, Debuff, Owner, StepKind};

#[derive(Debug)]
pub struct English;

fn squares(length: u8) -> String {
    match length {
        1 => "1 square".to_owned(),
        n => format!("{n} squares"),
    }
}

impl Words for English {
    fn empty_genome(&self) -> &'static str {
        "The empty genome: this piece has no moves.\n"
    }

    fn block_heading(&self, number: usize, count: usize) -> String {
        format!("Block {number} of {count}:\n")
    }

    fn earlier_block_wins(&self) -> &'static str {
        "Where two blocks reach the same square, the earlier block's move is the one kept.\n\n"
    }

    fn steps_heading(&self) -> &'static str {
        "  Steps (after each step the piece turns 90° in the walk's sense):\n"
    }

    fn step(&self, kind: StepKind, length: u8) -> String {
        let squares = squares(length);
        match kind {
            StepKind::Marking if length == 0 => {
                "marking step of 0 squares: the square the walk is on is a possible destination"
                    .into()
            }
            StepKind::Marking => {
                format!(
                    "marking step of {squares}: the square where it ends is a possible destination"
                )
            }
            StepKind::Plain => {
                format!("plain step of {squares}: passes over, whatever stands there")
            }
            StepKind::Still => "still step: moves 0 squares, only turns".to_owned(),
        }
    }

    fn walk(&self, one_lap: bool) -> String {
        let end = if one_lap {
            "It goes through the steps once only (one lap, debuff HAC), and stops earlier if it \
             leaves the board or a marking step lands on an occupied square."
        } else {
            "It repeats the steps until it leaves the board, comes back to a state it was in \
             before, or a marking step lands on an occupied square."
        };
        format!(
            "  The walk: from the piece's square, clockwise and then counter-clockwise, starting \
             north, east, south and west (eight walks), each step moves its length in the current \
             direction, then the walk turns 90°. {end}\n"
        )
    }

    fn marks_nothing(&self) -> &'static str {
        "  On an empty board, the clockwise walk starting north marks no square: the block has no \
         marking step, so it gives no moves.\n"
    }

    fn first_lap_marks(&self, marks: &str) -> String {
        format!(
            "  On an empty board, the clockwise walk starting north marks in its first lap: \
             {marks}.\n"
        )
    }

    fn stops_at_home(&self) -> &'static str {
        "  That is the piece's own square, which is occupied (by the piece itself), so the walk \
         stops there.\n"
    }

    fn lap_comes_home(&self) -> &'static str {
        "A lap ends where it began, facing the same way, so the walk stops after it."
    }

    fn lap_slides(&self, moved: &str) -> String {
        format!(
            "A lap moves the walk {moved} and faces it the same way, so later laps repeat the \
             pattern further along that line: the piece slides until it is blocked or leaves the \
             board."
        )
    }

    fn lap_turns(&self, moved: &str, degrees: usize) -> String {
        format!(
            "A lap moves the walk {moved} and turns it by {degrees}°, so later laps repeat the \
             pattern turned, until the walk comes back to a state it was in or leaves the board."
        )
    }

    fn all_walks_mark(&self, count: usize, marks: &str) -> String {
        format!(
            "  All eight walks together mark in their first laps: {count} square(s): {marks}.\n"
        )
    }

    fn directions(&self) -> [&'static str; 4] {
        ["right", "left", "up", "down"]
    }

    fn own_square(&self) -> &'static str {
        "its own square"
    }

    fn outcomes_heading(&self) -> &'static str {
        "  What a move does:\n"
    }

    fn case(&self, case: Case) -> &'static str {
        match case {
            Case::Own => "onto one of its own side's pieces",
            Case::Opponent => "onto an enemy piece",
            Case::Empty => "onto an empty square",
        }
    }

    fn not_allowed(&self) -> &'static str {
        "not allowed"
    }

    fn allowed(&self, kind: MoveKind, from: &str, to: &str) -> String {
        let summary = match kind {
            MoveKind::Capture => "allowed, it captures the piece there: ",
            MoveKind::Ordinary => "allowed, an ordinary move: ",
            MoveKind::Other => "allowed: ",
        };
        format!("{summary}leaves {from} on the from square and {to} on the to square")
    }

    fn content(&self, content: Content, occupied: bool) -> &'static str {
        match (content, occupied) {
            (Content::Mover, _) => "a copy of the moving piece",
            (Content::Target, true) => "a copy of the piece that stood there",
            (Content::Target, false) => "nothing (a copy of the empty target is nothing)",
            (Content::Nothing, _) => "nothing",
        }
    }

    fn owners(&self, from: &str, note: &str, to: &str) -> String {
        format!(
            "  Who owns what the move leaves: on the from square {from}{note}; on the to square \
             {to}.\n"
        )
    }

    fn nothing_left_note(&self, owner: Owner) -> &'static str {
        match owner {
            Owner::Opponent => " (nothing is ever left there, so this never matters)",
            Owner::Mover(_) => " (nothing is ever left there, so only the debuff matters)",
        }
    }

    fn owner(&self, owner: Owner) -> String {
        match owner {
            Owner::Opponent => "the opponent of the mover (HSH)".to_owned(),
            Owner::Mover(debuff) => format!(
                "the mover ({debuff}, which also adds the debuff \"{}\")",
                debuff.name()
            ),
        }
    }

    fn no_debuffs(&self) -> &'static str {
        "Debuffs: none.\n"
    }

    fn debuffs_heading(&self) -> &'static str {
        "Debuffs (each applies to every block):\n"
    }

    fn debuff_name(&self, debuff: Debuff) -> &'static str {
        debuff.name()
    }

    fn debuff_effect(&self, debuff: Debuff) -> &'static str {
        match debuff {
            Debuff::ForwardOnly => {
                "keeps only destinations strictly ahead (up the board for White, down for Black)"
            }
            Debuff::OneLap => "every walk stops after one pass through the block's steps",
            Debuff::NoWrap => {
                "the left and right edges of the board are not joined for this piece (no \
                 wrap-around)"
            }
            Debuff::SameShade => "keeps only destinations of the same shade as the from square",
            Debuff::OtherShade => "keeps only destinations of the other shade than the from square",
            Debuff::AdjacentOnly => {
                "keeps only destinations next to the from square (at most 1 file and 1 rank away, \
                 without wrap-around)"
            }
            Debuff::Freeze => {
                "moving this piece freezes the game: the mover's clock loses 5 s, the opponent's \
                 gains 5 s, and for 5 s no move or promotion is accepted"
            }
            Debuff::Mutation => {
                "moving this piece first mutates its genome: one random letter of its DNA changes, \
                 if that still gives a valid genome (up to 20 tries)"
            }
            Debuff::Deviation => {
                "the destination drifts to a random neighbouring square (or stays), if that is on \
                 the board; the move keeps the outcome of the square it aimed at"
            }
        }
    }

    fn in_plain_words(&self, debuff: Debuff) -> &'static str {
        debuff.in_plain_words()
    }
}
