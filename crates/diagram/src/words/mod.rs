//! The wording of a picture, apart from its drawing (`svg.rs`) and the choice of what to say
//! (`legend.rs`): one method per phrase, implemented once per language (`en.rs`, `sk.rs`). A
//! method that gives a whole sentence ends it with its full stop.

mod en;
mod sk;

use crate::Language;
use crate::marks::MarkKind;
use gmo_engine::{Color, Content, Party, Square};
use gmo_genome::Debuff;

/// What stands on a destination, for the legend's lines of what moves leave behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    Empty,
    Enemy,
    /// One of its own side's pieces.
    Own,
    /// The piece itself: a move onto its own square.
    Home,
}

/// The phrases of one language.
pub trait Words: Sync {
    /// The heading: "{name}: a white piece on a 7×7 board".
    fn title(&self, name: &str, color: Color, width: u8, height: u8) -> String;
    /// The description's first sentence: where the piece stands.
    fn stands_on(&self, square: Square) -> String;
    /// The description's second sentence when no square is marked.
    fn no_marks(&self) -> &'static str;
    /// The description's second sentence: `count` marked squares, `squares` listed.
    fn marked(&self, count: usize, squares: &str) -> String;
    /// Above the legend.
    fn legend_heading(&self) -> &'static str;
    /// The legend's line when nothing is marked.
    fn no_moves(&self) -> &'static str;
    /// What a kind of mark means (also each mark's tooltip).
    fn mark(&self, kind: MarkKind, special: bool) -> &'static str;
    /// The side edges, joined (dashed) or closed (solid).
    fn edges(&self, wraps: bool) -> &'static str;
    /// A debuff's line: its name, codon and what it does.
    fn debuff(&self, debuff: Debuff) -> String;
    /// Onto what a move goes, starting with [`Words::preposition`].
    fn case(&self, case: Case) -> &'static str;
    /// The word a case starts with, left out after the first in a list of cases.
    fn preposition(&self) -> &'static str;
    /// Between the last two cases of a list.
    fn or(&self) -> &'static str;
    /// Instead of the squares when they are the previous line's.
    fn same_squares(&self) -> &'static str;
    /// An ordinary move onto an occupied square.
    fn captures(&self) -> &'static str;
    /// An ordinary move onto an empty square.
    fn ordinary(&self) -> &'static str;
    /// What a move leaves when it leaves this; `occupied`: the target square holds a piece.
    fn content(&self, content: Content, occupied: bool) -> &'static str;
    /// Something left behind (`what`, in the words of [`Words::content`]) and its owner.
    fn owned(&self, what: &str, owner: Party) -> String;
    /// What a special move leaves on its from and to squares.
    fn leaves(&self, from: &str, to: &str) -> String;
}

/// The phrases of `language`.
pub fn words(language: Language) -> &'static dyn Words {
    match language {
        Language::En => &en::English,
        Language::Sk => &sk::Slovak,
    }
}
