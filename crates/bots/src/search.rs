//! `search`: iterative-deepening alpha-beta (negamax, fail-soft) with a transposition table,
//! move ordering (table move, king captures, captures by victim value, killers, history) and a
//! capture-only quiescence search.
//!
//! Sides do not simply alternate in GMO chess: after a move the same side may have a promotion
//! due. So a child's score is negated only when the side to move changes.
//!
//! A side that just lost a king, or that is to move with no ply, is a terminal node: the score is
//! `±(MATE − ply)`, so that quicker wins and slower losses are preferred. Random debuffs are not
//! foreseen: every move is searched as landing where it was asked, without mutation.

use crate::bot::{Bot, Budget, Ply};
use crate::eval::assess;
use crate::node::{Context, Node, Step};
use crate::tt::{Bound, Entry, Table};
use crate::zobrist::{board_key, node_key, update};
use gmo_engine::{Color, GameResult, Position};
use std::time::{Duration, Instant};

/// The score of a won game at the root; a win `n` plies away scores `MATE − n`.
pub(crate) const MATE: i32 = 1_000_000;
const INF: i32 = 2 * MATE;
/// Scores beyond this are wins or losses found by the search.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest a search goes, quiescence included.
const MAX_PLY: usize = 96;
const QUIESCENCE_DEPTH: u32 = 6;
/// The transposition table's size: 2^20 entries.
const TT_BITS: u32 = 20;

/// The score of a finished game for `mover`, `ply` plies from the root.
pub(crate) fn terminal_score(result: GameResult, mover: Color, ply: usize) -> i32 {
    let win = MATE - ply as i32;
    match result {
        GameResult::Draw => 0,
        r if r == GameResult::loss_of(mover.opponent()) => win,
        _ => -win,
    }
}

/// What the last search found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// The last depth searched to the end.
    pub depth: u32,
    /// Its score for the side to move.
    pub score: i32,
    /// Nodes visited by the last call.
    pub nodes: u64,
}

/// The `search` bot. Its transposition table lives across calls (cleared when the genome table
/// changes), so a bot's plies depend on the plies it chose before: seat one bot per side.
#[derive(Debug)]
pub struct SearchBot {
    tt: Option<Table>,
    /// Fingerprint of the genome table the stored keys refer to.
    genomes: u64,
    total_nodes: u64,
    last: SearchReport,
}

impl Default for SearchBot {
    fn default() -> Self {
        SearchBot::new()
    }
}

impl SearchBot {
    pub fn new() -> SearchBot {
        SearchBot {
            tt: Some(Table::new(TT_BITS)),
            genomes: 0,
            total_nodes: 0,
            last: SearchReport::default(),
        }
    }

    /// A bot without a transposition table (for comparisons).
    pub fn without_table() -> SearchBot {
        SearchBot {
            tt: None,
            ..SearchBot::new()
        }
    }

    pub fn report(&self) -> SearchReport {
        self.last
    }

    /// Searches and returns the chosen ply with its score; a position with a single ply is not
    /// searched (its ply comes back at once, depth 0, without a score).
    pub fn analyse(&mut self, position: &Position, budget: Budget) -> Option<(Ply, i32)> {
        self.analyse_as(position, budget, Single::Play)
    }

    /// As [`SearchBot::analyse`], but a position with a single ply is searched and scored too
    /// (an analysis needs every position's evaluation, a player only a ply).
    pub fn analyse_scored(&mut self, position: &Position, budget: Budget) -> Option<(Ply, i32)> {
        self.analyse_as(position, budget, Single::Score)
    }

    fn analyse_as(
        &mut self,
        position: &Position,
        budget: Budget,
        single: Single,
    ) -> Option<(Ply, i32)> {
        let ctx = Context::new(position);
        let root = ctx.root()?;
        self.forget_if_new_genomes(&ctx);
        let limits = Limits::new(budget);
        let mut searcher = Searcher::new(&ctx, self.tt.as_mut(), limits);
        let found = searcher.deepen(root, single);
        self.total_nodes += searcher.nodes;
        let (step, report) = found?;
        self.last = report;
        Some((ctx.ply(step)?, report.score))
    }

