//! What a diagram shows, asked of the engine: the piece alone on an empty board, then with one
//! blank piece of either side on each other square in turn, so that moves that need a target
//! (onto an enemy piece only) and moves onto its own side's pieces are found too.

use crate::{DiagramError, Options};
use gmo_engine::{BoardSize, Color, Effect, Piece, Position, Square};
use gmo_genome::{Debuff, Genome};

/// How a marked square is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarkKind {
    /// A move onto the empty square (an enemy piece there may be taken too, see `on_enemy`).
    Move,
    /// Only onto an enemy piece standing there: the move needs a target.
    NeedsTarget,
    /// Onto the piece's own square (a marking step of length 0).
    Home,
}

/// One square of the board as the piece's moves see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    pub square: Square,
    pub kind: MarkKind,
    /// What a move there does when the square is empty (for `Home`: onto itself).
    pub on_empty: Option<Effect>,
    /// … when an enemy piece stands there.
    pub on_enemy: Option<Effect>,
    /// … when one of its own side's pieces stands there.
    pub on_own: Option<Effect>,
}

impl Mark {
    /// The effect the mark is drawn for: the empty square's, else the enemy piece's.
    pub fn effect(&self) -> Option<Effect> {
        self.on_empty.or(self.on_enemy)
    }

    /// Whether the drawn move is special: it leaves a copy on the from square, changes an owner,
    /// or leaves on the to square something else than the mover (a copy of the target, nothing).
    pub fn is_special(&self) -> bool {
        self.effect().is_some_and(is_special)
    }
}

/// Whether a move's effect differs from an ordinary chess move's (the mover goes, kept by its
/// side, and leaves nothing behind).
pub fn is_special(effect: Effect) -> bool {
    use gmo_engine::{Content, Party};
    effect.from.what != Content::Nothing
        || effect.to.what != Content::Mover
        || effect.to.owner != Party::Mover
}

/// Everything a diagram shows, in square order.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagram {
    pub genome: Genome,
    pub size: BoardSize,
    pub color: Color,
    /// Where the piece stands: the middle, the same screen square for either side.
    pub from: Square,
    /// Marked squares: every destination on the empty board or onto an enemy piece.
    pub marks: Vec<Mark>,
    /// Squares it may move to only onto one of its own side's pieces (not marked, told in the
    /// legend).
    pub own_only: Vec<Mark>,
    /// The left and right edges are joined for this piece (it has no `HAA`).
    pub wraps: bool,
    pub debuffs: Vec<Debuff>,
}

/// Where the piece stands: the middle file and rank, rounded so that the piece appears on the
/// same screen square from either side.
pub fn home(size: BoardSize, color: Color) -> Option<Square> {
    let (w, h) = (size.width(), size.height());
    match color {
        Color::White => size.square((w - 1) / 2, (h - 1) / 2),
        Color::Black => size.square(w / 2, h / 2),
    }
}

impl Diagram {
    /// Asks the engine where the piece of `genome` may move from the middle of the board.
    pub fn new(genome: &Genome, options: &Options) -> Result<Diagram, DiagramError> {
        let size = options.size()?;
        let color = options.color;
        let from = home(size, color)
            .ok_or_else(|| DiagramError::Engine("the board has no middle square".into()))?;
        let mut position = Position::new(size);
        let me = position
            .intern(genome)
            .map_err(|e| DiagramError::Engine(e.to_string()))?;
        let blank = position
            .intern(&Genome::default())
            .map_err(|e| DiagramError::Engine(e.to_string()))?;
        position
            .put(from, Piece::new(me, color))
            .map_err(|e| DiagramError::Engine(e.to_string()))?;
        let empty = position.moves_from(from);
        let mut probe = |square: Square, side: Color| -> Option<Effect> {
            position.put(square, Piece::new(blank, side)).ok()?;
            let found = position
                .moves_from(from)
                .into_iter()
                .find(|m| m.to == square);
            position.remove(square);
            found.map(|m| m.effect)
        };
        let mut marks = Vec::new();
        let mut own_only = Vec::new();
        for square in size.squares() {
            let on_empty = empty.iter().find(|m| m.to == square).map(|m| m.effect);
            let (on_enemy, on_own) = if square == from {
                (None, None)
            } else {
                (probe(square, color.opponent()), probe(square, color))
            };
            let kind = match (square == from, on_empty, on_enemy) {
                (true, Some(_), _) => MarkKind::Home,
                (false, Some(_), _) => MarkKind::Move,
                (false, None, Some(_)) => MarkKind::NeedsTarget,
                _ => MarkKind::Move,
            };
            let mark = Mark {
                square,
                kind,
                on_empty,
                on_enemy,
                on_own,
            };
            if on_empty.is_some() || on_enemy.is_some() {
                marks.push(mark);
            } else if on_own.is_some() {
                own_only.push(mark);
            }
        }
        Ok(Diagram {
            genome: genome.clone(),
            size,
            color,
            from,
            marks,
            own_only,
            wraps: !genome.has(Debuff::NoWrap),
            debuffs: genome.debuffs().iter().collect(),
        })
    }
}
