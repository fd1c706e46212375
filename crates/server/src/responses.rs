//! The error answers routes share, as named responses of the OpenAPI document
//! (`#/components/responses/…`), each an [`ErrorBody`].

use crate::error::ErrorBody;
use utoipa::openapi::schema::ObjectBuilder;
use utoipa::openapi::{Content, RefOr, Response, ResponseBuilder};
use utoipa::{ToResponse, ToSchema};

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