    /// Searches `ctx`'s root without the plies in `excluded` (by [`Step::code`]), scoring even
    /// a single remaining ply (play returns a lone ply unsearched; a line needs its score). The
    /// table is kept, so [`SearchBot::table`] then holds the line the search found.
    pub(crate) fn search_root(
        &mut self,
        ctx: &Context,
        budget: Budget,
        excluded: &[u16],
    ) -> Option<(Step, SearchReport)> {
        let root = ctx.root()?;
        self.forget_if_new_genomes(ctx);
        let mut searcher = Searcher::new(ctx, self.tt.as_mut(), Limits::new(budget));
        searcher.excluded = excluded;
        let found = searcher.deepen(root, Single::Score);
        self.total_nodes += searcher.nodes;
        let (step, report) = found?;
        self.last = report;
        Some((step, report))
    }

    /// The transposition table, as the last search left it.
    pub(crate) fn table(&self) -> Option<&Table> {
        self.tt.as_ref()
    }

    /// Keys name genome ids, which mean other genomes in another game: start afresh then.
    fn forget_if_new_genomes(&mut self, ctx: &Context) {
        let fingerprint = ctx
            .table()
            .iter()
            .fold(ctx.table().len() as u64, |h, (_, g)| {
                g.dna()
                    .bytes()
                    .fold(h, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3))
            });
        if fingerprint != self.genomes {
            self.genomes = fingerprint;
            if let Some(tt) = &mut self.tt {
                tt.clear();
            }
        }
    }
}

impl Bot for SearchBot {
    fn name(&self) -> &str {
        "search"
    }

    fn choose(&mut self, position: &Position, budget: Budget) -> Option<Ply> {
        self.analyse(position, budget).map(|(ply, _)| ply)
    }

    fn nodes(&self) -> u64 {
        self.total_nodes
    }
}

/// When to stop.
#[derive(Debug, Clone, Copy)]
struct Limits {
    start: Instant,
    time: Option<Duration>,
    nodes: Option<u64>,
    depth: u32,
}

impl Limits {
    fn new(budget: Budget) -> Limits {
        let mut limits = Limits {
            start: Instant::now(),
            time: None,
            nodes: None,
            depth: (MAX_PLY as u32) / 2,
        };
        match budget {
            Budget::Time(time) => limits.time = Some(time),
            Budget::Nodes(nodes) => limits.nodes = Some(nodes),
            Budget::Depth(depth) => limits.depth = depth.clamp(1, limits.depth),
        }
        limits
    }

    fn out_of_time(&self) -> bool {
        self.time.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Whether another iteration is worth starting: each costs several times the last.
    fn worth_deepening(&self) -> bool {
        self.time.is_none_or(|t| self.start.elapsed() < t / 3)
    }
}

/// What a search does with a position that has a single ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Single {
    /// Plays it at once, unscored.
    Play,
    /// Searches it like any other, for its score.
    Score,
}

struct Searcher<'a> {
    ctx: &'a Context,
    tt: Option<&'a mut Table>,
    limits: Limits,
    nodes: u64,
    /// Limits apply once the first iteration is done, so that there is always a ply.
    limited: bool,
    stopped: bool,
    root_best: Option<Step>,
    killers: Vec<[u16; 2]>,
    /// By side, from square and to square: how often a quiet move caused a cut-off.
    history: Vec<i32>,
    /// A list of plies per ply of depth, reused.
    lists: Vec<Vec<(i32, Step)>>,
    /// Root plies left out (by [`Step::code`]): the lines found before, for the next best.
    excluded: &'a [u16],
}

