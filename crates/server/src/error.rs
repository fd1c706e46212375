//! The one error type of the API: every refusal becomes a status and the JSON body
//! `{"error": {"code", "message", …}}`. Internal failures are logged here and answered with a
//! generic message, so no database detail ever reaches a client.

use crate::error_code::{ErrorCode, ServiceCode};
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use gmo_engine::{GameError, LabError, PlayError as MoveError, RefusalCode};
use gmo_genome::GenomeError;
use gmo_play::PlayError;
use gmo_store::StoreError;
use serde::Serialize;
use utoipa::ToSchema;

/// The `Retry-After` of a `503`, in seconds.
pub const UNAVAILABLE_RETRY_AFTER: u64 = 1;

/// Why a request was refused.
#[derive(Debug)]
pub enum ApiError {
    /// 400: the request could not be read (malformed JSON, a bad path segment).
    BadRequest { code: ServiceCode, message: String },
    /// 422: well-formed but invalid input (a field out of range, an unknown side).
    Invalid { code: ErrorCode, message: String },
    /// 422: DNA that is not a genome; the body points at the codon.
    Genome(GenomeError),
    /// 401: no bearer token, one this service never issued, no signed-in account, or wrong
    /// credentials.
    Unauthorized { code: ErrorCode, message: String },
    /// 403: a real token, for another seat, game or lab; a change from another origin.
    Forbidden { code: ErrorCode, message: String },
    /// 404: no such genome, preset, game or lab.
    NotFound { what: &'static str, key: String },
    /// 405: the path exists, the method does not (the `Allow` header lists those that do).
    MethodNotAllowed(String),
    /// 409: not now (wrong phase, not your turn, illegal move, lost race).
    Conflict { code: ErrorCode, message: String },
    /// 413: the body is larger than the limit.
    TooLarge(String),
    /// 429: this client created too much too fast; `Retry-After` says when to try again.
    TooManyRequests { message: String, retry_after: u64 },
    /// 503: a dependency (the database) does not answer.
    Unavailable(String),
    /// 500: logged with its cause; the client learns nothing more.
    Internal(String),
}

/// Every error answer: `{"error": {...}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// What went wrong, for programs (`code`) and for people (`message`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    pub code: ErrorCode,
    pub message: String,
    /// Invalid DNA: the 0-based index of the offending codon in the canonical DNA.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codon: Option<usize>,
    /// Invalid DNA: the 0-based offset in the canonical DNA (upper case, white space removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
    /// Invalid DNA: what stood there (a letter, a codon, or "" for the end of the DNA).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
    /// Invalid DNA: what would have been accepted there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<&'static str>,
    /// Not found: the kind of thing that was looked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub what: Option<&'static str>,
}

impl ApiError {
    pub fn bad_request(code: ServiceCode, message: impl Into<String>) -> ApiError {
        ApiError::BadRequest {
            code,
            message: message.into(),
        }
    }

    pub fn invalid(code: impl Into<ErrorCode>, message: impl Into<String>) -> ApiError {
        ApiError::Invalid {
            code: code.into(),
            message: message.into(),
        }
    }

    pub fn conflict(code: impl Into<ErrorCode>, message: impl Into<String>) -> ApiError {
        ApiError::Conflict {
            code: code.into(),
            message: message.into(),
        }
    }

