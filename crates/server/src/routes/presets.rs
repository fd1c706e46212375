//! `POST /api/presets`, `GET /api/presets/{reference}`.

use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath};
use crate::responses::{BadRequest, Invalid, NotFound, TooLarge, TooManyRequests};
use crate::schema::PresetRef;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use gmo_engine::BoardSize;
use gmo_engine::RefusalCode;
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
    /// One genome code or name per file, file a first: 4 to 8 of them.
    #[schema(value_type = Vec<crate::schema::GenomeRef>, min_items = 4, max_items = 8)]
    pub genomes: Vec<crate::keys::GenomeRef>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PresetInfo {
    #[schema(value_type = gmo_engine::openapi::CodeSchema)]
    pub code: String,
    /// Genome codes, file a first.
    #[schema(value_type = Vec<gmo_engine::openapi::CodeSchema>, min_items = 4, max_items = 8)]
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
#[utoipa::path(post, path = "/api/presets", tag = "presets", operation_id = "create_preset",
    request_body = NewPreset,
    responses((status = 201, description = "stored now", body = PresetInfo),
              (status = 200, description = "stored already", body = PresetInfo),
              (status = 400, response = BadRequest), (status = 404, response = NotFound),
              (status = 413, response = TooLarge), (status = 429, response = TooManyRequests), (status = 422, response = Invalid)))]
pub async fn create(
    _: crate::limits::CreationLimit,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewPreset>,
) -> ApiResult<(StatusCode, Json<PresetInfo>)> {
    let width = body.genomes.len();
    if !(usize::from(BoardSize::MIN)..=usize::from(BoardSize::MAX)).contains(&width) {
        return Err(ApiError::invalid(
            RefusalCode::PresetLength,
            format!(
                "a preset holds one genome per file: {} to {} genomes, not {width}",
                BoardSize::MIN,
                BoardSize::MAX
            ),
        ));
    }
    let (preset, created) = state.play.library.put_preset(&body.genomes, width).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(preset.into())))
}

/// A preset by code or name (`default` always exists).
#[utoipa::path(get, path = "/api/presets/{reference}", tag = "presets", operation_id = "get_preset",
    params(("reference" = PresetRef, Path, description = "a preset code or `default`")),
    responses((status = 200, description = "the preset", body = PresetInfo),
              (status = 404, response = NotFound)))]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(reference): ApiPath<crate::keys::PresetRef>,
) -> ApiResult<Json<PresetInfo>> {
    Ok(Json(state.play.library.preset(&reference).await?.into()))
}
