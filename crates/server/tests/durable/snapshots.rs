//! Issue 11: a move writes its ply, and the game's row a snapshot only now and then (every 32
//! plies, on every change that is not a ply, at the end). A process that did not make the moves
//! loads the game as snapshot plus the plies since, and must see exactly the game the other
//! process holds, and go on playing it.

use crate::common::{Server, another_server};
use crate::{new_game, play, set_up};
use serde_json::{Value, json};

both!(a_long_game_loads_from_its_snapshot_and_the_plies_since_in_another_process);

/// The knights' shuffle: b1–c3 and b8–c6 back and forth, which takes nothing and never ends.
fn knight_move(ply: usize) -> (&'static str, &'static str, bool) {
    let white = ply % 2 == 0;
    let out = (ply / 2) % 2 == 0;
    let (home, away) = if white { ("b1", "c3") } else { ("b8", "c6") };
    if out {
        (home, away, white)
    } else {
        (away, home, white)
    }
}

/// What two servers must agree on in a view (a running clock moves between two reads).
fn stands(view: &Value) -> Value {
    let running = view["clocks"]["running"].as_str();
    let stopped = match running {
        Some("white") => &view["clocks"]["black_ms"],
        Some("black") => &view["clocks"]["white_ms"],
        _ => &Value::Null,
    };
    json!({
        "board": view["board"],
        "moves_played": view["moves_played"],
        "to_move": view["to_move"],
        "status": view["status"],
        "running": view["clocks"]["running"],
        "stopped_clock": stopped,
    })
}

async fn a_long_game_loads_from_its_snapshot_and_the_plies_since_in_another_process(
    server: Server,
) {
    let (id, white, black, _) = new_game(&server, json!({})).await;
    set_up(&server, &id, &white, "default", "d1").await;
    set_up(&server, &id, &black, "default", "d8").await;
    let token = |white_moves: bool| if white_moves { &white } else { &black };
    // Two snapshots behind it (after plies 32 and 64) and five plies since the last.
    const PLIES: usize = 69;
    for ply in 0..PLIES {
        let (from, to, by_white) = knight_move(ply);
        play(&server, &id, token(by_white), from, to).await;
    }
    let path = format!("/api/games/{id}");
    let here = server.get(&path, Some(&white)).await;
    assert_eq!(here.body["moves_played"], PLIES, "{}", here.text);

    let (there, other) = another_server(&server.url).await;
    let seen = there.get(&path, Some(&white)).await;
    assert_eq!(seen.status, 200, "{}", seen.text);
    assert_eq!(stands(&seen.body), stands(&here.body));
    let history = format!("{path}/positions?from=60");
    let earlier = there.get(&history, Some(&black)).await;
    assert_eq!(earlier.status, 200, "{}", earlier.text);
    assert_eq!(earlier.body, server.get(&history, Some(&black)).await.body);

    // The game goes on in either process: each move there is checked against the loaded game.
    let (from, to, by_white) = knight_move(PLIES);
    let moved = play(&there, &id, token(by_white), from, to).await;
    assert_eq!(moved["game"]["moves_played"], PLIES + 1);
    // On PostgreSQL a stream there hears of a move made here, with the game rebuilt from the
    // snapshot and the plies since (SQLite has one process per file: no relay).
    let relayed = server.url.starts_with("postgres");
    let mut stream = there.stream(&id, Some(&black)).await;
    let (first, _) = stream.next().await.expect("the stream's first line");
    assert_eq!(first["moves_played"], PLIES + 1, "{first}");
    let (from, to, by_white) = knight_move(PLIES + 1);
    let moved = play(&server, &id, token(by_white), from, to).await;
    assert_eq!(moved["game"]["moves_played"], PLIES + 2);
    if relayed {
        let (line, _) = stream
            .next_within(std::time::Duration::from_secs(5))
            .await
            .expect("the relayed move");
        assert_eq!(line["type"], "move", "{line}");
        assert_eq!(line["game"]["moves_played"], PLIES + 2);
        let seen_here = server.get(&path, Some(&black)).await;
        assert_eq!(stands(&line["game"]), stands(&seen_here.body));
    }
    let resigned = there
        .post(&format!("{path}/resign"), Some(&white), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let record = server.get(&format!("{path}/record"), None).await;
    assert_eq!(record.status, 200, "{}", record.text);
    let plies = record.body["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), PLIES + 2, "every move: {}", record.text);
    assert_eq!(record.body["status"], "black_won", "{}", record.text);
    assert_eq!(
        stands(&there.get(&path, None).await.body),
        stands(&server.get(&path, None).await.body)
    );
    other.shutdown().await.expect("it stops");
}
