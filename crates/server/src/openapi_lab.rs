//! A new lab is one of two requests, and the document says so (schemathesis sent both kinds of
//! field together as valid): an empty board (`width`, `height`, both optional) or a game's
//! position (`game` and `ply`, both required), never fields of both.

use utoipa::Modify;
use utoipa::openapi::schema::{
    AdditionalProperties, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};
use utoipa::openapi::{Ref, RefOr};

/// Replaces `NewLab` by its two forms.
pub struct LabForms;

/// A whole number from `minimum` to `maximum`; `null` too where the server reads it as absent.
fn whole(minimum: u64, maximum: u64, nullable: bool) -> RefOr<Schema> {
    let kind = if nullable {
        SchemaType::from_iter([Type::Integer, Type::Null])
    } else {
        SchemaType::Type(Type::Integer)
    };
    let number = ObjectBuilder::new()
        .schema_type(kind)
        .minimum(Some(minimum))
        .maximum(Some(maximum));
    RefOr::T(Schema::Object(number.build()))
}

impl Modify for LabForms {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let closed = || Some(AdditionalProperties::FreeForm(false));
        let empty = ObjectBuilder::new()
            .description(Some(
                "An empty board: files and ranks, 4 to 8 each (default 8).",
            ))
            .property("width", whole(4, 8, true))
            .property("height", whole(4, 8, true))
            .additional_properties(closed())
            .build();
        let position = ObjectBuilder::new()
            .description(Some(
                "A finished game's position after `ply` plies (0: the start), for anyone who may \
                 read its record, outside discovery.",
            ))
            .property("game", RefOr::Ref(Ref::from_schema_name("Id")))
            .property("ply", whole(0, u64::from(u32::MAX), false))
            .required("game")
            .required("ply")
            .additional_properties(closed())
            .build();
        let forms = OneOfBuilder::new()
            .item(Schema::Object(empty))
            .item(Schema::Object(position))
            .description(Some(
                "Either `width`/`height` (an empty lab) or `game` and `ply` (a game's position).",
            ))
            .build();
        components
            .schemas
            .insert("NewLab".to_owned(), RefOr::T(Schema::OneOf(forms)));
    }
}
