//! A position: the board, its genome table and the turn counter, with the rules for making moves
//! (rules §4) and promotions (§5.3), and the king rule's result.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::compile::{CompiledGenome, Effect};
use crate::movegen::{self, LegalMove};
use crate::piece::{GenomeId, Piece};
use crate::square::{BoardSize, ByColor, Color, Square};
use crate::table::{GenomeTable, TableFull};
use gmo_genome::{Debuff, Genome, standard};
use rand::{Rng, RngCore};
use std::fmt;
use std::sync::Arc;

/// How a finished game came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWon,
    BlackWon,
    Draw,
}

impl GameResult {
    /// The side that won against `loser`.
    pub const fn loss_of(loser: Color) -> GameResult {
        match loser {
            Color::White => GameResult::BlackWon,
            Color::Black => GameResult::WhiteWon,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            GameResult::WhiteWon => "white_won",
            GameResult::BlackWon => "black_won",
            GameResult::Draw => "draw",
        }
    }
}

/// Why a game ended, as far as the board decides it (clocks and resignation live above).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    KingLost,
    BothKingsLost,
    NoLegalMoves,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    InProgress,
    Over {
        result: GameResult,
        reason: EndReason,
    },
}

/// The king rule (rules §4.1 step 5) from the kings counted before and after a move.
pub fn king_rule(before: [u32; 2], after: [u32; 2]) -> Option<(GameResult, EndReason)> {
    match (after[0] < before[0], after[1] < before[1]) {
        (true, true) => Some((GameResult::Draw, EndReason::BothKingsLost)),
        (true, false) => Some((GameResult::loss_of(Color::White), EndReason::KingLost)),
        (false, true) => Some((GameResult::loss_of(Color::Black), EndReason::KingLost)),
        (false, false) => None,
    }
}

/// Whether the game's restrictions apply (turns, due promotions, the end) or the lab's (none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Game,
    Lab,
}

/// What the random debuffs drew when a move was made (rules §4.2), so that it replays exactly.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Drawn {
    /// The final destination (differs from the requested one only after a deviation).
    pub landed: Square,
    /// The moving piece's new genome, when it has the mutation debuff (possibly unchanged).
    pub mutation: Option<Genome>,
}

/// Where a move's random draws come from.
pub enum Draws<'a> {
    Random(&'a mut dyn RngCore),
    Recorded(&'a Drawn),
}

impl fmt::Debug for Draws<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Draws::Random(_) => f.write_str("Draws::Random"),
            Draws::Recorded(drawn) => f.debug_tuple("Draws::Recorded").field(drawn).finish(),
        }
    }
}

/// A move that was made.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MovePly {
    pub from: Square,
    /// The requested destination.
    pub to: Square,
    pub effect: Effect,
    pub drawn: Drawn,
    /// The moving piece has the freeze debuff: the game layer starts a freeze window.
    pub froze: bool,
    /// The king rule's verdict, if the move decided the game.
    pub ended: Option<(GameResult, EndReason)>,
}

/// A promotion that was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PromotionPly {
    pub at: Square,
    pub genome: GenomeId,
}

/// Why a move or promotion was refused. The position is then unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    GameOver,
    PromotionDue(Square),
    NoPromotionDue,
    NotPending(Square),
    NoPiece(Square),
    NotYourTurn { square: Square, to_move: Color },
    Illegal { from: Square, to: Square },
    OffBoard(Square),
    UnknownGenome(GenomeId),
    BadDraw(String),
    TableFull,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::PromotionDue(at) => write!(f, "the pawn on {at} must be promoted first"),
            PlayError::NoPromotionDue => f.write_str("no promotion is due"),
            PlayError::NotPending(at) => write!(f, "no pawn on {at} is waiting for promotion"),
            PlayError::NoPiece(at) => write!(f, "there is no piece on {at}"),
            PlayError::NotYourTurn { square, to_move } => {
                write!(
                    f,
                    "the piece on {square} does not belong to the side to move ({to_move})"
                )
            }
            PlayError::Illegal { from, to } => write!(f, "{from}→{to} is not a legal move"),
            PlayError::OffBoard(at) => write!(f, "{at} is not on the board"),
            PlayError::UnknownGenome(id) => write!(f, "genome #{} is not in this position", id.0),
            PlayError::BadDraw(why) => write!(f, "the recorded draw does not fit this move: {why}"),
            PlayError::TableFull => TableFull.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<TableFull> for PlayError {
    fn from(_: TableFull) -> Self {
        PlayError::TableFull
    }
}

