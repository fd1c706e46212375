//! The game routes: creation, setup, play, the end, and the record. Every change goes through
//! [`games::change`]; handlers only parse, resolve genomes and pick the engine call.

use crate::app::AppState;
use crate::error::ApiResult;
use crate::extract::{ApiJson, ApiPath, Bearer, MaybeBearer};
use crate::games::{self, Acted, game_error, move_plies, promotion_plies};
use crate::hub::PlyViews;
use crate::metrics::Metrics;
use crate::routes::labs::{MoveRequest, Promotion};
use crate::routes::{preset_genomes, resolve_genome, square};
use crate::time::now_ms;
use crate::views::{game_view, ply_answer, viewer_of};
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use gmo_engine::{Game, MoveView, Settings, Viewer};
use gmo_store::{GameSettings, NewGame};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/preset", put(preset))
        .route("/api/games/{id}/kings/{square}", post(king))
        .route("/api/games/{id}/ready", post(ready))
        .route("/api/games/{id}/moves/{square}", get(moves))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/promotion", post(promote))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/record", get(record))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGameRequest {
    pub clock: Option<ClockRequest>,
    pub width: Option<u8>,
    pub height: Option<u8>,
    /// `bot:<spec>` gives White to a bot: `bot:random`, `bot:greedy`, `bot:search` or
    /// `bot:search:<time>` (e.g. `bot:search:200ms`); absent, a person plays it.
    pub white: Option<String>,
    /// `bot:<spec>` gives Black to a bot, as for `white`.
    pub black: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Each side's time in milliseconds (default 300000).
    pub initial_ms: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PresetRequest {
    /// A preset code or `default`.
    pub preset: String,
}

/// Creates a game → its id, the seats' tokens (shown once), an invite link per seat and its view.
#[utoipa::path(post, path = "/api/games", tag = "games", request_body = NewGameRequest,
    responses((status = 201, description = "{id, seats: {white: {token}, black: {token}}, \
invite: {white, black} (relative links `/#/game/{id}?seat=…&token=…`, null for a bot's seat), \
creator_token (a game between two bots: stops it on /abort; else null), game}"),
              (status = 422, description = "bad settings, a seat naming no known bot, or a clock \
too long for a game between bots"),
              (status = 503, description = "the deployment's live games with a bot seat are at their cap")))]
pub async fn create(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewGameRequest>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let defaults = Settings::default();
    let initial_ms = body
        .clock
        .map_or(defaults.initial_ms, |clock| clock.initial_ms);
    let settings = Settings::new(
        body.width.unwrap_or(defaults.width),
        body.height.unwrap_or(defaults.height),
        initial_ms,
    )
    .map_err(game_error)?;
    let white_bot = crate::bot::spec_of(body.white.as_deref(), "white")?;
    let black_bot = crate::bot::spec_of(body.black.as_deref(), "black")?;
    let between_bots = white_bot.is_some() && black_bot.is_some();
    if between_bots {
        crate::bot::check_clock(settings.initial_ms)?;
    }
    let mut game = Game::new(settings, rand::random()).map_err(game_error)?;
    let (bot_white, bot_black) = (white_bot.is_some(), black_bot.is_some());
    crate::bot::set_up(&mut game, bot_white, bot_black, now_ms())?;
    let token = |bot: &Option<String>| bot.is_none().then(gmo_store::new_token);
    let (white_token, black_token) = (token(&white_bot), token(&black_bot));
    // Nobody holds a seat in a game between bots: its creator may stop it with this token.
    let creator_token = between_bots.then(gmo_store::new_token);
    let stored_settings = GameSettings {
        width: settings.width.into(),
        height: settings.height.into(),
        clock_initial_ms: settings.initial_ms,
        white_bot,
        black_bot,
    };
    // A game between two bots has started already: its clock runs and its bot is to move.
    let bot_turn = crate::bot::turn(&state, &stored_settings, &game, now_ms());
    let id = state
        .store
        .create_game_within(
            &NewGame {
                settings: &stored_settings,
                white_token: white_token.as_deref().map(gmo_store::token_hash),
                black_token: black_token.as_deref().map(gmo_store::token_hash),
                status: game.status().name(),
                state: &games::row_state(&game),
                deadline_ms: game.deadline_ms(),
                bot_turn: bot_turn.clone(),
                creator_token: creator_token.as_deref().map(gmo_store::token_hash),
            },
            state.config.max_bot_games,
        )
        .await?
        .ok_or_else(|| crate::bot::full(state.config.max_bot_games))?;
    Metrics::bump(&state.metrics.games_created);
    state.timers.arm(&state, &id, game.deadline_ms());
    if let Some(turn) = &bot_turn {
        crate::bot::wake(&state, &id, turn);
    }
    let invite = |seat, token: &Option<String>| token.as_deref().map(|t| invite_link(&id, seat, t));
    let body = json!({
        "id": id,
        "invite": {"white": invite("white", &white_token), "black": invite("black", &black_token)},
        "seats": {"white": {"token": white_token}, "black": {"token": black_token}},
        "creator_token": creator_token,
        "game": game_view(&id, &game, Viewer::Spectator, now_ms()),
    });
    Ok((StatusCode::CREATED, Json(body)))
}

