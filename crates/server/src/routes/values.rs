//! `POST /api/genomes/{reference}/value`, `GET /api/genomes/{reference}/value` and
//! `GET /api/genomes/{reference}/value/stream`: what a genome is worth, evaluated once in the
//! background (`gmo_play::Values`) and kept with it.

use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::ApiPath;
use crate::keys::GenomeRef;
use crate::responses::{Forbidden, NotFound, TooManyRequests, Unavailable};
use crate::state::AppState;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use gmo_play::Values;
use gmo_play::values::{Evaluation, estimate};
use gmo_store::ValueJob;
use gmo_types::EvaluationState;
use serde::Serialize;
use std::time::Duration;
use tokio::sync::watch;
use utoipa::ToSchema;

/// How often a value stream looks at its evaluation in the database (the process playing its
/// games may be another).
const LOOK_EVERY: Duration = Duration::from_millis(250);

/// The routes answered within the request timeout.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/genomes/{reference}/value", get(show).post(start))
}

/// The stream, exempt from the timeout.
pub fn stream_router() -> Router<AppState> {
    Router::new().route("/api/genomes/{reference}/value/stream", get(stream))
}

/// The value the games so far give, with its 95 % confidence interval.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct ValueEstimate {
    /// The value in pawns (docs/workbench.md: calibrated on the standard pieces).
    pub pawns: f64,
    pub pawns_low: f64,
    pub pawns_high: f64,
    /// Half the interval's width: the "±".
    pub margin: f64,
    /// The Elo difference of the side carrying the genome against the standard set.
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// Points per game of the genome's side, 0 to 1.
    pub score: f64,
}

/// A genome's value evaluation: its progress, and the estimate so far (the result once `done`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GenomeValue {
    #[schema(value_type = gmo_engine::openapi::CodeSchema)]
    pub code: String,
    pub state: EvaluationState,
    /// Games asked for.
    pub games: u32,
    /// Games played so far.
    pub played: u32,
    /// Of the side carrying the genome.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The standard piece the genome replaces (every copy, on one side).
    pub replaced: String,
    /// The bot both sides use.
    pub bot: String,
    pub seed: u64,
    /// From the games so far; none before the first.
    pub estimate: Option<ValueEstimate>,
    /// Why a `failed` evaluation failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

fn rounded(value: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (value * scale).round() / scale + 0.0
}

fn view(job: &ValueJob) -> GenomeValue {
    let estimate = estimate(job).map(|e| ValueEstimate {
        pawns: rounded(e.pawns, 2),
        pawns_low: rounded(e.pawns_low, 2),
        pawns_high: rounded(e.pawns_high, 2),
        margin: rounded(e.margin(), 2),
        elo: rounded(e.elo, 1),
        elo_low: rounded(e.elo_low, 1),
        elo_high: rounded(e.elo_high, 1),
        score: rounded(e.score, 4),
    });
    GenomeValue {
        code: job.code.clone(),
        state: job.state,
        games: job.games,
        played: job.played(),
        wins: job.wins,
        draws: job.draws,
        losses: job.losses,
        replaced: job.replaced.clone(),
        bot: job.bot.clone(),
        seed: job.seed,
        estimate,
        error: job.error.clone(),
    }
}

/// Starts the evaluation of a stored genome in the background, or joins the one asked for
/// before: 201 when started now, 200 when it was asked for before (it may be done).
#[utoipa::path(post, path = "/api/genomes/{reference}/value", tag = "genomes",
    operation_id = "evaluate_genome",
    params(("reference" = crate::schema::GenomeRef, Path, description = "a code (3gbkd6) or a name (rook)")),
    responses((status = 201, description = "started now (queued)", body = GenomeValue),
              (status = 200, description = "asked for before: its progress or result", body = GenomeValue),
              (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 429, response = TooManyRequests),
              (status = 503, response = Unavailable)))]
pub async fn start(
    _: crate::limits::CreationLimit,
    State(state): State<AppState>,
    ApiPath(reference): ApiPath<GenomeRef>,
) -> ApiResult<(StatusCode, Json<GenomeValue>)> {
    Ok(match state.play.values.ask(&reference).await? {
        Evaluation::Started(job) => (StatusCode::CREATED, Json(view(&job))),
        Evaluation::Joined(job) => (StatusCode::OK, Json(view(&job))),
    })
}

