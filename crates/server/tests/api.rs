//! The service over HTTP: every test spawns the real app on port 0 with its own database, once
//! on SQLite and once on PostgreSQL (see `common`).

#[macro_use]
mod common;
mod accounts;
mod agents;
mod analysis;
mod contract;
mod discovery;
mod durable;
mod edge;
mod events;
mod first;
mod lab_analysis;
mod languages;
mod library;
mod lichess;
mod lobby;
mod ratings;
mod spectators;
mod workbench;

use common::Server;
use gmo_genome::Genome;
use gmo_genome::standard::{DEFAULT_PRESET, STANDARD};
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

both!(
    genomes_are_stored_once_and_found_by_code_and_name,
    invalid_dna_points_at_the_codon,
    presets_have_a_default_and_a_width,
    operations_answer,
    labs_place_list_move_and_guard_their_token,
    a_whole_game_with_a_promotion_streams_every_change,
    a_two_second_game_ends_on_time_on_the_stream,
    white_never_sees_black_genomes_before_the_end,
    bad_inputs_get_4xx_and_change_nothing,
    a_bot_seat_gets_no_token_and_no_invite,
    a_served_bots_time_a_ply_is_at_most_a_minute,
    a_game_against_the_search_bot_is_played_to_the_end,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_move_through_one_process_reaches_a_stream_on_another() {
    common::two_on_postgres(|one, two| async move {
        let (id, white, black, _) = new_game(&one, json!({})).await;
        set_up(&one, &id, &white, "default", "d1").await;
        set_up(&one, &id, &black, "default", "d8").await;
        let mut stream = two.stream(&id, Some(&black)).await;
        stream.next().await.expect("the first line");
        play(&one, &id, &white, "e2", "e3").await;
        let (line, _) = stream
            .next_within(Duration::from_secs(3))
            .await
            .expect("a line");
        assert_eq!(line["type"], "move");
        assert_eq!(line["ply"]["to"], "e3");
        assert_eq!(line["game"]["moves_played"], 1);
        assert_eq!(line["game"]["you"], "black");
        let resigned = one
            .post(&format!("/api/games/{id}/resign"), Some(&black), json!({}))
            .await;
        assert_eq!(resigned.status, 200);
        let (end, _) = stream
            .next_within(Duration::from_secs(3))
            .await
            .expect("the end");
        assert_eq!(end["type"], "end");
        assert!(
            stream.next().await.is_none(),
            "the stream closes after the end"
        );
    })
    .await;
}

/// Each process keeps the games it touched decoded; a change the other process made since must
/// still be seen, whether the stale copy would refuse the request or accept it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_two_processes_take_turns_on_one_game() {
    common::two_on_postgres(|one, two| async move {
        let (id, white, black, _) = new_game(&one, json!({})).await;
        set_up(&one, &id, &white, "default", "d1").await;
        set_up(&two, &id, &black, "default", "d8").await;
        play(&one, &id, &white, "e2", "e3").await;
        // `two` last saw White to move: its copy would refuse Black.
        play(&two, &id, &black, "e7", "e6").await;
        // `one` last saw Black to move: its copy would refuse White.
        let moved = play(&one, &id, &white, "d2", "d3").await;
        assert_eq!(moved["game"]["moves_played"], 3);
        // `two`'s copy would accept a resignation at move 2: the commit must see move 3.
        let resigned = two
            .post(&format!("/api/games/{id}/resign"), Some(&black), json!({}))
            .await;
        assert_eq!(resigned.status, 200, "{}", resigned.text);
        assert_eq!(resigned.body["moves_played"], 3);
        assert_eq!(resigned.body["status"], "white_won");
        let record = one.get(&format!("/api/games/{id}/record"), None).await;
        let plies = record.body["plies"].as_array().expect("plies").len();
        assert_eq!(plies, 3, "{}", record.text);
    })
    .await;
}

// ---------------------------------------------------------------------------------------------
// Helpers

fn standard(name: &str) -> Genome {
    let (_, dna) = STANDARD
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a standard name");
    Genome::parse(dna).expect("standard DNA parses")
}

/// The `n`-th valid genome one letter away from the rook's DNA, with no random or freezing
/// debuff and not standard: distinct for distinct `n`.
fn fresh_genome(n: usize) -> Genome {
    let rook = gmo_genome::standard::ROOK;
    let standard: BTreeSet<&str> = STANDARD.iter().map(|(_, dna)| *dna).collect();
    let mut seen = BTreeSet::new();
    (0..rook.len())
        .flat_map(|at| ['S', 'A', 'C', 'H'].map(|letter| (at, letter)))
        .filter_map(|(at, letter)| {
            let mut dna = rook.to_owned();
            dna.replace_range(at..=at, &letter.to_string());
            Genome::parse(&dna).ok()
        })
        .filter(|genome| {
            let dna = genome.to_string();
            !genome
                .debuffs()
                .iter()
                .any(|d| ["HSC", "HSA", "HCC"].contains(&d.codon()))
                && !standard.contains(dna.as_str())
                && seen.insert(dna)
        })
        .nth(n)
        .expect("enough one-letter variants of the rook")
}

/// A new game → (id, white token, black token, creation answer).
async fn new_game(server: &Server, body: Value) -> (String, String, String, Value) {
    let created = server.post("/api/games", None, body).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let token = |side: &str| {
        created.body["seats"][side]["token"]
            .as_str()
            .expect("a seat token")
            .to_owned()
    };
    let id = created.body["id"].as_str().expect("an id").to_owned();
    for side in ["white", "black"] {
        assert_eq!(
            created.body["invite"][side],
            format!("/#/game/{id}?seat={side}&token={}", token(side)),
            "the invite link opens the seat"
        );
    }
    (id, token("white"), token("black"), created.body)
}

