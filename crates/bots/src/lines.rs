//! The engine's best lines from a position (the lab's engine panel, docs/analysis.md).
//!
//! The search has no multi-PV, so the lines are found one after another by excluding the first
//! plies already found: line `k` is the search of the root without the first plies of lines
//! `1..k`, each with the same node budget. So the first line is the same whatever the number
//! asked for, and everything is a pure function of the position, the number and the budget.
//! A line's moves are read from the transposition table after its search (its best reply, then
//! that position's best reply, …), at most as many plies as the search went deep.

use crate::analysis::Eval;
use crate::bot::Budget;
use crate::node::{Context, Node, Step};
use crate::search::SearchBot;
use crate::tt::Table;
use crate::zobrist::{board_key, node_key};
use gmo_engine::{Color, Position, Square};
use serde::Serialize;

/// The most lines asked for at once.
pub const MAX_LINES: usize = 5;
/// The most plies shown of one line.
pub const MAX_LINE_PLIES: usize = 12;

/// A ply of a line: a move, or (with `promotion`, `from == to`) the promotion of the pawn there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineMove {
    pub from: Square,
    pub to: Square,
    /// The promoted pawn's new genome (its code), for a promotion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promotion: Option<String>,
}

/// One line: the evaluation its search found and its plies, the first being the line's choice.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    /// From White's side, as the game analysis gives it.
    pub eval: Eval,
    pub moves: Vec<LineMove>,
    /// The depth the search finished.
    pub depth: u32,
}

/// Why a position has no line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoLines {
    /// A side has no king: the engine plays for kings (rules §5.2: each side marks one).
    NoKing,
    /// The side to move has no ply.
    NoMoves,
}

/// The lines found, best first for the side to move.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lines {
    pub lines: Vec<Line>,
    /// Search nodes spent on all of them.
    pub nodes: u64,
    pub side_to_move: Color,
    /// Why there is no line, when there is none.
    pub reason: Option<NoLines>,
}

/// Up to `count` (1 to [`MAX_LINES`]) best lines from `position` for the side to move, each
/// searched with `nodes` nodes; fewer when the side has fewer plies.
pub fn lines(position: &Position, count: usize, nodes: u64) -> Lines {
    let mut position = position.clone();
    // A lab's position never ends; a position the king rule ended is searched as it stands.
    position.clear_ended();
    let side_to_move = position.side_to_move();
    let none = |reason| Lines {
        lines: Vec::new(),
        nodes: 0,
        side_to_move,
        reason: Some(reason),
    };
    if Color::BOTH
        .map(|c| position.board().king_count(c))
        .contains(&0)
    {
        return none(NoLines::NoKing);
    }
    let ctx = Context::new(&position);
    let Some(root) = ctx.root() else {
        return none(NoLines::NoMoves);
    };
    let mut found = Vec::new();
    let mut spent = 0;
    let mut bot = SearchBot::new();
    let mut excluded = Vec::new();
    for _ in 0..count.clamp(1, MAX_LINES) {
        let Some((step, report)) = bot.search_root(&ctx, Budget::Nodes(nodes), &excluded) else {
            break;
        };
        spent += report.nodes;
        excluded.push(step.code());
        let plies = (report.depth as usize).clamp(1, MAX_LINE_PLIES);
        let moves = principal(&ctx, root, step, bot.table(), plies);
        found.push((
            report.score,
            Line {
                eval: Eval::of_score(report.score, side_to_move),
                moves,
                depth: report.depth,
            },
        ));
    }
    if found.is_empty() {
        return none(NoLines::NoMoves);
    }
    // Stable: lines of equal score keep the order they were found in.
    found.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    Lines {
        lines: found.into_iter().map(|(_, line)| line).collect(),
        nodes: spent,
        side_to_move,
        reason: None,
    }
}

/// `first`, then the table's best ply of each position after it, up to `plies` plies, a ply
/// that ends the game or a position the table does not hold.
fn principal(
    ctx: &Context,
    root: Node,
    first: Step,
    table: Option<&Table>,
    plies: usize,
) -> Vec<LineMove> {
    let mut moves = Vec::new();
    let (mut node, mut step) = (root, first);
    let mut steps = Vec::new();
    loop {
        moves.push(line_move(ctx, step));
        let child = node.child(ctx, step);
        if child.ended.is_some() || moves.len() >= plies {
            return moves;
        }
        node = child.node;
        let key = node_key(board_key(&node.board), &node);
        let Some(best) = table.and_then(|t| t.probe(key)).map(|entry| entry.best) else {
            return moves;
        };
        node.steps(ctx, &mut steps);
        match steps.iter().find(|s| s.code() == best) {
            Some(&next) => step = next,
            None => return moves,
        }
    }
}

fn line_move(ctx: &Context, step: Step) -> LineMove {
    match step {
        Step::Move { from, to, .. } => LineMove {
            from,
            to,
            promotion: None,
        },
        Step::Promote { at, slot } => LineMove {
            from: at,
            to: at,
            promotion: ctx
                .promotions
                .get(usize::from(slot))
                .map(|(_, genome)| genome.code().to_string()),
        },
    }
}
