//! The engine's refusals as API errors: input that can never be right is 422, anything that is
//! merely not possible now (phase, turn, legality, freeze) is 409.

use crate::error::ApiError;
use gmo_engine::{GameError, LabError, PlayError};

pub fn game_error(error: GameError) -> ApiError {
    let code = error.code();
    let message = error.to_string();
    match error {
        GameError::Settings(_)
        | GameError::NotOnBoard(_)
        | GameError::PresetLength { .. }
        | GameError::Move(PlayError::OffBoard(_)) => ApiError::invalid(code, message),
        _ => ApiError::conflict(code, message),
    }
}

pub fn lab_error(error: LabError) -> ApiError {
    let code = error.code();
    let message = error.to_string();
    match error {
        LabError::NotOnBoard(_)
        | LabError::PresetLength { .. }
        | LabError::Move(PlayError::OffBoard(_) | PlayError::TableFull) => {
            ApiError::invalid(code, message)
        }
        _ => ApiError::conflict(code, message),
    }
}
