//! Extractors that turn a bad request into an [`ApiError`] instead of axum's plain-text
//! rejections: JSON bodies, path segments and bearer tokens.

use crate::error::ApiError;
use crate::error_code::ServiceCode;
use axum::body::Bytes;
use axum::extract::path::ErrorKind;
use axum::extract::rejection::PathRejection;
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
        Ok(ApiJson(from_json(&bytes)?))
    }
}

/// Reads a JSON object in two steps, so that each refusal says what it is: text that is not
/// JSON is 400; JSON that is not an object, or whose fields do not fit, is 422 naming the field
/// (serde_json alone calls `{"color": 5}` a syntax error).
pub fn from_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|error| {
        ApiError::bad_request(
            ServiceCode::MalformedJson,
            format!("the body is not valid JSON: {error}"),
        )
    })?;
    // Serde would also read a struct from an array of its fields; every body here is an
    // object, as the OpenAPI document says.
    if !value.is_object() {
        return Err(ApiError::invalid(
            ServiceCode::InvalidField,
            format!("the body must be a JSON object, not {}", json_kind(&value)),
        ));
    }
    serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        let message = if path == "." {
            format!("the body does not fit: {inner}")
        } else {
            format!("`{path}`: {inner}")
        };
        ApiError::invalid(ServiceCode::InvalidField, message)
    })
}

fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
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

/// A segment refused by its type (an id, a reference) says so in its own words.
fn path_error(rejection: PathRejection) -> ApiError {
    let message = match &rejection {
        PathRejection::FailedToDeserializePathParams(failed) => match failed.kind() {
            ErrorKind::Message(message) => message.clone(),
            _ => failed.body_text(),
        },
        other => other.body_text(),
    };
    ApiError::bad_request(ServiceCode::BadPath, message)
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
                ApiError::unauthorized("the Authorization header must be `Bearer <token>`")
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
            None => Err(ApiError::unauthorized(
                "this route needs `Authorization: Bearer <token>`",
            )),
        }
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

/// The raw value of `name`, the one parameter a query string may hold (absent: `None`); any
/// other parameter, or `name` given twice, is refused naming it.
pub fn only_parameter<'q>(query: &'q str, name: &str) -> Result<Option<&'q str>, ApiError> {
    let mut found = None;
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if key != name || found.is_some() {
            let key: String = key.chars().take(32).collect();
            return Err(ApiError::invalid(
                ServiceCode::InvalidField,
                format!("{key:?} is not a parameter here, or is given twice ({name})"),
            ));
        }
        found = Some(value);
    }
    Ok(found)
}

pub fn too_large() -> ApiError {
    ApiError::TooLarge(format!(
        "the body is larger than {} bytes",
        crate::settings::BODY_LIMIT
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        color: gmo_engine::Color,
        #[serde(default)]
        width: Option<u8>,
    }

    fn refused(text: &str) -> (u16, String, String) {
        let error = from_json::<Body>(text.as_bytes()).expect_err(text);
        let detail = error.body();
        (
            error.status().as_u16(),
            detail.code.to_string(),
            detail.message,
        )
    }

    #[test]
    fn each_refusal_says_what_it_is() {
        let (status, code, message) = refused(r#"{"color": 5}"#);
        assert_eq!((status, code.as_str()), (422, "invalid_field"), "{message}");
        assert!(message.starts_with("`color`:"), "{message}");
        let (status, code, message) = refused("[4, 5]");
        assert_eq!((status, code.as_str()), (422, "invalid_field"));
        assert!(message.contains("not an array"), "{message}");
        let (status, code, _) = refused(r#"{"color": "#);
        assert_eq!((status, code.as_str()), (400, "malformed_json"));
        let (status, _, message) = refused(r#"{"color": "white", "size": 3}"#);
        assert_eq!(status, 422);
        assert!(message.contains("size"), "{message}");
        assert!(from_json::<Body>(br#"{"color": "black", "width": 5}"#).is_ok());
    }

    #[test]
    fn a_query_holds_its_one_parameter_or_is_refused_naming_the_stranger() {
        assert_eq!(only_parameter("", "from").expect("empty"), None);
        assert_eq!(only_parameter("from=3", "from").expect("one"), Some("3"));
        assert_eq!(only_parameter("from", "from").expect("bare"), Some(""));
        for (query, named) in [("from=1&from=2", "\"from\""), ("page=2", "\"page\"")] {
            let ApiError::Invalid { message, .. } = only_parameter(query, "from").expect_err(query)
            else {
                panic!("{query}: refused as invalid");
            };
            let says = format!("{named} is not a parameter here, or is given twice (from)");
            assert_eq!(message, says, "{query}");
        }
    }
}
