//! Why a game refused a call: one enum, with the phase, field or rule that refused it.

use crate::game::GameStatus;
use crate::position::PlayError;
use crate::square::{Color, Square};
use gmo_types::Timestamp;
use serde::Serialize;
use std::fmt;

/// The machine-readable name of a refusal, for an API's error body: one per kind of
/// [`GameError`] and [`crate::LabError`], written in snake case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RefusalCode {
    BadSettings,
    NotInSetup,
    NotInProgress,
    SeatReady,
    PresetLoaded,
    PresetLength,
    NoPreset,
    NoKing,
    NotOnBoard,
    EmptySquare,
    NotYourPiece,
    NotYourTurn,
    Frozen,
    PromotionDue,
    NoPromotionDue,
    AbortTooLate,
    NoDrawOffer,
    BackRankIncomplete,
    IllegalMove,
    MoveRefused,
}

/// Why a call was refused. A refused call never changes the game (beyond the clock settlement
/// every call starts with, which may end the game on time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    Settings(String),
    NotInSetup {
        action: &'static str,
        status: GameStatus,
    },
    NotInProgress {
        action: &'static str,
        status: GameStatus,
    },
    SeatReady {
        color: Color,
        action: &'static str,
    },
    PresetLoaded(Color),
    PresetLength {
        expected: u8,
        got: usize,
    },
    NoPreset(Color),
    NoKing(Color),
    NotOnBoard(Square),
    EmptySquare(Square),
    NotYourPiece {
        color: Color,
        square: Square,
    },
    NotYourTurn {
        color: Color,
        to_move: Color,
    },
    /// Moves and promotions wait until the freeze window closes at `until_ms`.
    Frozen {
        until_ms: Timestamp,
    },
    PromotionDue(Square),
    NoPromotionDue,
    AbortTooLate,
    /// The seat has no draw offer of the other seat to answer.
    NoDrawOffer(Color),
    Move(PlayError),
}

impl GameError {
    /// A short machine-readable name, for an API's error body.
    pub const fn code(&self) -> RefusalCode {
        match self {
            GameError::Settings(_) => RefusalCode::BadSettings,
            GameError::NotInSetup { .. } => RefusalCode::NotInSetup,
            GameError::NotInProgress { .. } => RefusalCode::NotInProgress,
            GameError::SeatReady { .. } => RefusalCode::SeatReady,
            GameError::PresetLoaded(_) => RefusalCode::PresetLoaded,
            GameError::PresetLength { .. } => RefusalCode::PresetLength,
            GameError::NoPreset(_) => RefusalCode::NoPreset,
            GameError::NoKing(_) => RefusalCode::NoKing,
            GameError::NotOnBoard(_) => RefusalCode::NotOnBoard,
            GameError::EmptySquare(_) => RefusalCode::EmptySquare,
            GameError::NotYourPiece { .. } => RefusalCode::NotYourPiece,
            GameError::NotYourTurn { .. } => RefusalCode::NotYourTurn,
            GameError::Frozen { .. } => RefusalCode::Frozen,
            GameError::PromotionDue(_) => RefusalCode::PromotionDue,
            GameError::NoPromotionDue => RefusalCode::NoPromotionDue,
            GameError::AbortTooLate => RefusalCode::AbortTooLate,
            GameError::NoDrawOffer(_) => RefusalCode::NoDrawOffer,
            GameError::Move(PlayError::Illegal { .. }) => RefusalCode::IllegalMove,
            GameError::Move(_) => RefusalCode::MoveRefused,
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Settings(why) => write!(f, "bad game settings: {why}"),
            GameError::NotInSetup { action, status } => write!(
                f,
                "cannot {action}: setup is over (the game is {})",
                status.name()
            ),
            GameError::NotInProgress { action, status } => {
                write!(f, "cannot {action}: the game is {}", status.name())
            }
            GameError::SeatReady { color, action } => {
                write!(f, "cannot {action}: {color} has already declared ready")
            }
            GameError::PresetLoaded(color) => {
                write!(f, "{color} has already loaded a preset (one per side)")
            }
            GameError::PresetLength { expected, got } => write!(
                f,
                "a preset for this board holds exactly {expected} genomes, not {got}"
            ),
            GameError::NoPreset(color) => {
                write!(f, "{color} cannot be ready before loading a preset")
            }
            GameError::NoKing(color) => {
                write!(f, "{color} cannot be ready without marking a king")
            }
            GameError::NotOnBoard(square) => write!(f, "{square} is not on this board"),
            GameError::EmptySquare(square) => write!(f, "there is no piece on {square}"),
            GameError::NotYourPiece { color, square } => {
                write!(f, "the piece on {square} does not belong to {color}")
            }
            GameError::NotYourTurn { color, to_move } => {
                write!(f, "it is not {color}'s turn: {to_move} is to move")
            }
            GameError::Frozen { until_ms } => {
                write!(f, "the game is frozen until {} ms", until_ms.ms())
            }
            GameError::PromotionDue(square) => {
                write!(f, "the pawn on {square} must be promoted first")
            }
            GameError::NoPromotionDue => f.write_str("no promotion is due"),
            GameError::AbortTooLate => {
                f.write_str("cannot abort: White has already made the first move")
            }
            GameError::NoDrawOffer(color) => write!(
                f,
                "{color} has no draw offer to answer: {} has not offered one",
                color.opponent()
            ),
            GameError::Move(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}
