//! `POST /api/genomes/breed`: children of two stored genomes (gmo-genome's `breed`: block
//! crossover, unique debuffs, now and then a §4.2 mutation), each stored like any genome and
//! answered with its code, DNA, explanation and diagram (in the language `Accept-Language` asks
//! for).

use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, optional_whole_number};
use crate::language::{Lang, VARY_LANGUAGE, Vary};
use crate::responses::{BadRequest, Forbidden, Invalid, NotFound, TooLarge, TooManyRequests};
use crate::settings::MAX_DNA_LETTERS;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use gmo_genome::breeding::{DEFAULT_CHILDREN, MAX_CHILDREN};
use gmo_genome::{Breeding, Genome, Language};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/genomes/breed", post(breed))
}

/// The largest seed: 2^53 − 1, the largest whole number a JSON reader that uses doubles (a web
/// page's) reads exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BreedRequest {
    /// The first parent: a stored genome's code or name.
    #[schema(value_type = crate::schema::GenomeRef)]
    pub a: crate::keys::GenomeRef,
    /// The second parent.
    #[schema(value_type = crate::schema::GenomeRef)]
    pub b: crate::keys::GenomeRef,
    /// The seed of the random draws: the same parents, seed and `children` give the same
    /// children. Absent or null: a random seed (answered).
    #[serde(default, deserialize_with = "seed")]
    #[schema(minimum = 0, maximum = 9_007_199_254_740_991_u64)]
    pub seed: Option<u64>,
    /// How many children to make, 1 to 16 (default 4). Fewer come back when the parents have
    /// fewer distinct children.
    #[serde(default, deserialize_with = "children")]
    #[schema(minimum = 1, maximum = 16)]
    pub children: Option<u8>,
}

fn seed<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    let seed: Option<u64> = optional_whole_number(deserializer)?;
    match seed {
        Some(n) if n > MAX_SEED => Err(D::Error::custom(format!(
            "{n} is over the largest seed, {MAX_SEED} (2^53 − 1)"
        ))),
        _ => Ok(seed),
    }
}

fn children<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u8>, D::Error> {
    let children: Option<u8> = optional_whole_number(deserializer).map_err(|_| {
        D::Error::custom(format!("must be a whole number from 1 to {MAX_CHILDREN}"))
    })?;
    match children {
        Some(n) if n == 0 || usize::from(n) > MAX_CHILDREN => Err(D::Error::custom(format!(
            "must be a whole number from 1 to {MAX_CHILDREN}, not {n}"
        ))),
        _ => Ok(children),
    }
}

/// One child: stored, with what `GET /api/genomes/{code}` and its diagram would give.
#[derive(Debug, Serialize, ToSchema)]
pub struct BredChild {
    #[schema(value_type = gmo_engine::openapi::CodeSchema)]
    pub code: String,
    /// The canonical DNA.
    pub dna: String,
    /// What the DNA means, codon by codon, in the request's language (`Accept-Language`: English
    /// or Slovak).
    pub explanation: String,
    /// Whether this request stored it (false: it was already stored).
    pub created: bool,
    /// Its picture's path: `/api/genomes/{code}/diagram.svg`, with `?lang=sk` when the request
    /// asked for Slovak.
    pub diagram: String,
    /// The same picture inline (a white piece on 7×7, as the path answers by default), in the
    /// language asked for.
    pub svg: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Bred {
    /// The first parent's code.
    #[schema(value_type = gmo_engine::openapi::CodeSchema)]
    pub a: String,
    /// The second parent's code.
    #[schema(value_type = gmo_engine::openapi::CodeSchema)]
    pub b: String,
    /// The seed used (the one asked for, or the random one drawn).
    #[schema(minimum = 0, maximum = 9_007_199_254_740_991_u64)]
    pub seed: u64,
    /// The children, in the order they were bred: at most as many as asked for.
    #[schema(max_items = 16)]
    pub children: Vec<BredChild>,
}

/// Breeds two stored genomes: up to `children` distinct valid children by block crossover,
/// now and then a point mutation, each stored. 201 when at least one child was stored now, 200
/// when all were stored already (the same request again) or none came out. The children are
/// explained in the language `Accept-Language` asks for.
#[utoipa::path(post, path = "/api/genomes/breed", tag = "genomes", operation_id = "breed_genomes",
    request_body = BreedRequest,
    params(("Accept-Language" = Option<crate::schema::AcceptLanguage>, Header, nullable = false,
            description = super::genomes::LANGUAGE)),
    responses((status = 201, description = "bred, and at least one child stored now", body = Bred,
               headers(("Vary" = String, description = "`Accept-Language`: the words vary with it"))),
              (status = 200, description = "bred; every child was stored already, or there are none", body = Bred,
               headers(("Vary" = String, description = "`Accept-Language`: the words vary with it"))),
              (status = 400, response = BadRequest),
              (status = 403, response = Forbidden),
              (status = 404, response = NotFound),
              (status = 413, response = TooLarge), (status = 422, response = Invalid),
              (status = 429, response = TooManyRequests)))]
pub async fn breed(
    _: crate::limits::CreationLimit,
    State(state): State<AppState>,
    Lang(language): Lang,
    ApiJson(body): ApiJson<BreedRequest>,
) -> ApiResult<(StatusCode, Vary, Json<Bred>)> {
    let (a_code, a) = parent(&state, &body.a).await?;
    let (b_code, b) = parent(&state, &body.b).await?;
    let seed = body
        .seed
        .unwrap_or_else(|| rand::random::<u64>() & MAX_SEED);
    let breeding = Breeding {
        seed,
        children: body.children.map_or(DEFAULT_CHILDREN, usize::from),
        max_letters: MAX_DNA_LETTERS,
    };
    // Up to 16 × 64 tries over DNA of up to twice 4,096 letters: off the request threads.
    let bred = tokio::task::spawn_blocking(move || gmo_genome::breed(&a, &b, breeding))
        .await
        .map_err(ApiError::internal)?;
    let mut children = Vec::with_capacity(bred.len());
    for child in &bred {
        let (code, created) = state
            .play
            .library
            .put_child(child, &a_code, &b_code)
            .await?;
        children.push(answer(child, code.to_string(), created, language)?);
    }
    let status = if children.iter().any(|child| child.created) {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        VARY_LANGUAGE,
        Json(Bred {
            a: a_code,
            b: b_code,
            seed,
            children,
        }),
    ))
}

/// A stored genome by code or name (404 when none): its stored code and the genome.
async fn parent(state: &AppState, reference: &str) -> ApiResult<(String, Genome)> {
    let stored = state.play.library.genome(reference).await?;
    let genome = Genome::parse(&stored.dna).map_err(|error| {
        ApiError::internal(format!(
            "stored genome {} does not parse: {error}",
            stored.code
        ))
    })?;
    Ok((stored.code.to_string(), genome))
}

fn answer(child: &Genome, code: String, created: bool, language: Language) -> ApiResult<BredChild> {
    let options = gmo_diagram::Options {
        language,
        ..gmo_diagram::Options::default()
    };
    let svg = gmo_diagram::render(child, &options).map_err(ApiError::internal)?;
    // The path keeps its old form in English, the default; another language is passed on.
    let diagram = match language {
        Language::En => format!("/api/genomes/{code}/diagram.svg"),
        other => format!("/api/genomes/{code}/diagram.svg?lang={}", other.tag()),
    };
    Ok(BredChild {
        diagram,
        code,
        dna: child.to_string(),
        explanation: child.explain_in(language),
        created,
        svg,
    })
}