/// A preset stored from genome references → its code.
async fn preset(server: &Server, genomes: &[&str]) -> String {
    let answer = server
        .post("/api/presets", None, json!({ "genomes": genomes }))
        .await;
    assert!(matches!(answer.status, 200 | 201), "{}", answer.text);
    answer.body["code"].as_str().expect("a code").to_owned()
}

/// The 4×4 game several tests script (White's pawn takes twice, is promoted, takes the king):
/// its id, seat tokens, creation answer, and each side's preset (kings on b1 and c4).
struct PromotionGame {
    id: String,
    white: String,
    black: String,
    created: Value,
    white_preset: String,
    black_preset: String,
}

async fn promotion_game(server: &Server) -> PromotionGame {
    let white_preset = preset(server, &["rook", "king", "rook", "rook"]).await;
    let black_preset = preset(server, &["rook", "rook", "king", "rook"]).await;
    let (id, white, black, created) = new_game(
        server,
        json!({"width": 4, "height": 4, "clock": {"initial_ms": 60_000}}),
    )
    .await;
    PromotionGame {
        id,
        white,
        black,
        created,
        white_preset,
        black_preset,
    }
}

/// Loads a preset, marks one king and declares ready; returns the last view.
async fn set_up(server: &Server, id: &str, token: &str, preset: &str, king: &str) -> Value {
    prepare(server, id, token, preset, king).await;
    let ready = server
        .post(&format!("/api/games/{id}/ready"), Some(token), json!({}))
        .await;
    assert_eq!(ready.status, 200, "{}", ready.text);
    ready.body
}

/// Loads a preset and marks one king (not ready yet).
async fn prepare(server: &Server, id: &str, token: &str, preset: &str, king: &str) {
    let path = format!("/api/games/{id}/preset");
    let loaded = server
        .put(&path, Some(token), json!({ "preset": preset }))
        .await;
    assert_eq!(loaded.status, 200, "{}", loaded.text);
    let kinged = server
        .post(
            &format!("/api/games/{id}/kings/{king}"),
            Some(token),
            json!({}),
        )
        .await;
    assert_eq!(kinged.status, 200, "{}", kinged.text);
}

fn piece<'a>(view: &'a Value, square: &str) -> Option<&'a Value> {
    view["board"]
        .as_array()
        .expect("a board")
        .iter()
        .find(|p| p["square"] == square)
}

async fn play(server: &Server, id: &str, token: &str, from: &str, to: &str) -> Value {
    let listed = server
        .get(&format!("/api/games/{id}/moves/{from}"), Some(token))
        .await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    assert!(
        listed
            .body
            .as_array()
            .expect("moves")
            .iter()
            .any(|m| m["to"] == to),
        "{from}→{to} is listed: {}",
        listed.text
    );
    let moved = server
        .post(
            &format!("/api/games/{id}/moves"),
            Some(token),
            json!({"from": from, "to": to}),
        )
        .await;
    assert_eq!(moved.status, 200, "{from}→{to}: {}", moved.text);
    assert_eq!(moved.body["ply"]["from"], from);
    assert_eq!(moved.body["ply"]["to"], to);
    moved.body
}

// ---------------------------------------------------------------------------------------------
// Genomes and presets

async fn genomes_are_stored_once_and_found_by_code_and_name(server: Server) {
    let genome = fresh_genome(0);
    let spaced = genome.spaced().to_string().to_lowercase();
    let first = server
        .post("/api/genomes", None, json!({ "dna": spaced }))
        .await;
    assert_eq!(first.status, 201, "{}", first.text);
    assert_eq!(first.body["code"], genome.code().to_string());
    assert_eq!(first.body["dna"], genome.to_string());
    assert_eq!(first.body["explanation"], genome.explain());
    assert_eq!(first.body["traits"], json!(genome.traits()));
    assert_eq!(first.body["created"], true);
    let again = server
        .post("/api/genomes", None, json!({ "dna": genome.to_string() }))
        .await;
    assert_eq!(again.status, 200);
    assert_eq!(again.body["code"], first.body["code"]);
    assert_eq!(again.body["created"], false);

    let code = genome.code().to_string();
    let by_code = server.get(&format!("/api/genomes/{code}"), None).await;
    assert_eq!(by_code.status, 200);
    assert_eq!(by_code.body["dna"], genome.to_string());
    assert_eq!(by_code.body["names"], json!([]));
    let rook = server.get("/api/genomes/rook", None).await;
    assert_eq!(rook.status, 200);
    assert_eq!(rook.body["code"], standard("rook").code().to_string());
    assert_eq!(rook.body["names"], json!(["rook"]));
    // What its debuffs mean, in plain words (the standard queen's moves along lines freeze).
    assert_eq!(
        rook.body["traits"],
        json!(["It does not wrap around the left and right edges."])
    );
    let queen = server.get("/api/genomes/queen", None).await;
    let traits = queen.body["traits"].as_array().expect("traits");
    assert!(
        traits
            .iter()
            .any(|t| t.as_str().is_some_and(|t| t.contains("freezes"))),
        "{traits:?}"
    );
    let missing = server.get("/api/genomes/zzzzzz", None).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.body["error"]["code"], "not_found");
}

