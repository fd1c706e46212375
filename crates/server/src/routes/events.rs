//! Events (`gmo_play::events`): the organiser creates an event and its teams, starts it and
//! pairs its rounds; teams join by code, set their lineups and find their game; everyone reads
//! the event, its standings as CSV, and its stream. docs/events.md.

use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::{ApiJson, ApiPath, Bearer};
use crate::limits::CreationLimit;
use crate::responses::{
    BadRequest, Conflict, Forbidden, Invalid, NotFound, TooLarge, TooManyRequests, Unauthorized,
};
use crate::routes::games::ClockRequest;
use crate::schema::{Id, Token};
use crate::signed::Signed;
use crate::state::AppState;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use gmo_engine::{Color, Square};
use gmo_events::Outcome;
use gmo_play::events::{
    EventFollow, EventNews, EventRequest, EventView, PairingView, RoundView, Standing,
};
use gmo_types::{EventFormat, EventId, EventStatus, TeamId};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use tokio::sync::watch;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/events", post(create))
        .route("/api/events/{id}", get(show))
        .route("/api/events/{id}/teams", post(add_team))
        .route("/api/events/{id}/join", post(join))
        .route("/api/events/{id}/lineup", put(lineup))
        .route("/api/events/{id}/start", post(start))
        .route("/api/events/{id}/rounds", post(next_round))
        .route("/api/events/{id}/game", get(team_game))
        .route("/api/events/{id}/standings.csv", get(standings_csv))
        .route("/api/events/{id}/trf", get(super::events_trf::trf))
}

/// The event's stream, long-lived (outside the request timeout).
pub fn stream_router() -> Router<AppState> {
    Router::new().route("/api/events/{id}/stream", get(stream))
}

/// A new event.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEventRequest {
    /// 1 to 80 characters.
    #[schema(min_length = 1, max_length = 80)]
    pub name: String,
    pub format: EventFormat,
    /// Swiss only: how many rounds, 1 to 20.
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 1, maximum = 20)]
    pub rounds: Option<u32>,
    /// Round robin only: each pair of teams meets twice, colours swapped.
    #[serde(default)]
    pub double: bool,
    /// Every game's clock.
    pub clock: ClockRequest,
    /// The event's games keep the genome language secret (discovery mode).
    #[serde(default)]
    pub discovery: bool,
}

/// A new team's name.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTeamRequest {
    /// 1 to 40 characters, unique in the event without regard to case.
    #[schema(min_length = 1, max_length = 40)]
    pub name: String,
}

/// A join code.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The team's join code, as the organiser handed it out; capitals, spaces and dashes are
    /// ignored ("ABCD-EFGH JKMN" is `abcdefghjkmn`); any other character is `422`.
    #[schema(
        min_length = 8,
        max_length = 64,
        pattern = r"^[ -]*[A-Za-z0-9][A-Za-z0-9 -]*(?!\n)$"
    )]
    pub code: String,
}

/// A team's lineup: what each of its following games starts with.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineupRequest {
    #[schema(value_type = crate::schema::PresetRef)]
    pub preset: crate::keys::PresetRef,
    /// The king squares on the back rank as White sees it (rank 1); a team playing Black has
    /// them mirrored (d1 → d8). 1 to 8 squares.
    #[schema(min_items = 1, max_items = 8)]
    pub kings: Vec<Square>,
}

/// A new event: its id and the event.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewEventAnswer {
    #[schema(value_type = Id)]
    pub id: EventId,
    pub event: EventJson,
}

/// A team just added, with its join code (shown once: hand it to the team).
#[derive(Debug, Serialize, ToSchema)]
pub struct NewTeamAnswer {
    #[schema(value_type = Id)]
    pub id: TeamId,
    pub name: String,
    /// The secret join code (12 characters; stored hashed).
    pub code: String,
}

/// The team joined, and its token, with which any member acts for the team.
#[derive(Debug, Serialize, ToSchema)]
pub struct JoinAnswer {
    #[schema(value_type = Id)]
    pub team: TeamId,
    #[schema(value_type = Token)]
    pub token: String,
}

