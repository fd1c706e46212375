//! Issue 23, who plays and ratings over HTTP on both backends: rated seeks between accounts, the
//! ratings a rated game's end changes (once, by a resignation or by the clock), the players in
//! game views, a seat linked by an invite opened while signed in, and the public reads of a
//! player (profile, games, rating history, leaderboard).

use crate::common::{Answer, Server};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

both!(
    a_rated_game_between_two_accounts_changes_both_ratings_once,
    rated_seeks_need_an_account_an_8x8_board_and_another_account,
    an_invite_opened_signed_in_links_the_seat,
);

/// A signed-in player: its session cookie.
pub struct Player {
    pub cookie: String,
}

pub async fn sign_up(server: &Server, name: &'static str) -> Player {
    let response = server
        .client
        .post(format!("{}/api/account", server.base))
        .json(&json!({"username": name, "password": "correct horse battery"}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status().as_u16(), 201);
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .expect("ascii")
        .split(';')
        .next()
        .expect("name=value")
        .to_owned();
    assert!(cookie.starts_with("gmo_session="), "{cookie}");
    Player { cookie }
}

/// A request as `player` (its cookie), with a seat's or a personal token if given.
pub async fn call(
    server: &Server,
    player: &Player,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Answer {
    let mut request = server
        .client
        .request(method, format!("{}{path}", server.base))
        .header("cookie", &player.cookie);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("an answer");
    let status = response.status().as_u16();
    let text = response.text().await.expect("a body");
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Answer { status, body, text }
}

fn rated_seek(initial_ms: i64) -> Value {
    json!({"clock": {"initial_ms": initial_ms}, "rated": true})
}

/// Ada's rated seek taken by Bob → (game, Ada's seat token, Bob's seat token, Ada's colour).
async fn rated_game(server: &Server, ada: &Player, bob: &Player, initial_ms: i64) -> RatedGame {
    let opened = call(
        server,
        ada,
        Method::POST,
        "/api/seeks",
        None,
        Some(rated_seek(initial_ms)),
    )
    .await;
    assert_eq!(opened.status, 201, "{}", opened.text);
    let (seek, seek_token) = (
        opened.body["id"].as_str().expect("an id").to_owned(),
        opened.body["token"].as_str().expect("a token").to_owned(),
    );
    let listed = server.get("/api/seeks", None).await;
    let shown = &listed.body[0];
    assert_eq!(
        (shown["rated"].clone(), shown["username"].clone()),
        (json!(true), json!("ada"))
    );
    let mut stream = server
        .stream_at(&format!("/api/seeks/{seek}/stream"), Some(&seek_token))
        .await;
    let path = format!("/api/seeks/{seek}/accept");
    let taken = call(server, bob, Method::POST, &path, None, None).await;
    assert_eq!(taken.status, 200, "{}", taken.text);
    let paired = loop {
        let (line, _) = stream.next().await.expect("a line");
        if line["type"] == "paired" {
            break line;
        }
    };
    RatedGame {
        id: taken.body["game"].as_str().expect("a game").to_owned(),
        ada: paired["token"].as_str().expect("a token").to_owned(),
        bob: taken.body["token"].as_str().expect("a token").to_owned(),
        ada_color: paired["seat"].as_str().expect("a seat").to_owned(),
    }
}

struct RatedGame {
    id: String,
    ada: String,
    bob: String,
    ada_color: String,
}

impl RatedGame {
    fn bob_color(&self) -> &'static str {
        if self.ada_color == "white" {
            "black"
        } else {
            "white"
        }
    }

    /// The seat tokens as (White's, Black's).
    fn by_color(&self) -> (&str, &str) {
        if self.ada_color == "white" {
            (&self.ada, &self.bob)
        } else {
            (&self.bob, &self.ada)
        }
    }
}

/// Both seats load the default preset, mark a king and declare ready.
async fn start(server: &Server, game: &RatedGame) {
    let (white, black) = game.by_color();
    crate::set_up(server, &game.id, white, "default", "d1").await;
    let started = crate::set_up(server, &game.id, black, "default", "d8").await;
    assert_eq!(started["status"], "in_progress", "{started}");
}

async fn a_rated_game_between_two_accounts_changes_both_ratings_once(server: Server) {
    let (ada, bob) = (sign_up(&server, "ada").await, sign_up(&server, "bob").await);
    let game = rated_game(&server, &ada, &bob, 300_000).await;
    let view = server
        .get(&format!("/api/games/{}", game.id), None)
        .await
        .body;
    assert_eq!(view["rated"], true, "{view}");
    let players = &view["players"];
    assert_eq!(
        players[game.ada_color.as_str()]["username"],
        "ada",
        "{view}"
    );
    assert_eq!(players[game.bob_color()]["username"], "bob", "{view}");
    assert_eq!(players["white"]["rating"], 1500);
    assert_eq!(players["white"]["provisional"], true);
    assert!(view.get("rating_diff").is_none(), "not before the end");
    start(&server, &game).await;
    let path = format!("/api/games/{}/resign", game.id);
    let resigned = server.post(&path, Some(&game.bob), json!({})).await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let end = server
        .get(&format!("/api/games/{}", game.id), None)
        .await
        .body;
    assert_eq!(end["status"], format!("{}_won", game.ada_color), "{end}");
    let (won, lost) = (
        end["rating_diff"][game.ada_color.as_str()]
            .as_i64()
            .expect("Ada's change"),
        end["rating_diff"][game.bob_color()]
            .as_i64()
            .expect("Bob's change"),
    );
    assert!(won > 0 && lost < 0, "{end}");
    assert_eq!(won, -lost, "two new players move by as much");
    let profile = server.get("/api/users/ADA", None).await;
    assert_eq!(profile.status, 200, "{}", profile.text);
    let body = &profile.body;
    assert_eq!(body["username"], "ada");
    assert_eq!(body["rating"]["value"], 1500 + won, "{body}");
    assert_eq!(body["rating"]["games"], 1);
    assert_eq!(body["rating"]["provisional"], true);
    let deviation = body["rating"]["deviation"].as_i64().expect("a deviation");
    assert!((45..500).contains(&deviation), "{body}");
    assert_eq!(
        body["counts"],
        json!({"games": 1, "wins": 1, "draws": 0, "losses": 0})
    );
    let bobs = server.get("/api/users/bob", None).await.body;
    assert_eq!(bobs["counts"]["losses"], 1, "{bobs}");
    assert_eq!(bobs["rating"]["value"], 1500 + lost);
    let history = server.get("/api/users/ada/rating-history", None).await.body;
    let points = history.as_array().expect("points");
    assert_eq!(points.len(), 1, "{history}");
    assert_eq!(points[0]["value"], 1500 + won);
    assert!(points[0]["at"].as_str().is_some_and(|at| at.ends_with('Z')));
    let games = server.get("/api/users/ada/games", None).await.body;
    let listed = games.as_array().expect("games");
    assert_eq!(listed.len(), 1, "{games}");
    assert_eq!(listed[0]["id"], game.id.as_str());
    assert_eq!(listed[0]["you"], Value::Null, "a spectator's view");
    assert_eq!(listed[0]["rating_diff"], end["rating_diff"]);
    let leaderboard = server.get("/api/leaderboard", None).await;
    assert_eq!(leaderboard.status, 200);
    assert_eq!(
        leaderboard.body,
        json!([]),
        "provisional ratings stay off the leaderboard"
    );
    // Asking again or resigning again changes no rating.
    let again = server.post(&path, Some(&game.ada), json!({})).await;
    assert_eq!(again.status, 409, "{}", again.text);
    let still = server.get("/api/users/ada", None).await.body;
    assert_eq!(still["rating"]["games"], 1);
    assert_eq!(server.get("/api/users/nobody", None).await.status, 404);
    assert_eq!(
        server.get("/api/users/a", None).await.status,
        400,
        "not a username"
    );
    let bad_page = server.get("/api/users/ada/games?before=zz", None).await;
    assert_eq!(bad_page.status, 422, "{}", bad_page.text);
}

async fn rated_seeks_need_an_account_an_8x8_board_and_another_account(server: Server) {
    let anonymous = server.post("/api/seeks", None, rated_seek(300_000)).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
    assert_eq!(anonymous.body["error"]["code"], "sign_in_needed");
    let ada = sign_up(&server, "ada").await;
    let small = json!({"clock": {"initial_ms": 300_000}, "rated": true, "width": 6});
    let refused = call(&server, &ada, Method::POST, "/api/seeks", None, Some(small)).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "rated_board");
    assert_eq!(
        server.get("/api/seeks", None).await.body,
        json!([]),
        "nothing stored"
    );
    let opened = call(
        &server,
        &ada,
        Method::POST,
        "/api/seeks",
        None,
        Some(rated_seek(300_000)),
    )
    .await;
    assert_eq!(opened.status, 201, "{}", opened.text);
    let accept = format!(
        "/api/seeks/{}/accept",
        opened.body["id"].as_str().expect("an id")
    );
    let own = call(&server, &ada, Method::POST, &accept, None, None).await;
    assert_eq!(own.status, 409, "{}", own.text);
    assert_eq!(own.body["error"]["code"], "own_seek");
    let stranger = server.post(&accept, None, json!({})).await;
    assert_eq!(stranger.status, 401, "{}", stranger.text);
    // A personal token acts for its account only within its scopes.
    let token = |scopes: Value| {
        let body = json!({"description": "a script", "scopes": scopes});
        call(
            &server,
            &ada,
            Method::POST,
            "/api/account/tokens",
            None,
            Some(body),
        )
    };
    let events = token(json!(["events"])).await;
    assert_eq!(events.status, 201, "{}", events.text);
    let events = events.body["token"].as_str().expect("a token").to_owned();
    let denied = server
        .post("/api/seeks", Some(&events), rated_seek(60_000))
        .await;
    assert_eq!(denied.status, 403, "{}", denied.text);
    let play = token(json!(["play"])).await.body["token"]
        .as_str()
        .expect("a token")
        .to_owned();
    let scripted = server
        .post("/api/seeks", Some(&play), rated_seek(60_000))
        .await;
    assert_eq!(scripted.status, 201, "{}", scripted.text);
    let listed = server.get("/api/seeks", None).await.body;
    assert_eq!(listed.as_array().map(Vec::len), Some(2), "{listed}");
    for seek in listed.as_array().into_iter().flatten() {
        assert_eq!(seek["rated"], true, "{seek}");
        assert_eq!(seek["username"], "ada", "{seek}");
        assert_eq!(seek["rating"], 1500, "the seeker's rating: {seek}");
        assert_eq!(seek["provisional"], true, "{seek}");
    }
    let casual = server
        .post(
            "/api/seeks",
            None,
            json!({"clock": {"initial_ms": 300_000}}),
        )
        .await;
    assert_eq!(casual.status, 201, "{}", casual.text);
    let listed = server.get("/api/seeks", None).await.body;
    let anonymous = listed
        .as_array()
        .and_then(|seeks| seeks.iter().find(|seek| seek["id"] == casual.body["id"]))
        .expect("the anonymous seek listed");
    assert_eq!(anonymous["username"], Value::Null, "{anonymous}");
    assert_eq!(anonymous["rating"], Value::Null, "{anonymous}");
    assert_eq!(anonymous["provisional"], false, "{anonymous}");
    assert_eq!(anonymous["rated"], false, "{anonymous}");
}

