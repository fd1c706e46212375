//! Rules across fields of a new game that the document states, so that a client generated from
//! it is told before it sends: a bot plays only on a board as wide as its presets (5 or 8 files;
//! the width defaults to 8), and a game between two bots has at most 10 minutes a side.

use gmo_play::BOT_GAME_MAX_CLOCK;
use serde_json::Value;
use utoipa::Modify;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AllOfBuilder, AnyOfBuilder, ObjectBuilder, Schema, SchemaType, Type,
};

/// Adds the rules to `NewGameRequest`.
pub struct BotGames;

impl Modify for BotGames {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let Some(request) = components.schemas.remove("NewGameRequest") else {
            return;
        };
        let with = AllOfBuilder::new()
            .item(request)
            .item(bots_need_their_width())
            .item(two_bots_have_a_short_clock())
            .description(Some(
                "A new game. A bot seat needs a board 5 or 8 files wide (its presets' widths); a \
                 game between two bots has at most 600000 ms a side.",
            ))
            .build();
        components
            .schemas
            .insert("NewGameRequest".to_owned(), RefOr::T(Schema::AllOf(with)));
    }
}

/// A schema of no type of its own: only its keywords constrain (an object's `properties`
/// apply to objects, a `maximum` to numbers; `null` passes both).
fn any() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(SchemaType::AnyValue)
}

/// Whose property `name`, when present, matches `schema`.
fn having(name: &str, schema: impl Into<RefOr<Schema>>) -> ObjectBuilder {
    any().property(name, schema)
}

fn null() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Null)
}

/// No bot seat, or a width of 5 or 8 (absent: 8).
fn bots_need_their_width() -> Schema {
    let people = having("white", null()).property("black", null());
    let widths = [Value::from(5), Value::from(8), Value::Null];
    let width = having("width", any().enum_values(Some(widths)));
    Schema::AnyOf(AnyOfBuilder::new().item(people).item(width).build())
}

/// A person on either seat, or a clock of at most [`BOT_GAME_MAX_CLOCK`] (absent: 5 minutes).
fn two_bots_have_a_short_clock() -> Schema {
    let most = BOT_GAME_MAX_CLOCK.ms() as f64;
    let short = having("clock", having("initial_ms", any().maximum(Some(most))));
    Schema::AnyOf(
        AnyOfBuilder::new()
            .item(having("white", null()))
            .item(having("black", null()))
            .item(short)
            .build(),
    )
}
