//! Extractors that turn a bad request into an [`ApiError`] instead of axum's plain-text
//! rejections: JSON bodies, path segments and bearer tokens.

use crate::error::ApiError;
use crate::error_code::ServiceCode;
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// A JSON body; malformed JSON is 400, a wrong field 422, an oversize body 413.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

fn json_error(rejection: JsonRejection) -> ApiError {
    let detail = rejection.body_text();
    match rejection {
        JsonRejection::JsonDataError(_) => ApiError::invalid(
            ServiceCode::InvalidField,
            format!("the JSON body does not fit: {detail}"),
        ),
        JsonRejection::JsonSyntaxError(_) => ApiError::bad_request(
            ServiceCode::MalformedJson,
            format!("the body is not valid JSON: {detail}"),
        ),
        JsonRejection::MissingJsonContentType(_) => ApiError::bad_request(
            ServiceCode::ContentType,
            "send the body as JSON with Content-Type: application/json",
        ),
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(format!(
            "the body is larger than {} bytes",
            crate::config::BODY_LIMIT
        )),
        other => ApiError::bad_request(ServiceCode::BadBody, other.body_text()),
    }
}

/// Path parameters; a segment that does not fit is 400.
#[derive(Debug)]
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(ApiPath(value)),
            Err(rejection) => Err(path_error(rejection)),
        }
    }
}

fn path_error(rejection: PathRejection) -> ApiError {
    ApiError::bad_request(ServiceCode::BadPath, rejection.body_text())
}

/// The bearer token of the request, if it sent one. Whether it opens anything is for the
/// handler to judge against the game or lab it loads.
#[derive(Debug, Clone)]
pub struct MaybeBearer(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for MaybeBearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let Some(header) = parts.headers.get(axum::http::header::AUTHORIZATION) else {
            return Ok(MaybeBearer(None));
        };
        let token = header
            .to_str()
            .ok()
            .and_then(|value| value.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|token| !token.is_empty())
            .ok_or_else(|| {
                ApiError::Unauthorized("the Authorization header must be `Bearer <token>`".into())
            })?;
        Ok(MaybeBearer(Some(token.to_owned())))
    }
}

/// A bearer token the route requires: missing is 401.
#[derive(Debug, Clone)]
pub struct Bearer(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match MaybeBearer::from_request_parts(parts, state).await?.0 {
            Some(token) => Ok(Bearer(token)),
            None => Err(ApiError::Unauthorized(
                "this route needs `Authorization: Bearer <token>`".into(),
            )),
        }
    }
}