async fn invalid_dna_points_at_the_codon(server: Server) {
    for dna in ["AHH HSH HAA CHA CHA CHA HHA SAS AAH", "AHX", "AH", "SAS"] {
        let expected = Genome::parse(dna).expect_err("invalid DNA");
        let answer = server
            .post("/api/genomes", None, json!({ "dna": dna }))
            .await;
        assert_eq!(answer.status, 422, "{dna}: {}", answer.text);
        let error = &answer.body["error"];
        assert_eq!(error["code"], expected.kind.code(), "{dna}");
        assert_eq!(error["codon"], expected.codon, "{dna}");
        assert_eq!(error["offset"], expected.offset, "{dna}");
        assert!(
            error["message"]
                .as_str()
                .expect("a message")
                .contains("codon")
        );
    }
    let long = "SAS".repeat(gmo_server::MAX_DNA_LETTERS / 3 + 1);
    let answer = server
        .post("/api/genomes", None, json!({ "dna": long }))
        .await;
    assert_eq!(answer.status, 422);
    assert_eq!(answer.body["error"]["code"], "dna_too_long");
}

async fn presets_have_a_default_and_a_width(server: Server) {
    let default = server.get("/api/presets/default", None).await;
    assert_eq!(default.status, 200, "{}", default.text);
    let codes: Vec<String> = DEFAULT_PRESET
        .iter()
        .map(|name| standard(name).code().to_string())
        .collect();
    assert_eq!(default.body["genomes"], json!(codes));
    let code = default.body["code"].as_str().expect("a code");
    let by_code = server.get(&format!("/api/presets/{code}"), None).await;
    assert_eq!(by_code.body, default.body);

    let four = ["rook", "king", "knight", "rook"];
    let created = server
        .post("/api/presets", None, json!({ "genomes": four }))
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let again = server
        .post("/api/presets", None, json!({ "genomes": four }))
        .await;
    assert_eq!(again.status, 200);
    assert_eq!(again.body["code"], created.body["code"]);
    for wrong in [vec!["rook"; 3], vec!["rook"; 9], vec![]] {
        let answer = server
            .post("/api/presets", None, json!({ "genomes": wrong }))
            .await;
        assert_eq!(answer.status, 422, "{}", answer.text);
        assert_eq!(answer.body["error"]["code"], "preset_length");
    }
    let unknown = server
        .post(
            "/api/presets",
            None,
            json!({ "genomes": ["rook", "rook", "rook", "nosuch"] }),
        )
        .await;
    assert_eq!(unknown.status, 404);
    assert_eq!(server.get("/api/presets/nosuch", None).await.status, 404);
}

async fn operations_answer(server: Server) {
    let health = server.get("/healthz", None).await;
    assert_eq!(health.status, 200);
    server.get("/api/genomes/rook", None).await;
    let metrics = server.get("/metrics", None).await;
    assert_eq!(metrics.status, 200);
    assert!(
        metrics.text.contains(
            "gmo_http_requests_total{method=\"GET\",route=\"/api/genomes/{reference}\",status=\"200\"} 1"
        ),
        "{}",
        metrics.text
    );
    let openapi = server.get("/api/openapi.json", None).await;
    assert_eq!(openapi.status, 200);
    assert!(
        openapi.body["openapi"]
            .as_str()
            .expect("a version")
            .starts_with("3.")
    );
    for path in [
        "/api/genomes",
        "/api/games/{id}/moves",
        "/api/games/{id}/stream",
        "/api/labs/{id}/squares/{square}",
    ] {
        assert!(
            openapi.body["paths"][path].is_object(),
            "{path} is documented"
        );
    }
    let nowhere = server.get("/api/nowhere", None).await;
    assert_eq!(nowhere.status, 404);
    assert!(nowhere.body["error"]["code"].is_string());
}

// ---------------------------------------------------------------------------------------------
// Labs

