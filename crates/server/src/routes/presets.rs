//! `POST /api/presets`, `GET /api/presets/{reference}`.

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath};
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use gmo_engine::BoardSize;
use gmo_store::StoredPreset;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/presets", post(create))
        .route("/api/presets/{reference}", get(show))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPreset {
    /// One genome code or name per file, file a first.
    pub genomes: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PresetInfo {
    pub code: String,
    /// Genome codes, file a first.
    pub genomes: Vec<String>,
}

impl From<StoredPreset> for PresetInfo {
    fn from(preset: StoredPreset) -> PresetInfo {
        PresetInfo {
            code: preset.code.to_string(),
            genomes: preset.genomes.iter().map(ToString::to_string).collect(),
        }
    }
}

/// Stores a preset for a board as wide as it has genomes: 201 when new, 200 when already stored.
#[utoipa::path(post, path = "/api/presets", tag = "presets", request_body = NewPreset,
    responses((status = 201, body = PresetInfo), (status = 200, body = PresetInfo),
              (status = 404, description = "a genome is not stored"),
              (status = 422, description = "not a board's width of genomes")))]
pub async fn create(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewPreset>,
) -> ApiResult<(StatusCode, Json<PresetInfo>)> {
    let width = body.genomes.len();
    if !(usize::from(BoardSize::MIN)..=usize::from(BoardSize::MAX)).contains(&width) {
        return Err(ApiError::invalid(
            "preset_length",
            format!(
                "a preset holds one genome per file: {} to {} genomes, not {width}",
                BoardSize::MIN,
                BoardSize::MAX
            ),
        ));
    }
    let (preset, created) = state.store.put_preset(&body.genomes, width).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(preset.into())))
}

/// A preset by code or name (`default` always exists).
#[utoipa::path(get, path = "/api/presets/{reference}", tag = "presets",
    params(("reference" = String, Path, description = "a preset code or `default`")),
    responses((status = 200, body = PresetInfo), (status = 404, description = "not stored")))]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(reference): ApiPath<String>,
) -> ApiResult<Json<PresetInfo>> {
    Ok(Json(state.store.preset(&reference).await?.into()))
}