/// A genome's value evaluation: its progress, or its result once done.
#[utoipa::path(get, path = "/api/genomes/{reference}/value", tag = "genomes",
    operation_id = "get_genome_value",
    params(("reference" = crate::schema::GenomeRef, Path, description = "a code (3gbkd6) or a name (rook)")),
    responses((status = 200, description = "the evaluation", body = GenomeValue),
              (status = 403, response = Forbidden),
              (status = 404, response = NotFound)))]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(reference): ApiPath<GenomeRef>,
) -> ApiResult<Json<GenomeValue>> {
    Ok(Json(view(&state.play.values.of(&reference).await?)))
}

/// What a line of a value stream says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ValueLineType {
    /// Where the evaluation stands: the first line, then one each time games are counted.
    Progress,
    /// The evaluation is done (`value.estimate` is the result); the stream closes.
    Done,
    /// The evaluation failed (`value.error`); the stream closes.
    Failed,
}

/// One line of a value stream.
#[derive(Debug, Serialize, ToSchema)]
pub struct ValueLine {
    #[serde(rename = "type")]
    pub kind: ValueLineType,
    pub value: GenomeValue,
}

/// Follows an evaluation until it ends: NDJSON, one JSON object per line.
#[utoipa::path(get, path = "/api/genomes/{reference}/value/stream", tag = "genomes",
    operation_id = "stream_genome_value",
    params(("reference" = crate::schema::GenomeRef, Path, description = "a code (3gbkd6) or a name (rook)")),
    responses((status = 200, content_type = "application/x-ndjson", body = ValueLine,
               description = "newline-delimited JSON: a `progress` line at once and each time \
games are counted, then one `done` (or `failed`) line; then the stream closes"),
              (status = 403, response = Forbidden),
              (status = 404, response = NotFound)))]
pub async fn stream(
    State(state): State<AppState>,
    ApiPath(reference): ApiPath<GenomeRef>,
) -> ApiResult<Response> {
    let job = state.play.values.of(&reference).await?;
    let mut ticks = tokio::time::interval(LOOK_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let follow = Follow {
        closing: state.closing.clone(),
        values: state.play.values.clone(),
        code: job.code.clone(),
        last: None,
        first: Some(job),
        ticks,
        done: false,
    };
    let body = Body::from_stream(futures_util::stream::unfold(follow, Follow::next));
    Ok((
        [
            (CONTENT_TYPE, "application/x-ndjson"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response())
}

/// One value stream.
struct Follow {
    values: Values,
    code: String,
    /// The games played when the last line was sent.
    last: Option<(u32, EvaluationState)>,
    first: Option<ValueJob>,
    ticks: tokio::time::Interval,
    done: bool,
    closing: watch::Receiver<bool>,
}

impl Follow {
    async fn next(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, Follow)> {
        loop {
            if self.done {
                return None;
            }
            let job = match self.first.take() {
                Some(job) => job,
                None => {
                    tokio::select! {
                        _ = self.ticks.tick() => {}
                        _ = self.closing.wait_for(|closing| *closing) => return None,
                    }
                    match self.values.job(&self.code).await {
                        Ok(Some(job)) => job,
                        // Never deleted while the genome is stored; nothing more to say.
                        Ok(None) => return None,
                        Err(error) => {
                            tracing::warn!(genome = self.code, %error, "value stream could not look");
                            continue;
                        }
                    }
                }
            };
            let now = (job.played(), job.state);
            if self.last == Some(now) {
                continue;
            }
            self.last = Some(now);
            let kind = match job.state {
                EvaluationState::Done => ValueLineType::Done,
                EvaluationState::Failed => ValueLineType::Failed,
                EvaluationState::Queued | EvaluationState::Running => ValueLineType::Progress,
            };
            self.done = kind != ValueLineType::Progress;
            let line = ValueLine {
                kind,
                value: view(&job),
            };
            let mut text = serde_json::to_vec(&line).unwrap_or_default();
            text.push(b'\n');
            return Some((Ok(Bytes::from(text)), self));
        }
    }
}