/// A position. Cloning shares the compiled genomes.
#[derive(Debug, Clone)]
pub struct Position {
    board: Board,
    table: Arc<GenomeTable>,
    moves_played: u32,
    ended: Option<(GameResult, EndReason)>,
}

impl Position {
    /// An empty board, nobody's moves played.
    pub fn new(size: BoardSize) -> Position {
        Position {
            board: Board::empty(size),
            table: Arc::new(GenomeTable::new(size)),
            moves_played: 0,
            ended: None,
        }
    }

    /// The default start (rules §6): the `default` preset for both sides, the kings on file
    /// d marked, standard pawns, White to move.
    pub fn default_start() -> Position {
        let mut position = Position::new(BoardSize::STANDARD);
        let size = position.size();
        let pawn = standard_genome("pawn");
        let back: Vec<Genome> = standard::DEFAULT_PRESET
            .iter()
            .map(|name| standard_genome(name))
            .collect();
        for color in Color::BOTH {
            for (x, genome) in (0u8..).zip(&back) {
                let piece = position.piece_of(genome, color);
                let square = size.square(x, size.back_rank(color));
                let king = x == 3;
                if let Some(square) = square {
                    position.board.set(square, Piece { king, ..piece });
                }
                let pawn_piece = Piece {
                    pawn: true,
                    ..position.piece_of(&pawn, color)
                };
                if let Some(square) = size.square(x, size.pawn_rank(color)) {
                    position.board.set(square, pawn_piece);
                }
            }
        }
        position
    }

    /// A piece of a standard genome; the table is fresh, so it cannot be full.
    fn piece_of(&mut self, genome: &Genome, color: Color) -> Piece {
        let id = self
            .intern(genome)
            .expect("a fresh table holds the few standard genomes");
        Piece::new(id, color)
    }

    pub fn size(&self) -> BoardSize {
        self.board.size()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn genomes(&self) -> &GenomeTable {
        &self.table
    }

    pub(crate) fn table_arc(&self) -> &Arc<GenomeTable> {
        &self.table
    }

    pub fn genome(&self, id: GenomeId) -> Option<&CompiledGenome> {
        self.table.get(id)
    }

    /// The id of a genome in this position, adding it if new.
    pub fn intern(&mut self, genome: &Genome) -> Result<GenomeId, TableFull> {
        if let Some(id) = self.table.find(genome) {
            return Ok(id);
        }
        Arc::make_mut(&mut self.table).intern(genome)
    }

    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board.piece_at(square)
    }

    /// Places a piece (setup and lab), replacing what stood there.
    pub fn put(&mut self, square: Square, piece: Piece) -> Result<(), PlayError> {
        if self.table.get(piece.genome).is_none() {
            return Err(PlayError::UnknownGenome(piece.genome));
        }
        if !self.board.put(square, piece) {
            return Err(PlayError::OffBoard(square));
        }
        Ok(())
    }

    /// Empties a square (setup and lab).
    pub fn remove(&mut self, square: Square) -> Option<Piece> {
        let piece = self.board.piece_at(square);
        self.board.clear(square);
        piece
    }

    pub fn moves_played(&self) -> u32 {
        self.moves_played
    }

    pub fn set_moves_played(&mut self, moves: u32) {
        self.moves_played = moves;
    }

    /// The king rule's verdict on the last move, if it ended the game.
    pub fn ended(&self) -> Option<(GameResult, EndReason)> {
        self.ended
    }

    /// Forgets the king rule's verdict (for the lab, where games never end).
    pub fn clear_ended(&mut self) {
        self.ended = None;
    }

    /// Restores the king rule's verdict, for a position loaded from a stored game.
    pub fn set_ended(&mut self, ended: Option<(GameResult, EndReason)>) {
        self.ended = ended;
    }

    /// The promotion that is due, if any (rules §5.3).
    pub fn due_promotion(&self) -> Option<Square> {
        self.board.due_promotion()
    }

