//! The OpenAPI document (`/api/openapi.json`): every route's annotation, gathered, with the
//! error answers they share as named responses (`crate::responses`).

use crate::answer::Json;
use crate::error::ErrorBody;
use crate::openapi_lab::LabForms;
use crate::openapi_rules::BotGames;
use crate::responses::{
    BadRequest, Conflict, Forbidden, Internal, Invalid, MethodNotAllowed, NotFound, Timeout,
    TooLarge, TooManyRequests, Unauthorized, Unavailable,
};
use crate::routes::{
    accounts, analysis, bots, breed, challenges, config, diagram, draw, event_stream, events,
    events_trf, game_event, games, genomes, lab_analysis, labs, library, ops, plies, positions,
    presets, rematch, seek_stream, seeks, stream, users, values, watch,
};
use crate::signed::SESSION_COOKIE;
use axum::Router;
use axum::routing::get;
use std::collections::BTreeMap;
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, OneOfBuilder, Schema};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{RefOr, Response};
use utoipa::{Modify, OpenApi};

#[derive(OpenApi)]
#[openapi(
    info(title = "GMO chess", version = "1",
         description = "Design pieces by DNA, share them by code, play on a server-kept clock. \
Every error answers `{\"error\": {\"code\", \"message\", …}}` (`ErrorBody`). Secrets travel as \
`Authorization: Bearer <token>`; where the token is optional, a request without it reads as a \
spectator. A path asked with a method it does not list answers `405` with the same body \
(`method_not_allowed`) and an `Allow` header (`#/components/responses/MethodNotAllowed`)."),
    paths(
        genomes::create, genomes::show, breed::breed, values::start, values::show, values::stream,
        presets::create, presets::show,
        labs::create, labs::show, labs::place, labs::erase, labs::king, labs::moves, labs::play,
        labs::promote, labs::preset, labs::save_preset, lab_analysis::lines,
        games::create, games::show, games::preset, games::king, games::ready, games::moves, games::legal,
        games::play, games::promote, games::resign, games::abort, games::claim, games::record,
        stream::stream, watch::live, watch::tv,
        plies::plies, positions::positions, analysis::ask, analysis::show, draw::draw, diagram::diagram,
        rematch::ask,
        seeks::create, seeks::list, seeks::withdraw, seeks::accept, seek_stream::stream,
        ops::health, ops::metrics, config::config, openapi,
        accounts::sign_up, accounts::sign_in, accounts::sign_out, accounts::show,
        accounts::change_password, accounts::remove, accounts::create_token, accounts::tokens,
        accounts::revoke_token, accounts::become_bot,
        challenges::create, challenges::accept, challenges::decline, challenges::cancel,
        event_stream::stream, bots::online,
        users::profile, users::games, users::history, users::leaderboard,
        events::create, events::show, events::add_team, events::join, events::lineup,
        events::start, events::next_round, events::team_game, events::standings_csv,
        events::stream, events_trf::trf, game_event::event_of_game,
        library::publish, library::search, library::show, library::edit, library::withdraw,
        library::star, library::unstar,
    ),
    components(
        schemas(ErrorBody, crate::schema::AcceptLanguage, crate::schema::DiagramSize,
                crate::schema::DiagramColor, crate::schema::DiagramLanguage, crate::schema::PlyCount, crate::schema::LineCount, crate::schema::LeaderPool,
                crate::schema::PresenceFlag, crate::schema::LinesMode, crate::schema::LiveStatus,
                crate::schema::LivePage, crate::schema::LibraryKind, crate::schema::LibraryWords,
                crate::schema::LibrarySort, crate::schema::Pawns, crate::schema::PieceFeatures,
                crate::schema::LibraryPage),
        responses(BadRequest, Unauthorized, Forbidden, NotFound, Conflict, TooLarge, Invalid,
                  Unavailable, Internal, Timeout, MethodNotAllowed, TooManyRequests),
    ),
    modifiers(&Bearer, &Shared, &OneSource, &BotGames, &EditNeedsAField, &LabForms),
    tags(
        (name = "genomes", description = "Pieces' DNA, stored under their codes."),
        (name = "presets", description = "A back rank of genomes, stored under its code."),
        (name = "labs", description = "Sandbox boards behind their own token."),
        (name = "games", description = "Games between two seats, on a server-kept clock."),
        (name = "lobby", description = "Open seeks, paired automatically or accepted from the \
list."),
        (name = "accounts", description = "Accounts, their sessions (the `gmo_session` cookie) \
and personal tokens (`Authorization: Bearer gmo_…`)."),
        (name = "events", description = "Teams play each other in rounds: round robin or \
Swiss, with standings (docs/events.md)."),
        (name = "library", description = "The piece library: designers publish genomes and \
presets under a name; everyone searches, stars and plays them (docs/library.md)."),
        (name = "challenges", description = "Challenges between accounts, bots' and \
people's, and each account's event stream (docs/agents.md, \"Putting it online\")."),
        (name = "operations", description = "Health, metrics and this document."),
    ),
)]
pub struct ApiDoc;

