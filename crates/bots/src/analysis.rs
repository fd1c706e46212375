//! Analysis of a finished game (docs/analysis.md): every position of its record searched at a
//! fixed node budget, each ply judged by the drop in the mover's winning chances as lichess
//! judges them, and each side's accuracy.
//!
//! Everything here is a pure function of the record and the budget: each position is searched
//! by a fresh [`SearchBot`] (no table carried over), so a position's answer does not depend on
//! which process searched it or which positions it searched before, and an analysis can resume
//! at any position.

use crate::bot::{Budget, Ply};
use crate::search::{MATE, MATE_BOUND, SearchBot};
use gmo_engine::{Color, Drawn, Event, GameRecord, GameResult, Position, Square};
use gmo_genome::Genome;
use serde::{Deserialize, Serialize};

/// Search nodes per position: enough for a few plies of depth on an 8×8 board in GMO chess.
pub const NODES: u64 = 20_000;
/// The most plies of a game analysed; a longer record is refused rather than cut (every game
/// the service can finish is shorter: a 400-ply game is analysed whole).
pub const MAX_PLIES: usize = 1_000;
/// What the search's units are worth in centipawns: its standard pawn on an empty 8×8 board is
/// worth this many units (values.rs: 30 + 15 × average destinations); a pawn is 100 cp.
pub const PAWN_UNITS: i32 = 42;
/// Centipawns beyond this count as this (lichess's ceiling for winning chances).
const CP_CEILING: i32 = 1_000;

/// A position's evaluation from White's side: centipawns, or moves to mate (negative when Black
/// mates); a position the game ended in names the winner (`mate: 0`) or is `cp: 0` when drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Eval {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Color>,
}

impl Eval {
    pub fn cp(cp: i32) -> Eval {
        Eval {
            cp: Some(cp),
            mate: None,
            winner: None,
        }
    }

    /// The search's `score` for the side to move `side` as seen from White.
    pub fn of_score(score: i32, side: Color) -> Eval {
        let white = if side == Color::White { score } else { -score };
        if white.abs() >= MATE_BOUND {
            let plies = MATE - white.abs();
            let moves = (plies + 1) / 2;
            return Eval {
                cp: None,
                mate: Some(if white > 0 {
                    moves.max(1)
                } else {
                    -moves.max(1)
                }),
                winner: None,
            };
        }
        Eval::cp(white * 100 / PAWN_UNITS)
    }

    /// Centipawns for White, mates and wins at the ceiling.
    fn ceiled_cp(self) -> i32 {
        let sign = |white: bool| if white { CP_CEILING } else { -CP_CEILING };
        match (self.cp, self.mate, self.winner) {
            (Some(cp), _, _) => cp.clamp(-CP_CEILING, CP_CEILING),
            (_, Some(mate), _) if mate != 0 => sign(mate > 0),
            (_, _, Some(winner)) => sign(winner == Color::White),
            _ => 0,
        }
    }

    /// White's winning chances, -1 to 1 (lichess: 2 / (1 + e^(-0.00368208 cp)) − 1).
    pub fn winning_chances(self) -> f64 {
        let cp = f64::from(self.ceiled_cp());
        2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0
    }
}

/// How bad a ply was, by the drop in the mover's winning chances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// lichess's thresholds on the drop of winning chances (-1 to 1) for the mover.
    pub fn of_drop(drop: f64) -> Option<Judgement> {
        if drop >= 0.3 {
            Some(Judgement::Blunder)
        } else if drop >= 0.2 {
            Some(Judgement::Mistake)
        } else if drop >= 0.1 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// A move of the board, from one square to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub from: Square,
    pub to: Square,
}

/// What the search said about one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Searched {
    /// `None` when the search found no ply to score (none is left, yet the game is not over):
    /// the position takes the next position's evaluation.
    pub eval: Option<Eval>,
    /// The search's move (the only one, where there is one); `None` for a promotion or a
    /// finished game.
    pub best: Option<Step>,
}

/// One ply of a game as played.
#[derive(Debug, Clone)]
pub struct Played {
    pub mover: Color,
    /// The move requested; `None` for a promotion.
    pub step: Option<Step>,
}

/// A record replayed: every position (the start, then after each ply) and each ply.
#[derive(Debug, Clone)]
pub struct Replayed {
    pub positions: Vec<Position>,
    pub plies: Vec<Played>,
}

