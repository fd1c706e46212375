//! Who a bearer token is on a game: a seat, or (for reading) a spectator. A token this service
//! issued for something else is 403; one it never issued is 401.

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::games::Stored;
use crate::hub::{LineType, PlyViews, Update};
use gmo_engine::{Color, Viewer};

/// The seat `token` holds on this game. The first time a seat's token is used, the seat is noted
/// as joined ([`join`]).
pub async fn seat_of(state: &AppState, stored: &Stored, token: &str) -> ApiResult<Color> {
    let Some(seat) = stored.seat_of(token) else {
        return Err(wrong_token(state, token, "this game").await);
    };
    if !*stored.joined.get(seat) {
        join(state, stored, seat).await;
    }
    Ok(seat)
}

/// Notes that `seat`'s holder has opened the game and, when this was the first time, tells the
/// game's streams here and in other processes (a `joined` line). It runs in a task of its own, so
/// that a client gone meanwhile (a read is not run to completion otherwise) cannot leave the
/// note written but unannounced. A failure to note it costs nothing but the note: the next
/// request with the token tries again.
async fn join(state: &AppState, stored: &Stored, seat: Color) {
    let (state, stored) = (state.clone(), stored.clone());
    let joining = tokio::spawn(async move { note_join(&state, &stored, seat).await });
    if let Err(failure) = joining.await {
        tracing::warn!(%failure, "noting a seat joining failed");
    }
}

async fn note_join(state: &AppState, stored: &Stored, seat: Color) {
    match state.store.join(&stored.id, seat).await {
        Ok(true) => {
            state.cache.join(&stored.id, seat);
            let mut joined = super::joined(stored);
            *joined.get_mut(seat) = true;
            let update = Update {
                version: stored.version,
                kinds: vec![LineType::Joined],
                ply: PlyViews::default(),
                game: stored.state.clone(),
                rematch: None,
                joined,
            };
            super::announce(state, &stored.id, update);
        }
        Ok(false) => state.cache.join(&stored.id, seat),
        Err(error) => tracing::warn!(game = stored.id, %error, "could not note a seat joining"),
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
