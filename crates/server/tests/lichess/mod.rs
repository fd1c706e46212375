//! Issue 12, what lichess players take for granted, over HTTP: the whole history after a reload,
//! draw by agreement, the increment, piece diagrams and rematches.

mod diagram;
mod draw;
mod increment;
mod joined;
mod plies;
mod positions;
mod rematch;

use crate::common::{Lines, Server};
use serde_json::Value;
use std::time::Duration;

/// The stream's lines until it closes (each within `within`).
pub async fn rest_of(stream: &mut Lines, within: Duration) -> Vec<Value> {
    let mut lines = Vec::new();
    while let Some((line, _)) = stream.next_within(within).await {
        lines.push(line);
    }
    lines
}

/// The `type` of each line.
pub fn types(lines: &[Value]) -> Vec<&str> {
    lines
        .iter()
        .map(|line| line["type"].as_str().expect("a type"))
        .collect()
}

/// A started 8×8 game with the default presets → (id, white token, black token).
pub async fn started(server: &Server, body: Value) -> (String, String, String) {
    let (id, white, black, _) = crate::new_game(server, body).await;
    crate::set_up(server, &id, &white, "default", "d1").await;
    crate::set_up(server, &id, &black, "default", "d8").await;
    (id, white, black)
}