impl<'a> Searcher<'a> {
    fn new(ctx: &'a Context, tt: Option<&'a mut Table>, limits: Limits) -> Searcher<'a> {
        Searcher {
            ctx,
            tt,
            limits,
            nodes: 0,
            limited: false,
            stopped: false,
            root_best: None,
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 64 * 64],
            lists: vec![Vec::new(); MAX_PLY + 1],
            excluded: &[],
        }
    }

    /// Iterative deepening: the best root ply of the deepest finished iteration, or of the
    /// unfinished one when it already found a better ply.
    fn deepen(&mut self, root: Node, single: Single) -> Option<(Step, SearchReport)> {
        let pieces = board_key(&root.board);
        let mut best: Option<(Step, SearchReport)> = None;
        let mut steps = Vec::new();
        root.steps(self.ctx, &mut steps);
        steps.retain(|step| !self.excluded.contains(&step.code()));
        match (&steps[..], single) {
            ([], _) => return None,
            ([only], Single::Play) => return Some((*only, SearchReport::default())),
            _ => {}
        }
        for depth in 1..=self.limits.depth {
            self.root_best = None;
            let score = self.negamax(root, pieces, depth as i32, -INF, INF, 0);
            let report = SearchReport {
                depth,
                score,
                nodes: self.nodes,
            };
            match (self.stopped, self.root_best) {
                (false, Some(step)) => best = Some((step, report)),
                (true, Some(step)) => {
                    let previous = best.map(|(_, r)| r);
                    best = Some((step, previous.unwrap_or(report)));
                }
                (_, None) => {}
            }
            self.limited = true;
            if self.stopped || score.abs() >= MATE_BOUND || !self.limits.worth_deepening() {
                break;
            }
        }
        best.map(|(step, report)| {
            let nodes = self.nodes;
            (step, SearchReport { nodes, ..report })
        })
    }

    /// Counts a node and decides whether the budget is spent.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.limited && !self.stopped {
            let over_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            let over_time = self.nodes % 1024 == 0 && self.limits.out_of_time();
            self.stopped = over_nodes || over_time;
        }
        self.stopped
    }

    fn negamax(
        &mut self,
        node: Node,
        pieces: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(node, alpha, beta, ply, 0);
        }
        if self.tick() {
            return 0;
        }
        let key = node_key(pieces, &node);
        let mut table_best = 0;
        if let Some(entry) = self.tt.as_ref().and_then(|tt| tt.probe(key)) {
            table_best = entry.best;
            // Only entries of exactly this depth cut: then the table never changes the searched
            // value (which the tests check); deeper entries still order the moves. The root is
            // always searched, so that it has a best ply.
            if ply > 0 && i32::from(entry.depth) == depth {
                let score = from_table(entry.score, ply);
                let cuts = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cuts {
                    return score;
                }
            }
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.order(node, table_best, ply, &mut list);
        if ply == 0 && !self.excluded.is_empty() {
            list.retain(|(_, step)| !self.excluded.contains(&step.code()));
        }
        if list.is_empty() {
            self.lists[ply] = list;
            return -(MATE - ply as i32);
        }
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_code = 0;
        for &(_, step) in &list {
            let value = self.value_of(node, pieces, step, depth, alpha, beta, ply);
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                best_code = step.code();
                if ply == 0 {
                    self.root_best = Some(step);
                }
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                self.reward(node, step, depth, ply);
                break;
            }
        }
        self.lists[ply] = list;
        if self.stopped {
            return best.max(-INF + 1);
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if let Some(tt) = self.tt.as_mut() {
            tt.store(Entry {
                key,
                score: to_table(best, ply),
                depth: depth as i16,
                bound,
                best: best_code,
            });
        }
        best
    }

    /// The score of one ply for the side to move at `node`.
    #[allow(clippy::too_many_arguments)]
    fn value_of(
        &mut self,
        node: Node,
        pieces: u64,
        step: Step,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let stm = node.side();
        let child = node.child(self.ctx, step);
        if let Some(result) = child.ended {
            return terminal_score(result, stm, ply + 1);
        }
        let (from, to) = squares_of(step);
        let child_pieces = update(pieces, &node.board, &child.node.board, from, to);
        if child.node.side() == stm {
            self.negamax(child.node, child_pieces, depth - 1, alpha, beta, ply + 1)
        } else {
            -self.negamax(child.node, child_pieces, depth - 1, -beta, -alpha, ply + 1)
        }
    }

    /// Captures (and due promotions) only, standing pat on the static evaluation.
    fn quiescence(&mut self, node: Node, mut alpha: i32, beta: i32, ply: usize, q: u32) -> i32 {
        if self.tick() {
            return 0;
        }
        let stm = node.side();
        let assessment = assess(self.ctx, &node);
        if assessment.wins {
            return MATE - ply as i32 - 1;
        }
        if assessment.stuck {
            return -(MATE - ply as i32);
        }
        let promoting = node.due().is_some();
        let mut best = if promoting { -INF } else { assessment.score };
        if best >= beta || q >= QUIESCENCE_DEPTH || ply >= MAX_PLY {
            return assessment.score;
        }
        alpha = alpha.max(best);
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.order(node, 0, ply, &mut list);
        let enemy = node.board.side(stm.opponent()).0;
        for &(_, step) in &list {
            if let Step::Move { to, .. } = step
                && enemy & to.bit() == 0
            {
                continue;
            }
            let child = node.child(self.ctx, step);
            let value = match child.ended {
                Some(result) => terminal_score(result, stm, ply + 1),
                None if child.node.side() == stm => {
                    self.quiescence(child.node, alpha, beta, ply + 1, q + 1)
                }
                None => -self.quiescence(child.node, -beta, -alpha, ply + 1, q + 1),
            };
            if self.stopped {
                break;
            }
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        self.lists[ply] = list;
        best
    }

    /// Fills `list` with the plies of `node`, best first.
    fn order(&self, node: Node, table_best: u16, ply: usize, list: &mut Vec<(i32, Step)>) {
        let mut steps = Vec::new();
        node.steps(self.ctx, &mut steps);
        list.clear();
        list.extend(
            steps
                .into_iter()
                .map(|s| (self.order_score(&node, s, table_best, ply), s)),
        );
        list.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    }

    fn order_score(&self, node: &Node, step: Step, table_best: u16, ply: usize) -> i32 {
        let code = step.code();
        if code == table_best {
            return 1 << 30;
        }
        let values = &self.ctx.values;
        let (from, to) = match step {
            Step::Promote { slot, .. } => {
                let genome = self.ctx.promotions.get(usize::from(slot));
                return genome.map_or(0, |&(id, _)| values.of(id, node.side()));
            }
            Step::Move { from, to, .. } => (from, to),
        };
        let stm = node.side();
        if let (Some(target), Some(mover)) = (node.board.piece_at(to), node.board.piece_at(from))
            && target.color != stm
        {
            let king = if target.king { 1 << 29 } else { 1 << 28 };
            return king + 16 * values.of(target.genome, target.color)
                - values.of(mover.genome, stm) / 16;
        }
        let killers = &self.killers[ply];
        if killers[0] == code {
            return 1 << 27;
        }
        if killers[1] == code {
            return (1 << 27) - 1;
        }
        let own_target = node.board.side(stm).0 & to.bit() != 0 && from != to;
        let history = self.history[history_index(stm, from.index(), to.index())];
        if own_target {
            history - (1 << 20)
        } else {
            history
        }
    }

    /// A quiet ply that caused a cut-off: remember it for its siblings' ordering.
    fn reward(&mut self, node: Node, step: Step, depth: i32, ply: usize) {
        let Step::Move { from, to, .. } = step else {
            return;
        };
        if node.board.side(node.side().opponent()).0 & to.bit() != 0 {
            return;
        }
        let code = step.code();
        let killers = &mut self.killers[ply];
        if killers[0] != code {
            killers[1] = killers[0];
            killers[0] = code;
        }
        let slot = &mut self.history[history_index(node.side(), from.index(), to.index())];
        *slot = (*slot + depth * depth).min(1 << 24);
    }
}

fn history_index(side: Color, from: usize, to: usize) -> usize {
    (side.index() * 64 + from) * 64 + to
}

fn squares_of(step: Step) -> (gmo_engine::Square, gmo_engine::Square) {
    match step {
        Step::Move { from, to, .. } => (from, to),
        Step::Promote { at, .. } => (at, at),
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