/// Declares the `bearer` scheme the secured routes name.
struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        );
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new(SESSION_COOKIE))),
        );
    }
}

/// A placement in a lab names its genome by exactly one of `genome` and `dna`.
/// A library edit names at least one field (`minProperties: 1`). Set here because utoipa-gen
/// 5.5 writes a struct's `min_properties` as `maxProperties`.
struct EditNeedsAField;

impl Modify for EditNeedsAField {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let edit = openapi
            .components
            .as_mut()
            .and_then(|components| components.schemas.get_mut("EditRequest"));
        if let Some(RefOr::T(Schema::Object(edit))) = edit {
            edit.min_properties = Some(1);
        }
    }
}

struct OneSource;

impl Modify for OneSource {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let Some(placement) = components.schemas.remove("Placement") else {
            return;
        };
        let only = |field: &str| ObjectBuilder::new().required(field).build();
        let one = OneOfBuilder::new()
            .item(only("genome"))
            .item(only("dna"))
            .build();
        let both = AllOfBuilder::new()
            .item(placement)
            .item(Schema::OneOf(one))
            .description(Some("Exactly one of `genome` and `dna`."))
            .build();
        components
            .schemas
            .insert("Placement".to_owned(), RefOr::T(Schema::AllOf(both)));
    }
}

/// Answers every operation can give whatever its handler does: 500 when the server fails, 503
/// when the database does not answer, 408 from the timeout layer on every route but the
/// (long-lived) stream, and 400 from the path extractor wherever the path has parameters (a
/// segment that does not decode as UTF-8).
struct Shared;

impl Modify for Shared {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in openapi.paths.paths.iter_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.patch,
                &mut item.delete,
            ];
            for operation in operations.into_iter().flatten() {
                add_response(operation, "500", "Internal");
                add_response(operation, "503", "Unavailable");
                if path.contains('{') {
                    add_response(operation, "400", "BadRequest");
                }
                if !path.ends_with("/stream") {
                    add_response(operation, "408", "Timeout");
                }
            }
        }
    }
}

fn add_response(operation: &mut Operation, status: &str, name: &str) {
    let responses: &mut BTreeMap<String, RefOr<Response>> = &mut operation.responses.responses;
    responses.entry(status.to_owned()).or_insert_with(|| {
        RefOr::Ref(utoipa::openapi::Ref::new(format!(
            "#/components/responses/{name}"
        )))
    });
}

/// The document.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// `GET /api/openapi.json`.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/api/openapi.json", get(openapi))
}

/// This API's OpenAPI 3.1 document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "operations", operation_id = "openapi",
    responses((status = 200, description = "this document", body = Object)))]
pub async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(document())
}