    /// The side to move by the rules (§5.3), whether or not the game is over.
    pub fn side_to_move(&self) -> Color {
        match self.due_promotion().and_then(|sq| self.board.piece_at(sq)) {
            Some(pawn) => pawn.color,
            None if self.moves_played % 2 == 0 => Color::White,
            None => Color::Black,
        }
    }

    /// The game's status as the board decides it: the king rule, then a side to move with no move
    /// and no promotion due (it loses).
    pub fn status(&self) -> Status {
        if let Some((result, reason)) = self.ended {
            return Status::Over { result, reason };
        }
        if self.due_promotion().is_none() {
            let side = self.side_to_move();
            if !movegen::has_move(&self.table, &self.board, side) {
                return Status::Over {
                    result: GameResult::loss_of(side),
                    reason: EndReason::NoLegalMoves,
                };
            }
        }
        Status::InProgress
    }

    /// The side to move, or `None` once the game is over.
    pub fn to_move(&self) -> Option<Color> {
        match self.status() {
            Status::InProgress => Some(self.side_to_move()),
            Status::Over { .. } => None,
        }
    }

    /// The legal moves of whatever piece stands on `square`, whoever's turn it is, in the
    /// reference's order (rules §3).
    pub fn moves_from(&self, square: Square) -> Vec<LegalMove> {
        match self.board.piece_at(square) {
            Some(piece) if self.size().contains(square) => movegen::ordered_moves(
                self.table.compiled(piece.genome),
                square,
                piece.color,
                &self.board,
            ),
            _ => Vec::new(),
        }
    }

    /// Every move of one side's pieces, piece by piece in square order.
    pub fn moves_of_side(&self, color: Color) -> Vec<LegalMove> {
        self.board
            .side(color)
            .iter()
            .flat_map(|sq| self.moves_from(sq))
            .collect()
    }

    /// The moves the game accepts now: none while the game is over or a promotion is due.
    pub fn legal_moves(&self) -> Vec<LegalMove> {
        if self.ended.is_some() || self.due_promotion().is_some() {
            return Vec::new();
        }
        self.moves_of_side(self.side_to_move())
    }

    /// Each side's kings that the other side could take, convert or replace with one move if
    /// it were to move now, whoever's turn it is (see `danger.rs`).
    pub fn kings_in_danger(&self) -> ByColor<Bitboard> {
        crate::danger::kings_in_danger(&self.table, &self.board)
    }

    /// What the legal move `mv` risks for its own side's kings (rules §4.1 step 5).
    pub fn move_risks(&self, mv: &LegalMove) -> crate::danger::KingRisks {
        crate::danger::move_risks(&self.table, &self.board, mv.from, mv.to, mv.effect)
    }

    /// How many moves `color` has.
    pub fn count_moves(&self, color: Color) -> u64 {
        movegen::count_side(&self.table, &self.board, color)
    }

    /// Makes a move under the game's rules, drawing the random debuffs from `rng`.
    pub fn play(
        &mut self,
        from: Square,
        to: Square,
        rng: &mut dyn RngCore,
    ) -> Result<MovePly, PlayError> {
        self.make(Mode::Game, from, to, Draws::Random(rng))
    }

    /// Makes a move under the game's rules with the draws a record kept.
    pub fn replay_move(
        &mut self,
        from: Square,
        to: Square,
        drawn: &Drawn,
    ) -> Result<MovePly, PlayError> {
        self.make(Mode::Game, from, to, Draws::Recorded(drawn))
    }

