//! Issue 25, discovery over HTTP on both backends: route by route, nothing explains or points at
//! the genome language; the decoding tools are refused; and a whole game played in discovery,
//! every answer and stream line kept as each seat and as a spectator, holds none of the other
//! side's DNA or codes — nor after the end. An event's `"discovery": true` does it for its games
//! on a server that is not in discovery.

use crate::common::{Lines, Server};
use crate::ratings::{call, sign_up};
use crate::{fresh_genome, new_game, preset, set_up};
use gmo_genome::Genome;
use reqwest::Method;
use serde_json::{Value, json};

both_with!(
    super::discovery;
    the_config_says_so_and_nothing_explains_or_points_at_the_dna,
    the_decoding_tools_are_refused,
    a_whole_game_shows_nobody_the_other_sides_dna,
);

mod event {
    both!(an_events_discovery_hides_its_games_genomes_after_the_end);

    use super::an_events_discovery_hides_its_games_genomes_after_the_end;
}

fn discovery(settings: &mut gmo_server::Settings) {
    settings.play.discovery = true;
}

/// Not a genome: a block codon (`AHH`) missing its last letter's pair.
const BAD_DNA: &str = "AHH HSH HAA HHH CHA CHA HHA CAS SHS";

/// What an invalid DNA is told in discovery, and nothing more.
fn assert_concealed(answer: &crate::common::Answer, what: &str) {
    assert_eq!(answer.status, 422, "{what}: {}", answer.text);
    let error = answer.body["error"].as_object().expect("an error object");
    assert_eq!(error["code"], "invalid_genome", "{what}");
    assert_eq!(error["message"], "this DNA is not a valid genome", "{what}");
    let keys: Vec<&String> = error.keys().collect();
    assert_eq!(
        keys,
        ["code", "message"],
        "{what}: nothing points at the fault"
    );
}

async fn the_config_says_so_and_nothing_explains_or_points_at_the_dna(server: Server) {
    let config = server.get("/api/config", None).await;
    assert_eq!(config.status, 200);
    assert_eq!(config.body["discovery"], true);
    let stored = server
        .post(
            "/api/genomes",
            None,
            json!({"dna": fresh_genome(1).to_string()}),
        )
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text);
    assert!(stored.body.get("explanation").is_none(), "{}", stored.text);
    assert!(stored.body.get("traits").is_none(), "{}", stored.text);
    let rook = server.get("/api/genomes/rook", None).await;
    assert_eq!(rook.status, 200);
    assert!(
        rook.body["dna"].is_string(),
        "the standard pieces' DNA is known"
    );
    assert!(rook.body.get("explanation").is_none() && rook.body.get("traits").is_none());
    let bad = server
        .post("/api/genomes", None, json!({"dna": BAD_DNA}))
        .await;
    assert_concealed(&bad, "a genome");
    let lab = server.post("/api/labs", None, json!({})).await;
    let (id, token) = (
        lab.body["id"].as_str().expect("id"),
        lab.body["token"].as_str().expect("token"),
    );
    let placed = server
        .put(
            &format!("/api/labs/{id}/squares/d4"),
            Some(token),
            json!({"dna": BAD_DNA, "color": "white"}),
        )
        .await;
    assert_concealed(&placed, "a lab's placement");
    let good = server
        .put(
            &format!("/api/labs/{id}/squares/d4"),
            Some(token),
            json!({"dna": fresh_genome(2).to_string(), "color": "white"}),
        )
        .await;
    assert_eq!(good.status, 200, "the lab works as ever: {}", good.text);
    let moves = server
        .get(&format!("/api/labs/{id}/moves/d4"), Some(token))
        .await;
    assert_eq!(moves.status, 200, "its moves are shown: {}", moves.text);
    let game = server.post("/api/games", None, json!({})).await;
    assert_eq!(
        game.body["game"]["discovery"], true,
        "a game made here is in discovery"
    );
    let other = server.post("/api/games", None, json!({"width": 9})).await;
    assert_eq!(other.status, 422, "other refusals keep their words");
    assert_ne!(other.body["error"]["code"], "invalid_genome");
}

async fn the_decoding_tools_are_refused(server: Server) {
    for (method, path, body) in [
        (Method::GET, "/api/genomes/rook/diagram.svg", None),
        (
            Method::POST,
            "/api/genomes/breed",
            Some(json!({"a": "rook", "b": "knight"})),
        ),
        (Method::POST, "/api/genomes/rook/value", Some(json!({}))),
        (Method::GET, "/api/genomes/rook/value", None),
        (Method::GET, "/api/genomes/rook/value/stream", None),
    ] {
        let answer = server.call(method.clone(), path, None, body).await;
        assert_eq!(answer.status, 403, "{method} {path}: {}", answer.text);
        assert_eq!(answer.body["error"]["code"], "discovery", "{method} {path}");
    }
}

