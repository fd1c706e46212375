//! The game routes: creation, setup, play, the end, and the record. Handlers read the request,
//! call the game service (`gmo_play::Games`) and render what it answers.

use super::labs::{MoveRequest, Promotion};
use super::refs::square;
use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath, Bearer, MaybeBearer};
use crate::record::GameRecordView;
use crate::responses::{
    BadRequest, Conflict, Forbidden, Invalid, NotFound, TooLarge, TooManyRequests, Unauthorized,
    Unavailable,
};
use crate::schema::Id;
use crate::signed::MaybeSigned;
use crate::state::AppState;
use crate::views::{GamePly, GameView, Who, changed_view, game_view, seen_view};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use gmo_engine::{MoveView, Square, Viewer};
use gmo_play::{NewGameRequest as NewGame, now};
use gmo_types::{GameId, Millis};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", post(create).get(super::watch::live))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/preset", put(preset))
        .route("/api/games/{id}/kings/{square}", post(king))
        .route("/api/games/{id}/ready", post(ready))
        .route("/api/games/{id}/moves/{square}", get(moves))
        .route("/api/games/{id}/legal", get(legal))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/promotion", post(promote))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/record", get(record))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGameRequest {
    /// The clock (absent: 5 minutes a side).
    pub clock: Option<ClockRequest>,
    /// Files, 4 to 8 (default 8).
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 4, maximum = 8)]
    pub width: Option<u8>,
    /// Ranks, 4 to 8 (default 8).
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 4, maximum = 8)]
    pub height: Option<u8>,
    /// `bot:<spec>` gives White to a bot: `bot:random`, `bot:greedy`, `bot:search` or
    /// `bot:search:<time>` (e.g. `bot:search:200ms`); absent, a person plays it. Bots play on
    /// boards as wide as their presets (8 or 5 files).
    #[schema(value_type = Option<crate::schema::BotSeat>)]
    pub white: Option<String>,
    /// `bot:<spec>` gives Black to a bot, as for `white`.
    #[schema(value_type = Option<crate::schema::BotSeat>)]
    pub black: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Each side's time in milliseconds, 1 ms to a week.
    #[serde(deserialize_with = "crate::extract::whole_number")]
    #[schema(minimum = 1, maximum = 604_800_000, example = 300_000)]
    pub initial_ms: i64,
    /// Added to a side's clock after each of its moves, 0 to 60000 ms (default 0).
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 0, maximum = 60_000, example = 2_000)]
    pub increment_ms: Option<i64>,
}

impl ClockRequest {
    /// Each side's time and the increment.
    pub fn millis(&self) -> (Millis, Option<Millis>) {
        (
            Millis::from_ms(self.initial_ms),
            self.increment_ms.map(Millis::from_ms),
        )
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PresetRequest {
    #[schema(value_type = crate::schema::PresetRef)]
    pub preset: crate::keys::PresetRef,
}

/// A new game: its id, each seat's token (shown once) and invite link, and the game.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewGameAnswer {
    #[schema(value_type = crate::schema::Id)]
    pub id: String,
    pub seats: SeatTokens,
    pub invite: Invites,
    /// For a game between two bots, the token that stops it (`POST /api/games/{id}/abort`);
    /// `null` otherwise. Shown once.
    #[schema(value_type = Option<crate::schema::Token>)]
    pub creator_token: Option<String>,
    pub game: GameView,
}

/// Each seat's token: keep one, hand the other to the opponent.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatTokens {
    pub white: SeatToken,
    pub black: SeatToken,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SeatToken {
    /// `null` for a bot's seat.
    #[schema(value_type = Option<crate::schema::Token>)]
    pub token: Option<String>,
}

/// The web page's link for each seat (relative to the server, `/#/game/{id}?seat=…&token=…`);
/// `null` for a bot's seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct Invites {
    pub white: Option<String>,
    pub black: Option<String>,
}

/// Creates a game → its id, the seats' tokens (shown once), an invite link per seat and its view.
#[utoipa::path(post, path = "/api/games", tag = "games", operation_id = "create_game",
    request_body = NewGameRequest,
    responses((status = 201, description = "the new game", body = NewGameAnswer),
              (status = 400, response = BadRequest), (status = 413, response = TooLarge), (status = 429, response = TooManyRequests),
              (status = 422, response = Invalid), (status = 503, response = Unavailable)))]
