//! The search's view of a position: a board copied and made, with its turn counter, over a
//! genome table that also holds the genomes a pawn may be promoted to.

use crate::bot::Ply;
use crate::values::Values;
use gmo_engine::{
    Board, Color, Effect, GameResult, GenomeId, GenomeTable, PROMOTION_GENOMES, Piece, Position,
    Square, for_each_move_on, king_rule,
};
use gmo_genome::{Genome, standard};

/// One ply as the search makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    Move {
        from: Square,
        to: Square,
        effect: Effect,
    },
    /// Promote the due pawn on `at` to promotion genome number `slot`.
    Promote { at: Square, slot: u8 },
}

impl Step {
    /// A compact name for the transposition table and killer slots (never 0).
    pub(crate) fn code(self) -> u16 {
        match self {
            Step::Move { from, to, .. } => {
                (1 << 13) | ((from.index() as u16) << 6) | to.index() as u16
            }
            Step::Promote { at, slot } => (2 << 13) | (u16::from(slot) << 6) | at.index() as u16,
        }
    }
}

/// A board and its turn counter. Copy-made: a child is a modified copy.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub board: Board,
    pub moves_played: u32,
}

/// A child node, with the king rule's verdict if the ply ended the game.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Child {
    pub node: Node,
    pub ended: Option<GameResult>,
}

impl Node {
    /// The side to move (rules §5.3): the owner of the due pawn, else by the turn counter.
    #[inline]
    pub(crate) fn side(&self) -> Color {
        match self.due().and_then(|at| self.board.piece_at(at)) {
            Some(pawn) => pawn.color,
            None if self.moves_played % 2 == 0 => Color::White,
            None => Color::Black,
        }
    }

    #[inline]
    pub(crate) fn due(&self) -> Option<Square> {
        self.board.due_promotion()
    }

    /// Every ply of the side to move, into `out` (cleared first).
    pub(crate) fn steps(&self, ctx: &Context, out: &mut Vec<Step>) {
        out.clear();
        if let Some(at) = self.due() {
            out.extend((0..ctx.promotions.len() as u8).map(|slot| Step::Promote { at, slot }));
            return;
        }
        for_each_move_on(ctx.table(), &self.board, self.side(), |from, to, effect| {
            out.push(Step::Move { from, to, effect });
        });
    }

    /// The node after `step`, which must be one of [`Node::steps`].
    #[inline]
    pub(crate) fn child(&self, ctx: &Context, step: Step) -> Child {
        let mut node = *self;
        match step {
            Step::Promote { at, slot } => {
                if let (Some(pawn), Some(&(genome, _))) = (
                    self.board.piece_at(at),
                    ctx.promotions.get(usize::from(slot)),
                ) {
                    let piece = Piece {
                        genome,
                        pawn: false,
                        ..pawn
                    };
                    node.board.put(at, piece);
                }
                Child { node, ended: None }
            }
            Step::Move { from, to, effect } => {
                let Some(mover) = self.board.piece_at(from) else {
                    return Child { node, ended: None };
                };
                let before = Color::BOTH.map(|c| self.board.king_count(c));
                node.board.apply(from, to, effect, mover);
                node.moves_played += 1;
                let after = Color::BOTH.map(|c| node.board.king_count(c));
                let ended = king_rule(before, after).map(|(result, _)| result);
                Child { node, ended }
            }
        }
    }
}

/// What every node of one search shares: a clone of the position (its genome table, with the
/// promotion genomes added) and the piece values.
#[derive(Debug, Clone)]
pub(crate) struct Context {
    position: Position,
    pub promotions: Vec<(GenomeId, Genome)>,
    pub values: Values,
}

impl Context {
    pub(crate) fn new(position: &Position) -> Context {
        let mut position = position.clone();
        let promotions = PROMOTION_GENOMES
            .iter()
            .filter_map(|name| standard::by_name(name))
            .filter_map(|genome| Some((position.intern(&genome).ok()?, genome)))
            .collect();
        let values = Values::new(position.genomes());
        Context {
            position,
            promotions,
            values,
        }
    }

    pub(crate) fn table(&self) -> &GenomeTable {
        self.position.genomes()
    }

    /// The root node, or `None` once the game is over by the king rule.
    pub(crate) fn root(&self) -> Option<Node> {
        if self.position.ended().is_some() {
            return None;
        }
        Some(Node {
            board: *self.position.board(),
            moves_played: self.position.moves_played(),
        })
    }

    /// The ply a caller plays for `step`.
    pub(crate) fn ply(&self, step: Step) -> Option<Ply> {
        match step {
            Step::Move { from, to, .. } => Some(Ply::Move { from, to }),
            Step::Promote { at, slot } => {
                let (_, genome) = self.promotions.get(usize::from(slot))?;
                Some(Ply::Promotion {
                    at,
                    genome: genome.clone(),
                })
            }
        }
    }
}