async fn labs_place_list_move_and_guard_their_token(server: Server) {
    let created = server.post("/api/labs", None, json!({})).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.body["id"].as_str().expect("an id").to_owned();
    let token = created.body["token"].as_str().expect("a token").to_owned();
    assert_eq!(created.body["lab"]["width"], 8);
    assert_eq!(created.body["lab"]["board"], json!([]));
    let lab = |rest: &str| format!("/api/labs/{id}{rest}");

    let rook = standard("rook");
    let placed = server
        .put(
            &lab("/squares/d4"),
            Some(&token),
            json!({"genome": "rook", "color": "white"}),
        )
        .await;
    assert_eq!(placed.status, 200, "{}", placed.text);
    let on_d4 = piece(&placed.body, "d4").expect("a piece on d4");
    assert_eq!(on_d4["code"], rook.code().to_string());
    assert_eq!(on_d4["dna"], rook.to_string());
    let dna = fresh_genome(1);
    let by_dna = server
        .put(
            &lab("/squares/d6"),
            Some(&token),
            json!({"dna": dna.to_string(), "color": "black"}),
        )
        .await;
    assert_eq!(by_dna.status, 200, "{}", by_dna.text);
    assert_eq!(
        piece(&by_dna.body, "d6").expect("d6")["code"],
        dna.code().to_string()
    );
    let stored = server
        .get(&format!("/api/genomes/{}", dna.code()), None)
        .await;
    assert_eq!(stored.status, 200, "placing by DNA stores the genome");

    let moves = server.get(&lab("/moves/d4"), Some(&token)).await;
    assert_eq!(moves.status, 200);
    let targets: BTreeSet<&str> = moves
        .body
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(|m| m["to"].as_str())
        .collect();
    assert!(
        targets.contains("d5") && targets.contains("d6") && !targets.contains("d7"),
        "{targets:?}"
    );
    let moved = server
        .post(
            &lab("/moves"),
            Some(&token),
            json!({"from": "d4", "to": "d6"}),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    assert!(piece(&moved.body["lab"], "d4").is_none());
    assert_eq!(
        piece(&moved.body["lab"], "d6").expect("d6")["color"],
        "white"
    );
    let kinged = server
        .post(&lab("/squares/d6/king"), Some(&token), json!({}))
        .await;
    assert_eq!(piece(&kinged.body, "d6").expect("d6")["king"], true);
    let erased = server
        .call(Method::DELETE, &lab("/squares/d6"), Some(&token), None)
        .await;
    assert_eq!(erased.status, 200);
    assert_eq!(erased.body["board"], json!([]));

    let filled = server
        .post(
            &lab("/preset"),
            Some(&token),
            json!({"color": "black", "preset": "default"}),
        )
        .await;
    assert_eq!(filled.status, 200, "{}", filled.text);
    assert_eq!(filled.body["board"].as_array().expect("board").len(), 16);
    let saved = server
        .post(
            &lab("/preset/save"),
            Some(&token),
            json!({"color": "black"}),
        )
        .await;
    assert_eq!(saved.status, 200, "{}", saved.text);
    let default = server.get("/api/presets/default", None).await;
    assert_eq!(saved.body["code"], default.body["code"]);

    // Tokens: none → 401, never issued → 401, another lab's → 403; nothing changes.
    let other = server
        .post("/api/labs", None, json!({"width": 4, "height": 4}))
        .await;
    let other_token = other.body["token"].as_str().expect("a token").to_owned();
    let before = server.get(&lab(""), Some(&token)).await.body;
    for (who, status) in [
        (None, 401),
        (Some("not-a-token"), 401),
        (Some(other_token.as_str()), 403),
    ] {
        assert_eq!(server.get(&lab(""), who).await.status, status);
        let answer = server
            .call(Method::DELETE, &lab("/squares/a8"), who, None)
            .await;
        assert_eq!(answer.status, status, "{}", answer.text);
        assert!(answer.body["error"]["message"].is_string());
    }
    assert_eq!(server.get(&lab(""), Some(&token)).await.body, before);
    let bad = server
        .post(
            &lab("/moves"),
            Some(&token),
            json!({"from": "a8", "to": "a1"}),
        )
        .await;
    assert_eq!(bad.status, 409, "{}", bad.text);
    assert_eq!(
        server.get(&lab("/moves/z9"), Some(&token)).await.status,
        422
    );
}

// ---------------------------------------------------------------------------------------------
// Games

/// A 4×4 game: White's pawn takes twice to reach the last rank, is promoted to a rook, and the
/// rook takes Black's king. Black follows on its stream and must see every change in order.
async fn a_whole_game_with_a_promotion_streams_every_change(server: Server) {
    let PromotionGame {
        id,
        white,
        black,
        created,
        white_preset,
        black_preset,
    } = promotion_game(&server).await;
    assert_eq!(created["game"]["status"], "setup");
    assert_eq!(created["game"]["width"], 4);
    assert_eq!(created["game"]["you"], Value::Null);
    let mut stream = server.stream(&id, Some(&black)).await;
    let (first, _) = stream.next().await.expect("the first line");
    assert_eq!(first["id"], id);
    assert_eq!(first["you"], "black");
    assert_eq!(first["status"], "setup");

    set_up(&server, &id, &white, &white_preset, "b1").await;
    let started = set_up(&server, &id, &black, &black_preset, "c4").await;
    assert_eq!(started["status"], "in_progress");
    assert_eq!(started["to_move"], "white");
    // The first moves are on no clock: White's first-move timer runs instead (rules §5.4).
    assert_eq!(started["clocks"]["running"], Value::Null);
    assert!(started["first_move_deadline"].is_string(), "{started}");
    assert!(
        piece(&started, "c4").expect("c4")["code"].is_string(),
        "own codes shown"
    );
    assert!(
        piece(&started, "b1").expect("b1").get("code").is_none(),
        "others' hidden"
    );

    play(&server, &id, &white, "b2", "c3").await;
    let clocks_start = play(&server, &id, &black, "b3", "b2").await;
    assert_eq!(clocks_start["game"]["clocks"]["running"], "white");
    assert_eq!(clocks_start["game"]["first_move_deadline"], Value::Null);
    let due = play(&server, &id, &white, "c3", "d4").await;
    assert_eq!(due["game"]["promotion_due"], "d4");
    assert_eq!(due["game"]["to_move"], "white");
    let early = server
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&white),
            json!({"from": "a1", "to": "a2"}),
        )
        .await;
    assert_eq!(early.status, 409, "no move while a promotion is due");
    let promoted = server
        .post(
            &format!("/api/games/{id}/promotion"),
            Some(&white),
            json!({"genome": "rook"}),
        )
        .await;
    assert_eq!(promoted.status, 200, "{}", promoted.text);
    assert_eq!(promoted.body["ply"]["promotion"], "d4");
    assert_eq!(
        promoted.body["ply"]["name"], "rook",
        "a standard genome is named"
    );
    let rook = piece(&promoted.body["game"], "d4").expect("the new piece");
    assert_eq!(
        (rook["pawn"].clone(), rook["code"].clone()),
        (json!(false), json!(standard("rook").code().to_string()))
    );
    assert_eq!(promoted.body["game"]["to_move"], "black");
    assert_eq!(promoted.body["game"]["moves_played"], 3);
    play(&server, &id, &black, "d3", "c2").await;
    let won = play(&server, &id, &white, "d4", "c4").await;
    assert_eq!(won["game"]["status"], "white_won");
    assert_eq!(won["game"]["reason"], "king_lost");
    assert_eq!(won["game"]["to_move"], Value::Null);
    assert_eq!(won["game"]["clocks"]["running"], Value::Null);

    // Black's stream: White opening the game (its first request), every change, in order, then
    // the end.
    let expected = [
        "joined",
        "setup",
        "setup",
        "setup",
        "setup",
        "setup",
        "start",
        "move",
        "move",
        "move",
        "promotion",
        "move",
        "move",
        "end",
    ];
    let mut seen = Vec::new();
    let mut last_version = 0;
    while let Some((line, _)) = stream.next().await {
        let version = line["version"].as_i64().expect("a version");
        assert!(version >= last_version, "versions never go back");
        last_version = version;
        assert_eq!(line["game"]["you"], "black");
        if line["type"] == "promotion" {
            // Black sees White's new piece by name, its code hidden until the end.
            assert_eq!(line["ply"]["name"], "rook", "{line}");
            assert_eq!(line["ply"].get("genome"), None, "{line}");
        }
        seen.push(line["type"].as_str().expect("a type").to_owned());
    }
    assert_eq!(seen, expected);

    let record = server
        .get(&format!("/api/games/{id}/record"), Some(&black))
        .await;
    assert_eq!(record.status, 200, "{}", record.text);
    assert_eq!(record.body["status"], "white_won");
    check_record_plies(&record.body, &standard("rook").code().to_string());
    check_record_replays(&record.body);
    let view = server.get(&format!("/api/games/{id}"), None).await;
    assert!(
        piece(&view.body, "c2").expect("c2")["code"].is_string(),
        "all shown after the end"
    );
}