/// A team's lineup as set.
#[derive(Debug, Serialize, ToSchema)]
pub struct LineupAnswer {
    #[schema(value_type = Id)]
    pub team: TeamId,
    /// The preset's code.
    pub preset: String,
    pub kings: Vec<Square>,
}

/// The team's game of the current round.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamGameAnswer {
    #[schema(value_type = Id)]
    pub game: String,
    pub seat: Color,
    /// The seat's token for the game's routes (the team's own).
    #[schema(value_type = Token)]
    pub token: String,
}

/// An event's clock.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClockJson {
    pub initial_ms: i64,
    pub increment_ms: i64,
}

/// A team as everyone sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamJson {
    #[schema(value_type = Id)]
    pub id: TeamId,
    pub name: String,
}

/// A board's result.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResultJson {
    White,
    Black,
    Draw,
}

/// A board of a round.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairingJson {
    #[schema(value_type = Id)]
    pub white: TeamId,
    /// `null`: a bye for White (a point).
    #[schema(value_type = Option<Id>)]
    pub black: Option<TeamId>,
    /// `null` for a bye.
    #[schema(value_type = Option<Id>)]
    pub game: Option<String>,
    /// `null` while the game goes on, and for a bye.
    pub result: Option<ResultJson>,
}

/// A round and its boards.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundJson {
    pub number: u32,
    pub pairings: Vec<PairingJson>,
}

/// A line of the standings, best first.
#[derive(Debug, Serialize, ToSchema)]
pub struct StandingJson {
    #[schema(value_type = Id)]
    pub team: TeamId,
    /// A win 1, a draw ½, a bye 1.
    pub points: f64,
    /// Sonneborn–Berger.
    pub tiebreak: f64,
    /// Games played to a result (byes not counted).
    pub played: u32,
}

/// An event as everyone sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventJson {
    #[schema(value_type = Id)]
    pub id: EventId,
    pub name: String,
    /// The organiser's username.
    pub organiser: String,
    pub format: EventFormat,
    pub status: EventStatus,
    pub discovery: bool,
    /// Round robin: each pair meets twice.
    pub double: bool,
    pub clock: ClockJson,
    /// How many rounds it has: a Swiss event's as asked (fewer if no pairing was left); a
    /// round robin's once it has started (`null` before).
    pub rounds_planned: Option<u32>,
    pub teams: Vec<TeamJson>,
    pub rounds: Vec<RoundJson>,
    pub standings: Vec<StandingJson>,
}

/// What a line of an event's stream says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventLineType {
    /// The first line: the event (`event`).
    Event,
    /// A round was paired (`round`).
    Round,
    /// A board got its result (`round` is its number, `pairing` the board).
    Result,
    /// The standings changed (`standings`).
    Standings,
    /// The event's status changed (`status`): it finished.
    Status,
}

/// One line of an event's stream.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventLine {
    #[serde(rename = "type")]
    pub kind: EventLineType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<EventJson>,
    /// On `round`: the round; on `result`: its number.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub round: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairing: Option<PairingJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standings: Option<Vec<StandingJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<EventStatus>,
}

fn outcome(result: Outcome) -> ResultJson {
    match result {
        Outcome::White => ResultJson::White,
        Outcome::Black => ResultJson::Black,
        Outcome::Draw => ResultJson::Draw,
    }
}

fn pairing_json(pairing: &PairingView) -> PairingJson {
    PairingJson {
        white: pairing.white.clone(),
        black: pairing.black.clone(),
        game: pairing.game.as_ref().map(ToString::to_string),
        result: pairing.result.map(outcome),
    }
}

fn round_json(round: &RoundView) -> RoundJson {
    RoundJson {
        number: round.number,
        pairings: round.pairings.iter().map(pairing_json).collect(),
    }
}

fn standings_json(standings: &[Standing]) -> Vec<StandingJson> {
    standings
        .iter()
        .map(|line| StandingJson {
            team: line.team.clone(),
            points: f64::from(line.half_points) / 2.0,
            tiebreak: f64::from(line.quarter_tiebreak) / 4.0,
            played: line.played,
        })
        .collect()
}