/// Whether every move of `genome` leaves only its mover's own pieces: no copy of the target,
/// and a copy of the mover only for the mover.
fn keeps_to_its_side(genome: &Genome) -> bool {
    use gmo_genome::{Content, Outcome, Owner};
    let mine = |owner: Owner| matches!(owner, Owner::Mover(_));
    genome.blocks.iter().all(|block| {
        [block.on_own, block.on_opponent, block.on_empty]
            .iter()
            .all(|outcome| match outcome {
                Outcome::Forbidden => true,
                Outcome::Leaves { from, to } => {
                    let fine = |content: Content, owner: Owner| match content {
                        Content::Target => false,
                        Content::Mover => mine(owner),
                        Content::Nothing => true,
                    };
                    fine(*from, block.owner_from) && fine(*to, block.owner_to)
                }
            })
    })
}

fn as_refs(codes: &[String]) -> Vec<&str> {
    codes.iter().map(String::as_str).collect()
}

/// A side's secrets: its genomes' codes and DNA.
fn secrets(genomes: &[Genome]) -> Vec<String> {
    genomes
        .iter()
        .flat_map(|genome| [genome.code().to_string(), genome.to_string()])
        .collect()
}

/// Everything `token` (none: a spectator) is answered about game `id` now.
async fn answers(server: &Server, id: &str, token: Option<&str>, into: &mut Vec<String>) {
    let view = server.get(&format!("/api/games/{id}"), token).await;
    for path in ["plies", "positions", "record"] {
        into.push(
            server
                .get(&format!("/api/games/{id}/{path}"), token)
                .await
                .text,
        );
    }
    for piece in view.body["board"].as_array().into_iter().flatten() {
        let square = piece["square"].as_str().expect("a square");
        into.push(
            server
                .get(&format!("/api/games/{id}/moves/{square}"), token)
                .await
                .text,
        );
    }
    into.push(view.text);
}

/// The stream's lines up to its `end` line (a seat's stream stays open after it, for a rematch).
async fn drain(stream: &mut Lines, into: &mut Vec<String>) {
    while let Some((line, text)) = stream.next().await {
        into.push(text);
        if line["type"] == "end" {
            return;
        }
    }
}