async fn an_invite_opened_signed_in_links_the_seat(server: Server) {
    let bob = sign_up(&server, "bob").await;
    let (id, white, black, _) = crate::new_game(&server, json!({})).await;
    let (id, white, black) = (id.as_str(), white.as_str(), black.as_str());
    let path = format!("/api/games/{id}");
    let before = server.get(&path, None).await.body;
    assert_eq!(
        before["players"],
        json!({"white": null, "black": null}),
        "{before}"
    );
    assert_eq!(before["rated"], false);
    let opened = call(&server, &bob, Method::GET, &path, Some(white), None).await;
    assert_eq!(opened.status, 200, "{}", opened.text);
    assert_eq!(
        opened.body["players"]["white"]["username"], "bob",
        "{}",
        opened.text
    );
    // The same account never takes the other seat; a spectator sees the name.
    let other = call(&server, &bob, Method::GET, &path, Some(black), None).await;
    assert_eq!(
        other.body["players"]["black"],
        Value::Null,
        "{}",
        other.text
    );
    let spectator = server.get(&path, None).await.body;
    assert_eq!(spectator["players"]["white"]["username"], "bob");
    // Bob's games list it, across browsers (no local storage involved).
    let games = server.get("/api/users/bob/games", None).await.body;
    assert_eq!(games[0]["id"], id, "{games}");
}

