//! The OpenAPI document: every route's annotation, gathered, with the error answers they share as
//! named responses (`#/components/responses/…`), each an [`ErrorBody`].

use super::{
    breed, diagram, draw, games, genomes, labs, ops, plies, positions, presets, rematch,
    seek_stream, seeks, stream, values,
};
use crate::error::ErrorBody;
use std::collections::BTreeMap;
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, OneOfBuilder, Schema};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{Content, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, OpenApi, ToResponse, ToSchema};

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
        labs::promote, labs::preset, labs::save_preset,
        games::create, games::show, games::preset, games::king, games::ready, games::moves,
        games::play, games::promote, games::resign, games::abort, games::record, stream::stream,
        plies::plies, positions::positions, draw::draw, diagram::diagram,
        rematch::ask,
        seeks::create, seeks::list, seeks::withdraw, seeks::accept, seek_stream::stream,
        ops::health, ops::metrics, ops::openapi,
    ),
    components(
        schemas(ErrorBody, crate::schema::DiagramSize, crate::schema::DiagramColor,
                crate::schema::PlyCount),
        responses(BadRequest, Unauthorized, Forbidden, NotFound, Conflict, TooLarge, Invalid,
                  Unavailable, Internal, Timeout, MethodNotAllowed, TooManyRequests),
    ),
    modifiers(&Bearer, &Shared, &OneSource),
    tags(
        (name = "genomes", description = "Pieces' DNA, stored under their codes."),
        (name = "presets", description = "A back rank of genomes, stored under its code."),
        (name = "labs", description = "Sandbox boards behind their own token."),
        (name = "games", description = "Games between two seats, on a server-kept clock."),
        (name = "lobby", description = "Open seeks, paired automatically or accepted from the \
list."),
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
    }
}

/// A placement in a lab names its genome by exactly one of `genome` and `dna`.
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

/// An error answer with the JSON error body.
fn error_response(description: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            Content::new(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                ErrorBody::name(),
            )))),
        )
        .into()
}

macro_rules! error_responses {
    ($($name:ident: $description:literal;)*) => {$(
        #[doc = $description]
        pub struct $name;

        impl<'s> ToResponse<'s> for $name {
            fn response() -> (&'s str, RefOr<Response>) {
                (stringify!($name), error_response($description))
            }
        }
    )*};
}

error_responses! {
    BadRequest: "The request could not be read: the body is not JSON (`malformed_json`) or not \
        sent as `application/json` (`content_type`), or a path segment does not decode \
        (`bad_path`).";
    Unauthorized: "No bearer token where one is needed, a malformed `Authorization` header, or a \
        token this service never issued.";
    Forbidden: "A real token, but for another seat, game or lab.";
    NotFound: "No such game, lab, genome or preset (`what` says which).";
    Conflict: "Not now: the wrong phase, not the seat's turn, an illegal move, a freeze, or a \
        lost race with another request (`conflict`: reload and retry).";
    TooLarge: "The body is larger than 64 KiB.";
    Invalid: "Well-formed but invalid: a field that does not fit (`invalid_field`), a square off \
        this board, DNA that is not a genome (with `codon`, `offset`, `found`, `expected`), an \
        unknown bot, a preset of the wrong width.";
    Unavailable: "The service cannot take this now: the database does not answer, or (creating a \
        game with a bot seat) the deployment's live games with a bot seat are at their cap, or \
        (asking for a genome's value) the deployment's evaluation queue is full.";
    Internal: "The server failed (logged; the body says no more).";
    MethodNotAllowed: "A method this path does not answer (`method_not_allowed`); the `Allow` \
        header lists those it does. Any path below, with a method it does not list.";
}

/// 429: the JSON error body and `Retry-After`.
pub struct TooManyRequests;

impl<'s> ToResponse<'s> for TooManyRequests {
    fn response() -> (&'s str, RefOr<Response>) {
        let retry_after = utoipa::openapi::HeaderBuilder::new()
            .schema(
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::Integer)
                    .minimum(Some(1)),
            )
            .description(Some("Whole seconds until this client may create again."))
            .build();
        let response = ResponseBuilder::new()
            .description(
                "This client address created too much too fast (`rate_limited`): games, labs, \
                 genomes and presets share one budget a minute (600 by default; the operator \
                 sets it). `Retry-After` says when to try again.",
            )
            .header("Retry-After", retry_after)
            .content(
                "application/json",
                Content::new(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                    ErrorBody::name(),
                )))),
            );
        ("TooManyRequests", response.into())
    }
}

/// 408 carries no body: the timeout layer answers before any handler could.
pub struct Timeout;

impl<'s> ToResponse<'s> for Timeout {
    fn response() -> (&'s str, RefOr<Response>) {
        let response = ResponseBuilder::new()
            .description("The request took longer than the server's limit (10 s by default).");
        ("Timeout", response.into())
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