/// Replays `record`'s moves and promotions over its start position, as the game made them.
pub fn replay(record: &GameRecord) -> Result<Replayed, String> {
    let mut position = record.setup.to_position().map_err(|e| e.to_string())?;
    let mut replayed = Replayed {
        positions: vec![position.clone()],
        plies: Vec::new(),
    };
    for (index, event) in record.events.iter().enumerate() {
        let mover = position.side_to_move();
        let fail = |why: String| format!("ply event {index} does not replay: {why}");
        let step = match event {
            Event::Move {
                from,
                to,
                landed,
                mutated_to,
                ..
            } => {
                let mutation = mutated_to.as_deref().map(Genome::parse).transpose();
                let drawn = Drawn {
                    landed: *landed,
                    mutation: mutation.map_err(|e| fail(e.to_string()))?,
                };
                position
                    .replay_move(*from, *to, &drawn)
                    .map_err(|e| fail(format!("{e:?}")))?;
                Some(Step {
                    from: *from,
                    to: *to,
                })
            }
            Event::Promotion { genome, .. } => {
                let genome = Genome::parse(genome).map_err(|e| fail(e.to_string()))?;
                position
                    .promote(&genome)
                    .map_err(|e| fail(format!("{e:?}")))?;
                None
            }
            _ => continue,
        };
        if replayed.plies.len() >= MAX_PLIES {
            return Err(format!("the game has more than {MAX_PLIES} plies"));
        }
        replayed.plies.push(Played { mover, step });
        replayed.positions.push(position.clone());
    }
    Ok(replayed)
}

/// Searches one position with `nodes` nodes (a fresh search: the answer depends on nothing
/// else).
pub fn search(position: &Position, nodes: u64) -> Searched {
    if let Some((result, _)) = position.ended() {
        let winner = match result {
            GameResult::WhiteWon => Some(Color::White),
            GameResult::BlackWon => Some(Color::Black),
            GameResult::Draw => None,
        };
        let eval = match winner {
            Some(_) => Eval {
                cp: None,
                mate: Some(0),
                winner,
            },
            None => Eval::cp(0),
        };
        return Searched {
            eval: Some(eval),
            best: None,
        };
    }
    let mut bot = SearchBot::new();
    // A position with a single ply is searched too: the last position of a game lost on time or
    // resigned may be one, and its eval judges the ply before it.
    let Some((ply, score)) = bot.analyse_scored(position, Budget::Nodes(nodes)) else {
        return Searched {
            eval: None,
            best: None,
        };
    };
    let best = match ply {
        Ply::Move { from, to } => Some(Step { from, to }),
        Ply::Promotion { .. } => None,
    };
    Searched {
        eval: Some(Eval::of_score(score, position.side_to_move())),
        best,
    }
}

/// One ply's analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// 1 for the first ply.
    pub ply: usize,
    /// The position after this ply, from White's side.
    pub eval: Eval,
    /// The search's move in the position before, where it differs from the move played.
    pub best: Option<Step>,
    pub judgement: Option<Judgement>,
}

/// Each side's accuracy, 0 to 100 (`None` for a side without a ply).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Accuracy {
    pub white: Option<f64>,
    pub black: Option<f64>,
}

/// lichess's accuracy of one move from the mover's win percent (0 to 100) before and after.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    let raw = 103.1668 * (-0.04354 * (before - after)).exp() - 3.1669;
    raw.clamp(0.0, 100.0)
}

/// Judges the plies whose positions before and after are searched: `searched[k]` is position
/// `k` (0 the start). Unscored positions take the next scored evaluation.
pub fn judge(plies: &[Played], searched: &[Searched]) -> (Vec<PlyAnalysis>, Accuracy) {
    let evals = resolve(searched);
    let mut out = Vec::new();
    let mut accuracies: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (index, played) in plies.iter().enumerate() {
        let (Some(Some(before)), Some(Some(after))) = (evals.get(index), evals.get(index + 1))
        else {
            break;
        };
        let sign = if played.mover == Color::White {
            1.0
        } else {
            -1.0
        };
        let [chances_before, chances_after] = [before, after].map(|e| sign * e.winning_chances());
        let best = searched[index].best.filter(|b| played.step != Some(*b));
        let percent = |chances: f64| 50.0 + 50.0 * chances;
        accuracies[played.mover.index()].push(move_accuracy(
            percent(chances_before),
            percent(chances_after),
        ));
        out.push(PlyAnalysis {
            ply: index + 1,
            eval: *after,
            best,
            judgement: Judgement::of_drop(chances_before - chances_after),
        });
    }
    let mean = |values: &Vec<f64>| {
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    };
    let accuracy = Accuracy {
        white: mean(&accuracies[Color::White.index()]),
        black: mean(&accuracies[Color::Black.index()]),
    };
    (out, accuracy)
}

/// Each position's evaluation, an unscored position's taken from the next scored one (`None`
/// while that is not searched yet).
fn resolve(searched: &[Searched]) -> Vec<Option<Eval>> {
    let mut evals = vec![None; searched.len()];
    let mut next = None;
    for (k, s) in searched.iter().enumerate().rev() {
        if s.eval.is_some() {
            next = s.eval;
        }
        evals[k] = next;
    }
    evals
}
