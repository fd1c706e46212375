//! The lab routes (rules §5.1): a sandbox board behind its own token.

use super::presets::PresetInfo;
use super::refs::{genome_of_dna, square};
use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::extract::{ApiJson, ApiPath, Bearer};
use crate::responses::{
    BadRequest, Conflict, Forbidden, Invalid, NotFound, TooLarge, TooManyRequests, Unauthorized,
};
use crate::schema::Id;
use crate::state::AppState;
use crate::views::{LabPly, LabView, lab_view};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use gmo_engine::{BoardSize, Color, MoveView, Square};
use gmo_genome::Genome;
use gmo_types::{GameId, LabId};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/labs", post(create))
        .route("/api/labs/{id}", get(show))
        .route("/api/labs/{id}/squares/{square}", put(place).delete(erase))
        .route("/api/labs/{id}/squares/{square}/king", post(king))
        .route("/api/labs/{id}/moves/{square}", get(moves))
        .route("/api/labs/{id}/moves", post(play))
        .route("/api/labs/{id}/promotion", post(promote))
        .route("/api/labs/{id}/preset", post(preset))
        .route("/api/labs/{id}/preset/save", post(save_preset))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewLab {
    /// Files, 4 to 8 (default 8).
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 4, maximum = 8)]
    pub width: Option<u8>,
    /// Ranks, 4 to 8 (default 8).
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 4, maximum = 8)]
    pub height: Option<u8>,
    /// A finished game whose position the lab holds (with `ply`; instead of `width`/`height`):
    /// for anyone who may read its record, outside discovery.
    #[serde(default, deserialize_with = "crate::extract::present")]
    #[schema(value_type = Option<Id>)]
    pub game: Option<String>,
    /// With `game`: the position after this many plies (0: the start), at most the game's.
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 0)]
    pub ply: Option<u32>,
}

/// A new lab: its id, its token (shown once) and the lab.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewLabAnswer {
    #[schema(value_type = Id)]
    pub id: String,
    #[schema(value_type = crate::schema::Token)]
    pub token: String,
    pub lab: LabView,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// A stored genome's code or name; or give `dna`.
    #[serde(default, deserialize_with = "crate::extract::present")]
    #[schema(value_type = crate::schema::GenomeRef)]
    pub genome: Option<crate::keys::GenomeRef>,
    /// Raw DNA (stored on the way); or give `genome`.
    #[serde(default, deserialize_with = "crate::extract::present")]
    #[schema(value_type = crate::schema::Dna)]
    pub dna: Option<String>,
    pub color: Color,
    #[serde(default)]
    pub pawn: bool,
    #[serde(default)]
    pub king: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    pub from: Square,
    pub to: Square,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Promotion {
    /// The new piece's genome: a code or name.
    #[schema(value_type = crate::schema::GenomeRef)]
    pub genome: crate::keys::GenomeRef,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadPreset {
    pub color: Color,
    #[schema(value_type = crate::schema::PresetRef)]
    pub preset: crate::keys::PresetRef,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SavePreset {
    pub color: Color,
}

/// Creates a lab: its id, its token (shown once) and its view. Empty, of `width` × `height`;
/// or holding a finished game's position after `ply` plies (`game` and `ply`).
#[utoipa::path(post, path = "/api/labs", tag = "labs", operation_id = "create_lab",
    request_body = NewLab,
    responses((status = 201, description = "the new lab", body = NewLabAnswer),
              (status = 400, response = BadRequest), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict),
              (status = 413, response = TooLarge), (status = 429, response = TooManyRequests),
              (status = 422, response = Invalid)))]
pub async fn create(
    _: crate::limits::CreationLimit,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewLab>,
) -> ApiResult<(StatusCode, Json<NewLabAnswer>)> {
    let new = match from_game(&body)? {
        Some((game, ply)) => {
            let games = &state.play.games;
            state.play.labs.create_from_game(games, &game, ply).await?
        }
        None => {
            let size = BoardSize::new(body.width.unwrap_or(8), body.height.unwrap_or(8))
                .map_err(|error| ApiError::invalid(ServiceCode::BadSize, error.to_string()))?;
            state.play.labs.create(size).await?
        }
    };
    let answer = NewLabAnswer {
        lab: lab_view(&new.id, &new.lab),
        id: new.id.to_string(),
        token: new.token,
    };
    Ok((StatusCode::CREATED, Json(answer)))
}