    /// 401 `unauthorized`.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::Unauthorized {
            code: ServiceCode::Unauthorized.into(),
            message: message.into(),
        }
    }

    /// 403 `forbidden`.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::Forbidden {
            code: ServiceCode::Forbidden.into(),
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
            ApiError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden { .. } => StatusCode::FORBIDDEN,
            ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The `error` object of the body.
    pub fn body(&self) -> ErrorDetail {
        let (code, message) = match self {
            ApiError::BadRequest { code, message } => ((*code).into(), message.clone()),
            ApiError::Invalid { code, message }
            | ApiError::Conflict { code, message }
            | ApiError::Unauthorized { code, message }
            | ApiError::Forbidden { code, message } => (*code, message.clone()),
            ApiError::Genome(error) => (error.kind.into(), format!("invalid DNA: {error}")),
            ApiError::NotFound { what, key } => {
                (ServiceCode::NotFound.into(), format!("no {what} {key:?}"))
            }
            ApiError::MethodNotAllowed(message) => {
                (ServiceCode::MethodNotAllowed.into(), message.clone())
            }
            ApiError::TooLarge(message) => (ServiceCode::TooLarge.into(), message.clone()),
            ApiError::TooManyRequests { message, .. } => {
                (ServiceCode::RateLimited.into(), message.clone())
            }
            ApiError::Unavailable(message) => (ServiceCode::Unavailable.into(), message.clone()),
            ApiError::Internal(_) => (
                ServiceCode::Internal.into(),
                "the server failed; try again".to_owned(),
            ),
        };
        let genome = match self {
            ApiError::Genome(error) => Some(error),
            _ => None,
        };
        ErrorDetail {
            code,
            message,
            codon: genome.map(|error| error.codon),
            offset: genome.map(|error| error.offset),
            found: genome.map(|error| error.found.clone()),
            expected: genome.map(GenomeError::expected),
            what: match self {
                ApiError::NotFound { what, .. } => Some(*what),
                _ => None,
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!(%cause, "request failed");
        }
        let body = ErrorBody { error: self.body() };
        let mut response = (self.status(), Json(body)).into_response();
        let retry_after = match self {
            ApiError::TooManyRequests { retry_after, .. } => Some(retry_after),
            // The database away, or a deployment-wide cap reached: nothing was done, and a
            // client may try again shortly (the page does so, for reads, quietly).
            ApiError::Unavailable(_) => Some(UNAVAILABLE_RETRY_AFTER),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
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
                ApiError::invalid(RefusalCode::PresetLength, error.to_string())
            }
            StoreError::Stale { .. } => PlayError::lost_race().into(),
            unreachable if unreachable.is_unavailable() => {
                tracing::warn!(
                    cause = error_chain(&unreachable),
                    "the database does not answer"
                );
                ApiError::Unavailable("the database does not answer; try again shortly".into())
            }
            other => ApiError::Internal(error_chain(&other)),
        }
    }
}

/// The service's refusals and failures: input that can never be right is 422, anything that is
/// merely not possible now (phase, turn, legality, a lost race) 409, a token 401 or 403, a full
/// deployment 503.
impl From<PlayError> for ApiError {
    fn from(error: PlayError) -> ApiError {
        match error {
            PlayError::Game(error) => game_error(error),
            PlayError::Lab(error) => lab_error(error),
            PlayError::Genome(error) => ApiError::Genome(error),
            PlayError::Invalid { code, message } => ApiError::invalid(code, message),
            PlayError::Refused { code, message } => ApiError::conflict(code, message),
            PlayError::UnknownToken => ApiError::unauthorized("unknown token"),
            PlayError::Denied { code, message } => ApiError::Unauthorized {
                code: code.into(),
                message,
            },
            PlayError::Throttled {
                message,
                retry_after,
            } => ApiError::TooManyRequests {
                message,
                retry_after,
            },
            error @ PlayError::WrongToken { .. } => ApiError::forbidden(error.to_string()),
            PlayError::NotFound { what, key } => ApiError::NotFound { what, key },
            PlayError::Discovery(message) => ApiError::Forbidden {
                code: ServiceCode::Discovery.into(),
                message,
            },
            PlayError::Full(message) => ApiError::Unavailable(message),
            PlayError::Store(error) => error.into(),
            PlayError::Internal(cause) => ApiError::Internal(cause),
        }
    }
}

fn game_error(error: GameError) -> ApiError {
    let code = error.code();
    let message = error.to_string();
    match error {
        GameError::Settings(_)
        | GameError::NotOnBoard(_)
        | GameError::PresetLength { .. }
        | GameError::Move(MoveError::OffBoard(_)) => ApiError::invalid(code, message),
        _ => ApiError::conflict(code, message),
    }
}

fn lab_error(error: LabError) -> ApiError {
    let code = error.code();
    let message = error.to_string();
    match error {
        LabError::NotOnBoard(_)
        | LabError::PresetLength { .. }
        | LabError::Move(MoveError::OffBoard(_) | MoveError::TableFull) => {
            ApiError::invalid(code, message)
        }
        _ => ApiError::conflict(code, message),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_away_is_503_with_retry_after_never_500() {
        let away = [
            StoreError::Database(sqlx::Error::PoolTimedOut),
            StoreError::Database(sqlx::Error::PoolClosed),
            StoreError::Database(sqlx::Error::Io(std::io::Error::from(
                std::io::ErrorKind::ConnectionReset,
            ))),
        ];
        for error in away {
            let shown = format!("{error:?}");
            let response = ApiError::from(PlayError::Store(error)).into_response();
            assert_eq!(
                response.status(),
                StatusCode::SERVICE_UNAVAILABLE,
                "{shown}"
            );
            assert_eq!(response.headers()["retry-after"], "1", "{shown}");
        }
        let other = StoreError::Corrupt("a digest of 3 bytes".into());
        let response = ApiError::from(other).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(response.headers().get("retry-after").is_none());
    }
}
