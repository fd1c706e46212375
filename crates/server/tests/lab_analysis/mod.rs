//! Issue 35, the lab's engine over HTTP on both backends: the best lines from a lab's position
//! (legal, distinct, the same twice, checked against the OpenAPI document), the mate in one, no
//! king, the refusals (422 naming `lines`, 401, 403, 404, 429 beyond the address's creations),
//! and a lab holding a finished game's position (`POST /api/labs` with `game` and `ply`).

use crate::analysis::{finished_game, started_game};
use crate::common::Server;
use crate::contract::Contract;
use crate::play;
use reqwest::Method;
use serde_json::{Value, json};

both_with!(
    super::small_budget;
    the_engine_gives_distinct_legal_lines_best_first,
    a_king_to_take_is_a_mate_in_one_and_no_king_no_line,
    the_lab_s_engine_refuses_what_it_cannot_answer,
    a_lab_holds_a_finished_game_s_position,
    a_lab_from_a_game_is_refused_where_its_record_is,
);

mod discovery {
    both_with!(
        crate::lab_analysis::discovery;
        a_discovery_game_opens_no_lab,
    );

    use super::a_discovery_game_opens_no_lab;
}

mod per_address {
    both_with!(
        crate::lab_analysis::few_creations;
        asks_count_as_creations,
    );

    use super::asks_count_as_creations;
}

/// Few nodes a line, so that a test's lines take well under a second.
fn small_budget(settings: &mut gmo_server::Settings) {
    settings.play.analysis_nodes = 2_000;
}

fn discovery(settings: &mut gmo_server::Settings) {
    settings.play.discovery = true;
    small_budget(settings);
}

fn few_creations(settings: &mut gmo_server::Settings) {
    small_budget(settings);
    settings.rate_limit = 3;
}

const DOCUMENTED: &str = "/api/labs/{id}/analysis";

fn path(id: &str, lines: Option<&str>) -> String {
    match lines {
        Some(n) => format!("/api/labs/{id}/analysis?lines={n}"),
        None => format!("/api/labs/{id}/analysis"),
    }
}

/// A new empty 8×8 lab → its id and token.
async fn new_lab(server: &Server) -> (String, String) {
    let created = server.post("/api/labs", None, json!({})).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let field = |name: &str| created.body[name].as_str().expect(name).to_owned();
    (field("id"), field("token"))
}

/// A lab with the default preset on both sides: the start position.
async fn start_lab(server: &Server) -> (String, String) {
    let (id, token) = new_lab(server).await;
    for color in ["white", "black"] {
        let loaded = server
            .post(
                &format!("/api/labs/{id}/preset"),
                Some(&token),
                json!({"color": color, "preset": "default"}),
            )
            .await;
        assert_eq!(loaded.status, 200, "{}", loaded.text);
    }
    let king = |square: &str| format!("/api/labs/{id}/squares/{square}/king");
    for square in ["d1", "d8"] {
        let marked = server.post(&king(square), Some(&token), json!({})).await;
        assert_eq!(marked.status, 200, "{}", marked.text);
    }
    (id, token)
}

async fn place(server: &Server, id: &str, token: &str, at: &str, genome: &str, color: &str) {
    let king = genome == "king";
    let placed = server
        .put(
            &format!("/api/labs/{id}/squares/{at}"),
            Some(token),
            json!({"genome": genome, "color": color, "king": king}),
        )
        .await;
    assert_eq!(placed.status, 200, "{}", placed.text);
}

