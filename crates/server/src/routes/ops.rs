//! Operations: `/healthz`, `/metrics` (`/api/openapi.json` is `crate::openapi`'s).

use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::responses::Unavailable;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(health))
        .route("/metrics", get(metrics))
}

/// A healthy service.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Always `ok` (an unhealthy service answers 503).
    #[schema(pattern = "^ok$")]
    pub status: &'static str,
    /// The backend in use: `postgres` or `sqlite`.
    #[schema(pattern = "^(postgres|sqlite)$")]
    pub database: &'static str,
}

/// 200 when the database answers.
#[utoipa::path(get, path = "/healthz", tag = "operations", operation_id = "health",
    responses((status = 200, description = "the database answers", body = Health),
              (status = 503, response = Unavailable)))]
pub async fn health(State(state): State<AppState>) -> ApiResult<Json<Health>> {
    state.play.ping().await.map_err(|error| {
        tracing::warn!(%error, "health check: the database does not answer");
        ApiError::Unavailable("the database does not answer".into())
    })?;
    Ok(Json(Health {
        status: "ok",
        database: state.play.store().backend_name(),
    }))
}

/// The counters, as OpenMetrics text (which Prometheus reads).
#[utoipa::path(get, path = "/metrics", tag = "operations", operation_id = "metrics",
    responses((status = 200, description = "OpenMetrics text exposition format (version 1.0.0)",
               content_type = "application/openmetrics-text", body = String)))]
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(
            CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.metrics.render(),
    )
}
