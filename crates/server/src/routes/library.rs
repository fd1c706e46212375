//! The piece library (`gmo_play::library::entries`; docs/library.md): signed-in designers
//! publish genomes and presets under a name, edit and withdraw their own entries and star
//! others'; everyone searches the library and reads an entry with its value, games and lineage.
//! In discovery every route answers `403 discovery` (the library would give the language away).

use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::extract::{ApiJson, ApiPath};
use crate::responses::{
    BadRequest, Conflict, Forbidden, Invalid, NotFound, TooLarge, TooManyRequests, Unauthorized,
};
use crate::schema::{Id, UsernameText};
use crate::signed::{MaybeSigned, Signed};
use crate::state::AppState;
use crate::views::rfc3339;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::routing::{get, put};
use gmo_play::library::entries::{Edit, EntryKind, EntryPage, MAX_PAGE, PAGE, Publish, Search};
use gmo_play::library::features;
use gmo_store::{EntrySort, LibraryEntry, ValueJob};
use gmo_types::{EntryId, EvaluationState, Timestamp, Username};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/library", get(search).post(publish))
        .route("/api/library/{id}", get(show).patch(edit).delete(withdraw))
        .route("/api/library/{id}/star", put(star).delete(unstar))
}

/// What an entry publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntryKindJson {
    Genome,
    Preset,
}

impl From<EntryKindJson> for EntryKind {
    fn from(kind: EntryKindJson) -> EntryKind {
        match kind {
            EntryKindJson::Genome => EntryKind::Genome,
            EntryKindJson::Preset => EntryKind::Preset,
        }
    }
}

/// A publication.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishRequest {
    pub kind: EntryKindJson,
    /// The stored genome's or preset's code (or name: `rook`, `default`).
    #[schema(min_length = 1, max_length = 40, example = "3gbkd6")]
    pub code: String,
    /// 3 to 40 characters (trimmed), no control characters; unique among the author's live
    /// entries without regard to case.
    #[schema(
        min_length = 3,
        max_length = 40,
        pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
    )]
    pub name: String,
    /// Plain text, at most 500 characters, no control characters (no line breaks).
    #[serde(default)]
    #[schema(
        nullable = false,
        max_length = 500,
        pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
    )]
    pub description: Option<String>,
}

/// An edit: the fields given change (at least one; `null` is no value).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EditRequest {
    #[serde(default)]
    #[schema(
        nullable = false,
        min_length = 3,
        max_length = 40,
        pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
    )]
    pub name: Option<String>,
    #[serde(default)]
    #[schema(
        nullable = false,
        max_length = 500,
        pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
    )]
    pub description: Option<String>,
}

/// A library entry as search and pages show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntryJson {
    #[schema(value_type = Id)]
    pub id: String,
    pub kind: EntryKindJson,
    /// The genome's or preset's code: it keeps working everywhere, whatever becomes of the entry.
    #[schema(value_type = gmo_engine::openapi::CodeSchema)]
    pub code: String,
    pub name: String,
    pub description: String,
    /// The author's username.
    #[schema(value_type = UsernameText)]
    pub author: String,
    /// When it was published (RFC 3339, UTC).
    pub created_at: String,
    /// The strength estimate in pawns, once its evaluation is done (genomes only).
    pub value: Option<f64>,
    pub stars: u64,
    /// Finished games (aborted ones aside) in which a side fielded it.
    pub games: u64,
    /// Those of them the side that fielded it won.
    pub wins: u64,
    /// What the piece does (a preset: any of its pieces): `leaps`, `slides`, `wraps`,
    /// `copies`, `debuff`, and each debuff's name (`no_wrap`, `freeze`, …).
    pub does: Vec<String>,
    /// The piece's diagram (genomes only).
    pub diagram: Option<String>,
}

/// A genome's strength evaluation, as far as it went.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntryEvaluation {
    pub state: EvaluationState,
    pub played: u32,
    pub games: u32,
}

/// A parent an entry's genome was bred from, with its published entries.
#[derive(Debug, Serialize, ToSchema)]
pub struct ParentJson {
    #[schema(value_type = gmo_engine::openapi::CodeSchema)]
    pub code: String,
    pub entries: Vec<EntryJson>,
}