/// The web client's link that opens game `id` from `seat` (relative to the server's origin; the
/// token travels in the fragment, which browsers never send to a server). Tokens are hex, so
/// they need no escaping.
fn invite_link(id: &str, seat: &str, token: &str) -> String {
    format!("/#/game/{id}?seat={seat}&token={token}")
}

/// The game as the caller's seat (or a spectator, without a token) may see it.
#[utoipa::path(get, path = "/api/games/{id}", tag = "games", params(("id" = String, Path)),
    responses((status = 200, description = "the game view"), (status = 404, description = "no such game")))]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    MaybeBearer(token): MaybeBearer,
) -> ApiResult<Json<Value>> {
    let stored = games::load(&state, &id).await?;
    let viewer = games::viewer_of_token(&state, &stored, token.as_deref()).await?;
    Ok(Json(game_view(&id, &stored.state, viewer, now_ms())))
}

/// Answers a change with the game as the acting seat sees it.
fn seat_view<T>(id: &str, changed: &games::Changed<T>) -> Json<Value> {
    Json(game_view(
        id,
        &changed.game,
        viewer_of(Some(changed.seat)),
        changed.now,
    ))
}

/// Loads the seat's preset (setup only, once).
#[utoipa::path(put, path = "/api/games/{id}/preset", tag = "games", request_body = PresetRequest,
    security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, description = "the game view"), (status = 409, description = "not now")))]
pub async fn preset(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<PresetRequest>,
) -> ApiResult<Json<Value>> {
    let genomes = preset_genomes(&state, &body.preset).await?;
    let changed = games::change(&state, &id, &token, |game, seat, _| {
        game.load_preset(seat, &genomes).map_err(game_error)?;
        Ok(setup_step(()))
    })
    .await?;
    Ok(seat_view(&id, &changed))
}

fn setup_step<T>(answer: T) -> Acted<T> {
    Acted {
        answer,
        kinds: vec!["setup"],
        ply: PlyViews::default(),
    }
}

/// Toggles the king flag of one of the seat's pieces (setup only).
#[utoipa::path(post, path = "/api/games/{id}/kings/{square}", tag = "games",
    security(("bearer" = [])), params(("id" = String, Path), ("square" = String, Path)),
    responses((status = 200, description = "the game view"), (status = 409, description = "not now")))]
pub async fn king(
    State(state): State<AppState>,
    ApiPath((id, at)): ApiPath<(String, String)>,
    Bearer(token): Bearer,
) -> ApiResult<Json<Value>> {
    let at = square(&at)?;
    let changed = games::change(&state, &id, &token, |game, seat, _| {
        game.toggle_king(seat, at)
            .map_err(game_error)
            .map(setup_step)
    })
    .await?;
    Ok(seat_view(&id, &changed))
}

/// Declares the seat ready; the game starts when both are.
#[utoipa::path(post, path = "/api/games/{id}/ready", tag = "games", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, description = "the game view"), (status = 409, description = "not now")))]
pub async fn ready(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    Bearer(token): Bearer,
) -> ApiResult<Json<Value>> {
    let changed = games::change(&state, &id, &token, |game, seat, now| {
        game.ready(seat, now).map_err(game_error)?;
        let mut acted = setup_step(());
        if game.started_ms().is_some() {
            acted.kinds = with_end(game, vec!["start"]);
        }
        Ok(acted)
    })
    .await?;
    Ok(seat_view(&id, &changed))
}

/// `kinds` plus `"end"` when the game is over.
fn with_end(game: &Game, mut kinds: Vec<&'static str>) -> Vec<&'static str> {
    if game.is_over() {
        kinds.push("end");
    }
    kinds
}

/// The legal moves of the piece on a square, either side's.
#[utoipa::path(get, path = "/api/games/{id}/moves/{square}", tag = "games",
    params(("id" = String, Path), ("square" = String, Path)),
    responses((status = 200, description = "a list of move views")))]
pub async fn moves(
    State(state): State<AppState>,
    ApiPath((id, at)): ApiPath<(String, String)>,
    MaybeBearer(token): MaybeBearer,
) -> ApiResult<Json<Vec<MoveView>>> {
    let at = square(&at)?;
    let stored = games::load(&state, &id).await?;
    games::viewer_of_token(&state, &stored, token.as_deref()).await?;
    if !stored.state.position().size().contains(at) {
        return Err(game_error(gmo_engine::GameError::NotOnBoard(at)));
    }
    Ok(Json(stored.state.move_views(at)))
}

