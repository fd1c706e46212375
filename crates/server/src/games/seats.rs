//! Who a bearer token is on a game: a seat, or (for reading) a spectator. A token this service
//! issued for something else is 403; one it never issued is 401.

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::games::Stored;
use gmo_engine::{Color, Viewer};
use gmo_store::Seat;

/// The seat `token` holds on this game.
pub async fn seat_of(state: &AppState, stored: &Stored, token: &str) -> ApiResult<Color> {
    match stored.seat_of(token) {
        Some(Seat::White) => Ok(Color::White),
        Some(Seat::Black) => Ok(Color::Black),
        None => Err(wrong_token(state, token, "this game").await),
    }
}

/// The viewer a request is: no token is a spectator, a token must be one of this game's seats.
pub async fn viewer_of_token(
    state: &AppState,
    stored: &Stored,
    token: Option<&str>,
) -> ApiResult<Viewer> {
    match token {
        None => Ok(Viewer::Spectator),
        Some(token) => Ok(Viewer::Player(seat_of(state, stored, token).await?)),
    }
}

/// 403 for a token issued for something else, 401 for one never issued.
pub async fn wrong_token(state: &AppState, token: &str, what: &str) -> ApiError {
    match state.store.knows_token(token).await {
        Ok(true) => ApiError::Forbidden(format!("this token does not open {what}")),
        Ok(false) => ApiError::Unauthorized("unknown token".into()),
        Err(error) => error.into(),
    }
}