async fn a_whole_game_shows_nobody_the_other_sides_dna(server: Server) {
    // Genomes that never leave a copy of themselves to the other side nor take one of the
    // other's: a side then holds only its own genomes (and standard ones), and any of the other
    // side's codes seen would be a leak.
    let own: Vec<Genome> = (1..60)
        .map(fresh_genome)
        .filter(keeps_to_its_side)
        .take(8)
        .collect();
    assert_eq!(own.len(), 8, "eight such genomes");
    let (white_genomes, black_genomes) = (own[..4].to_vec(), own[4..].to_vec());
    for genome in white_genomes.iter().chain(&black_genomes) {
        let stored = server
            .post("/api/genomes", None, json!({"dna": genome.to_string()}))
            .await;
        assert_eq!(stored.status, 201, "{}", stored.text);
    }
    let codes = |genomes: &[Genome]| {
        genomes
            .iter()
            .map(|g| g.code().to_string())
            .collect::<Vec<_>>()
    };
    let (white_codes, black_codes) = (codes(&white_genomes), codes(&black_genomes));
    let white_preset = preset(&server, &as_refs(&white_codes)).await;
    let black_preset = preset(&server, &as_refs(&black_codes)).await;
    let (id, white, black, created) = new_game(
        &server,
        json!({"width": 4, "height": 4, "clock": {"initial_ms": 600_000}}),
    )
    .await;
    let mut seen = [vec![created.to_string()], Vec::new(), Vec::new()];
    let mut streams = [
        server.stream(&id, Some(&white)).await,
        server.stream(&id, Some(&black)).await,
        server.stream(&id, None).await,
    ];
    seen[0].push(
        set_up(&server, &id, &white, &white_preset, "b1")
            .await
            .to_string(),
    );
    seen[1].push(
        set_up(&server, &id, &black, &black_preset, "b4")
            .await
            .to_string(),
    );
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..60 {
        let view = server.get(&format!("/api/games/{id}"), None).await;
        if view.body["status"] != "in_progress" {
            break;
        }
        let side = view.body["to_move"].as_str().expect("a side").to_owned();
        let (token, mine) = if side == "white" {
            (&white, 0)
        } else {
            (&black, 1)
        };
        if view.body["promotion_due"].is_string() {
            let promoted = server
                .post(
                    &format!("/api/games/{id}/promotion"),
                    Some(token),
                    json!({"genome": "knight"}),
                )
                .await;
            seen[mine].push(promoted.text);
            continue;
        }
        let mut options = Vec::new();
        for piece in view.body["board"].as_array().expect("a board") {
            if piece["color"] == side.as_str() {
                let from = piece["square"].as_str().expect("a square").to_owned();
                let moves = server
                    .get(&format!("/api/games/{id}/moves/{from}"), Some(token))
                    .await;
                for to in moves.body.as_array().into_iter().flatten() {
                    options.push((from.clone(), to["to"].as_str().expect("to").to_owned()));
                }
                seen[mine].push(moves.text);
            }
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let pick = usize::try_from(state % options.len().max(1) as u64).expect("fits");
        let Some((from, to)) = options.get(pick) else {
            break;
        };
        let moved = server
            .post(
                &format!("/api/games/{id}/moves"),
                Some(token),
                json!({"from": from, "to": to}),
            )
            .await;
        seen[mine].push(moved.text);
    }
    if server.get(&format!("/api/games/{id}"), None).await.body["status"] == "in_progress" {
        let resigned = server
            .post(&format!("/api/games/{id}/resign"), Some(&white), json!({}))
            .await;
        assert_eq!(resigned.status, 200, "{}", resigned.text);
    }
    for (index, token) in [Some(white.as_str()), Some(black.as_str()), None]
        .into_iter()
        .enumerate()
    {
        drain(&mut streams[index], &mut seen[index]).await;
        answers(&server, &id, token, &mut seen[index]).await;
    }
    let hidden = [
        ("White", &seen[0], secrets(&black_genomes)),
        ("Black", &seen[1], secrets(&white_genomes)),
        (
            "a spectator",
            &seen[2],
            [secrets(&white_genomes), secrets(&black_genomes)].concat(),
        ),
    ];
    for (who, texts, secrets) in hidden {
        assert!(texts.len() > 10, "{who} was answered {} times", texts.len());
        for text in texts {
            for secret in &secrets {
                assert!(
                    !text.contains(secret.as_str()),
                    "{who} saw {secret} in {text}"
                );
            }
        }
    }
    let record = server
        .get(&format!("/api/games/{id}/record"), Some(&white))
        .await;
    assert_eq!(record.status, 200, "{}", record.text);
    assert!(
        record.body.get("replay").is_none(),
        "no replay in discovery"
    );
    let mine = seen[0]
        .iter()
        .any(|text| text.contains(white_codes[0].as_str()));
    assert!(mine, "White sees its own codes");
}

pub(crate) async fn an_events_discovery_hides_its_games_genomes_after_the_end(server: Server) {
    let config = server.get("/api/config", None).await;
    assert_eq!(config.body["discovery"], false);
    let secret = fresh_genome(12);
    server
        .post("/api/genomes", None, json!({"dna": secret.to_string()}))
        .await;
    let code = secret.code().to_string();
    let default = server.get("/api/presets/default", None).await;
    let mut genomes: Vec<String> = default.body["genomes"]
        .as_array()
        .expect("genomes")
        .iter()
        .map(|code| code.as_str().expect("a code").to_owned())
        .collect();
    genomes[0] = code.clone();
    let custom = preset(
        &server,
        &genomes.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .await;
    let ada = sign_up(&server, "ada").await;
    let made = call(&server, &ada, Method::POST, "/api/events", None, Some(json!({
        "name": "Camp", "format": "round_robin", "discovery": true, "clock": {"initial_ms": 60_000}
    }))).await;
    assert_eq!(made.status, 201, "{}", made.text);
    assert_eq!(made.body["event"]["discovery"], true);
    let id = made.body["id"].as_str().expect("an id").to_owned();
    let mut tokens = Vec::new();
    for name in ["Red", "Blue"] {
        let team = call(
            &server,
            &ada,
            Method::POST,
            &format!("/api/events/{id}/teams"),
            None,
            Some(json!({"name": name})),
        )
        .await;
        let joined = server
            .post(
                &format!("/api/events/{id}/join"),
                None,
                json!({"code": team.body["code"]}),
            )
            .await;
        let token = joined.body["token"].as_str().expect("a token").to_owned();
        let lineup = server
            .put(
                &format!("/api/events/{id}/lineup"),
                Some(&token),
                json!({"preset": custom, "kings": ["d1"]}),
            )
            .await;
        assert_eq!(lineup.status, 200, "{}", lineup.text);
        tokens.push(token);
    }
    call(
        &server,
        &ada,
        Method::POST,
        &format!("/api/events/{id}/start"),
        None,
        None,
    )
    .await;
    let game = server
        .get(&format!("/api/events/{id}/game"), Some(&tokens[0]))
        .await;
    let (game_id, seat) = (
        game.body["game"].as_str().expect("a game"),
        game.body["seat"].as_str().expect("a seat"),
    );
    for token in &tokens {
        // Ready, or started by itself already (1 s in tests).
        server
            .post(
                &format!("/api/games/{game_id}/ready"),
                Some(token),
                json!({}),
            )
            .await;
    }
    let resigned = server
        .post(
            &format!("/api/games/{game_id}/resign"),
            Some(&tokens[0]),
            json!({}),
        )
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    assert_ne!(resigned.body["status"], "in_progress");
    let mut seen = Vec::new();
    answers(&server, game_id, None, &mut seen).await;
    assert!(
        seen.iter().all(|text| !text.contains(code.as_str())),
        "a spectator never sees the code"
    );
    let own = server
        .get(&format!("/api/games/{game_id}"), Some(&tokens[0]))
        .await;
    let sides: Vec<&Value> = own.body["board"]
        .as_array()
        .expect("a board")
        .iter()
        .filter(|piece| piece["code"] == code.as_str())
        .collect();
    assert!(
        !sides.is_empty() && sides.iter().all(|piece| piece["color"] == seat),
        "a team sees its own custom piece's code, never the other's: {}",
        own.text
    );
}
