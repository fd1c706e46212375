//! JSON schemas for the types the engine hands to a server (feature `openapi`): squares and
//! genome codes travel as strings, so their schemas are written here with the patterns a server
//! accepts, for OpenAPI documents and the clients generated from them.

use crate::square::Square;
use std::borrow::Cow;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// A square's name: a file letter then a rank digit (the file may be upper case in requests).
pub const SQUARE_PATTERN: &str = "^[a-hA-H][1-8]$";
/// A genome or preset code: six letters of lower-case Crockford base32 (rules §2.5).
pub const CODE_PATTERN: &str = "^[0-9a-hjkmnp-tv-z]{6}$";

/// `pattern` with its end made exact in every regex dialect a client may use: in ECMA-262 (JSON
/// Schema's) `$` ends the text, but in Python's, which test generators use, it also matches
/// before a final line break, so `^[a-h][1-8]$` would offer `"e2\n"`, which the server refuses.
/// `(?!\n)$` means the end in both.
pub fn exact(pattern: &str) -> String {
    match pattern.strip_suffix('$') {
        Some(body) if !body.ends_with("(?!\\n)") => format!("{body}(?!\\n)$"),
        _ => pattern.to_owned(),
    }
}

fn string(pattern: &str, description: &str, example: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(exact(pattern)))
        .description(Some(description))
        .examples([example])
        .into()
}

impl PartialSchema for Square {
    fn schema() -> RefOr<Schema> {
        string(
            SQUARE_PATTERN,
            "A square: file letter, then rank number.",
            "e2",
        )
    }
}

impl ToSchema for Square {}

/// The schema of a genome code (`gmo_genome::Code` travels as its string).
#[derive(Debug)]
pub struct CodeSchema;

impl PartialSchema for CodeSchema {
    fn schema() -> RefOr<Schema> {
        string(
            CODE_PATTERN,
            "A genome code: 6 letters of Crockford base32.",
            "3gbkd6",
        )
    }
}

impl ToSchema for CodeSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Code")
    }
}