/// Makes a move → `{"ply", "game"}`.
#[utoipa::path(post, path = "/api/games/{id}/moves", tag = "games", request_body = MoveRequest,
    security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, description = "{ply, game}"), (status = 409, description = "not legal now")))]
pub async fn play(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<MoveRequest>,
) -> ApiResult<Json<Value>> {
    let changed = games::change(&state, &id, &token, |game, seat, now| {
        let ply = game
            .play(seat, body.from, body.to, now)
            .map_err(game_error)?;
        let mut kinds = vec!["move"];
        if ply.froze && !game.is_over() {
            kinds.push("clock");
        }
        Ok(Acted {
            ply: move_plies(game, &ply, seat),
            kinds: with_end(game, kinds),
            answer: ply,
        })
    })
    .await?;
    let viewer = viewer_of(Some(changed.seat));
    let ply = changed
        .game
        .move_ply_view(&changed.answer, changed.seat, viewer);
    let game = game_view(&id, &changed.game, viewer, changed.now);
    Ok(Json(ply_answer(json!(ply), game)))
}

/// Promotes the due pawn → `{"ply", "game"}`.
#[utoipa::path(post, path = "/api/games/{id}/promotion", tag = "games", request_body = Promotion,
    security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, description = "{ply, game}"), (status = 409, description = "none due")))]
pub async fn promote(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<Promotion>,
) -> ApiResult<Json<Value>> {
    let genome = resolve_genome(&state, &body.genome).await?;
    let changed = games::change(&state, &id, &token, |game, seat, now| {
        let ply = game.promote(seat, &genome, now).map_err(game_error)?;
        Ok(Acted {
            ply: promotion_plies(game, &ply),
            kinds: with_end(game, vec!["promotion"]),
            answer: ply,
        })
    })
    .await?;
    let viewer = viewer_of(Some(changed.seat));
    let ply = changed.game.promotion_ply_view(&changed.answer, viewer);
    let game = game_view(&id, &changed.game, viewer, changed.now);
    Ok(Json(ply_answer(json!(ply), game)))
}

fn ending<T>(answer: T) -> Acted<T> {
    Acted {
        answer,
        kinds: vec!["end"],
        ply: PlyViews::default(),
    }
}

/// Resigns: the seat loses.
#[utoipa::path(post, path = "/api/games/{id}/resign", tag = "games", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, description = "the game view"), (status = 409, description = "not in progress")))]
pub async fn resign(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    Bearer(token): Bearer,
) -> ApiResult<Json<Value>> {
    let changed = games::change(&state, &id, &token, |game, seat, now| {
        game.resign(seat, now).map_err(game_error).map(ending)
    })
    .await?;
    Ok(seat_view(&id, &changed))
}

/// Calls the game off: a seat before White's first move; the creator of a game between bots,
/// with the `creator_token` it was given, at any time before the end.
#[utoipa::path(post, path = "/api/games/{id}/abort", tag = "games", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, description = "the game view"), (status = 409, description = "too late")))]
pub async fn abort(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    Bearer(token): Bearer,
) -> ApiResult<Json<Value>> {
    if games::is_creator(&state, &id, &token).await? {
        let changed = games::stop_as_creator(&state, &id, &token).await?;
        let view = game_view(&id, &changed.game, Viewer::Spectator, changed.now);
        return Ok(Json(view));
    }
    let changed = games::change(&state, &id, &token, |game, seat, now| {
        game.abort(seat, now).map_err(game_error).map(ending)
    })
    .await?;
    Ok(seat_view(&id, &changed))
}

/// The full record, every genome included, once the game is over (409 before): `plies` as
/// docs/service.md spells them, `replay` the engine's self-contained record (`gmo_engine::replay`).
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games", params(("id" = String, Path)),
    responses((status = 200, description = "{id, status, reason, plies: [move view + landed, \
mutated_to | {promotion, genome}], replay: <engine record>, game}"),
              (status = 409, description = "the game is not over")))]
pub async fn record(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    MaybeBearer(token): MaybeBearer,
) -> ApiResult<Json<Value>> {
    let stored = games::load(&state, &id).await?;
    games::viewer_of_token(&state, &stored, token.as_deref()).await?;
    games::require_over(&stored.state)?;
    let game = &stored.state;
    let replay = game.record();
    Ok(Json(json!({
        "id": id,
        "status": game.status(),
        "reason": game.reason(),
        "plies": crate::record::plies(&replay)?,
        "replay": replay,
        "game": game_view(&id, game, Viewer::Spectator, now_ms()),
    })))
}
