//! A game (rules §5.2–5.5): setup, turns, due promotions, clocks with freezes, and every ending.
//!
//! Pure: every call that can let time pass takes `now` (a [`Timestamp`]) and first settles the
//! clocks, so a flag that fell while nobody called ends the game at the moment it fell. Random
//! debuffs come from the game's seed and the move's number ([`crate::rng`]).

use crate::clock::Clock;
use crate::event_log::EventLog;
pub use crate::game_error::GameError;
use crate::movegen::LegalMove;
use crate::piece::Piece;
use crate::position::{
    Draws, EndReason, GameResult, Mode, MovePly, PlayError, Position, PromotionPly, Status,
    standard_genome,
};
use crate::record::Event;
use crate::rng::draws_for;
use crate::snapshot::BoardData;
use crate::square::{BoardSize, ByColor, Color, Square};
use gmo_genome::Genome;
use gmo_types::{Millis, Timestamp};
use serde::{Deserialize, Serialize};

/// How long a freeze blocks moves, and how much time it moves between the clocks (rules §5.4).
pub const FREEZE: Millis = Millis::from_secs(5);

/// How long each side has for its first move unless set otherwise (rules §5.4): the clocks start
/// once both sides have moved.
pub const FIRST_MOVE: Millis = Millis::from_secs(30);

/// A game's settings: board size, each side's time and the increment (lichess's "3+2" is
/// `initial_ms: 180_000, increment_ms: 2_000`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Settings {
    pub width: u8,
    pub height: u8,
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub initial_ms: Millis,
    /// Added to a side's clock after each of its moves (not after a promotion, which is no
    /// move). Games stored before increments existed load with 0.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub increment_ms: Millis,
    /// Each side's time for its first move, on no clock; the clocks start after both first moves
    /// (rules §5.4). `null`: no first-move timers, the clock runs from the start (games stored
    /// before they existed load so).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<i64>))]
    pub first_move_ms: Option<Millis>,
    /// Discovery (the genome language kept secret): the other side's genomes stay hidden after
    /// the end too. Games stored before it existed load without it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub discovery: bool,
}

impl Settings {
    /// The longest clock a game may have: a week.
    pub const MAX_INITIAL: Millis = Millis::from_secs(7 * 24 * 3_600);
    /// The largest increment: a minute per move.
    pub const MAX_INCREMENT: Millis = Millis::from_secs(60);
    /// The longest time for a first move: an hour.
    pub const MAX_FIRST_MOVE: Millis = Millis::from_secs(3_600);

    /// Checked settings without increment, with [`FIRST_MOVE`] for each first move.
    pub fn new(width: u8, height: u8, initial: Millis) -> Result<Settings, GameError> {
        let settings = Settings {
            width,
            height,
            initial_ms: initial,
            increment_ms: Millis::ZERO,
            first_move_ms: Some(FIRST_MOVE),
            discovery: false,
        };
        settings.size()?;
        Ok(settings)
    }

    /// The same settings in discovery or not.
    pub fn with_discovery(self, discovery: bool) -> Settings {
        Settings { discovery, ..self }
    }

    /// The same settings with `increment` added after every move, checked.
    pub fn with_increment(self, increment: Millis) -> Result<Settings, GameError> {
        let settings = Settings {
            increment_ms: increment,
            ..self
        };
        settings.size()?;
        Ok(settings)
    }

    /// The same settings with `first_move` for each side's first move (none: the clock runs from
    /// the start), checked.
    pub fn with_first_move(self, first_move: Option<Millis>) -> Result<Settings, GameError> {
        let settings = Settings {
            first_move_ms: first_move,
            ..self
        };
        settings.size()?;
        Ok(settings)
    }

    /// The board size, once the settings are checked.
    pub fn size(&self) -> Result<BoardSize, GameError> {
        if !(Millis::from_ms(1)..=Self::MAX_INITIAL).contains(&self.initial_ms) {
            return Err(GameError::Settings(format!(
                "the clock's initial time must be 1 to {} ms, not {}",
                Self::MAX_INITIAL.ms(),
                self.initial_ms.ms()
            )));
        }
        if !(Millis::ZERO..=Self::MAX_INCREMENT).contains(&self.increment_ms) {
            return Err(GameError::Settings(format!(
                "the clock's increment must be 0 to {} ms, not {}",
                Self::MAX_INCREMENT.ms(),
                self.increment_ms.ms()
            )));
        }
        if let Some(first_move) = self.first_move_ms {
            if !(Millis::from_ms(1)..=Self::MAX_FIRST_MOVE).contains(&first_move) {
                return Err(GameError::Settings(format!(
                    "the time for a first move must be 1 to {} ms, not {}",
                    Self::MAX_FIRST_MOVE.ms(),
                    first_move.ms()
                )));
            }
        }
        BoardSize::new(self.width, self.height).map_err(|e| GameError::Settings(e.to_string()))
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            width: 8,
            height: 8,
            initial_ms: Millis::from_secs(300),
            increment_ms: Millis::ZERO,
            first_move_ms: Some(FIRST_MOVE),
            discovery: false,
        }
    }
}

