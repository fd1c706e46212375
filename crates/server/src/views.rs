//! The engine's views as the API spells them: the game's id added, the freeze as RFC 3339.

use crate::time::rfc3339;
use gmo_engine::{Color, Game, Lab, Viewer};
use serde_json::{Value, json};

/// The game as `viewer` may see it at `now` (rules §5.6: only own genomes until the end).
pub fn game_view(id: &str, game: &Game, viewer: Viewer, now: i64) -> Value {
    let view = game.view(viewer, now);
    let frozen_until = view.frozen_until.map(rfc3339);
    let mut value = serde_json::to_value(view).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut value {
        fields.insert("id".into(), id.into());
        fields.insert("frozen_until".into(), frozen_until.into());
    }
    value
}

/// The lab view with its id.
pub fn lab_view(id: &str, lab: &Lab) -> Value {
    let mut value = serde_json::to_value(lab.view()).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut value {
        fields.insert("id".into(), id.into());
    }
    value
}

/// Who a seat is, for views.
pub fn viewer_of(seat: Option<Color>) -> Viewer {
    seat.map_or(Viewer::Spectator, Viewer::Player)
}

/// `{"ply": …, "game": …}`, the answer to a move or a promotion.
pub fn ply_answer(ply: Value, game: Value) -> Value {
    json!({ "ply": ply, "game": game })
}