async fn a_two_second_game_ends_on_time_on_the_stream(server: Server) {
    let (id, white, black, _) = new_game(&server, json!({"clock": {"initial_ms": 2_000}})).await;
    set_up(&server, &id, &white, "default", "d1").await;
    let mut stream = server.stream(&id, None).await;
    let (first, _) = stream.next().await.expect("the first line");
    assert_eq!(first["you"], Value::Null);
    set_up(&server, &id, &black, "default", "d8").await;
    // The clocks start once both sides have moved (rules §5.4): then White's two seconds run.
    play(&server, &id, &white, "e2", "e3").await;
    let started_at = Instant::now();
    play(&server, &id, &black, "e7", "e6").await;
    let mut types = Vec::new();
    let mut last = Value::Null;
    while let Some((line, _)) = stream.next_within(Duration::from_secs(5)).await {
        types.push(line["type"].as_str().expect("a type").to_owned());
        last = line;
    }
    let took = started_at.elapsed();
    // Black's first request joins its seat, then its setup starts the game.
    assert_eq!(
        types,
        ["joined", "setup", "setup", "start", "move", "move", "end"]
    );
    assert_eq!(last["game"]["status"], "black_won");
    assert_eq!(last["game"]["reason"], "time");
    assert_eq!(last["game"]["clocks"]["white_ms"], 0);
    assert!(
        took >= Duration::from_millis(1_900) && took < Duration::from_secs(3),
        "{took:?}"
    );
    let record = server
        .get(&format!("/api/games/{id}/record"), Some(&white))
        .await;
    assert_eq!(record.status, 200);
    assert_eq!(
        record.body["plies"].as_array().map(Vec::len),
        Some(2),
        "a flag fall is not a ply"
    );
    assert_eq!(record.body["replay"]["events"][2]["type"], "time");
    check_record_replays(&record.body);
}

async fn a_bot_seat_gets_no_token_and_no_invite(server: Server) {
    let created = server
        .post("/api/games", None, json!({"black": "bot:random"}))
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.body["id"].as_str().expect("an id");
    let token = created.body["seats"]["white"]["token"]
        .as_str()
        .expect("White's token");
    assert_eq!(
        created.body["invite"]["white"],
        format!("/#/game/{id}?seat=white&token={token}")
    );
    assert_eq!(created.body["seats"]["black"]["token"], Value::Null);
    assert_eq!(created.body["invite"]["black"], Value::Null);
    let unknown = server
        .post("/api/games", None, json!({"black": "bot:nosuch"}))
        .await;
    assert_eq!(unknown.status, 422, "{}", unknown.text);
    assert_eq!(unknown.body["error"]["code"], "bad_seat");
    let message = unknown.body["error"]["message"]
        .as_str()
        .expect("a message");
    for name in ["bot:random", "bot:greedy", "bot:search"] {
        assert!(message.contains(name), "{message}");
    }
}

/// A bot seat's time a ply is bounded at creation (at most 60 s), so that every spec stored reads
/// back (`bot:search:320957358956892230s` was once stored as a number of milliseconds the bot
/// could not read): beyond it, `422 bad_seat` naming the seat, and nothing is created.
async fn a_served_bots_time_a_ply_is_at_most_a_minute(server: Server) {
    for (seat, says) in [
        ("bot:search:61s", "at most 60s a ply"),
        ("bot:search:60001ms", "at most 60s a ply"),
        ("bot:search:320957358956892230s", "at most 3600s"),
        ("bot:search:99999999999999999999s", "start with a number"),
        ("bot:search:5000n", "takes a time budget"),
    ] {
        let refused = server
            .post("/api/games", None, json!({"black": seat}))
            .await;
        assert_eq!(refused.status, 422, "{seat}: {}", refused.text);
        assert_eq!(refused.body["error"]["code"], "bad_seat");
        let message = refused.body["error"]["message"]
            .as_str()
            .expect("a message");
        assert!(
            message.starts_with("`black`") && message.contains(says),
            "{seat}: {message}"
        );
    }
    for seat in ["bot:search:60s", "bot:search:60000ms"] {
        let created = server
            .post("/api/games", None, json!({"white": seat}))
            .await;
        assert_eq!(created.status, 201, "{seat}: {}", created.text);
    }
}

