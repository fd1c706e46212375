//! The `code` of an error body: one enum on the wire, made of the edge's own codes, the game
//! service's, the engine's refusals and the genome parser's error kinds. The four sets are
//! disjoint (a test checks it), so a code names exactly one cause, and the OpenAPI document lists
//! them all as one string enum.

use gmo_engine::RefusalCode;
use gmo_genome::ErrorKind;
use gmo_play::PlayCode;
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::fmt;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// The codes the HTTP edge gives (the game service, the engine and the parser have their own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ServiceCode {
    /// 400: the body is not JSON.
    MalformedJson,
    /// 400: the body was not sent as `application/json`.
    ContentType,
    /// 400: the body could not be read.
    BadBody,
    /// 400: a path segment does not fit.
    BadPath,
    /// 422: the JSON does not fit the request's schema (a missing, unknown or mistyped field).
    InvalidField,
    /// 422: not a square name.
    BadSquare,
    /// 422: a board size outside 4–8.
    BadSize,
    /// 422: a placement must name exactly one of `genome` and `dna`.
    GenomeOrDna,
    /// 422: DNA longer than the limit.
    DnaTooLong,
    /// 422 in discovery: the DNA is not a valid genome (nothing more is said).
    InvalidGenome,
    /// 401: no token, or one this service never issued.
    Unauthorized,
    /// 403: a token for another seat, game or lab.
    Forbidden,
    /// 403: a change carrying the session cookie, sent from another origin.
    CrossOrigin,
    /// 403 in discovery: diagrams, breeding, strength estimates and the piece library are off.
    Discovery,
    /// 404: no such genome, preset, game, lab or route.
    NotFound,
    /// 405: the path does not answer this method (`Allow` lists those it does).
    MethodNotAllowed,
    /// 413: the body is larger than the limit.
    TooLarge,
    /// 429: this client created too much too fast (`Retry-After` says when to try again).
    RateLimited,
    /// 503: a dependency (the database) does not answer.
    Unavailable,
    /// 500: the server failed.
    Internal,
}

/// Why a request was refused, as the error body's `code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    Service(ServiceCode),
    Play(PlayCode),
    Refusal(RefusalCode),
    Genome(ErrorKind),
}

impl From<ServiceCode> for ErrorCode {
    fn from(code: ServiceCode) -> ErrorCode {
        ErrorCode::Service(code)
    }
}

impl From<PlayCode> for ErrorCode {
    fn from(code: PlayCode) -> ErrorCode {
        ErrorCode::Play(code)
    }
}

impl From<RefusalCode> for ErrorCode {
    fn from(code: RefusalCode) -> ErrorCode {
        ErrorCode::Refusal(code)
    }
}

impl From<ErrorKind> for ErrorCode {
    fn from(kind: ErrorKind) -> ErrorCode {
        ErrorCode::Genome(kind)
    }
}

impl ErrorCode {
    /// The code as the wire spells it.
    pub fn name(self) -> String {
        match self {
            ErrorCode::Service(code) => serde_name(code),
            ErrorCode::Play(code) => code.name().to_owned(),
            ErrorCode::Refusal(code) => serde_name(code),
            ErrorCode::Genome(kind) => kind.code().to_owned(),
        }
    }

    /// Every code on the wire: the edge's, the service's, the engine's, then the parser's.
    pub fn names() -> Vec<String> {
        let mut names = enum_names(ServiceCode::schema());
        names.extend(PlayCode::ALL.iter().map(|code| code.name().to_owned()));
        names.extend(enum_names(RefusalCode::schema()));
        names.extend(ErrorKind::ALL.iter().map(|kind| kind.code().to_owned()));
        names
    }
}

/// A derived unit enum's serde name.
fn serde_name(code: impl Serialize + fmt::Debug) -> String {
    match serde_json::to_value(&code) {
        Ok(Value::String(name)) => name,
        _ => format!("{code:?}"),
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name())
    }
}

/// The values of a derived string enum's schema.
fn enum_names(schema: RefOr<Schema>) -> Vec<String> {
    match schema {
        RefOr::T(Schema::Object(object)) => object
            .enum_values
            .unwrap_or_default()
            .into_iter()
            .filter_map(|value| match value {
                Value::String(name) => Some(name),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl PartialSchema for ErrorCode {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(ErrorCode::names()))
            .description(Some(
                "A machine-readable reason: the service's own codes, the engine's refusals \
                 (phase, turn, legality) and the DNA parser's error kinds.",
            ))
            .into()
    }
}

impl ToSchema for ErrorCode {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_listed_once() {
        let names = ErrorCode::names();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            names.len(),
            "a code names two causes: {names:?}"
        );
        assert!(names.len() > 40, "{names:?}");
    }

    #[test]
    fn codes_serialise_as_the_listed_names() {
        let names = ErrorCode::names();
        let samples = [
            ErrorCode::from(ServiceCode::DnaTooLong),
            ErrorCode::from(PlayCode::SeekPaired),
            ErrorCode::from(RefusalCode::NotYourTurn),
            ErrorCode::from(ErrorKind::HInStep),
        ];
        for code in samples {
            let Value::String(name) = serde_json::to_value(code).unwrap_or_default() else {
                panic!("{code:?} is not a string");
            };
            assert!(names.contains(&name), "{name} is not listed");
        }
        assert_eq!(
            serde_json::to_value(ErrorCode::from(ErrorKind::HInStep)).ok(),
            Some(Value::from("h_in_step"))
        );
    }

    /// The web page explains every code in each of its languages: its list of the codes
    /// (`crates/web/src/error_codes.txt`, which its own test checks against the catalogues) is
    /// exactly this one, and each catalogue has an `error.{code}` message.
    #[test]
    fn the_page_has_a_message_for_every_code() {
        let mut names = ErrorCode::names();
        names.sort_unstable();
        let mut listed: Vec<String> = include_str!("../../web/src/error_codes.txt")
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(str::to_owned)
            .collect();
        listed.sort_unstable();
        assert_eq!(
            listed, names,
            "crates/web/src/error_codes.txt differs from ErrorCode::names()"
        );
        for (lang, text) in [
            ("en", include_str!("../../web/assets/i18n/en.json")),
            ("sk", include_str!("../../web/assets/i18n/sk.json")),
        ] {
            let catalogue: Value = serde_json::from_str(text).expect("a catalogue is JSON");
            let missing: Vec<_> = names
                .iter()
                .filter(|name| !catalogue[format!("error.{name}")].is_string())
                .collect();
            assert!(
                missing.is_empty(),
                "{lang}.json lacks messages for {missing:?}"
            );
        }
    }
}