/// The game and ply a new lab is asked to hold, if any: both or neither, and then no size.
fn from_game(body: &NewLab) -> ApiResult<Option<(GameId, u32)>> {
    let invalid = |message: &str| Err(ApiError::invalid(ServiceCode::InvalidField, message));
    match (&body.game, body.ply) {
        (None, None) => Ok(None),
        (Some(_), _) | (_, Some(_)) if body.width.is_some() || body.height.is_some() => invalid(
            "give either `width`/`height` (an empty lab) or `game` and `ply` (a game's position)",
        ),
        (Some(game), Some(ply)) => match GameId::parse(game) {
            Ok(game) => Ok(Some((game, ply))),
            Err(_) => invalid("`game` is not a game's id"),
        },
        (Some(_), None) => invalid("`ply` is needed with `game`: 0 for the start"),
        (None, Some(_)) => invalid("`game` is needed with `ply`"),
    }
}

#[utoipa::path(get, path = "/api/labs/{id}", tag = "labs", operation_id = "get_lab",
    security(("bearer" = [])), params(("id" = Id, Path, description = "the lab's id")),
    responses((status = 200, description = "the lab", body = LabView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound)))]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<LabId>,
    Bearer(token): Bearer,
) -> ApiResult<Json<LabView>> {
    let lab = state.play.labs.open(&id, &token).await?;
    Ok(Json(lab_view(&id, &lab)))
}

/// Places a piece (replacing what was there).
#[utoipa::path(put, path = "/api/labs/{id}/squares/{square}", tag = "labs",
    operation_id = "place_lab_piece", request_body = Placement, security(("bearer" = [])),
    params(("id" = Id, Path, description = "the lab's id"), ("square" = Square, Path, description = "a square of the board")),
    responses((status = 200, description = "the lab", body = LabView),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn place(
    State(state): State<AppState>,
    ApiPath((id, at)): ApiPath<(LabId, String)>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<Placement>,
) -> ApiResult<Json<LabView>> {
    let at = square(&at)?;
    let genome = placed_genome(&state, &body).await?;
    let (lab, ()) = state
        .play
        .labs
        .change(&id, &token, |lab| {
            lab.place(at, &genome, body.color, body.pawn, body.king)
        })
        .await?;
    Ok(Json(lab_view(&id, &lab)))
}

/// The genome a placement names: a stored one, or new DNA (stored so that its code resolves).
async fn placed_genome(state: &AppState, body: &Placement) -> ApiResult<Genome> {
    match (&body.genome, &body.dna) {
        (Some(reference), None) => Ok(state.play.library.resolve(reference).await?),
        (None, Some(dna)) => {
            let genome = genome_of_dna(dna)?;
            state.play.library.put_genome(&genome).await?;
            Ok(genome)
        }
        _ => Err(ApiError::invalid(
            ServiceCode::GenomeOrDna,
            "give exactly one of `genome` (a code or name) and `dna`",
        )),
    }
}

/// Erases the piece on a square (nothing there is fine).
#[utoipa::path(delete, path = "/api/labs/{id}/squares/{square}", tag = "labs",
    operation_id = "erase_lab_piece", security(("bearer" = [])), params(("id" = Id, Path, description = "the lab's id"), ("square" = Square, Path, description = "a square of the board")),
    responses((status = 200, description = "the lab", body = LabView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict),
              (status = 422, response = Invalid)))]
pub async fn erase(
    State(state): State<AppState>,
    ApiPath((id, at)): ApiPath<(LabId, String)>,
    Bearer(token): Bearer,
) -> ApiResult<Json<LabView>> {
    let at = square(&at)?;
    let (lab, _) = state
        .play
        .labs
        .change(&id, &token, |lab| lab.erase(at))
        .await?;
    Ok(Json(lab_view(&id, &lab)))
}

/// Toggles the king flag of the piece on a square.
#[utoipa::path(post, path = "/api/labs/{id}/squares/{square}/king", tag = "labs",
    operation_id = "toggle_lab_king", security(("bearer" = [])), params(("id" = Id, Path, description = "the lab's id"), ("square" = Square, Path, description = "a square of the board")),
    responses((status = 200, description = "the lab", body = LabView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict),
              (status = 422, response = Invalid)))]
