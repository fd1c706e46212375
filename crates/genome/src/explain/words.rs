//! The wording of an explanation, apart from the walking of the genome (`super`): one method per
//! shape of text, implemented once per language (`en.rs`, `sk.rs`). A method whose text is a
//! whole line says so and ends it with `\n`; every other one gives a piece of a line.

use super::{en::English, sk::Slovak};
use crate::{Content, Debuff, Language, Owner, StepKind};

/// Where a move goes, for the outcome lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    Own,
    Opponent,
    Empty,
}

/// What an allowed move amounts to, for the words that open its outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveKind {
    /// It leaves nothing behind and itself on an occupied square.
    Capture,
    /// It leaves nothing behind and itself on an empty square.
    Ordinary,
    /// Anything else (copies left behind, the target copied, …).
    Other,
}

/// The phrases of one language.
pub trait Words: Sync {
    /// The whole explanation of the empty genome (a line).
    fn empty_genome(&self) -> &'static str;
    /// "Block 1 of 2:" (a line).
    fn block_heading(&self, number: usize, count: usize) -> String;
    /// After the blocks, when there are several (a line and an empty one).
    fn earlier_block_wins(&self) -> &'static str;
    /// Above the numbered steps (a line).
    fn steps_heading(&self) -> &'static str;
    /// What a step of this kind and length does.
    fn step(&self, kind: StepKind, length: u8) -> String;
    /// How the walks go, ending with when they stop (a line).
    fn walk(&self, one_lap: bool) -> String;
    /// The clockwise walk north marks nothing (a line).
    fn marks_nothing(&self) -> &'static str;
    /// The clockwise walk north marks `marks`, already listed (a line).
    fn first_lap_marks(&self, marks: &str) -> String;
    /// Its last mark was the piece's own square, where it stops (a line).
    fn stops_at_home(&self) -> &'static str;
    /// A lap ends where it began, facing the same way.
    fn lap_comes_home(&self) -> &'static str;
    /// A lap moves the walk by `moved` and faces it the same way: the piece slides.
    fn lap_slides(&self, moved: &str) -> String;
    /// A lap moves the walk by `moved` and turns it by `degrees`.
    fn lap_turns(&self, moved: &str, degrees: usize) -> String;
    /// All eight walks together mark `count` squares, `marks` listed (a line).
    fn all_walks_mark(&self, count: usize, marks: &str) -> String;
    /// An offset's parts: right, left, up, down, each after its number of squares.
    fn directions(&self) -> [&'static str; 4];
    /// The offset (0, 0).
    fn own_square(&self) -> &'static str;
    /// Above the outcome lines (a line).
    fn outcomes_heading(&self) -> &'static str;
    /// Onto what the move goes.
    fn case(&self, case: Case) -> &'static str;
    /// A move onto such a square is not allowed.
    fn not_allowed(&self) -> &'static str;
    /// An allowed move, what it amounts to, and what it leaves on the from and the to square
    /// (each in the words of [`Words::content`]).
    fn allowed(&self, kind: MoveKind, from: &str, to: &str) -> String;
    /// What a move leaves when it leaves this; `occupied`: the target square holds a piece.
    fn content(&self, content: Content, occupied: bool) -> &'static str;
    /// Who owns what is left on the from square (`note` after it) and on the to square (a line).
    fn owners(&self, from: &str, note: &str, to: &str) -> String;
    /// Said after the from square's owner when a block never leaves anything there.
    fn nothing_left_note(&self, owner: Owner) -> &'static str;
    /// The owner an owner codon names, with the codon.
    fn owner(&self, owner: Owner) -> String;
    /// The genome has no debuffs (a line).
    fn no_debuffs(&self) -> &'static str;
    /// Above the debuff lines (a line).
    fn debuffs_heading(&self) -> &'static str;
    /// The short name the rules give a debuff.
    fn debuff_name(&self, debuff: Debuff) -> &'static str;
    /// What a debuff does, exactly.
    fn debuff_effect(&self, debuff: Debuff) -> &'static str;
    /// What a debuff means for a player, in one plain sentence (a trait).
    fn in_plain_words(&self, debuff: Debuff) -> &'static str;
}

/// The phrases of `language`.
pub fn words(language: Language) -> &'static dyn Words {
    match language {
        Language::En => &English,
        Language::Sk => &Slovak,
    }
}