/// The event as everyone sees it.
pub fn event_json(view: &EventView) -> EventJson {
    let event = &view.event;
    EventJson {
        id: event.id.clone(),
        name: event.name.clone(),
        organiser: event.organiser_name.clone(),
        format: event.format,
        status: view.status,
        discovery: event.discovery,
        double: event.double,
        clock: ClockJson {
            initial_ms: event.initial.ms(),
            increment_ms: event.increment.ms(),
        },
        rounds_planned: event.rounds,
        teams: view
            .teams
            .iter()
            .map(|team| TeamJson {
                id: team.id.clone(),
                name: team.name.clone(),
            })
            .collect(),
        rounds: view.rounds.iter().map(round_json).collect(),
        standings: standings_json(&view.standings),
    }
}

/// Creates an event; the caller (signed in: a session, or a personal token with the `events`
/// scope) is its organiser. An organiser has at most 10 events not finished at once.
#[utoipa::path(post, path = "/api/events", tag = "events", operation_id = "create_event",
    request_body = NewEventRequest, security(("session" = []), ("bearer" = [])),
    responses((status = 201, description = "the new event", body = NewEventAnswer),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 409, response = Conflict),
              (status = 413, response = TooLarge), (status = 422, response = Invalid),
              (status = 429, response = TooManyRequests)))]
pub async fn create(
    _: CreationLimit,
    State(state): State<AppState>,
    Signed(caller): Signed,
    ApiJson(body): ApiJson<NewEventRequest>,
) -> ApiResult<impl IntoResponse> {
    let request = EventRequest {
        name: body.name,
        format: body.format,
        rounds: body.rounds,
        double: body.double,
        clock: body.clock.millis(),
        discovery: body.discovery,
    };
    let events = &state.play.events;
    let id = events.create(&caller, &request).await?;
    let view = events.view(&id).await?;
    let answer = NewEventAnswer {
        id,
        event: event_json(&view),
    };
    Ok((StatusCode::CREATED, Json(answer)))
}

/// The event: its teams, rounds with results, and standings.
#[utoipa::path(get, path = "/api/events/{id}", tag = "events", operation_id = "show_event",
    params(("id" = Id, Path, description = "the event's id")),
    responses((status = 200, description = "the event", body = EventJson),
              (status = 400, response = BadRequest), (status = 404, response = NotFound)))]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
) -> ApiResult<Json<EventJson>> {
    let view = state.play.events.view(&id).await?;
    Ok(Json(event_json(&view)))
}

/// Adds a team (organiser, in registration; at most 64) → its join code, shown once.
#[utoipa::path(post, path = "/api/events/{id}/teams", tag = "events", operation_id = "add_team",
    params(("id" = Id, Path, description = "the event's id")), request_body = NewTeamRequest,
    security(("session" = []), ("bearer" = [])),
    responses((status = 201, description = "the team and its join code", body = NewTeamAnswer),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn add_team(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
    Signed(caller): Signed,
    ApiJson(body): ApiJson<NewTeamRequest>,
) -> ApiResult<impl IntoResponse> {
    let added = state.play.events.add_team(&caller, &id, &body.name).await?;
    let answer = NewTeamAnswer {
        id: added.id,
        name: added.name,
        code: added.code,
    };
    Ok((StatusCode::CREATED, Json(answer)))
}

/// Joins a team by its code → the team's token, with which any member acts for the team.
#[utoipa::path(post, path = "/api/events/{id}/join", tag = "events", operation_id = "join_team",
    params(("id" = Id, Path, description = "the event's id")), request_body = JoinRequest,
    responses((status = 200, description = "the team and its token", body = JoinAnswer),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 404, response = NotFound), (status = 413, response = TooLarge),
              (status = 422, response = Invalid), (status = 429, response = TooManyRequests)))]