pub async fn king(
    State(state): State<AppState>,
    ApiPath((id, at)): ApiPath<(LabId, String)>,
    Bearer(token): Bearer,
) -> ApiResult<Json<LabView>> {
    let at = square(&at)?;
    let (lab, _) = state
        .play
        .labs
        .change(&id, &token, |lab| lab.toggle_king(at))
        .await?;
    Ok(Json(lab_view(&id, &lab)))
}

/// The legal moves of the piece on a square.
#[utoipa::path(get, path = "/api/labs/{id}/moves/{square}", tag = "labs",
    operation_id = "list_lab_moves", security(("bearer" = [])), params(("id" = Id, Path, description = "the lab's id"), ("square" = Square, Path, description = "a square of the board")),
    responses((status = 200, description = "its legal moves (none for an empty square)",
               body = Vec<MoveView>),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 422, response = Invalid)))]
pub async fn moves(
    State(state): State<AppState>,
    ApiPath((id, at)): ApiPath<(LabId, String)>,
    Bearer(token): Bearer,
) -> ApiResult<Json<Vec<MoveView>>> {
    let at = square(&at)?;
    Ok(Json(state.play.labs.moves(&id, &token, at).await?))
}

/// Makes a move (any piece, any time) → `{"ply", "lab"}`.
#[utoipa::path(post, path = "/api/labs/{id}/moves", tag = "labs", operation_id = "make_lab_move",
    request_body = MoveRequest, security(("bearer" = [])), params(("id" = Id, Path, description = "the lab's id")),
    responses((status = 200, description = "the ply and the lab", body = LabPly),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn play(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<LabId>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<MoveRequest>,
) -> ApiResult<Json<LabPly>> {
    let (lab, ply) = state
        .play
        .labs
        .change_storing(&id, &token, |lab| {
            let ply = lab.play(body.from, body.to)?;
            let mutant = ply.drawn.mutation.clone();
            Ok((ply, mutant))
        })
        .await?;
    Ok(Json(LabPly {
        ply: lab.move_ply_view(&ply),
        lab: lab_view(&id, &lab),
    }))
}

/// Promotes the due pawn → `{"ply", "lab"}`.
#[utoipa::path(post, path = "/api/labs/{id}/promotion", tag = "labs",
    operation_id = "promote_lab_pawn", request_body = Promotion, security(("bearer" = [])),
    params(("id" = Id, Path, description = "the lab's id")),
    responses((status = 200, description = "the ply and the lab", body = LabPly),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn promote(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<LabId>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<Promotion>,
) -> ApiResult<Json<LabPly>> {
    let genome = state.play.library.resolve(&body.genome).await?;
    let (lab, ply) = state
        .play
        .labs
        .change(&id, &token, |lab| lab.promote(&genome))
        .await?;
    Ok(Json(LabPly {
        ply: lab.promotion_ply_view(&ply),
        lab: lab_view(&id, &lab),
    }))
}

/// Fills a side's back rank from a preset, and its pawn rank with pawns.
#[utoipa::path(post, path = "/api/labs/{id}/preset", tag = "labs", operation_id = "load_lab_preset",
    request_body = LoadPreset, security(("bearer" = [])), params(("id" = Id, Path, description = "the lab's id")),
    responses((status = 200, description = "the lab", body = LabView),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn preset(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<LabId>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<LoadPreset>,
) -> ApiResult<Json<LabView>> {
    let lab = state
        .play
        .labs
        .load_preset(&id, &token, body.color, &body.preset)
        .await?;
    Ok(Json(lab_view(&id, &lab)))
}

/// Saves a side's full back rank as a preset → `{"code", "genomes"}`.
#[utoipa::path(post, path = "/api/labs/{id}/preset/save", tag = "labs",
    operation_id = "save_lab_preset", request_body = SavePreset, security(("bearer" = [])),
    params(("id" = Id, Path, description = "the lab's id")),
    responses((status = 200, description = "the stored preset", body = PresetInfo),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn save_preset(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<LabId>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<SavePreset>,
) -> ApiResult<Json<PresetInfo>> {
    let preset = state.play.labs.save_preset(&id, &token, body.color).await?;
    Ok(Json(preset.into()))
}