pub async fn create(
    _: crate::limits::CreationLimit,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewGameRequest>,
) -> ApiResult<(StatusCode, Json<NewGameAnswer>)> {
    let request = NewGame {
        width: body.width,
        height: body.height,
        clock: body.clock.map(|clock| clock.millis()),
        white: body.white,
        black: body.black,
    };
    let created = state.play.games.create(request).await?;
    let id = &created.id;
    let invite = |seat, token: &Option<String>| token.as_deref().map(|t| invite_link(id, seat, t));
    let answer = NewGameAnswer {
        invite: Invites {
            white: invite("white", &created.white_token),
            black: invite("black", &created.black_token),
        },
        game: game_view(
            id,
            &created.game,
            created.joined,
            Viewer::Spectator,
            now(),
            &Who::nobody(),
        ),
        id: id.to_string(),
        seats: SeatTokens {
            white: SeatToken {
                token: created.white_token,
            },
            black: SeatToken {
                token: created.black_token,
            },
        },
        creator_token: created.creator_token,
    };
    Ok((StatusCode::CREATED, Json(answer)))
}

/// The web client's link that opens game `id` from `seat` (relative to the server's origin; the
/// token travels in the fragment, which browsers never send to a server). Tokens are hex, so
/// they need no escaping.
fn invite_link(id: &GameId, seat: &str, token: &str) -> String {
    format!("/#/game/{id}?seat={seat}&token={token}")
}

/// The game as the caller's seat (or a spectator, without a token) may see it. Opened with a
/// seat's token while signed in, the seat becomes the account's (if it has none, is no bot's,
/// the game is not over and the other seat is not the same account's).
#[utoipa::path(get, path = "/api/games/{id}", tag = "games", operation_id = "get_game",
    params(("id" = Id, Path, description = "the game's id")), security(("bearer" = []), ()),
    responses((status = 200, description = "the game as the caller may see it", body = GameView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound)))]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    MaybeBearer(token): MaybeBearer,
    MaybeSigned(caller): MaybeSigned,
) -> ApiResult<Json<GameView>> {
    let games = &state.play.games;
    let seen = match (&token, &caller) {
        (Some(token), Some(caller)) => games.show_linked(&id, token, &caller.account).await?,
        _ => games.show(&id, token.as_deref()).await?,
    };
    Ok(Json(seen_view(&seen, now())))
}

/// Loads the seat's preset (setup only, once).
#[utoipa::path(put, path = "/api/games/{id}/preset", tag = "games", operation_id = "load_game_preset",
    request_body = PresetRequest, security(("bearer" = [])),
    params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the game as the seat sees it", body = GameView),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn preset(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<PresetRequest>,
) -> ApiResult<Json<GameView>> {
    let genomes = state.play.library.preset_genomes(&body.preset).await?;
    let changed = state.play.games.load_preset(&id, &token, &genomes).await?;
    Ok(Json(changed_view(&changed)))
}

/// Toggles the king flag of one of the seat's pieces (setup only).
#[utoipa::path(post, path = "/api/games/{id}/kings/{square}", tag = "games",
    operation_id = "toggle_game_king", security(("bearer" = [])),
    params(("id" = Id, Path, description = "the game's id"),
           ("square" = Square, Path, description = "the square of one of the seat's pieces")),
    responses((status = 200, description = "the game as the seat sees it", body = GameView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict),
              (status = 422, response = Invalid)))]
pub async fn king(
    State(state): State<AppState>,
    ApiPath((id, at)): ApiPath<(GameId, String)>,
    Bearer(token): Bearer,
) -> ApiResult<Json<GameView>> {
    let at = square(&at)?;
    let changed = state.play.games.toggle_king(&id, &token, at).await?;
    Ok(Json(changed_view(&changed)))
}

/// Declares the seat ready; the game starts when both are.
#[utoipa::path(post, path = "/api/games/{id}/ready", tag = "games", operation_id = "declare_ready",
    security(("bearer" = [])), params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the game as the seat sees it", body = GameView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict)))]
pub async fn ready(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
) -> ApiResult<Json<GameView>> {
    let changed = state.play.games.ready(&id, &token).await?;
    Ok(Json(changed_view(&changed)))
}

/// The legal moves of the piece on a square, either side's.
#[utoipa::path(get, path = "/api/games/{id}/moves/{square}", tag = "games",
    operation_id = "list_game_moves", security(("bearer" = []), ()),
    params(("id" = Id, Path, description = "the game's id"),
           ("square" = Square, Path, description = "the square of the piece")),
    responses((status = 200, description = "its legal moves (none for an empty square)",
               body = Vec<MoveView>),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 422, response = Invalid)))]
pub async fn moves(
    State(state): State<AppState>,
    ApiPath((id, at)): ApiPath<(GameId, String)>,
    MaybeBearer(token): MaybeBearer,
) -> ApiResult<Json<Vec<MoveView>>> {
    let at = square(&at)?;
    let moves = state.play.games.moves(&id, token.as_deref(), at).await?;
    Ok(Json(moves))
}

/// Every legal move of the side to move, and the promotion choices: what an agent's `turn`
/// carries (docs/agents.md).
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMoves {
    /// Every legal move of the side to move (empty while a promotion is due, or outside play).
    pub legal: Vec<MoveView>,
    /// While a pawn is due for promotion, the names of the genomes offered for it (any stored
    /// genome may be given); else `null`.
    pub promotion: Option<Vec<String>>,
}

