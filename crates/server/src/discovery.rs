//! Discovery (`--discovery`): the genome language kept secret, as at the camp GMO chess was made
//! for. Two layers do it for every route at once: the decoding tools (diagrams, breeding,
//! strength estimates, the piece library) answer `403 discovery`, and an invalid DNA's answer
//! loses everything that points at the fault (the codon, the offset, what was found and
//! expected, the rule's name): it says only that the DNA is not a valid genome. Genome answers leave out their explanations
//! (`routes/genomes.rs`), and games hide the other side's genomes after the end too (the
//! engine's `shows_genomes`).

use crate::error::ApiError;
use crate::error_code::ServiceCode;
use crate::state::AppState;
use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// The only thing an invalid DNA is told in discovery.
pub const NOT_A_GENOME: &str = "this DNA is not a valid genome";
/// The longest error body read to be concealed (error bodies are a few hundred bytes).
const MAX_ERROR_BODY: usize = 64 * 1024;

/// Whether an error body is about invalid DNA: it points at a codon, or its code is one of the
/// genome parser's.
fn about_dna(body: &Value) -> bool {
    let error = &body["error"];
    let points = error.get("codon").is_some_and(|codon| !codon.is_null());
    let code = error["code"].as_str().unwrap_or_default();
    points
        || gmo_genome::ErrorKind::ALL
            .iter()
            .any(|kind| kind.code() == code)
}

/// Middleware for the decoding tools: `403 discovery` in discovery.
pub async fn refuse(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if state.settings.play.discovery {
        return ApiError::Forbidden {
            code: ServiceCode::Discovery.into(),
            message: "this server keeps the genome language secret (discovery): diagrams, \
                      breeding, strength estimates and the piece library are off; experiment \
                      in a lab"
                .into(),
        }
        .into_response();
    }
    next.run(request).await
}

/// Middleware for every route: in discovery, an invalid DNA's `422` says only that it is not a
/// valid genome.
pub async fn conceal(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if !state.settings.play.discovery || response.status() != StatusCode::UNPROCESSABLE_ENTITY {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_ERROR_BODY).await else {
        return ApiError::internal("an error body too large to conceal").into_response();
    };
    let concealed = serde_json::from_slice::<Value>(&bytes).is_ok_and(|body| about_dna(&body));
    if !concealed {
        return Response::from_parts(parts, Body::from(bytes));
    }
    parts.headers.remove(CONTENT_LENGTH);
    parts.headers.remove(CONTENT_TYPE);
    let concealed = ApiError::Invalid {
        code: ServiceCode::InvalidGenome.into(),
        message: NOT_A_GENOME.into(),
    }
    .into_response();
    let (concealed_parts, concealed_body) = concealed.into_parts();
    parts.headers.extend(concealed_parts.headers);
    Response::from_parts(parts, concealed_body)
}
