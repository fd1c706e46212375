//! Extractors that turn a bad request into an [`ApiError`] instead of axum's plain-text
//! rejections: JSON bodies, path segments and bearer tokens.

use crate::error::ApiError;
use crate::error_code::ServiceCode;
use axum::body::Bytes;
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};

/// A JSON object body; malformed JSON is 400, a body that is not an object or a wrong field 422,
/// an oversize body 413.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        if !json_content_type(request.headers()) {
            return Err(ApiError::bad_request(
                ServiceCode::ContentType,
                "send the body as JSON with Content-Type: application/json",
            ));
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    too_large()
                } else {
                    ApiError::bad_request(ServiceCode::BadBody, rejection.body_text())
                }
            })?;
        let axum::Json(value) = axum::Json::<T>::from_bytes(&bytes).map_err(json_error)?;
        // Serde would also read a struct from an array of its fields; every body here is an
        // object, as the OpenAPI document says.
        if bytes.trim_ascii_start().first() != Some(&b'{') {
            return Err(ApiError::invalid(
                ServiceCode::InvalidField,
                "the body must be a JSON object",
            ));
        }
        Ok(ApiJson(value))
    }
}

/// `application/json` or `application/…+json`, parameters (`; charset=…`) allowed.
fn json_content_type(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or_default().trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    kind.eq_ignore_ascii_case("application")
        && (subtype.eq_ignore_ascii_case("json") || subtype.to_ascii_lowercase().ends_with("+json"))
}

fn too_large() -> ApiError {
    ApiError::TooLarge(format!(
        "the body is larger than {} bytes",
        crate::config::BODY_LIMIT
    ))
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
        other => ApiError::bad_request(ServiceCode::BadBody, other.body_text()),
    }
}

/// A whole number, also when written with a zero fraction (`4.0`): JSON Schema counts that as an
/// integer, so the API takes it. Anything else (a fraction, out of range) is refused.
pub fn whole_number<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<i64>,
{
    let number = serde_json::Number::deserialize(deserializer)?;
    let whole = number.as_i64().or_else(|| {
        number
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            // In range and whole: the conversion is exact.
            .map(|f| f as i64)
    });
    whole
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| D::Error::custom(format!("{number} is not a whole number in range")))
}

/// [`whole_number`] for an optional field (absent or `null`: none).
pub fn optional_whole_number<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<i64>,
{
    #[derive(Deserialize)]
    struct Whole<T: TryFrom<i64>>(#[serde(deserialize_with = "whole_number")] T);
    Ok(Option::<Whole<T>>::deserialize(deserializer)?.map(|Whole(n)| n))
}

/// An optional field that may be absent but not `null` (where `null` would be ambiguous).
pub fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
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
