//! `POST /api/genomes`, `GET /api/genomes/{reference}`.

use super::refs::genome_of_dna;
use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::{ApiJson, ApiPath};
use crate::language::{Lang, VARY_LANGUAGE, Vary};
use crate::responses::{BadRequest, Invalid, NotFound, TooLarge, TooManyRequests};
use crate::schema::{AcceptLanguage, GenomeRef};
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The `Accept-Language` parameter of the operations that explain genomes. It is declared
/// `nullable = false`: a header is absent or text, never null, and so its schema stays the plain
/// `AcceptLanguage` with its pattern rather than a `oneOf` with null.
pub const LANGUAGE: &str = "the language of `explanation` and `traits`: the first of `en` and \
`sk` by q-value (`sk-SK,sk;q=0.9,en;q=0.8` is Slovak); absent, unreadable or neither: English. \
Never refused.";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/genomes", post(create))
        .route("/api/genomes/{reference}", get(show))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGenome {
    /// DNA: letters S, A, C, H; white space ignored, lower case accepted.
    #[schema(value_type = crate::schema::Dna)]
    pub dna: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedGenome {
    #[schema(value_type = gmo_engine::openapi::CodeSchema)]
    pub code: String,
    /// The canonical DNA.
    pub dna: String,
    /// What the DNA means, codon by codon, in the request's language (`Accept-Language`: English
    /// or Slovak); left out in discovery.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// What its debuffs mean for a player, in plain words, a sentence each ("It moves only
    /// forward.", "Moving it freezes the game …"), in the request's language; empty for a genome
    /// without debuffs (left out in discovery).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traits: Option<Vec<&'static str>>,
    /// Whether this request stored it (false: it was already stored).
    pub created: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GenomeInfo {
    #[schema(value_type = gmo_engine::openapi::CodeSchema)]
    pub code: String,
    pub dna: String,
    /// What the DNA means, codon by codon, in the request's language (`Accept-Language`: English
    /// or Slovak); left out in discovery.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// What its debuffs mean for a player, in plain words, a sentence each, in the request's
    /// language; empty for a genome without debuffs (left out in discovery).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traits: Option<Vec<&'static str>>,
    /// Names it answers to (standard pieces only).
    pub names: Vec<String>,
}

/// Stores a genome: 201 when new, 200 when it was already stored. Its explanation and traits
/// are in the language `Accept-Language` asks for (English or Slovak, else English).
#[utoipa::path(post, path = "/api/genomes", tag = "genomes", operation_id = "create_genome",
    request_body = NewGenome,
    params(("Accept-Language" = Option<AcceptLanguage>, Header, nullable = false,
            description = LANGUAGE)),
    responses((status = 201, description = "stored now", body = CreatedGenome,
               headers(("Vary" = String, description = "`Accept-Language`: the words vary with it"))),
              (status = 200, description = "stored already", body = CreatedGenome,
               headers(("Vary" = String, description = "`Accept-Language`: the words vary with it"))),
              (status = 400, response = BadRequest), (status = 413, response = TooLarge), (status = 429, response = TooManyRequests),
              (status = 422, response = Invalid)))]
pub async fn create(
    _: crate::limits::CreationLimit,
    State(state): State<AppState>,
    Lang(language): Lang,
    ApiJson(body): ApiJson<NewGenome>,
) -> ApiResult<(StatusCode, Vary, Json<CreatedGenome>)> {
    let genome = genome_of_dna(&body.dna)?;
    let (code, created) = state.play.library.put_genome(&genome).await?;
    let explained = !state.settings.play.discovery;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        VARY_LANGUAGE,
        Json(CreatedGenome {
            code: code.to_string(),
            dna: genome.to_string(),
            explanation: explained.then(|| genome.explain_in(language)),
            traits: explained.then(|| genome.traits_in(language)),
            created,
        }),
    ))
}

/// A stored genome by code or name, explained in the language `Accept-Language` asks for.
#[utoipa::path(get, path = "/api/genomes/{reference}", tag = "genomes", operation_id = "get_genome",
    params(("reference" = GenomeRef, Path, description = "a code (3gbkd6) or a name (rook)"),
           ("Accept-Language" = Option<AcceptLanguage>, Header, nullable = false,
            description = LANGUAGE)),
    responses((status = 200, description = "the genome", body = GenomeInfo,
               headers(("Vary" = String, description = "`Accept-Language`: the words vary with it"))),
              (status = 404, response = NotFound), (status = 422, response = Invalid)))]
pub async fn show(
    State(state): State<AppState>,
    Lang(language): Lang,
    ApiPath(reference): ApiPath<crate::keys::GenomeRef>,
) -> ApiResult<(Vary, Json<GenomeInfo>)> {
    let stored = state.play.library.genome(&reference).await?;
    let parsed = gmo_genome::Genome::parse(&stored.dna).ok();
    let explained = !state.settings.play.discovery;
    let explanation = parsed.as_ref().map(|genome| genome.explain_in(language));
    let traits = parsed.as_ref().map(|genome| genome.traits_in(language));
    Ok((
        VARY_LANGUAGE,
        Json(GenomeInfo {
            code: stored.code.to_string(),
            dna: stored.dna,
            explanation: explained.then(|| explanation.unwrap_or_default()),
            traits: explained.then(|| traits.unwrap_or_default()),
            names: stored.names,
        }),
    ))
}