/// A 5×5 game against `bot:search:50ms`, played to its end over HTTP by the test as White with
/// the first legal move it finds (promoting to a queen when due). The bot set itself up when the
/// game was created; its plies must come on White's stream, and the game must end with a reason.
async fn a_game_against_the_search_bot_is_played_to_the_end(server: Server) {
    /// Plies White may make before the test calls the game stuck.
    const MOST: usize = 150;
    let five = preset(&server, &["rook", "knight", "king", "bishop", "queen"]).await;
    let body = json!({"width": 5, "height": 5, "black": "bot:search:50ms",
                      "clock": {"initial_ms": 600_000}});
    let created = server.post("/api/games", None, body).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.body["id"].as_str().expect("an id").to_owned();
    let white = created.body["seats"]["white"]["token"]
        .as_str()
        .expect("White's token")
        .to_owned();
    assert_eq!(created.body["seats"]["black"]["token"], Value::Null);
    assert_eq!(created.body["game"]["seats"]["black"]["ready"], true);
    let mut view = set_up(&server, &id, &white, &five, "c1").await;
    assert_eq!(view["status"], "in_progress");
    // Opened once the game runs, so that every line after the first is a ply, a freeze or the end.
    let mut stream = server.stream(&id, Some(&white)).await;
    stream.next().await.expect("the first line");
    let (mut mine, mut plies_seen) = (0, 0);
    while view["status"] == "in_progress" {
        assert!(
            mine < MOST,
            "the game did not end within {MOST} of White's plies"
        );
        if view["to_move"] == "white" {
            view = white_plays(&server, &id, &white, &view).await;
            mine += 1;
        }
        // The stream up to White's turn or the end: White's own ply first, then the bot's.
        while view["status"] == "in_progress" && view["to_move"] != "white" {
            let (line, text) = stream
                .next_within(Duration::from_secs(10))
                .await
                .expect("a line");
            if matches!(line["type"].as_str(), Some("move" | "promotion")) {
                plies_seen += 1;
            }
            view = line["game"].clone();
            assert_ne!(line["type"], "end", "{text}");
        }
    }
    // The last lines: the ply that ended the game and the end, then the stream closes.
    while let Some((line, _)) = stream.next_within(Duration::from_secs(10)).await {
        if matches!(line["type"].as_str(), Some("move" | "promotion")) {
            plies_seen += 1;
        }
        view = line["game"].clone();
    }
    assert_ne!(view["status"], "in_progress");
    assert!(view["reason"].is_string(), "the end has a reason: {view}");
    let record = server
        .get(&format!("/api/games/{id}/record"), Some(&white))
        .await;
    assert_eq!(record.status, 200, "{}", record.text);
    let plies = record.body["plies"].as_array().expect("plies").len();
    assert_eq!(plies_seen, plies, "every ply came on the stream");
    assert!(plies > mine, "the bot played {} plies", plies - mine);
}

