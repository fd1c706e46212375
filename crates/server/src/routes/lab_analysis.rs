//! `GET /api/labs/{id}/analysis?lines=N`: the engine's N best lines from a lab's position
//! (`gmo_play::Labs::lines`, docs/analysis.md "The lab's engine").

use super::analysis::{EvalView, eval_view};
use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::extract::{ApiPath, Bearer, only_parameter};
use crate::limits::CreationLimit;
use crate::responses::{Forbidden, Invalid, NotFound, TooManyRequests, Unauthorized, Unavailable};
use crate::schema::{Id, LineCount};
use crate::state::AppState;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::routing::get;
use gmo_play::lab_lines::{Line, Lines, MAX_LINES, NoLines};
use gmo_types::{Color, LabId};
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/labs/{id}/analysis", get(lines))
}

/// A ply of a line: a move, or, with `promotion`, the promotion of the pawn on `from` (= `to`).
#[derive(Debug, Serialize, ToSchema)]
pub struct LineMoveView {
    /// A square name (`e2`).
    pub from: String,
    /// A square name (`e4`).
    pub to: String,
    /// The promoted pawn's new genome (its code), for a promotion.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<gmo_engine::openapi::CodeSchema>)]
    pub promotion: Option<String>,
}

/// One of the engine's lines: its evaluation (from White's side, as the game analysis gives
/// it), its plies (the first is the line's choice) and the depth its search finished.
#[derive(Debug, Serialize, ToSchema)]
pub struct LineView {
    pub eval: EvalView,
    pub moves: Vec<LineMoveView>,
    pub depth: u32,
}

/// Why a lab's position has no line: a side without a king, or no ply for the side to move.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoLinesView {
    NoKing,
    NoMoves,
}

/// The engine's lines from a lab's position, best first for the side to move.
#[derive(Debug, Serialize, ToSchema)]
pub struct LinesView {
    pub lines: Vec<LineView>,
    /// Search nodes spent on them all.
    pub nodes: u64,
    /// Search nodes per line (the fixed budget).
    pub nodes_per_line: u64,
    pub side_to_move: Color,
    /// Why `lines` is empty, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<NoLinesView>,
}

fn line_view(line: Line) -> LineView {
    LineView {
        eval: eval_view(line.eval),
        moves: line
            .moves
            .into_iter()
            .map(|m| LineMoveView {
                from: m.from.to_string(),
                to: m.to.to_string(),
                promotion: m.promotion,
            })
            .collect(),
        depth: line.depth,
    }
}

fn view(found: Lines, nodes_per_line: u64) -> LinesView {
    LinesView {
        lines: found.lines.into_iter().map(line_view).collect(),
        nodes: found.nodes,
        nodes_per_line,
        side_to_move: found.side_to_move,
        reason: found.reason.map(|reason| match reason {
            NoLines::NoKing => NoLinesView::NoKing,
            NoLines::NoMoves => NoLinesView::NoMoves,
        }),
    }
}

/// The engine's best lines from the lab's position for the side to move: each searched with a
/// fixed node budget (the same answer every time), the lines found before left out of the next.
/// Fewer lines when the side has fewer plies; none, with `reason`, without a king or a ply.
#[utoipa::path(get, path = "/api/labs/{id}/analysis", tag = "labs",
    operation_id = "analyse_lab", security(("bearer" = [])),
    params(("id" = Id, Path, description = "the lab's id"),
           ("lines" = Option<LineCount>, Query, description = "how many lines, 1 to 5 \
(default 1)")),
    responses((status = 200, description = "the lines, best first", body = LinesView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 422, response = Invalid),
              (status = 429, response = TooManyRequests),
              (status = 503, response = Unavailable)))]
pub async fn lines(
    _: CreationLimit,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<LabId>,
    Bearer(token): Bearer,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<LinesView>> {
    let count = count(query.as_deref().unwrap_or(""))?;
    let found = state.play.labs.lines(&id, &token, count).await?;
    Ok(Json(view(found, state.play.labs.nodes_per_line())))
}

/// `lines` out of the query string (absent: 1); any other parameter is refused, naming it.
fn count(query: &str) -> ApiResult<usize> {
    let Some(value) = only_parameter(query, "lines")? else {
        return Ok(1);
    };
    value
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_LINES).contains(n))
        .filter(|_| value.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            ApiError::invalid(
                ServiceCode::InvalidField,
                format!("lines must be a whole number from 1 to {MAX_LINES}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn lines_is_1_to_5_or_names_the_field() {
        assert_eq!(count("").expect("absent"), 1);
        assert_eq!(count("lines=5").expect("given"), 5);
        for query in [
            "lines=",
            "lines=0",
            "lines=6",
            "lines=+2",
            "lines=x",
            "lines=1&lines=2",
        ] {
            let error = count(query).expect_err(query);
            assert!(error.body().message.contains("lines"), "{query}: {error:?}");
        }
        let error = count("depth=3").expect_err("another parameter");
        assert!(error.body().message.contains("depth"), "{error:?}");
    }
}