pub use gmo_types::GameStatus;

impl From<GameResult> for GameStatus {
    fn from(result: GameResult) -> Self {
        match result {
            GameResult::WhiteWon => GameStatus::WhiteWon,
            GameResult::BlackWon => GameStatus::BlackWon,
            GameResult::Draw => GameStatus::Draw,
        }
    }
}

/// Why a game ended, as the API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    KingLost,
    KingsLost,
    Time,
    NoLegalMoves,
    Resigned,
    /// Both seats agreed to a draw ([`Game::offer_draw`]).
    Agreement,
    /// A side let its first-move timer run out: the game is aborted, without result.
    NoFirstMove,
    /// A side left the game and the other claimed the victory ([`Game::claim_victory`]).
    Abandoned,
    /// A program playing through the local agent protocol (docs/agents.md) answered with
    /// something other than a legal action in time, or exited: its host (`gmo arena`) ends the
    /// game so. The engine itself never ends a game with this reason.
    AgentError,
    /// A bot seat kept failing to act (a service gave up on it, [`Game::bot_failed`]): the game
    /// is aborted, without result.
    BotFailed,
}

impl From<EndReason> for Reason {
    fn from(reason: EndReason) -> Self {
        match reason {
            EndReason::KingLost => Reason::KingLost,
            EndReason::BothKingsLost => Reason::KingsLost,
            EndReason::NoLegalMoves => Reason::NoLegalMoves,
        }
    }
}

/// What [`Game::offer_draw`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawOffer {
    /// The offer is now pending, waiting for the other seat.
    Made,
    /// This seat's offer was already pending: nothing changed.
    AlreadyPending,
    /// The other seat's offer was pending: accepted, the game is drawn.
    Agreed,
}

/// A side's progress through setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Seat {
    pub preset: bool,
    pub ready: bool,
}

/// A game. Cloning shares the compiled genomes. Serialises as a full snapshot
/// ([`crate::GameSnapshot`]); equality compares those snapshots.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "crate::GameSnapshot", try_from = "crate::GameSnapshot")]
pub struct Game {
    pub(crate) settings: Settings,
    pub(crate) seed: u64,
    pub(crate) position: Position,
    pub(crate) status: GameStatus,
    pub(crate) reason: Option<Reason>,
    pub(crate) seats: ByColor<Seat>,
    pub(crate) clock: Clock,
    pub(crate) frozen_until: Option<Timestamp>,
    /// The seat whose draw offer waits for the other seat's answer.
    pub(crate) draw_offer: Option<Color>,
    pub(crate) started: Option<Timestamp>,
    /// When the running first-move timer runs out, until both sides have moved.
    pub(crate) first_move_until: Option<Timestamp>,
    /// The position at the start, once started: the record's setup.
    pub(crate) setup: Option<BoardData>,
    pub(crate) events: EventLog,
    /// The species labels of the position's genomes, computed once per genome (not serialised).
    pub(crate) labels: crate::species::LabelCache,
}