/// White's ply in `view`: the due promotion, else the first legal move of its first piece that
/// has one; waits out a freeze.
async fn white_plays(server: &Server, id: &str, white: &str, view: &Value) -> Value {
    if view["promotion_due"].is_string() {
        let promoted = server
            .post(
                &format!("/api/games/{id}/promotion"),
                Some(white),
                json!({"genome": "queen"}),
            )
            .await;
        assert_eq!(promoted.status, 200, "{}", promoted.text);
        return promoted.body["game"].clone();
    }
    let mut chosen = None;
    for piece in view["board"].as_array().expect("a board") {
        if piece["color"] != "white" {
            continue;
        }
        let from = piece["square"].as_str().expect("a square");
        let listed = server
            .get(&format!("/api/games/{id}/moves/{from}"), Some(white))
            .await;
        assert_eq!(listed.status, 200, "{}", listed.text);
        if let Some(first) = listed.body.as_array().and_then(|moves| moves.first()) {
            chosen = Some(json!({"from": from, "to": first["to"]}));
            break;
        }
    }
    let chosen = chosen.expect("White has a legal move while the game goes on");
    // The bot's ply may have frozen the board for a few seconds.
    for _ in 0..50 {
        let moved = server
            .post(
                &format!("/api/games/{id}/moves"),
                Some(white),
                chosen.clone(),
            )
            .await;
        if moved.status == 200 {
            return moved.body["game"].clone();
        }
        assert_eq!(moved.status, 409, "{}", moved.text);
        assert!(moved.text.contains("frozen"), "{}", moved.text);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("White could not move for ten seconds");
}

/// The record's plies are docs/service.md's: five move views with what was drawn, and the promotion.
fn check_record_plies(record: &Value, rook: &str) {
    let plies = record["plies"].as_array().expect("plies");
    let moves = [
        ("b2", "c3"),
        ("b3", "b2"),
        ("c3", "d4"),
        ("d3", "c2"),
        ("d4", "c4"),
    ];
    let mut moved = plies.iter().filter(|ply| ply["type"] == "move");
    for (from, to) in moves {
        let ply = moved.next().expect("a move ply");
        assert_eq!((&ply["from"], &ply["to"]), (&json!(from), &json!(to)));
        assert_eq!(ply["landed"], to, "no deviation among rooks");
        for side in ["from_after", "to_after"] {
            assert!(
                ["mover", "target", "nothing"].contains(&ply[side]["what"].as_str().expect("what")),
                "{ply}"
            );
            assert!(["mover", "opponent"].contains(&ply[side]["owner"].as_str().expect("owner")));
        }
    }
    assert_eq!(plies.len(), 6, "five moves and a promotion");
    assert_eq!(
        plies[1]["to_after"]["what"], "mover",
        "b3→b2 lands on an empty square"
    );
    let promotion = &plies[3];
    assert_eq!(promotion["type"], "promotion");
    assert_eq!(promotion["promotion"], "d4");
    assert_eq!(promotion["genome"], rook);
}

/// The exported record is self-contained: the engine replays it to the final position.
fn check_record_replays(record: &Value) {
    let exported: gmo_engine::GameRecord =
        serde_json::from_value(record["replay"].clone()).expect("an engine record");
    let replayed = gmo_engine::replay(&exported).expect("the record replays");
    let view = serde_json::to_value(
        replayed.view(gmo_engine::Viewer::Spectator, gmo_engine::Timestamp::EPOCH),
    )
    .expect("a view");
    for field in ["board", "status", "reason", "moves_played", "promotion_due"] {
        assert_eq!(view[field], record["game"][field], "{field} after replay");
    }
}

/// A random game on a 4×4 board: every answer and stream line White gets is searched for the
/// codes and DNA of Black's own genomes; after the end the record shows them.
async fn white_never_sees_black_genomes_before_the_end(server: Server) {
    let black_genomes: Vec<Genome> = (2..6).map(fresh_genome).collect();
    for genome in &black_genomes {
        let stored = server
            .post("/api/genomes", None, json!({"dna": genome.to_string()}))
            .await;
        assert_eq!(stored.status, 201);
    }
    let codes: Vec<String> = black_genomes.iter().map(|g| g.code().to_string()).collect();
    let black_preset = preset(
        &server,
        &codes.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .await;
    let white_preset = preset(&server, &["rook", "king", "knight", "bishop"]).await;
    let secrets: Vec<String> = codes
        .iter()
        .cloned()
        .chain(black_genomes.iter().map(ToString::to_string))
        .collect();
    let (id, white, black, _) = new_game(
        &server,
        json!({"width": 4, "height": 4, "clock": {"initial_ms": 600_000}}),
    )
    .await;
    let mut stream = server.stream(&id, Some(&white)).await;
    let mut seen_by_white: Vec<String> = Vec::new();
    seen_by_white.push(
        server
            .get(&format!("/api/games/{id}"), Some(&white))
            .await
            .text,
    );
    set_up(&server, &id, &white, &white_preset, "b1").await;
    set_up(&server, &id, &black, &black_preset, "a4").await;
    let mut rng_state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..200 {
        let view = server.get(&format!("/api/games/{id}"), Some(&white)).await;
        if view.body["status"] != "in_progress" {
            break;
        }
        seen_by_white.push(view.text.clone());
        let plies = server
            .get(&format!("/api/games/{id}/plies"), Some(&white))
            .await;
        assert_eq!(plies.status, 200, "{}", plies.text);
        seen_by_white.push(plies.text);
        let side = view.body["to_move"]
            .as_str()
            .expect("someone to move")
            .to_owned();
        let token = if side == "white" { &white } else { &black };
        if view.body["promotion_due"].is_string() {
            let answer = server
                .post(
                    &format!("/api/games/{id}/promotion"),
                    Some(token),
                    json!({"genome": "knight"}),
                )
                .await;
            assert_eq!(answer.status, 200, "{}", answer.text);
            if side == "white" {
                seen_by_white.push(answer.text);
            }
            continue;
        }
        let mut options = Vec::new();
        for p in view.body["board"].as_array().expect("board") {
            if p["color"] == side.as_str() {
                let from = p["square"].as_str().expect("square");
                let moves = server
                    .get(&format!("/api/games/{id}/moves/{from}"), Some(&white))
                    .await;
                seen_by_white.push(moves.text.clone());
                for m in moves.body.as_array().expect("moves") {
                    options.push((from.to_owned(), m["to"].as_str().expect("to").to_owned()));
                }
            }
        }
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        let (from, to) = &options[usize::try_from(rng_state % options.len() as u64).expect("fits")];
        let answer = server
            .post(
                &format!("/api/games/{id}/moves"),
                Some(token),
                json!({"from": from, "to": to}),
            )
            .await;
        assert_eq!(answer.status, 200, "{}", answer.text);
        if side == "white" && answer.body["game"]["status"] == "in_progress" {
            seen_by_white.push(answer.text);
        }
    }
    let over = server.get(&format!("/api/games/{id}"), Some(&white)).await;
    if over.body["status"] == "in_progress" {
        let resigned = server
            .post(&format!("/api/games/{id}/resign"), Some(&white), json!({}))
            .await;
        assert_eq!(resigned.status, 200);
    }
    while let Some((line, text)) = stream.next().await {
        if line["game"]["status"] == "in_progress" || line["game"]["status"] == "setup" {
            seen_by_white.push(text);
        }
    }
    for text in &seen_by_white {
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()),
                "White saw {secret} in {text}"
            );
        }
    }
    let record = server
        .get(&format!("/api/games/{id}/record"), Some(&white))
        .await;
    assert_eq!(record.status, 200, "{}", record.text);
    for genome in &black_genomes {
        assert!(
            record.text.contains(&genome.to_string()),
            "the record shows {genome}"
        );
    }
}

