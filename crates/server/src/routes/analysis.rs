//! `POST /api/games/{id}/analysis` and `GET /api/games/{id}/analysis`: a finished game analysed
//! once, as a job any process takes (`gmo_play::Analyses`, docs/analysis.md).

use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::ApiPath;
use crate::limits::{ClientAddress, CreationLimit};
use crate::responses::{Conflict, Forbidden, NotFound, TooManyRequests, Unavailable};
use crate::schema::Id;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use gmo_play::analyses::{Analysis, Eval, Judgement, PlyAnalysis};
use gmo_types::{Color, EvaluationState, GameId};
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/analysis", get(show).post(ask))
}

/// The answer to asking for an analysis.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysisAsked {
    /// `queued` when asked for now; where it stands when asked for before.
    pub state: EvaluationState,
}

/// Positions searched so far, of all the game's positions (0 of 0 until a process takes it).
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysisProgress {
    pub done: u32,
    pub total: u32,
}

/// A position's evaluation from White's side: `cp` (centipawns) or `mate` (moves to mate,
/// negative when Black mates); the position a ply ended the game in is `{"mate": 0, "winner"}`
/// (`{"cp": 0}` when drawn).
#[derive(Debug, Serialize, ToSchema)]
pub struct EvalView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Color>,
}

/// A move, from a square to a square.
#[derive(Debug, Serialize, ToSchema)]
pub struct BestMove {
    /// A square name (`e2`).
    pub from: String,
    /// A square name (`e2`).
    pub to: String,
}

/// How bad a ply was, by the drop in the mover's winning chances (lichess's thresholds).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum JudgementView {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// One ply analysed.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysedPly {
    /// 1 for the first ply.
    pub ply: usize,
    /// The position after this ply.
    pub eval: EvalView,
    /// The search's move in the position before, where it differs from the move played.
    pub best: Option<BestMove>,
    pub judgement: Option<JudgementView>,
}

/// Each side's accuracy, 0 to 100 (lichess's formula; `null` for a side without a ply judged).
#[derive(Debug, Serialize, ToSchema)]
pub struct AccuracyView {
    pub white: Option<f64>,
    pub black: Option<f64>,
}

/// A game's analysis as it stands: plies are judged as their positions are searched.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysisView {
    pub state: EvaluationState,
    pub progress: AnalysisProgress,
    pub plies: Vec<AnalysedPly>,
    pub accuracy: AccuracyView,
    /// Why a `failed` analysis failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

pub(crate) fn eval_view(eval: Eval) -> EvalView {
    EvalView {
        cp: eval.cp,
        mate: eval.mate,
        winner: eval.winner,
    }
}

fn ply_view(ply: PlyAnalysis) -> AnalysedPly {
    AnalysedPly {
        ply: ply.ply,
        eval: eval_view(ply.eval),
        best: ply.best.map(|step| BestMove {
            from: step.from.to_string(),
            to: step.to.to_string(),
        }),
        judgement: ply.judgement.map(|j| match j {
            Judgement::Inaccuracy => JudgementView::Inaccuracy,
            Judgement::Mistake => JudgementView::Mistake,
            Judgement::Blunder => JudgementView::Blunder,
        }),
    }
}

/// One decimal, as lichess shows accuracies.
fn rounded(value: f64) -> f64 {
    (value * 10.0).round() / 10.0 + 0.0
}

fn view(analysis: Analysis) -> AnalysisView {
    AnalysisView {
        state: analysis.state,
        progress: AnalysisProgress {
            done: analysis.done,
            total: analysis.total,
        },
        plies: analysis.plies.into_iter().map(ply_view).collect(),
        accuracy: AccuracyView {
            white: analysis.accuracy.white.map(rounded),
            black: analysis.accuracy.black.map(rounded),
        },
        error: analysis.error,
    }
}

/// Queues the analysis of a finished game, or joins the one asked for before (the same analysis
/// for everyone, computed once).
#[utoipa::path(post, path = "/api/games/{id}/analysis", tag = "games",
    operation_id = "analyse_game", params(("id" = Id, Path, description = "the game's id")),
    responses((status = 202, description = "queued (or where the analysis asked for before \
stands)", body = AnalysisAsked),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 429, response = TooManyRequests),
              (status = 503, response = Unavailable)))]
pub async fn ask(
    _: CreationLimit,
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<(StatusCode, Json<AnalysisAsked>)> {
    let analysis = state.play.analyses.ask(&id, &client).await?;
    let state = analysis.state;
    Ok((StatusCode::ACCEPTED, Json(AnalysisAsked { state })))
}

/// A game's analysis: its progress, the plies judged so far, the accuracies.
#[utoipa::path(get, path = "/api/games/{id}/analysis", tag = "games",
    operation_id = "get_game_analysis", params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the analysis", body = AnalysisView),
              (status = 403, response = Forbidden), (status = 404, response = NotFound)))]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Json<AnalysisView>> {
    Ok(Json(view(state.play.analyses.of(&id).await?)))
}