    /// Makes a move (rules §4). Refused moves leave the position as it was. In the lab any piece
    /// may move and the king rule ends nothing.
    pub fn make(
        &mut self,
        mode: Mode,
        from: Square,
        to: Square,
        draws: Draws<'_>,
    ) -> Result<MovePly, PlayError> {
        let mover = self.board.piece_at(from).ok_or(PlayError::NoPiece(from))?;
        if mode == Mode::Game {
            if self.ended.is_some() {
                return Err(PlayError::GameOver);
            }
            if let Some(due) = self.due_promotion() {
                return Err(PlayError::PromotionDue(due));
            }
            let to_move = self.side_to_move();
            if mover.color != to_move {
                return Err(PlayError::NotYourTurn {
                    square: from,
                    to_move,
                });
            }
        }
        let legal = self
            .moves_from(from)
            .into_iter()
            .find(|m| m.to == to)
            .ok_or(PlayError::Illegal { from, to })?;
        let cg = self.table.compiled(mover.genome);
        let froze = cg.has(Debuff::Freeze);
        let drawn = self.draw(cg, to, draws)?;
        // Only now may the position change: everything above can still refuse.
        let mut moving = mover;
        if let Some(genome) = &drawn.mutation {
            moving.genome = self.intern(genome)?;
        }
        let before = Color::BOTH.map(|c| self.board.king_count(c));
        self.board.apply(from, drawn.landed, legal.effect, moving);
        self.moves_played += 1;
        let after = Color::BOTH.map(|c| self.board.king_count(c));
        let ended = king_rule(before, after);
        if mode == Mode::Game {
            self.ended = ended;
        }
        Ok(MovePly {
            from,
            to,
            effect: legal.effect,
            drawn,
            froze,
            ended,
        })
    }

    /// The random debuffs of rules §4.2: deviation, then mutation (the freeze draws nothing).
    fn draw(&self, cg: &CompiledGenome, to: Square, draws: Draws<'_>) -> Result<Drawn, PlayError> {
        let deviates = cg.has(Debuff::Deviation);
        let mutates = cg.has(Debuff::Mutation);
        match draws {
            Draws::Random(rng) => {
                let mut landed = to;
                if deviates {
                    let dx: i32 = rng.random_range(-1..=1);
                    let dy: i32 = rng.random_range(-1..=1);
                    let x = i32::from(to.x()) + dx;
                    let y = i32::from(to.y()) + dy;
                    landed = self.size().square_i(x, y).unwrap_or(to);
                }
                let mutation = if mutates {
                    Some(gmo_genome::mutate(cg.genome(), &mut &mut *rng))
                } else {
                    None
                };
                Ok(Drawn { landed, mutation })
            }
            Draws::Recorded(drawn) => {
                let near = drawn.landed.x().abs_diff(to.x()) <= 1
                    && drawn.landed.y().abs_diff(to.y()) <= 1
                    && self.size().contains(drawn.landed);
                if drawn.landed != to && !(deviates && near) {
                    return Err(PlayError::BadDraw(format!(
                        "the move cannot land on {} instead of {to}",
                        drawn.landed
                    )));
                }
                if drawn.mutation.is_some() != mutates {
                    return Err(PlayError::BadDraw(if mutates {
                        "the piece mutates but no new genome was recorded".into()
                    } else {
                        "a new genome was recorded for a piece that does not mutate".into()
                    }));
                }
                Ok(drawn.clone())
            }
        }
    }

    /// Promotes the due pawn (game rules) to `genome`.
    pub fn promote(&mut self, genome: &Genome) -> Result<PromotionPly, PlayError> {
        if self.ended.is_some() {
            return Err(PlayError::GameOver);
        }
        let at = self.due_promotion().ok_or(PlayError::NoPromotionDue)?;
        let id = self.intern(genome)?;
        self.promote_at(at, id)
    }

    /// Promotes the pawn waiting on `at` to the genome `id`, whichever pending pawn it is (the lab
    /// offers them all). Keeps the owner and king flag, clears the pawn flag; not a move.
    pub fn promote_at(&mut self, at: Square, id: GenomeId) -> Result<PromotionPly, PlayError> {
        if self.table.get(id).is_none() {
            return Err(PlayError::UnknownGenome(id));
        }
        if !self.board.pending_promotions().contains(at) {
            return Err(PlayError::NotPending(at));
        }
        let pawn = self.board.piece_at(at).ok_or(PlayError::NotPending(at))?;
        self.board.set(
            at,
            Piece {
                genome: id,
                pawn: false,
                ..pawn
            },
        );
        Ok(PromotionPly { at, genome: id })
    }
}

/// A standard genome by name; the names are the genome crate's own constants.
pub(crate) fn standard_genome(name: &str) -> Genome {
    standard::by_name(name).expect("the standard genomes parse")
}
