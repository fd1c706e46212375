//! `GET /api/config`: what a client should know of this server before it draws its pages.

use crate::answer::Json;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/config", get(config))
}

/// The server's modes.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConfigView {
    /// Discovery (`gmo serve --discovery`): the genome language is kept secret. Genome answers
    /// carry no explanation, invalid DNA is only "not a valid genome", diagrams, breeding and
    /// strength estimates answer `403 discovery`, and games never show the other side's genomes.
    pub discovery: bool,
}

/// The server's modes, for a client to adapt to (the page hides what discovery turns off).
#[utoipa::path(get, path = "/api/config", tag = "operations", operation_id = "get_config",
    responses((status = 200, description = "the server's modes", body = ConfigView)))]
pub async fn config(State(state): State<AppState>) -> Json<ConfigView> {
    Json(ConfigView {
        discovery: state.settings.play.discovery,
    })
}