/// A game lost on time, whichever process's flag timer or sweep ends it.
mod on_time {
    use super::*;

    both_with!(
        super::patient;
        a_rated_game_lost_on_time_is_rated_by_whoever_ends_it,
    );

    /// First moves may wait: the game is lost on the clock, not aborted.
    fn patient(settings: &mut gmo_server::Settings) {
        settings.play.first_move_time = Duration::from_secs(3600);
    }

    async fn a_rated_game_lost_on_time_is_rated_by_whoever_ends_it(server: Server) {
        let (ada, bob) = (sign_up(&server, "ada").await, sign_up(&server, "bob").await);
        let game = rated_game(&server, &ada, &bob, 1_500).await;
        start(&server, &game).await;
        let (white, black) = game.by_color();
        crate::play(&server, &game.id, white, "e2", "e3").await;
        crate::play(&server, &game.id, black, "e7", "e6").await;
        // White's clock now runs out with nobody to move.
        let path = format!("/api/games/{}", game.id);
        let deadline = Instant::now() + Duration::from_secs(10);
        let end = loop {
            let view = server.get(&path, None).await.body;
            if view["status"] == "black_won" {
                break view;
            }
            assert!(Instant::now() < deadline, "the flag falls: {view}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        assert_eq!(end["reason"], "time", "{end}");
        let white_diff = end["rating_diff"]["white"].as_i64().expect("rated");
        assert!(white_diff < 0, "{end}");
        let white_name = if game.ada_color == "white" {
            "ada"
        } else {
            "bob"
        };
        let profile = server
            .get(&format!("/api/users/{white_name}"), None)
            .await
            .body;
        assert_eq!(profile["rating"]["games"], 1, "{profile}");
        assert_eq!(profile["rating"]["value"], 1500 + white_diff);
        assert_eq!(profile["counts"]["losses"], 1);
    }
}