impl Game {
    /// A game in setup: an empty board, nobody's preset loaded.
    pub fn new(settings: Settings, seed: u64) -> Result<Game, GameError> {
        let size = settings.size()?;
        Ok(Game {
            settings,
            seed,
            position: Position::new(size),
            status: GameStatus::Setup,
            reason: None,
            seats: ByColor::default(),
            clock: Clock::new(settings.initial_ms),
            frozen_until: None,
            draw_offer: None,
            started: None,
            first_move_until: None,
            setup: None,
            events: EventLog::default(),
            labels: Default::default(),
        })
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The species label of each genome of the position, by [`crate::GenomeId::index`]
    /// (rules §5.6), computed once per genome of the game.
    pub fn species_labels(&self) -> std::sync::Arc<Vec<String>> {
        self.labels.labels(self.seed, self.position.genomes())
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn status(&self) -> GameStatus {
        self.status
    }

    pub fn reason(&self) -> Option<Reason> {
        self.reason
    }

    pub fn is_over(&self) -> bool {
        self.status.is_over()
    }

    pub fn seats(&self) -> ByColor<Seat> {
        self.seats
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// When the game started (both seats ready), once it has.
    pub fn started(&self) -> Option<Timestamp> {
        self.started
    }

    /// Every move, promotion, draw offer and answer, resignation, abort and flag fall so far, in
    /// order.
    pub fn events(&self) -> &EventLog {
        &self.events
    }

    pub fn moves_played(&self) -> u32 {
        self.position.moves_played()
    }

    /// The side to move while the game is in progress.
    pub fn to_move(&self) -> Option<Color> {
        (self.status == GameStatus::InProgress).then(|| self.position.side_to_move())
    }

    /// The promotion that must be made next, while the game is in progress.
    pub fn promotion_due(&self) -> Option<Square> {
        (self.status == GameStatus::InProgress)
            .then(|| self.position.due_promotion())
            .flatten()
    }

    /// The end of the freeze window, if one is still open at `now`.
    pub fn frozen_until(&self, now: Timestamp) -> Option<Timestamp> {
        self.frozen_until.filter(|&until| now < until)
    }

    /// The seat whose draw offer is pending, while the game is in progress.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// When the running clock would reach zero: for timers and sweeps.
    pub fn deadline(&self) -> Option<Timestamp> {
        self.first_move_until.or_else(|| self.clock.deadline())
    }

    /// When the running first-move timer runs out, while one runs (rules §5.4).
    pub fn first_move_deadline(&self) -> Option<Timestamp> {
        self.first_move_until
    }

    /// The legal moves of the piece on `square`, whichever side owns it (rules §5.6).
    pub fn moves_from(&self, square: Square) -> Vec<LegalMove> {
        self.position.moves_from(square)
    }

    /// The moves the side to move may make now (none outside play or while a promotion is due).
    pub fn legal_moves(&self) -> Vec<LegalMove> {
        if self.status == GameStatus::InProgress {
            self.position.legal_moves()
        } else {
            Vec::new()
        }
    }

    /// Checks that `color` may still change its setup.
    fn require_setup(&self, color: Color, action: &'static str) -> Result<(), GameError> {
        if self.status != GameStatus::Setup {
            return Err(GameError::NotInSetup {
                action,
                status: self.status,
            });
        }
        if self.seats.get(color).ready {
            return Err(GameError::SeatReady { color, action });
        }
        Ok(())
    }

    /// Loads a side's preset (rules §5.2): `width` genomes on the back rank, file a first, and
    /// standard pawns on the pawn rank. Once per side.
    pub fn load_preset(&mut self, color: Color, genomes: &[Genome]) -> Result<(), GameError> {
        self.require_setup(color, "load a preset")?;
        if self.seats.get(color).preset {
            return Err(GameError::PresetLoaded(color));
        }
        let size = self.position.size();
        if genomes.len() != usize::from(size.width()) {
            return Err(GameError::PresetLength {
                expected: size.width(),
                got: genomes.len(),
            });
        }
        // Work on a copy so that a refusal halfway leaves nothing behind.
        let mut position = self.position.clone();
        fill_ranks(&mut position, color, genomes).map_err(GameError::Move)?;
        self.position = position;
        self.seats.get_mut(color).preset = true;
        Ok(())
    }

    /// Toggles the king flag of one of `color`'s pieces before the start; returns the new flag.
    pub fn toggle_king(&mut self, color: Color, square: Square) -> Result<bool, GameError> {
        self.require_setup(color, "toggle a king")?;
        if !self.position.size().contains(square) {
            return Err(GameError::NotOnBoard(square));
        }
        let piece = self
            .position
            .piece_at(square)
            .ok_or(GameError::EmptySquare(square))?;
        if piece.color != color {
            return Err(GameError::NotYourPiece { color, square });
        }
        let king = !piece.king;
        self.position
            .put(square, Piece { king, ..piece })
            .map_err(GameError::Move)?;
        Ok(king)
    }

    /// Declares `color` ready; the game starts at `now` when both are (White to move).
    pub fn ready(&mut self, color: Color, now: Timestamp) -> Result<(), GameError> {
        self.require_setup(color, "declare ready")?;
        if !self.seats.get(color).preset {
            return Err(GameError::NoPreset(color));
        }
        if self.position.board().king_count(color) == 0 {
            return Err(GameError::NoKing(color));
        }
        self.seats.get_mut(color).ready = true;
        if self.seats.white.ready && self.seats.black.ready {
            self.start(now);
        }
        Ok(())
    }

    /// Starts the game at `now`: White's first-move timer runs (or, without first-move timers,
    /// White's clock).
    pub(crate) fn start(&mut self, now: Timestamp) {
        self.status = GameStatus::InProgress;
        self.started = Some(now);
        self.setup = Some(BoardData::of(&self.position));
        match self.settings.first_move_ms {
            Some(first_move) => self.first_move_until = Some(now.saturating_add(first_move)),
            None => self.clock.start(now, Color::White),
        }
        self.end_if_stuck(now);
    }

    /// Settles the timers at `now`: if a first-move timer has run out, the game is aborted; if
    /// the running clock has reached zero, its side loses on time (each at the moment it ran
    /// out). Returns whether the game ended now.
    pub fn tick(&mut self, now: Timestamp) -> bool {
        if self.status != GameStatus::InProgress {
            return false;
        }
        if let Some(until) = self.first_move_until {
            if until > now {
                return false;
            }
            self.events.push(Event::Time { at_ms: until });
            self.finish(GameStatus::Aborted, Some(Reason::NoFirstMove), until);
            return true;
        }
        let Some((side, at)) = self.clock.fallen(now) else {
            return false;
        };
        self.events.push(Event::Time { at_ms: at });
        self.finish(GameStatus::loss_of(side), Some(Reason::Time), at);
        true
    }

    /// Settles the clock, then checks that `color` may act now; returns the effective time.
    pub(crate) fn require_turn(
        &mut self,
        color: Color,
        now: Timestamp,
        action: &'static str,
    ) -> Result<Timestamp, GameError> {
        let now = self.require_in_progress(now, action)?;
        let to_move = self.position.side_to_move();
        if color != to_move {
            return Err(GameError::NotYourTurn { color, to_move });
        }
        if let Some(until_ms) = self.frozen_until(now) {
            return Err(GameError::Frozen { until_ms });
        }
        Ok(now)
    }

    /// Makes a move for `color`, the side to move (rules §4, §5.3).
    pub fn play(
        &mut self,
        color: Color,
        from: Square,
        to: Square,
        now: Timestamp,
    ) -> Result<MovePly, GameError> {
        let now = self.require_turn(color, now, "move")?;
        if let Some(due) = self.position.due_promotion() {
            return Err(GameError::PromotionDue(due));
        }
        let mut rng = draws_for(self.seed, u64::from(self.position.moves_played()));
        self.make_move(color, from, to, now, Draws::Random(&mut rng))
    }

    /// Makes a move whose turn, time and freeze were checked; shared with replay.
    pub(crate) fn make_move(
        &mut self,
        color: Color,
        from: Square,
        to: Square,
        now: Timestamp,
        draws: Draws<'_>,
    ) -> Result<MovePly, GameError> {
        let ply = self
            .position
            .make(Mode::Game, from, to, draws)
            .map_err(GameError::Move)?;
        self.events.push(Event::Move {
            at_ms: now,
            from,
            to,
            landed: ply.drawn.landed,
            mutated_to: ply.drawn.mutation.as_ref().map(Genome::to_string),
        });
        self.after_ply(now, Some((color, ply.froze)));
        Ok(ply)
    }

    /// Promotes the due pawn, which must be `color`'s (rules §5.3).
    pub fn promote(
        &mut self,
        color: Color,
        genome: &Genome,
        now: Timestamp,
    ) -> Result<PromotionPly, GameError> {
        let now = self.require_turn(color, now, "promote")?;
        let square = self
            .position
            .due_promotion()
            .ok_or(GameError::NoPromotionDue)?;
        let ply = self.position.promote(genome).map_err(GameError::Move)?;
        self.events.push(Event::Promotion {
            at_ms: now,
            square,
            genome: genome.to_string(),
        });
        self.after_ply(now, None);
        Ok(ply)
    }

    /// After a move (`moved`: the mover and whether it froze) or a promotion (`None`): a move
    /// declines the opponent's pending draw offer; the king rule's verdict stands first;
    /// otherwise the clock passes to the side to move (or, during the first moves, the next
    /// first-move timer runs), the mover gains the increment, a freeze then moves time and may
    /// empty the mover's clock, and a side to move without a move loses at once.
    fn after_ply(&mut self, now: Timestamp, moved: Option<(Color, bool)>) {
        if moved.is_some_and(|(mover, _)| self.draw_offer == Some(mover.opponent())) {
            self.draw_offer = None;
        }
        if let Some((result, reason)) = self.position.ended() {
            self.finish(result.into(), Some(reason.into()), now);
            return;
        }
        // A first move is on no clock: it earns no increment.
        let first_moves = self.first_move_until.is_some();
        if first_moves {
            self.after_first_moves(now, moved.is_some());
        } else {
            self.clock.switch(now, Some(self.position.side_to_move()));
        }
        let Some((mover, froze)) = moved else {
            self.end_if_stuck(now);
            return;
        };
        if !first_moves {
            self.clock.adjust(mover, self.settings.increment_ms);
        }
        if froze {
            self.clock.adjust(mover, -FREEZE);
            self.clock.adjust(mover.opponent(), FREEZE);
            self.frozen_until = Some(now.saturating_add(FREEZE));
            if self.clock.remaining_at(mover, now) == Millis::ZERO {
                self.finish(GameStatus::loss_of(mover), Some(Reason::Time), now);
                return;
            }
        }
        self.end_if_stuck(now);
    }

    /// While the first moves are timed: White's first move starts Black's first-move timer,
    /// Black's first move the clocks (White's runs). A promotion is no move: the timer runs on.
    fn after_first_moves(&mut self, now: Timestamp, moved: bool) {
        let (Some(first_move), true) = (self.settings.first_move_ms, moved) else {
            return;
        };
        if self.moves_played() < 2 {
            self.first_move_until = Some(now.saturating_add(first_move));
        } else {
            self.first_move_until = None;
            self.clock.start(now, self.position.side_to_move());
        }
    }

    /// Ends the game if the side to move has no move and no promotion due.
    fn end_if_stuck(&mut self, now: Timestamp) {
        if let Status::Over { result, reason } = self.position.status() {
            self.finish(result.into(), Some(reason.into()), now);
        }
    }

    fn finish(&mut self, status: GameStatus, reason: Option<Reason>, at: Timestamp) {
        self.clock.switch(at, None);
        self.first_move_until = None;
        self.status = status;
        self.reason = reason;
        self.frozen_until = None;
        self.draw_offer = None;
    }

    /// Settles the clock and checks that the game is in progress; returns the effective time.
    fn require_in_progress(
        &mut self,
        now: Timestamp,
        action: &'static str,
    ) -> Result<Timestamp, GameError> {
        self.tick(now);
        if self.status != GameStatus::InProgress {
            return Err(GameError::NotInProgress {
                action,
                status: self.status,
            });
        }
        Ok(self.clock.effective(now))
    }

    /// `color` offers a draw, whoever's turn it is and even during a freeze, or accepts the other
    /// seat's pending offer: then the game ends drawn by agreement. As on lichess, an offer stays
    /// until the other seat answers or makes a move (which declines it); the offerer's own moves
    /// keep it. Offering again while the own offer is pending changes nothing.
    pub fn offer_draw(&mut self, color: Color, now: Timestamp) -> Result<DrawOffer, GameError> {
        let now = self.require_in_progress(now, "offer a draw")?;
        if self.draw_offer == Some(color) {
            return Ok(DrawOffer::AlreadyPending);
        }
        if self.draw_offer == Some(color.opponent()) {
            self.events.push(Event::DrawAgreed { at_ms: now, color });
            self.finish(GameStatus::Draw, Some(Reason::Agreement), now);
            return Ok(DrawOffer::Agreed);
        }
        self.events.push(Event::DrawOffer { at_ms: now, color });
        self.draw_offer = Some(color);
        Ok(DrawOffer::Made)
    }

    /// `color` declines the other seat's pending draw offer without moving.
    pub fn decline_draw(&mut self, color: Color, now: Timestamp) -> Result<(), GameError> {
        let now = self.require_in_progress(now, "decline a draw")?;
        if self.draw_offer != Some(color.opponent()) {
            return Err(GameError::NoDrawOffer(color));
        }
        self.events.push(Event::DrawDeclined { at_ms: now, color });
        self.draw_offer = None;
        Ok(())
    }

    /// `color` resigns and loses.
    pub fn resign(&mut self, color: Color, now: Timestamp) -> Result<(), GameError> {
        let now = self.require_in_progress(now, "resign")?;
        self.events.push(Event::Resign { at_ms: now, color });
        self.finish(GameStatus::loss_of(color), Some(Reason::Resigned), now);
        Ok(())
    }

    /// `color` claims the victory because the other side has left the game. Whether it has left
    /// (for how long nobody has seen it) is the service's to judge: the engine records the claim.
    pub fn claim_victory(&mut self, color: Color, now: Timestamp) -> Result<(), GameError> {
        let now = self.require_in_progress(now, "claim the victory")?;
        self.events.push(Event::Claim { at_ms: now, color });
        self.finish(
            GameStatus::loss_of(color.opponent()),
            Some(Reason::Abandoned),
            now,
        );
        Ok(())
    }

    /// Calls the game off without result: in setup, or before White's first move.
    pub fn abort(&mut self, color: Color, now: Timestamp) -> Result<(), GameError> {
        self.tick(now);
        match self.status {
            GameStatus::Setup => {}
            GameStatus::InProgress if self.position.moves_played() == 0 => {}
            GameStatus::InProgress => return Err(GameError::AbortTooLate),
            status => {
                return Err(GameError::NotInProgress {
                    action: "abort",
                    status,
                });
            }
        }
        let now = self.clock.effective(now);
        self.events.push(Event::Abort { at_ms: now, color });
        self.finish(GameStatus::Aborted, None, now);
        Ok(())
    }

    /// Calls the game off without result at any time before its end, on behalf of neither side:
    /// a service lets the creator of a game between two bots stop it this way.
    pub fn stop(&mut self, now: Timestamp) -> Result<(), GameError> {
        self.tick(now);
        if self.status.is_over() {
            return Err(GameError::NotInProgress {
                action: "stop",
                status: self.status,
            });
        }
        let now = self.clock.effective(now);
        self.events.push(Event::Stop { at_ms: now });
        self.finish(GameStatus::Aborted, None, now);
        Ok(())
    }
}

impl Game {
    /// The bot playing `color`, which is to act, kept failing to (a service tried and gave up):
    /// the game is aborted without result, reason [`Reason::BotFailed`], whoever's turn it is.
    pub fn bot_failed(&mut self, color: Color, now: Timestamp) -> Result<(), GameError> {
        self.tick(now);
        if self.status.is_over() {
            return Err(GameError::NotInProgress {
                action: "give up on a bot",
                status: self.status,
            });
        }
        let now = self.clock.effective(now);
        self.events.push(Event::BotFailed { at_ms: now, color });
        self.finish(GameStatus::Aborted, Some(Reason::BotFailed), now);
        Ok(())
    }
}

/// Equal games have equal snapshots; compared field by field, without building them, because
/// tests compare after every refused call.
impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        let (a, b) = (&self.position, &other.position);
        let same_genomes = a.genomes().len() == b.genomes().len()
            && a.genomes()
                .iter()
                .zip(b.genomes().iter())
                .all(|((_, x), (_, y))| x.dna() == y.dna());
        self.settings == other.settings
            && self.seed == other.seed
            && self.status == other.status
            && self.reason == other.reason
            && self.seats == other.seats
            && self.clock == other.clock
            && self.frozen_until == other.frozen_until
            && self.draw_offer == other.draw_offer
            && self.started == other.started
            && self.first_move_until == other.first_move_until
            // Not `Board ==`: a board keeps stale genome ids on empty squares.
            && a.board().pieces().eq(b.board().pieces())
            && a.moves_played() == b.moves_played()
            && a.ended() == b.ended()
            && same_genomes
            && self.setup == other.setup
            && self.events == other.events
    }
}

/// Fills `color`'s back rank with `genomes` (file a first) and its pawn rank with standard pawns.
pub(crate) fn fill_ranks(
    position: &mut Position,
    color: Color,
    genomes: &[Genome],
) -> Result<(), PlayError> {
    let size = position.size();
    let pawn = position.intern(&standard_genome("pawn"))?;
    let rank = |y: u8| (0..size.width()).filter_map(move |x| size.square(x, y));
    let squares = rank(size.back_rank(color)).zip(rank(size.pawn_rank(color)));
    for (genome, (back, front)) in genomes.iter().zip(squares) {
        let id = position.intern(genome)?;
        position.put(back, Piece::new(id, color))?;
        let pawn_piece = Piece {
            pawn: true,
            ..Piece::new(pawn, color)
        };
        position.put(front, pawn_piece)?;
    }
    Ok(())
}