/// Where an entry's genome came from, and what came of it.
#[derive(Debug, Serialize, ToSchema)]
pub struct LineageJson {
    /// The two genomes it was bred from (empty when it was not bred here).
    pub parents: Vec<ParentJson>,
    /// Published entries of genomes bred from it (at most 50).
    pub children: Vec<EntryJson>,
}

/// One entry with its page's details.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntryPageJson {
    #[serde(flatten)]
    pub entry: EntryJson,
    /// The genome's evaluation (`null`: none asked for yet, or a preset).
    pub evaluation: Option<EntryEvaluation>,
    pub lineage: LineageJson,
    /// Whether the caller starred it (false when not signed in).
    pub starred: bool,
}

/// A page of search results.
#[derive(Debug, Serialize, ToSchema)]
pub struct SearchAnswer {
    /// At most 50.
    pub entries: Vec<EntryJson>,
    pub page: u32,
    /// Whether a next page has entries.
    pub more: bool,
}

fn entry_json(entry: &LibraryEntry) -> EntryJson {
    let kind = if entry.kind == EntryKind::Preset.name() {
        EntryKindJson::Preset
    } else {
        EntryKindJson::Genome
    };
    EntryJson {
        diagram: (kind == EntryKindJson::Genome)
            .then(|| format!("/api/genomes/{}/diagram.svg", entry.code)),
        id: entry.id.clone(),
        kind,
        code: entry.code.clone(),
        name: entry.name.clone(),
        description: entry.description.clone(),
        author: entry.author_name.clone(),
        created_at: rfc3339(Timestamp::from_ms(entry.created_ms)),
        value: entry.value,
        stars: count(entry.stars),
        games: count(entry.games),
        wins: count(entry.wins),
        does: features::names_of(entry.features),
    }
}

fn count(stored: i64) -> u64 {
    u64::try_from(stored).unwrap_or(0)
}

fn evaluation_json(job: &ValueJob) -> EntryEvaluation {
    EntryEvaluation {
        state: job.state,
        played: job.played(),
        games: job.games,
    }
}

fn page_json(page: &EntryPage) -> EntryPageJson {
    EntryPageJson {
        entry: entry_json(&page.entry),
        evaluation: page.evaluation.as_ref().map(evaluation_json),
        lineage: LineageJson {
            parents: page
                .lineage
                .parents
                .iter()
                .map(|(code, entries)| ParentJson {
                    code: code.clone(),
                    entries: entries.iter().map(entry_json).collect(),
                })
                .collect(),
            children: page.lineage.children.iter().map(entry_json).collect(),
        },
        starred: page.starred,
    }
}

/// Publishes a stored genome or preset under a name: at most 20 an account a day.
#[utoipa::path(post, path = "/api/library", tag = "library", operation_id = "publish_entry",
    request_body = PublishRequest, security(("session" = []), ("bearer" = [])),
    responses((status = 201, description = "published", body = EntryJson),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid), (status = 429, response = TooManyRequests)))]
pub async fn publish(
    State(state): State<AppState>,
    Signed(caller): Signed,
    ApiJson(body): ApiJson<PublishRequest>,
) -> ApiResult<(StatusCode, Json<EntryJson>)> {
    let publish = Publish {
        kind: body.kind.into(),
        code: body.code,
        name: body.name,
        description: body.description,
    };
    let entry = state.play.entries.publish(&caller, &publish).await?;
    Ok((StatusCode::CREATED, Json(entry_json(&entry))))
}

/// Searches the library: words of the name and description, filters, an order, 50 a page.
#[utoipa::path(get, path = "/api/library", tag = "library", operation_id = "search_library",
    params(("kind" = Option<crate::schema::LibraryKind>, Query, description = "`genome` or `preset`"),
           ("q" = Option<crate::schema::LibraryWords>, Query, description = "words (up to 5, \
100 characters): each must begin a word of the entry's name or description, in any case"),
           ("sort" = Option<crate::schema::LibrarySort>, Query, description = "`popular` (most \
games; the default), `new`, `stars`, or `value` (highest first; only entries with a value)"),
           ("value_min" = Option<crate::schema::Pawns>, Query, description = "the least value, in pawns"),
           ("value_max" = Option<crate::schema::Pawns>, Query, description = "the greatest value, in pawns"),
           ("author" = Option<UsernameText>, Query, description = "the author's username (any case)"),
           ("does" = Option<crate::schema::PieceFeatures>, Query, description = "what the piece \
does, comma-separated, all must hold"),
           ("page" = Option<crate::schema::LibraryPage>, Query, description = "1 to 200 (default \
1), 50 entries a page")),
    responses((status = 200, description = "a page of entries", body = SearchAnswer),
              (status = 403, response = Forbidden), (status = 422, response = Invalid)))]