pub async fn join(
    _: CreationLimit,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
    ApiJson(body): ApiJson<JoinRequest>,
) -> ApiResult<Json<JoinAnswer>> {
    // Capitals, spaces and dashes are how people type a code (gmo_play's `typed_code`); any
    // other character is no code at all, and is told so rather than "no such code". The length
    // is in characters, as the document's `maxLength` counts them.
    let typed = gmo_play::events::typed_code(&body.code);
    if body.code.chars().count() > 64
        || typed.is_empty()
        || !typed.chars().all(|c| c.is_ascii_alphanumeric())
    {
        return Err(crate::error::ApiError::invalid(
            crate::error_code::ServiceCode::InvalidField,
            "`code`: a join code is letters and digits (capitals, spaces and dashes are ignored), \
             at most 64 characters",
        ));
    }
    let (team, token) = state.play.events.join(&id, &typed).await?;
    Ok(Json(JoinAnswer { team, token }))
}

/// Sets the team's lineup (team token): its following games start with it.
#[utoipa::path(put, path = "/api/events/{id}/lineup", tag = "events", operation_id = "set_lineup",
    params(("id" = Id, Path, description = "the event's id")), request_body = LineupRequest,
    security(("bearer" = [])),
    responses((status = 200, description = "the lineup as set", body = LineupAnswer),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 413, response = TooLarge), (status = 422, response = Invalid)))]
pub async fn lineup(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<LineupRequest>,
) -> ApiResult<Json<LineupAnswer>> {
    let events = &state.play.events;
    let (team, preset) = events
        .set_lineup(&id, &token, &body.preset, &body.kings)
        .await?;
    Ok(Json(LineupAnswer {
        team,
        preset,
        kings: body.kings,
    }))
}

/// Closes registration and pairs round 1 (organiser; 2 teams or more).
#[utoipa::path(post, path = "/api/events/{id}/start", tag = "events", operation_id = "start_event",
    params(("id" = Id, Path, description = "the event's id")),
    security(("session" = []), ("bearer" = [])),
    responses((status = 200, description = "the event with round 1 paired", body = EventJson),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict)))]
pub async fn start(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
    Signed(caller): Signed,
) -> ApiResult<Json<EventJson>> {
    let view = state.play.events.start(&caller, &id).await?;
    Ok(Json(event_json(&view)))
}

/// Pairs the next round once every game of the current one has ended (organiser).
#[utoipa::path(post, path = "/api/events/{id}/rounds", tag = "events",
    operation_id = "pair_next_round", params(("id" = Id, Path, description = "the event's id")),
    security(("session" = []), ("bearer" = [])),
    responses((status = 200, description = "the event with its next round paired (or finished, \
when no Swiss pairing was left)", body = EventJson),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict)))]
pub async fn next_round(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
    Signed(caller): Signed,
) -> ApiResult<Json<EventJson>> {
    let view = state.play.events.next_round(&caller, &id).await?;
    Ok(Json(event_json(&view)))
}

/// The team's game of the current round (team token): the game, the team's seat and the seat's
/// token. `404` with a bye or before round 1.
#[utoipa::path(get, path = "/api/events/{id}/game", tag = "events", operation_id = "team_game",
    params(("id" = Id, Path, description = "the event's id")), security(("bearer" = [])),
    responses((status = 200, description = "the team's game", body = TeamGameAnswer),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound)))]
pub async fn team_game(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
    Bearer(token): Bearer,
) -> ApiResult<Json<TeamGameAnswer>> {
    let game = state.play.events.team_game(&id, &token).await?;
    Ok(Json(TeamGameAnswer {
        game: game.game.to_string(),
        seat: game.seat,
        token: game.token,
    }))
}

/// The standings as CSV: rank, team, points, tiebreak, played.
#[utoipa::path(get, path = "/api/events/{id}/standings.csv", tag = "events",
    operation_id = "event_standings_csv", params(("id" = Id, Path, description = "the event's id")),
    responses((status = 200, description = "the standings", content_type = "text/csv", body = String),
              (status = 400, response = BadRequest), (status = 404, response = NotFound)))]
