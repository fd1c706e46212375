//! The one error type of the API: every refusal becomes a status and the JSON body
//! `{"error": {"code", "message", …}}`. Internal failures are logged here and answered with a
//! generic message, so no database detail ever reaches a client.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use gmo_genome::GenomeError;
use gmo_store::StoreError;
use serde_json::{Map, Value, json};

/// Why a request was refused.
#[derive(Debug)]
pub enum ApiError {
    /// 400: the request could not be read (malformed JSON, a bad path segment).
    BadRequest { code: &'static str, message: String },
    /// 422: well-formed but invalid input (a field out of range, an unknown side).
    Invalid { code: &'static str, message: String },
    /// 422: DNA that is not a genome; the body points at the codon.
    Genome(GenomeError),
    /// 401: no bearer token, or one this service never issued.
    Unauthorized(String),
    /// 403: a real token, for another seat, game or lab.
    Forbidden(String),
    /// 404: no such genome, preset, game or lab.
    NotFound { what: &'static str, key: String },
    /// 409: not now (wrong phase, not your turn, illegal move, lost race).
    Conflict { code: &'static str, message: String },
    /// 413: the body is larger than the limit.
    TooLarge(String),
    /// 503: a dependency (the database) does not answer.
    Unavailable(String),
    /// 500: logged with its cause; the client learns nothing more.
    Internal(String),
}

impl ApiError {
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::BadRequest {
            code,
            message: message.into(),
        }
    }

    pub fn invalid(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Invalid {
            code,
            message: message.into(),
        }
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Conflict {
            code,
            message: message.into(),
        }
    }

    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(cause.to_string())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Invalid { .. } | ApiError::Genome(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The `error` object of the body.
    fn body(&self) -> Map<String, Value> {
        let (code, message) = match self {
            ApiError::BadRequest { code, message }
            | ApiError::Invalid { code, message }
            | ApiError::Conflict { code, message } => (*code, message.clone()),
            ApiError::Genome(error) => (error.kind.code(), format!("invalid DNA: {error}")),
            ApiError::Unauthorized(message) => ("unauthorized", message.clone()),
            ApiError::Forbidden(message) => ("forbidden", message.clone()),
            ApiError::NotFound { what, key } => ("not_found", format!("no {what} {key:?}")),
            ApiError::TooLarge(message) => ("too_large", message.clone()),
            ApiError::Unavailable(message) => ("unavailable", message.clone()),
            ApiError::Internal(_) => ("internal", "the server failed; try again".to_owned()),
        };
        let mut body = Map::new();
        body.insert("code".into(), code.into());
        body.insert("message".into(), message.into());
        if let ApiError::Genome(error) = self {
            body.insert("codon".into(), error.codon.into());
            body.insert("offset".into(), error.offset.into());
            body.insert("found".into(), error.found.clone().into());
            body.insert("expected".into(), error.expected().into());
        }
        if let ApiError::NotFound { what, .. } = self {
            body.insert("what".into(), (*what).into());
        }
        body
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!(%cause, "request failed");
        }
        (self.status(), Json(json!({ "error": self.body() }))).into_response()
    }
}

impl From<GenomeError> for ApiError {
    fn from(error: GenomeError) -> ApiError {
        ApiError::Genome(error)
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::NotFound { what, key } => ApiError::NotFound { what, key },
            StoreError::UnknownGenome(key) => ApiError::NotFound {
                what: "genome",
                key,
            },
            StoreError::WrongPresetLength { .. } => {
                ApiError::invalid("preset_length", error.to_string())
            }
            StoreError::Stale { .. } => ApiError::conflict(
                "conflict",
                "another request changed this first; reload and try again",
            ),
            other => ApiError::Internal(error_chain(&other)),
        }
    }
}

/// An error with its sources, for the log.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

pub type ApiResult<T> = Result<T, ApiError>;