pub async fn search(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<SearchAnswer>> {
    let search = search_of(query.as_deref().unwrap_or(""))?;
    let (entries, more) = state.play.entries.search(&search).await?;
    Ok(Json(SearchAnswer {
        entries: entries.iter().map(entry_json).collect(),
        page: search.page,
        more,
    }))
}

/// One entry, with its evaluation and lineage (`404` once withdrawn or hidden).
#[utoipa::path(get, path = "/api/library/{id}", tag = "library", operation_id = "get_entry",
    params(("id" = Id, Path, description = "the entry's id")),
    responses((status = 200, description = "the entry", body = EntryPageJson),
              (status = 400, response = BadRequest), (status = 403, response = Forbidden),
              (status = 404, response = NotFound)))]
pub async fn show(
    State(state): State<AppState>,
    MaybeSigned(caller): MaybeSigned,
    ApiPath(id): ApiPath<EntryId>,
) -> ApiResult<Json<EntryPageJson>> {
    let page = state.play.entries.page(&id, caller.as_ref()).await?;
    Ok(Json(page_json(&page)))
}

/// Changes the name or description of one's own entry.
#[utoipa::path(patch, path = "/api/library/{id}", tag = "library", operation_id = "edit_entry",
    request_body = EditRequest, security(("session" = []), ("bearer" = [])),
    params(("id" = Id, Path, description = "the entry's id")),
    responses((status = 200, description = "the entry as changed", body = EntryPageJson),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn edit(
    State(state): State<AppState>,
    Signed(caller): Signed,
    ApiPath(id): ApiPath<EntryId>,
    ApiJson(body): ApiJson<EditRequest>,
) -> ApiResult<Json<EntryPageJson>> {
    let edit = Edit {
        name: body.name,
        description: body.description,
    };
    let entries = &state.play.entries;
    entries.edit(&caller, &id, &edit).await?;
    Ok(Json(page_json(&entries.page(&id, Some(&caller)).await?)))
}

/// Withdraws one's own entry: it leaves search and pages; its code keeps working.
#[utoipa::path(delete, path = "/api/library/{id}", tag = "library", operation_id = "withdraw_entry",
    security(("session" = []), ("bearer" = [])),
    params(("id" = Id, Path, description = "the entry's id")),
    responses((status = 204, description = "withdrawn"),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound)))]
pub async fn withdraw(
    State(state): State<AppState>,
    Signed(caller): Signed,
    ApiPath(id): ApiPath<EntryId>,
) -> ApiResult<StatusCode> {
    state.play.entries.withdraw(&caller, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Stars an entry (starring twice counts once).
#[utoipa::path(put, path = "/api/library/{id}/star", tag = "library", operation_id = "star_entry",
    security(("session" = []), ("bearer" = [])),
    params(("id" = Id, Path, description = "the entry's id")),
    responses((status = 200, description = "starred: the entry", body = EntryPageJson),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound)))]
pub async fn star(
    State(state): State<AppState>,
    Signed(caller): Signed,
    ApiPath(id): ApiPath<EntryId>,
) -> ApiResult<Json<EntryPageJson>> {
    starred(&state, &caller, &id, true).await
}

/// Takes one's star back.
#[utoipa::path(delete, path = "/api/library/{id}/star", tag = "library", operation_id = "unstar_entry",
    security(("session" = []), ("bearer" = [])),
    params(("id" = Id, Path, description = "the entry's id")),
    responses((status = 200, description = "unstarred: the entry", body = EntryPageJson),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound)))]
pub async fn unstar(
    State(state): State<AppState>,
    Signed(caller): Signed,
    ApiPath(id): ApiPath<EntryId>,
) -> ApiResult<Json<EntryPageJson>> {
    starred(&state, &caller, &id, false).await
}

async fn starred(
    state: &AppState,
    caller: &gmo_play::accounts::Caller,
    id: &EntryId,
    star: bool,
) -> ApiResult<Json<EntryPageJson>> {
    let entries = &state.play.entries;
    entries.star(caller, id, star).await?;
    Ok(Json(page_json(&entries.page(id, Some(caller)).await?)))
}