pub async fn standings_csv(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
) -> ApiResult<Response> {
    let view = state.play.events.view(&id).await?;
    let body = csv(&view);
    Ok((
        [
            (CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"standings-{id}.csv\""),
            ),
        ],
        body,
    )
        .into_response())
}

/// The standings as CSV text (RFC 4180: a name with a quote, comma or line break is quoted).
fn csv(view: &EventView) -> String {
    let mut out = String::from("rank,team,points,tiebreak,played\r\n");
    for (rank, line) in view.standings.iter().enumerate() {
        let name = view
            .teams
            .iter()
            .find(|team| team.id == line.team)
            .map_or("", |team| team.name.as_str());
        out.push_str(&format!(
            "{},{},{},{},{}\r\n",
            rank + 1,
            csv_field(name),
            f64::from(line.half_points) / 2.0,
            f64::from(line.quarter_tiebreak) / 4.0,
            line.played
        ));
    }
    out
}

fn csv_field(text: &str) -> String {
    // A leading =, +, - or @ would be a formula to a spreadsheet: quoted with a ' first.
    let guarded = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if guarded.contains([',', '"', '\n', '\r']) || guarded != text {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// Follows the event: NDJSON, one JSON object per line.
#[utoipa::path(get, path = "/api/events/{id}/stream", tag = "events", operation_id = "stream_event",
    params(("id" = Id, Path, description = "the event's id")),
    responses((status = 200, content_type = "application/x-ndjson", body = EventLine,
               description = "newline-delimited JSON: first `event` (the event), then a line per \
round paired (`round`), game ended (`result`), standings changed (`standings`) and status changed \
(`status`)"),
              (status = 400, response = BadRequest), (status = 404, response = NotFound),
              (status = 409, response = Conflict)))]
pub async fn stream(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<EventId>,
) -> ApiResult<Response> {
    let follow = state.play.events.follow(&id).await?;
    let first = EventLine {
        event: Some(event_json(follow.view())),
        ..line(EventLineType::Event)
    };
    let lines = VecDeque::from([encode(&first)]);
    let watch = Watch {
        follow,
        lines,
        closing: state.closing.clone(),
    };
    let body = Body::from_stream(futures_util::stream::unfold(watch, Watch::next));
    Ok((
        [
            (CONTENT_TYPE, "application/x-ndjson"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response())
}

fn line(kind: EventLineType) -> EventLine {
    EventLine {
        kind,
        event: None,
        round: None,
        pairing: None,
        standings: None,
        status: None,
    }
}

fn encode(line: &EventLine) -> Bytes {
    let mut text = serde_json::to_vec(line).unwrap_or_default();
    text.push(b'\n');
    Bytes::from(text)
}

/// The lines of `news`, in order.
fn news_lines(news: Vec<EventNews>) -> impl Iterator<Item = Bytes> {
    news.into_iter().map(|news| {
        let line = match news {
            EventNews::Paired(round) => EventLine {
                round: serde_json::to_value(round_json(&round)).ok(),
                ..line(EventLineType::Round)
            },
            EventNews::Ended { round, pairing } => EventLine {
                round: Some(round.into()),
                pairing: Some(pairing_json(&pairing)),
                ..line(EventLineType::Result)
            },
            EventNews::Standings(standings) => EventLine {
                standings: Some(standings_json(&standings)),
                ..line(EventLineType::Standings)
            },
            EventNews::Status(status) => EventLine {
                status: Some(status),
                ..line(EventLineType::Status)
            },
        };
        encode(&line)
    })
}

/// One event stream.
struct Watch {
    follow: EventFollow,
    lines: VecDeque<Bytes>,
    closing: watch::Receiver<bool>,
}

impl Watch {
    async fn next(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, Watch)> {
        loop {
            if let Some(line) = self.lines.pop_front() {
                return Some((Ok(line), self));
            }
            let news = tokio::select! {
                news = self.follow.next() => news,
                _ = self.closing.wait_for(|closing| *closing) => return None,
            };
            match news {
                Ok(news) => self.lines.extend(news_lines(news)),
                Err(error) => {
                    tracing::warn!(?error, "an event stream could not read its event");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
        }
    }
}