/// Every legal move of the side to move and the promotion choices, for a seat.
#[utoipa::path(get, path = "/api/games/{id}/legal", tag = "games",
    operation_id = "list_game_legal_moves", security(("bearer" = [])),
    params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the side to move's legal moves and promotion choices",
               body = LegalMoves),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 422, response = Invalid)))]
pub async fn legal(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
) -> ApiResult<Json<LegalMoves>> {
    let legal = state.play.games.legal(&id, &token).await?;
    Ok(Json(LegalMoves {
        legal: legal.moves,
        promotion: legal
            .promotion
            .map(|names| names.iter().map(|name| name.to_string()).collect()),
    }))
}

/// Makes a move → `{"ply", "game"}`.
#[utoipa::path(post, path = "/api/games/{id}/moves", tag = "games", operation_id = "make_game_move",
    request_body = MoveRequest, security(("bearer" = [])),
    params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the ply as the seat sees it, and the game", body = GamePly),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn play(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<MoveRequest>,
) -> ApiResult<Json<GamePly>> {
    let changed = state
        .play
        .games
        .play(&id, &token, body.from, body.to)
        .await?;
    Ok(Json(ply_answer(&changed)?))
}

/// Answers a ply with the ply and the game as the acting seat sees them.
fn ply_answer(changed: &gmo_play::Changed) -> ApiResult<GamePly> {
    let ply = changed
        .ply_view()
        .ok_or_else(|| ApiError::internal("a move or promotion that made no ply"))?;
    Ok(GamePly {
        ply,
        game: changed_view(changed),
    })
}

/// Promotes the due pawn → `{"ply", "game"}`.
#[utoipa::path(post, path = "/api/games/{id}/promotion", tag = "games",
    operation_id = "promote_game_pawn", request_body = Promotion, security(("bearer" = [])),
    params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the ply as the seat sees it, and the game", body = GamePly),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn promote(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<Promotion>,
) -> ApiResult<Json<GamePly>> {
    let genome = state.play.library.resolve(&body.genome).await?;
    let changed = state.play.games.promote(&id, &token, &genome).await?;
    Ok(Json(ply_answer(&changed)?))
}

/// Resigns: the seat loses.
#[utoipa::path(post, path = "/api/games/{id}/resign", tag = "games", operation_id = "resign_game",
    security(("bearer" = [])), params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the game, over", body = GameView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict)))]
pub async fn resign(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
) -> ApiResult<Json<GameView>> {
    let changed = state.play.games.resign(&id, &token).await?;
    Ok(Json(changed_view(&changed)))
}

/// Calls the game off: a seat before White's first move; the creator of a game between bots,
/// with the `creator_token` it was given, at any time before the end.
#[utoipa::path(post, path = "/api/games/{id}/abort", tag = "games", operation_id = "abort_game",
    security(("bearer" = [])), params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the game, aborted", body = GameView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict)))]
pub async fn abort(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
) -> ApiResult<Json<GameView>> {
    let changed = state.play.games.abort(&id, &token).await?;
    Ok(Json(changed_view(&changed)))
}

/// Claims the victory when the opponent has left: no stream of its seat for a minute (its
/// game page closed; a bot never leaves). The game ends, the caller wins, reason `abandoned`.
/// Refused with `409 opponent_present`, saying how long is left, before that.
#[utoipa::path(post, path = "/api/games/{id}/claim", tag = "games", operation_id = "claim_victory",
    security(("bearer" = [])), params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the game, won by the caller", body = GameView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict)))]
pub async fn claim(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
) -> ApiResult<Json<GameView>> {
    let changed = state.play.games.claim_victory(&id, &token).await?;
    Ok(Json(changed_view(&changed)))
}

/// The full record, every genome included, once the game is over (409 before): `plies` as
/// docs/service.md spells them, `replay` the engine's self-contained record (`gmo_engine::replay`).
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games", operation_id = "get_game_record",
    security(("bearer" = []), ()), params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the whole record", body = GameRecordView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict)))]
pub async fn record(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    MaybeBearer(token): MaybeBearer,
) -> ApiResult<Json<GameRecordView>> {
    let seen = state.play.games.finished(&id, token.as_deref()).await?;
    let game = &seen.game;
    // In discovery the record shows what the caller may see, as the game did; else everything.
    let secret = game.settings().discovery;
    let viewer = if secret {
        seen.viewer
    } else {
        Viewer::Spectator
    };
    let replay = game.record();
    Ok(Json(GameRecordView {
        status: game.status(),
        reason: game.reason(),
        plies: if secret {
            crate::record::plies_seen(game, viewer)?
        } else {
            crate::record::plies(&replay)?
        },
        replay: (!secret).then_some(replay),
        game: GameView {
            version: seen.version,
            ..game_view(&id, game, seen.joined, viewer, now(), &Who::of(&seen))
        },
        id: id.to_string(),
    }))
}