/// The first ply of each line, as `from-to`.
fn firsts(answer: &Value) -> Vec<String> {
    answer["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|line| format!("{}-{}", line["moves"][0]["from"], line["moves"][0]["to"]))
        .collect()
}

pub(crate) async fn the_engine_gives_distinct_legal_lines_best_first(server: Server) {
    let mut contract = Contract::of(&server).await;
    let (id, token) = start_lab(&server).await;
    let three = server.get(&path(&id, Some("3")), Some(&token)).await;
    assert_eq!(three.status, 200, "{}", three.text);
    contract.check(Method::GET, DOCUMENTED, &three);
    assert_eq!(three.body["side_to_move"], "white");
    assert_eq!(three.body["nodes_per_line"], 2_000);
    assert!(three.body["nodes"].as_u64().expect("nodes") >= 3 * 2_000);
    let lines = three.body["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{}", three.text);
    let mut distinct = firsts(&three.body);
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{}", three.text);
    let mut cps = Vec::new();
    for line in lines {
        cps.push(line["eval"]["cp"].as_i64().expect("a cp at the start"));
        let first = &line["moves"][0];
        let from = first["from"].as_str().expect("a square");
        let legal = server
            .get(&format!("/api/labs/{id}/moves/{from}"), Some(&token))
            .await;
        let listed = legal.body.as_array().expect("moves");
        assert!(
            listed.iter().any(|m| m["to"] == first["to"]),
            "{line} not in {}",
            legal.text
        );
        assert!(line["depth"].as_u64().expect("a depth") >= 1);
    }
    assert!(
        cps.windows(2).all(|w| w[0] >= w[1]),
        "best first for White: {cps:?}"
    );
    // The same answer every time; the default is one line, among the three.
    let again = server.get(&path(&id, Some("3")), Some(&token)).await;
    assert_eq!(again.body, three.body);
    let one = server.get(&path(&id, None), Some(&token)).await;
    assert_eq!(one.status, 200, "{}", one.text);
    assert_eq!(one.body["lines"].as_array().expect("lines").len(), 1);
    assert!(
        lines.contains(&one.body["lines"][0]),
        "{} in {}",
        one.text,
        three.text
    );
    // Asking changes nothing in the lab.
    let lab = server.get(&format!("/api/labs/{id}"), Some(&token)).await;
    assert_eq!(lab.body["moves_played"], 0);
}

pub(crate) async fn a_king_to_take_is_a_mate_in_one_and_no_king_no_line(server: Server) {
    let (id, token) = new_lab(&server).await;
    let none = server.get(&path(&id, Some("2")), Some(&token)).await;
    assert_eq!(none.status, 200, "{}", none.text);
    assert_eq!(none.body["lines"], json!([]));
    assert_eq!(none.body["reason"], "no_king");
    Contract::of(&server)
        .await
        .check(Method::GET, DOCUMENTED, &none);
    place(&server, &id, &token, "a1", "rook", "white").await;
    place(&server, &id, &token, "h1", "king", "white").await;
    place(&server, &id, &token, "a8", "king", "black").await;
    let mate = server.get(&path(&id, Some("2")), Some(&token)).await;
    assert_eq!(mate.status, 200, "{}", mate.text);
    let best = &mate.body["lines"][0];
    assert_eq!(best["eval"], json!({"mate": 1}), "{}", mate.text);
    assert_eq!(best["moves"], json!([{"from": "a1", "to": "a8"}]));
    assert!(mate.body.get("reason").is_none(), "{}", mate.text);
}

pub(crate) async fn the_lab_s_engine_refuses_what_it_cannot_answer(server: Server) {
    let mut contract = Contract::of(&server).await;
    let (id, token) = start_lab(&server).await;
    for lines in ["0", "6", "x", "1.5", ""] {
        let bad = server.get(&path(&id, Some(lines)), Some(&token)).await;
        assert_eq!(bad.status, 422, "lines={lines}: {}", bad.text);
        assert_eq!(bad.body["error"]["code"], "invalid_field");
        let message = bad.body["error"]["message"].as_str().expect("a message");
        assert!(message.contains("lines"), "{message}");
        contract.check(Method::GET, DOCUMENTED, &bad);
    }
    let other = server
        .get(&format!("/api/labs/{id}/analysis?depth=3"), Some(&token))
        .await;
    assert_eq!(other.status, 422, "{}", other.text);
    let anonymous = server.get(&path(&id, None), None).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
    contract.check(Method::GET, DOCUMENTED, &anonymous);
    let (_, stranger) = new_lab(&server).await;
    let wrong = server.get(&path(&id, None), Some(&stranger)).await;
    assert_eq!(wrong.status, 403, "{}", wrong.text);
    contract.check(Method::GET, DOCUMENTED, &wrong);
    let missing = server
        .get(&path(&gmo_store::new_id(), None), Some(&token))
        .await;
    assert_eq!(missing.status, 404, "{}", missing.text);
}

pub(crate) async fn asks_count_as_creations(server: Server) {
    let (id, token) = new_lab(&server).await;
    for _ in 0..2 {
        let asked = server.get(&path(&id, None), Some(&token)).await;
        assert_eq!(asked.status, 200, "{}", asked.text);
    }
    let refused = server.get(&path(&id, None), Some(&token)).await;
    assert_eq!(refused.status, 429, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "rate_limited");
    Contract::of(&server)
        .await
        .check(Method::GET, DOCUMENTED, &refused);
}

/// Creates a lab from `game` at `ply` → the answer.
async fn lab_of(server: &Server, body: Value) -> crate::common::Answer {
    server.post("/api/labs", None, body).await
}

pub(crate) async fn a_lab_holds_a_finished_game_s_position(server: Server) {
    let mut contract = Contract::of(&server).await;
    // e3, e6, d3, then Black resigned.
    let game = finished_game(&server).await;
    let after_two = lab_of(&server, json!({"game": game, "ply": 2})).await;
    assert_eq!(after_two.status, 201, "{}", after_two.text);
    contract.check(Method::POST, "/api/labs", &after_two);
    let lab = &after_two.body["lab"];
    assert_eq!(lab["moves_played"], 2);
    let board = lab["board"].as_array().expect("a board");
    assert_eq!(board.len(), 32);
    let at = |square: &str| board.iter().find(|p| p["square"] == square).cloned();
    assert_eq!(at("e3").expect("a pawn on e3")["color"], "white");
    assert_eq!(at("e6").expect("a pawn on e6")["color"], "black");
    assert!(at("e2").is_none() && at("d3").is_none(), "{lab}");
    assert_eq!(at("d1").expect("the king")["king"], true);
    // Its token opens it like any lab's, and its engine plays for White.
    let (id, token) = (
        after_two.body["id"].as_str().expect("an id"),
        after_two.body["token"].as_str().expect("a token"),
    );
    let shown = server.get(&format!("/api/labs/{id}"), Some(token)).await;
    assert_eq!(shown.body, *lab);
    let lines = server.get(&path(id, Some("2")), Some(token)).await;
    assert_eq!(lines.status, 200, "{}", lines.text);
    assert_eq!(lines.body["side_to_move"], "white");
    // The start and the last position.
    let start = lab_of(&server, json!({"game": game, "ply": 0})).await;
    assert_eq!(start.status, 201, "{}", start.text);
    assert_eq!(start.body["lab"]["moves_played"], 0);
    let last = lab_of(&server, json!({"game": game, "ply": 3})).await;
    assert_eq!(last.status, 201, "{}", last.text);
    assert_eq!(last.body["lab"]["moves_played"], 3);
}

pub(crate) async fn a_lab_from_a_game_is_refused_where_its_record_is(server: Server) {
    let mut contract = Contract::of(&server).await;
    let game = finished_game(&server).await;
    let invalid = [
        (json!({"game": game, "ply": 4}), "bad_ply", "ply"),
        (json!({"game": game, "ply": -1}), "invalid_field", "ply"),
        (json!({"game": game}), "invalid_field", "ply"),
        (json!({"ply": 1}), "invalid_field", "game"),
        (
            json!({"game": game, "ply": 1, "width": 8}),
            "invalid_field",
            "width",
        ),
        (
            json!({"game": "not an id", "ply": 1}),
            "invalid_field",
            "game",
        ),
    ];
    for (body, code, field) in invalid {
        let refused = lab_of(&server, body.clone()).await;
        assert_eq!(refused.status, 422, "{body}: {}", refused.text);
        assert_eq!(refused.body["error"]["code"], code, "{body}");
        let message = refused.body["error"]["message"]
            .as_str()
            .expect("a message");
        assert!(message.contains(field), "{body}: {message}");
        contract.check(Method::POST, "/api/labs", &refused);
    }
    let unknown = lab_of(&server, json!({"game": gmo_store::new_id(), "ply": 0})).await;
    assert_eq!(unknown.status, 404, "{}", unknown.text);
    contract.check(Method::POST, "/api/labs", &unknown);
    let (playing, white, _) = started_game(&server).await;
    play(&server, &playing, &white, "e2", "e3").await;
    let not_over = lab_of(&server, json!({"game": playing, "ply": 1})).await;
    assert_eq!(not_over.status, 409, "{}", not_over.text);
    assert_eq!(not_over.body["error"]["code"], "not_over");
    contract.check(Method::POST, "/api/labs", &not_over);
}

pub(crate) async fn a_discovery_game_opens_no_lab(server: Server) {
    let game = finished_game(&server).await;
    let refused = lab_of(&server, json!({"game": game, "ply": 1})).await;
    assert_eq!(refused.status, 403, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "discovery");
    Contract::of(&server)
        .await
        .check(Method::POST, "/api/labs", &refused);
}
