//! Pictures of GMO chess pieces. [`render`] draws a genome's piece alone in the middle of an empty
//! board as a standalone SVG document: every destination of its legal moves marked (moves onto an
//! empty square, moves that need an enemy piece there, a move onto its own square; a diamond
//! instead of a dot where the move leaves copies or changes owners), the side edges dashed where the piece
//! wraps around them, and a legend of what its moves leave behind and of its debuffs, in the words
//! of `Genome::explain`. Every text is in the options' [`Language`] (English by default, Slovak);
//! the words are apart from the drawing (`words/`), one table per language. Pure: no I/O; the
//! same input gives the same bytes.
//!
//! The destinations come from the engine itself ([`Diagram::new`]): the piece is placed on an
//! otherwise empty board and its moves listed, then once more with a blank piece of the other side
//! (and of its own side) on each other square, so that moves which need a target show too.

mod language;
mod legend;
mod marks;
mod svg;
mod words;

#[cfg(test)]
mod language_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use language::Language;
pub use legend::{Key, Line, legend, mark_words};
pub use marks::{Diagram, Mark, MarkKind, home, is_special};

use gmo_engine::{BadSize, BoardSize, Color};
use gmo_genome::Genome;
use std::fmt;

/// What to draw: the board's size, whose piece it is (and so from which side the board is seen),
/// an optional label (a name) shown instead of the code, and the language of the picture's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub width: u8,
    pub height: u8,
    pub color: Color,
    pub label: Option<String>,
    pub language: Language,
}

impl Options {
    /// The default board: 7×7, so that the piece has a middle square.
    pub const DEFAULT_SIZE: u8 = 7;
    /// The longest label, in characters.
    pub const MAX_LABEL: usize = 64;

    /// Checks the board size (the engine's: 4 to 8 each way) and the label.
    pub fn size(&self) -> Result<BoardSize, DiagramError> {
        if let Some(label) = &self.label {
            check_label(label)?;
        }
        BoardSize::new(self.width, self.height).map_err(DiagramError::Size)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            width: Self::DEFAULT_SIZE,
            height: Self::DEFAULT_SIZE,
            color: Color::White,
            label: None,
            language: Language::En,
        }
    }
}

fn check_label(label: &str) -> Result<(), DiagramError> {
    let count = label.chars().count();
    if count == 0 || count > Options::MAX_LABEL {
        return Err(DiagramError::Label(format!(
            "the label must be 1 to {} characters long, not {count}",
            Options::MAX_LABEL
        )));
    }
    if let Some(c) = label.chars().find(|c| c.is_control()) {
        return Err(DiagramError::Label(format!(
            "the label may not contain control characters (found U+{:04X})",
            u32::from(c)
        )));
    }
    Ok(())
}

/// Why no picture was drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiagramError {
    /// The board size is not one the engine plays on.
    Size(BadSize),
    /// The label is empty, too long or holds control characters.
    Label(String),
    /// The engine refused to set the piece up (it never should on an empty board).
    Engine(String),
}

impl DiagramError {
    /// The request field the error is about, for an API's error body.
    pub const fn field(&self) -> &'static str {
        match self {
            DiagramError::Size(_) => "width, height",
            DiagramError::Label(_) => "label",
            DiagramError::Engine(_) => "genome",
        }
    }
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramError::Size(bad) => write!(f, "cannot draw the diagram: {bad}"),
            DiagramError::Label(why) => write!(f, "cannot draw the diagram: {why}"),
            DiagramError::Engine(why) => write!(f, "cannot draw the diagram: {why}"),
        }
    }
}

impl std::error::Error for DiagramError {}

/// The piece of `genome` in the middle of an empty board, as a standalone SVG document.
pub fn render(genome: &Genome, options: &Options) -> Result<String, DiagramError> {
    let diagram = Diagram::new(genome, options)?;
    Ok(svg::draw(
        &diagram,
        options.label.as_deref(),
        options.language,
    ))
}