/// Each bad request gets its 4xx and a JSON error, and the game stays as it was.
async fn bad_inputs_get_4xx_and_change_nothing(server: Server) {
    let (id, white, black, _) = new_game(&server, json!({})).await;
    let (other_id, other_white, _, _) = new_game(&server, json!({})).await;
    let game = |rest: &str| format!("/api/games/{id}{rest}");
    let big = format!(
        "{{\"preset\": \"{}\"}}",
        "x".repeat(gmo_server::BODY_LIMIT + 10)
    );
    let setup_cases: Vec<(Method, String, Option<&str>, &str, u16)> = vec![
        (
            Method::PUT,
            game("/preset"),
            Some(&white),
            "{\"preset\": ",
            400,
        ),
        (
            Method::PUT,
            game("/preset"),
            Some(&white),
            "{\"preset\": 7}",
            422,
        ),
        (
            Method::PUT,
            game("/preset"),
            Some(&white),
            "{\"preset\": \"nosuch\"}",
            404,
        ),
        (
            Method::PUT,
            game("/preset"),
            None,
            "{\"preset\": \"default\"}",
            401,
        ),
        (
            Method::PUT,
            game("/preset"),
            Some("forged"),
            "{\"preset\": \"default\"}",
            401,
        ),
        (
            Method::PUT,
            game("/preset"),
            Some(&other_white),
            "{\"preset\": \"default\"}",
            403,
        ),
        (Method::PUT, game("/preset"), Some(&white), &big, 413),
        (Method::POST, game("/kings/z9"), Some(&white), "{}", 422),
        (Method::POST, game("/kings/e4"), Some(&white), "{}", 409),
        (Method::POST, game("/ready"), Some(&white), "{}", 409),
        (
            Method::POST,
            game("/moves"),
            Some(&white),
            "{\"from\": \"e2\", \"to\": \"e4\"}",
            409,
        ),
        (Method::POST, game("/resign"), Some(&white), "{}", 409),
        (Method::GET, game("/record"), None, "", 409),
        (
            Method::POST,
            "/api/games".into(),
            None,
            "{\"width\": 99}",
            422,
        ),
        (
            Method::POST,
            "/api/games".into(),
            None,
            "{\"clock\": {\"initial_ms\": -5}}",
            422,
        ),
        (
            Method::POST,
            "/api/games".into(),
            None,
            "{\"white\": \"bot:nosuch\"}",
            422,
        ),
        (
            Method::POST,
            "/api/games".into(),
            None,
            "{\"black\": \"bot:search:5000n\"}",
            422,
        ),
        (
            Method::POST,
            "/api/games".into(),
            None,
            "{\"black\": \"bot:search\", \"width\": 6}",
            422,
        ),
        (Method::GET, "/api/games/nosuch".into(), None, "", 400),
        (
            Method::GET,
            format!("/api/games/{}", gmo_store::new_id()),
            None,
            "",
            404,
        ),
        (
            Method::POST,
            "/api/genomes".into(),
            None,
            "{\"dna\": \"AHX\"}",
            422,
        ),
    ];
    check_cases(&server, &id, &white, &setup_cases).await;

    set_up(&server, &id, &white, "default", "d1").await;
    set_up(&server, &id, &black, "default", "d8").await;
    let play_cases: Vec<(Method, String, Option<&str>, &str, u16)> = vec![
        (
            Method::POST,
            game("/moves"),
            Some(&white),
            "{\"from\": \"e2\"}",
            422,
        ),
        (
            Method::POST,
            game("/moves"),
            Some(&white),
            "{\"from\": \"e2\", \"to\": \"q9\"}",
            422,
        ),
        (
            Method::POST,
            game("/moves"),
            Some(&white),
            "{\"from\": \"e2\", \"to\": \"e6\"}",
            409,
        ),
        (
            Method::POST,
            game("/moves"),
            Some(&white),
            "{\"from\": \"e4\", \"to\": \"e5\"}",
            409,
        ),
        (
            Method::POST,
            game("/moves"),
            Some(&black),
            "{\"from\": \"e7\", \"to\": \"e6\"}",
            409,
        ),
        (
            Method::POST,
            game("/moves"),
            Some(&other_white),
            "{\"from\": \"e2\", \"to\": \"e3\"}",
            403,
        ),
        (
            Method::POST,
            game("/moves"),
            None,
            "{\"from\": \"e2\", \"to\": \"e3\"}",
            401,
        ),
        (
            Method::POST,
            game("/promotion"),
            Some(&white),
            "{\"genome\": \"queen\"}",
            409,
        ),
        (
            Method::POST,
            game("/promotion"),
            Some(&white),
            "{\"genome\": \"nosuch\"}",
            404,
        ),
        (
            Method::PUT,
            game("/preset"),
            Some(&white),
            "{\"preset\": \"default\"}",
            409,
        ),
        (Method::POST, game("/kings/e2"), Some(&white), "{}", 409),
        (Method::GET, game("/moves/z9"), None, "", 422),
        (
            Method::GET,
            format!("/api/games/{other_id}/moves/e2"),
            Some(&white),
            "",
            403,
        ),
    ];
    check_cases(&server, &id, &white, &play_cases).await;
    let ok = server
        .post(
            &game("/moves"),
            Some(&white),
            json!({"from": "e2", "to": "e3"}),
        )
        .await;
    assert_eq!(
        ok.status, 200,
        "a good move still goes through: {}",
        ok.text
    );
}

async fn check_cases(
    server: &Server,
    id: &str,
    white: &str,
    cases: &[(Method, String, Option<&str>, &str, u16)],
) {
    let before = frozen(
        server
            .get(&format!("/api/games/{id}"), Some(white))
            .await
            .body,
    );
    for (method, path, token, body, status) in cases {
        let answer = if body.is_empty() {
            server.call(method.clone(), path, *token, None).await
        } else {
            server.raw(method.clone(), path, *token, body).await
        };
        assert_eq!(
            answer.status, *status,
            "{method} {path} {body:.60}: {}",
            answer.text
        );
        let error = &answer.body["error"];
        assert!(
            error["code"].is_string() && error["message"].is_string(),
            "{}",
            answer.text
        );
    }
    let after = frozen(
        server
            .get(&format!("/api/games/{id}"), Some(white))
            .await
            .body,
    );
    assert_eq!(before, after, "the refused requests changed nothing");
}

/// A view without the running clocks, which move by themselves.
fn frozen(mut view: Value) -> Value {
    view["clocks"]["white_ms"] = Value::Null;
    view["clocks"]["black_ms"] = Value::Null;
    view
}
