//! `GET /api/genomes/{reference}/diagram.svg`: the piece alone on an empty board, drawn by
//! `gmo-diagram`, so that a code can be shared as a picture (the web page shows the same one).

use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::extract::ApiPath;
use crate::keys::GenomeRef as Reference;
use crate::responses::{Forbidden, Invalid, NotFound};
use crate::schema::{DiagramColor, DiagramLanguage, DiagramSize, GenomeRef};
use crate::state::AppState;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use axum::http::{HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use gmo_diagram::{Language, Options};
use gmo_engine::Color;
use gmo_genome::Genome;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/genomes/{reference}/diagram.svg", get(diagram))
}

/// A code names one DNA forever: its picture never changes. The language is in the query, so
/// each language's picture is a URL of its own in every cache.
const FOREVER: &str = "public, max-age=31536000, immutable";
/// A name could be given to another genome by a later version of the standard set.
const A_DAY: &str = "public, max-age=86400";
/// The picture is inert: no script, no external resource, even when opened on its own.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'";

/// The piece alone in the middle of an empty board (default 7×7), every destination marked, with
/// a legend of what its moves leave behind, as SVG.
#[utoipa::path(get, path = "/api/genomes/{reference}/diagram.svg", tag = "genomes",
    operation_id = "get_genome_diagram",
    params(("reference" = GenomeRef, Path, description = "a code (3gbkd6) or a name (rook)"),
           ("width" = Option<DiagramSize>, Query, description = "files, 4 to 8 (default 7)"),
           ("height" = Option<DiagramSize>, Query, description = "ranks, 4 to 8 (default 7)"),
           ("color" = Option<DiagramColor>, Query,
            description = "whose piece, and from which side the board is seen (default white)"),
           ("lang" = Option<DiagramLanguage>, Query,
            description = "the language of the picture's text: en (default) or sk")),
    responses((status = 200, description = "the picture (cached for a year when named by code)",
               content_type = "image/svg+xml", body = String),
              (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 422, response = Invalid)))]
pub async fn diagram(
    State(state): State<AppState>,
    ApiPath(reference): ApiPath<Reference>,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let options = options(query.as_deref().unwrap_or(""))?;
    let stored = state.play.library.genome(&reference).await?;
    let genome = Genome::parse(&stored.dna).map_err(ApiError::internal)?;
    let svg = gmo_diagram::render(&genome, &options).map_err(|error| {
        ApiError::invalid(
            ServiceCode::InvalidField,
            format!("{}: {error}", error.field()),
        )
    })?;
    let by_code = stored.code.to_string() == reference.trim().to_ascii_lowercase();
    let headers = [
        (CONTENT_TYPE, HeaderValue::from_static("image/svg+xml")),
        (
            CACHE_CONTROL,
            HeaderValue::from_static(if by_code { FOREVER } else { A_DAY }),
        ),
        (X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (
            HeaderName::from_static("content-security-policy"),
            HeaderValue::from_static(POLICY),
        ),
    ];
    Ok((headers, svg).into_response())
}

/// The picture's options from the query string: `width`, `height` (each 4 to 8), `color`
/// (`white` or `black`), `lang` (`en` or `sk`), each at most once; anything else is refused,
/// naming the field.
fn options(query: &str) -> ApiResult<Options> {
    let mut options = Options::default();
    for (key, value) in pairs(query, &["width", "height", "color", "lang"])? {
        match key {
            "width" => options.width = size(key, value)?,
            "height" => options.height = size(key, value)?,
            "color" => options.color = color(value)?,
            // "lang": `pairs` lets no other key through.
            _ => options.language = language(value)?,
        }
    }
    Ok(options)
}

/// A query's `key=value` pairs, each key one of `known` and given at most once.
fn pairs<'q>(query: &'q str, known: &[&str]) -> ApiResult<Vec<(&'q str, &'q str)>> {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if !known.contains(&key) {
            let known = known.join(", ");
            return Err(bad(key, &format!("is not a parameter ({known})")));
        }
        if pairs.iter().any(|(seen, _)| *seen == key) {
            return Err(bad(key, "is given more than once"));
        }
        pairs.push((key, value));
    }
    Ok(pairs)
}

fn size(field: &str, value: &str) -> ApiResult<u8> {
    match value.as_bytes() {
        [digit @ b'4'..=b'8'] => Ok(digit - b'0'),
        _ => Err(ApiError::invalid(
            ServiceCode::BadSize,
            format!("{field} must be a whole number from 4 to 8, not {value:?}"),
        )),
    }
}

fn color(value: &str) -> ApiResult<Color> {
    match value {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(bad(
            "color",
            &format!("must be white or black, not {value:?}"),
        )),
    }
}

/// The language of a picture's text, by its tag, exactly (`en`, `sk`).
fn language(value: &str) -> ApiResult<Language> {
    Language::ALL
        .into_iter()
        .find(|language| language.tag() == value)
        .ok_or_else(|| bad("lang", &format!("must be en or sk, not {value:?}")))
}

fn bad(field: &str, why: &str) -> ApiError {
    // The field is echoed cut short: the query is the client's, of any length.
    let field: String = field.chars().take(32).collect();
    ApiError::invalid(ServiceCode::InvalidField, format!("{field:?} {why}"))
}

#[cfg(test)]
mod tests {
    use super::options;
    use gmo_diagram::Language;
    use gmo_engine::Color;

    #[test]
    fn the_query_gives_the_options_or_names_the_field() {
        let given = options("width=5&height=8&color=black&lang=sk").expect("valid");
        assert_eq!((given.width, given.height), (5, 8));
        assert_eq!(given.color, Color::Black);
        assert_eq!(given.language, Language::Sk);
        let plain = options("").expect("empty");
        assert_eq!(
            (plain.width, plain.height, plain.color, plain.language),
            (7, 7, Color::White, Language::En)
        );
        assert_eq!(options("lang=en").expect("en").language, Language::En);
        for (query, field) in [
            ("width=3", "width"),
            ("width=9", "width"),
            ("height=04", "height"),
            ("height=", "height"),
            ("color=red", "color"),
            ("width=5&width=6", "width"),
            ("size=5", "size"),
            ("lang=de", "lang"),
            ("lang=SK", "lang"),
            ("lang=sk-SK", "lang"),
            ("lang=", "lang"),
            ("lang=sk&lang=en", "lang"),
        ] {
            let error = options(query).expect_err(query);
            assert!(error.body().message.contains(field), "{query}: {error:?}");
        }
    }
}