/// The longest `q`, in characters.
const MAX_QUERY: usize = 100;
/// The greatest value a range names, in pawns either way.
const MAX_VALUE: f64 = 100.0;

/// The search a query string asks for; every parameter at most once, unknown ones refused.
fn search_of(query: &str) -> ApiResult<Search> {
    let refused = |message: String| ApiError::invalid(ServiceCode::InvalidField, message);
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query)
        .map_err(|_| refused("the query string does not decode (percent-encoding)".into()))?;
    let mut search = Search {
        kind: None,
        query: String::new(),
        sort: EntrySort::Popular,
        value_min: None,
        value_max: None,
        author: None,
        does: 0,
        page: 1,
    };
    let mut seen: Vec<String> = Vec::new();
    for (key, value) in pairs {
        if seen.contains(&key) {
            let key: String = key.chars().take(32).collect();
            return Err(refused(format!("{key:?} is given twice")));
        }
        seen.push(key.clone());
        match key.as_str() {
            "kind" => {
                search.kind = Some(match value.as_str() {
                    "genome" => EntryKind::Genome,
                    "preset" => EntryKind::Preset,
                    _ => return Err(refused("kind: `genome` or `preset`".into())),
                });
            }
            "q" if value.chars().count() <= MAX_QUERY => search.query = value,
            "q" => return Err(refused(format!("q: at most {MAX_QUERY} characters"))),
            "sort" => {
                search.sort = match value.as_str() {
                    "popular" => EntrySort::Popular,
                    "new" => EntrySort::New,
                    "stars" => EntrySort::Stars,
                    "value" => EntrySort::Value,
                    _ => return Err(refused("sort: popular, new, stars or value".into())),
                };
            }
            "value_min" => search.value_min = Some(pawns("value_min", &value)?),
            "value_max" => search.value_max = Some(pawns("value_max", &value)?),
            "author" => {
                let name = Username::parse(&value).map_err(|_| {
                    refused("author: a username, 3 to 20 of A-Z a-z 0-9 _ -".into())
                })?;
                search.author = Some(name);
            }
            "does" => {
                for name in value.split(',').filter(|name| !name.is_empty()) {
                    search.does |= features::named(name).ok_or_else(|| {
                        let name: String = name.chars().take(32).collect();
                        refused(format!(
                            "does: {name:?} is none of {}",
                            features::names().join(", ")
                        ))
                    })?;
                }
            }
            "page" => {
                search.page = value
                    .parse::<u32>()
                    .ok()
                    .filter(|page| (1..=MAX_PAGE).contains(page))
                    .ok_or_else(|| {
                        refused(format!("page: 1 to {MAX_PAGE}, {PAGE} entries each"))
                    })?;
            }
            other => {
                let key: String = other.chars().take(32).collect();
                return Err(refused(format!(
                    "{key:?} is not a parameter here (kind, q, sort, value_min, value_max, \
                     author, does, page)"
                )));
            }
        }
    }
    Ok(search)
}

fn pawns(field: &str, value: &str) -> ApiResult<f64> {
    value
        .parse::<f64>()
        .ok()
        .filter(|pawns| pawns.is_finite() && pawns.abs() <= MAX_VALUE)
        .ok_or_else(|| {
            ApiError::invalid(
                ServiceCode::InvalidField,
                format!("{field}: a number of pawns, -{MAX_VALUE} to {MAX_VALUE}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::search_of;

    #[test]
    fn search_parameters_are_checked_and_named_when_refused() {
        let search = search_of("kind=genome&q=twin%20rook&sort=value&value_min=1.5&does=leaps,freeze&page=2&author=Ada_1")
            .expect("a search");
        assert_eq!(search.query, "twin rook");
        assert_eq!(search.page, 2);
        assert_eq!(search.value_min, Some(1.5));
        assert_ne!(search.does, 0);
        assert!(search_of("").is_ok());
        for (bad, named) in [
            ("kind=pawn", "kind"),
            ("sort=best", "sort"),
            ("value_min=x", "value_min"),
            ("value_max=1e9", "value_max"),
            ("does=flies", "does"),
            ("page=0", "page"),
            ("page=201", "page"),
            ("author=a", "author"),
            ("limit=3", "limit"),
            ("q=a&q=b", "twice"),
        ] {
            let message = search_of(bad).expect_err(bad).body().message;
            assert!(message.contains(named), "{bad}: {message}");
        }
    }
}
