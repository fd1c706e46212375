//! Operations: `/healthz`, `/metrics`, `/api/openapi.json`.

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(health))
        .route("/metrics", get(metrics))
        .route("/api/openapi.json", get(openapi))
}

/// 200 when the database answers.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "the database answers"),
              (status = 503, description = "the database does not answer")))]
pub async fn health(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    state.store.ping().await.map_err(|error| {
        tracing::warn!(%error, "health check: the database does not answer");
        ApiError::Unavailable("the database does not answer".into())
    })?;
    Ok(Json(
        json!({"status": "ok", "database": state.store.backend_name()}),
    ))
}

/// Prometheus text.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text exposition format")))]
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        state.metrics.render(),
    )
}

/// This API's OpenAPI 3 document.
pub async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(crate::openapi::document())
}
