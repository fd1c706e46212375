//! Issue 24, events over HTTP on both backends: an organiser's round robin of three teams
//! played through every round (byes, results from every kind of ending, standings, CSV, the
//! stream), a Swiss event paired by scores, games that start by themselves, every refusal, and
//! on PostgreSQL two processes: one pairing at once, and results reaching the other's stream.

use crate::common::{Answer, Lines, Server, another_server};
use crate::ratings::{Player, call, sign_up};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

both!(
    a_round_robin_of_three_teams_is_played_through_every_round,
    a_swiss_event_pairs_winners_with_winners,
    a_round_starts_by_itself_when_the_teams_do_not,
    refusals_are_clear_and_change_nothing,
    a_game_lost_on_time_counts_at_once,
    an_event_game_names_its_event_round_board_and_teams,
    a_join_code_is_read_as_people_type_it,
);

/// A team: its id and token.
struct Team {
    id: String,
    token: String,
}

/// A POST as `who` (its session).
async fn post_as(server: &Server, who: &Player, path: &str, body: Option<Value>) -> Answer {
    call(server, who, Method::POST, path, None, body).await
}

async fn organise(server: &Server, who: &Player, body: Value) -> String {
    let made = call(server, who, Method::POST, "/api/events", None, Some(body)).await;
    assert_eq!(made.status, 201, "{}", made.text);
    made.body["id"].as_str().expect("an id").to_owned()
}

async fn add_team(server: &Server, who: &Player, event: &str, name: &str) -> Team {
    let path = format!("/api/events/{event}/teams");
    let added = call(
        server,
        who,
        Method::POST,
        &path,
        None,
        Some(json!({"name": name})),
    )
    .await;
    assert_eq!(added.status, 201, "{}", added.text);
    let code = added.body["code"].as_str().expect("a code").to_owned();
    assert!(
        code.len() >= 8,
        "a join code of at least 8 characters: {code}"
    );
    let joined = server
        .post(
            &format!("/api/events/{event}/join"),
            None,
            json!({"code": code}),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.body["team"], added.body["id"]);
    let again = server
        .post(
            &format!("/api/events/{event}/join"),
            None,
            json!({"code": code}),
        )
        .await;
    assert_eq!(
        again.body["token"], joined.body["token"],
        "every member gets the token"
    );
    Team {
        id: added.body["id"].as_str().expect("an id").to_owned(),
        token: joined.body["token"].as_str().expect("a token").to_owned(),
    }
}

async fn event(server: &Server, id: &str) -> Value {
    let shown = server.get(&format!("/api/events/{id}"), None).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    shown.body
}

/// The standings as `(team id, points)`.
fn points(view: &Value) -> Vec<(String, f64)> {
    view["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|line| {
            let team = line["team"].as_str().expect("a team").to_owned();
            (team, line["points"].as_f64().expect("points"))
        })
        .collect()
}

fn points_of(view: &Value, team: &Team) -> f64 {
    points(view)
        .into_iter()
        .find(|(id, _)| *id == team.id)
        .map(|(_, points)| points)
        .expect("the team stands")
}

/// Both teams of `team`'s current game declare ready; → (game, team's seat).
async fn ready(server: &Server, event: &str, teams: &[&Team]) -> (String, String) {
    let mut found = None;
    for team in teams {
        let game = server
            .get(&format!("/api/events/{event}/game"), Some(&team.token))
            .await;
        assert_eq!(game.status, 200, "{}", game.text);
        assert_eq!(game.body["token"], team.token.as_str());
        let id = game.body["game"].as_str().expect("a game").to_owned();
        let seat = game.body["seat"].as_str().expect("a seat").to_owned();
        let readied = server
            .post(
                &format!("/api/games/{id}/ready"),
                Some(&team.token),
                json!({}),
            )
            .await;
        // Under load the game may have started by itself first (the tests' 1 s).
        let started = readied.status == 409
            && server.get(&format!("/api/games/{id}"), None).await.body["status"] == "in_progress";
        assert!(readied.status == 200 || started, "{}", readied.text);
        found.get_or_insert((id, seat));
    }
    found.expect("a game")
}

/// The stream's next line of `kind`, skipping others.
async fn line_of(stream: &mut Lines, kind: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let (line, _) = stream.next_within(left).await.expect("a line");
        if line["type"] == kind {
            return line;
        }
    }
}

async fn a_round_robin_of_three_teams_is_played_through_every_round(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let clock = json!({"initial_ms": 300_000, "increment_ms": 2_000});
    let id = organise(
        &server,
        &ada,
        json!({"name": "Camp duels", "format": "round_robin", "clock": clock}),
    )
    .await;
    let names = ["Red", "Green", "Blue"];
    let mut teams = Vec::new();
    for name in names {
        teams.push(add_team(&server, &ada, &id, name).await);
    }
    let lineup = server
        .put(
            &format!("/api/events/{id}/lineup"),
            Some(&teams[0].token),
            json!({"preset": "default", "kings": ["d1", "e1"]}),
        )
        .await;
    assert_eq!(lineup.status, 200, "{}", lineup.text);
    let registration = event(&server, &id).await;
    assert_eq!(registration["status"], "registration");
    assert_eq!(registration["organiser"], "ada", "the organiser's username");
    assert_eq!(registration["teams"].as_array().map(Vec::len), Some(3));
    let mut stream = server
        .stream_at(&format!("/api/events/{id}/stream"), None)
        .await;
    let (first, _) = stream.next().await.expect("the first line");
    assert_eq!(first["type"], "event");
    assert_eq!(first["event"]["status"], "registration");

    let started = post_as(&server, &ada, &format!("/api/events/{id}/start"), None).await;
    assert_eq!(started.status, 200, "{}", started.text);
    assert_eq!(started.body["status"], "running");
    assert_eq!(
        started.body["rounds_planned"], 3,
        "3 teams: 3 rounds with a bye each"
    );
    let paired = line_of(&mut stream, "round").await;
    assert_eq!(paired["round"]["number"], 1);
    let mut byes = std::collections::BTreeSet::new();
    for round in 1..=3 {
        let view = event(&server, &id).await;
        let board = &view["rounds"][round - 1]["pairings"];
        let game = board
            .as_array()
            .expect("pairings")
            .iter()
            .find(|p| !p["black"].is_null());
        let bye = board
            .as_array()
            .expect("pairings")
            .iter()
            .find(|p| p["black"].is_null());
        let game = game.expect("one game a round");
        byes.insert(
            bye.expect("one bye a round")["white"]
                .as_str()
                .expect("a team")
                .to_owned(),
        );
        let white = teams
            .iter()
            .find(|t| game["white"] == t.id.as_str())
            .expect("white");
        let black = teams
            .iter()
            .find(|t| game["black"] == t.id.as_str())
            .expect("black");
        let on_bye = teams
            .iter()
            .find(|t| bye.is_some_and(|b| b["white"] == t.id.as_str()));
        let no_game = server
            .get(
                &format!("/api/events/{id}/game"),
                Some(&on_bye.expect("a bye").token),
            )
            .await;
        assert_eq!(no_game.status, 404, "a team with a bye has no game");
        let early = post_as(&server, &ada, &format!("/api/events/{id}/rounds"), None).await;
        assert_eq!(early.status, 409, "the round goes on: {}", early.text);
        assert_eq!(early.body["error"]["code"], "round_not_over");
        let (game_id, _) = ready(&server, &id, &[white, black]).await;
        let shown = server
            .get(&format!("/api/games/{game_id}"), Some(&white.token))
            .await;
        assert_eq!(shown.body["status"], "in_progress");
        let kings = shown.body["board"]
            .as_array()
            .expect("a board")
            .iter()
            .filter(|piece| piece["king"] == true)
            .count();
        assert!(kings >= 2, "both sides' kings are marked from the lineups");
        let aborted = server
            .post(
                &format!("/api/games/{game_id}/abort"),
                Some(&white.token),
                json!({}),
            )
            .await;
        assert_eq!(
            aborted.status, 409,
            "an event's game is played out: {}",
            aborted.text
        );
        assert_eq!(aborted.body["error"]["code"], "event_game");
        // Round 1: Black resigns; round 2: a draw agreed; round 3: White resigns.
        match round {
            1 => resign(&server, &game_id, &black.token).await,
            2 => {
                for team in [white, black] {
                    let offered = server
                        .post(
                            &format!("/api/games/{game_id}/draw"),
                            Some(&team.token),
                            json!({}),
                        )
                        .await;
                    assert_eq!(offered.status, 200, "{}", offered.text);
                }
            }
            _ => resign(&server, &game_id, &white.token).await,
        }
        let result = line_of(&mut stream, "result").await;
        let expected = ["white", "draw", "black"][round - 1];
        assert_eq!(result["pairing"]["result"], expected);
        assert_eq!(result["round"], round);
        let standings = line_of(&mut stream, "standings").await;
        assert!(
            standings["standings"]
                .as_array()
                .is_some_and(|lines| lines.len() == 3)
        );
        if round < 3 {
            let next = post_as(&server, &ada, &format!("/api/events/{id}/rounds"), None).await;
            assert_eq!(next.status, 200, "{}", next.text);
            assert_eq!(
                next.body["rounds"].as_array().map(Vec::len),
                Some(round + 1)
            );
            let paired = line_of(&mut stream, "round").await;
            assert_eq!(paired["round"]["number"], round + 1);
        }
    }
    assert_eq!(byes.len(), 3, "each team had one bye");
    let finished = event(&server, &id).await;
    assert_eq!(finished["status"], "finished");
    let total: f64 = points(&finished).iter().map(|(_, points)| points).sum();
    assert!(
        (total - 6.0).abs() < 1e-9,
        "3 games and 3 byes make 6 points: {total}"
    );
    let more = post_as(&server, &ada, &format!("/api/events/{id}/rounds"), None).await;
    assert_eq!(more.status, 409);
    assert_eq!(more.body["error"]["code"], "event_over");
    let csv = server
        .get(&format!("/api/events/{id}/standings.csv"), None)
        .await;
    assert_eq!(csv.status, 200);
    let rows: Vec<&str> = csv.text.lines().collect();
    assert_eq!(rows[0], "rank,team,points,tiebreak,played");
    assert_eq!(rows.len(), 4, "{}", csv.text);
    let best = &points(&finished)[0];
    let best_name = finished["teams"]
        .as_array()
        .expect("teams")
        .iter()
        .find(|team| team["id"] == best.0.as_str())
        .expect("a team")["name"]
        .as_str()
        .expect("a name")
        .to_owned();
    assert!(
        rows[1].starts_with(&format!("1,{best_name},{}", best.1)),
        "{}",
        rows[1]
    );
    for team in &teams {
        assert!(points_of(&finished, team) >= 1.0, "each had a bye at least");
    }
}

async fn resign(server: &Server, game: &str, token: &str) {
    let resigned = server
        .post(&format!("/api/games/{game}/resign"), Some(token), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
}

async fn a_swiss_event_pairs_winners_with_winners(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let id = organise(
        &server,
        &ada,
        json!({"name": "Swiss", "format": "swiss", "rounds": 2, "clock": {"initial_ms": 60_000}}),
    )
    .await;
    let mut teams = Vec::new();
    for name in ["A", "B", "C", "D"] {
        teams.push(add_team(&server, &ada, &id, name).await);
    }
    let started = post_as(&server, &ada, &format!("/api/events/{id}/start"), None).await;
    assert_eq!(started.status, 200, "{}", started.text);
    let round = started.body["rounds"][0]["pairings"]
        .as_array()
        .expect("pairings")
        .clone();
    assert_eq!(round.len(), 2, "4 teams: 2 boards, no bye");
    let mut winners = Vec::new();
    for pairing in &round {
        let white = teams
            .iter()
            .find(|t| pairing["white"] == t.id.as_str())
            .expect("white");
        let black = teams
            .iter()
            .find(|t| pairing["black"] == t.id.as_str())
            .expect("black");
        let (game, _) = ready(&server, &id, &[white, black]).await;
        resign(&server, &game, &black.token).await;
        winners.push(white.id.clone());
    }
    let next = post_as(&server, &ada, &format!("/api/events/{id}/rounds"), None).await;
    assert_eq!(next.status, 200, "{}", next.text);
    let second = next.body["rounds"][1]["pairings"]
        .as_array()
        .expect("pairings")
        .clone();
    let pair_of_winners = second.iter().any(|pairing| {
        let ids = [pairing["white"].as_str(), pairing["black"].as_str()];
        ids.iter()
            .all(|id| id.is_some_and(|id| winners.iter().any(|w| w == id)))
    });
    assert!(
        pair_of_winners,
        "the two winners meet in round 2: {second:?}"
    );
    trf_has_the_first_round(&server, &id, &teams, &round).await;
    for pairing in &second {
        let met_before = round.iter().any(|old| {
            (old["white"] == pairing["white"] && old["black"] == pairing["black"])
                || (old["white"] == pairing["black"] && old["black"] == pairing["white"])
        });
        assert!(!met_before, "no pair twice");
    }
}

/// `GET /api/events/{id}/trf` while round 2 is played: round 1 only (its boards have ended), each
/// team's line with its pairing number (the order it was added), opponent, colour and result
/// (White won every board by Black's resignation); an unknown event is 404, a bad id 400.
async fn trf_has_the_first_round(server: &Server, id: &str, teams: &[Team], round: &[Value]) {
    let report = server.get(&format!("/api/events/{id}/trf"), None).await;
    assert_eq!(report.status, 200, "{}", report.text);
    let lines: Vec<&str> = report.text.lines().collect();
    assert_eq!(
        lines[..3],
        ["012 Swiss", "XXR 2", "092 Swiss Dutch (FIDE C.04.3)"]
    );
    let number = |team: &Value| {
        1 + teams
            .iter()
            .position(|t| *team == t.id.as_str())
            .expect("a team of the event")
    };
    let players: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("001"))
        .collect();
    assert_eq!(players.len(), 4, "{}", report.text);
    for pairing in round {
        let (white, black) = (number(&pairing["white"]), number(&pairing["black"]));
        let line = |n: usize| players[n - 1];
        assert_eq!(line(white)[..8], format!("001 {white:>4}"));
        assert_eq!(
            line(white)[89..],
            format!("  {black:>4} w 1"),
            "{}",
            report.text
        );
        assert_eq!(
            line(black)[89..],
            format!("  {white:>4} b 0"),
            "{}",
            report.text
        );
        assert_eq!(&line(white)[80..84], " 1.0");
    }
    let mut unknown = id.to_owned();
    let last = if unknown.ends_with('0') { "1" } else { "0" };
    unknown.replace_range(31.., last);
    let missing = server
        .get(&format!("/api/events/{unknown}/trf"), None)
        .await;
    assert_eq!(missing.status, 404, "{}", missing.text);
    let bad = server.get("/api/events/nope/trf", None).await;
    assert_eq!(bad.status, 400, "{}", bad.text);
}

async fn a_round_starts_by_itself_when_the_teams_do_not(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let id = organise(
        &server,
        &ada,
        json!({"name": "Sleepy", "format": "round_robin", "clock": {"initial_ms": 60_000}}),
    )
    .await;
    let red = add_team(&server, &ada, &id, "Red").await;
    add_team(&server, &ada, &id, "Blue").await;
    post_as(&server, &ada, &format!("/api/events/{id}/start"), None).await;
    let game = server
        .get(&format!("/api/events/{id}/game"), Some(&red.token))
        .await;
    let game = game.body["game"].as_str().expect("a game").to_owned();
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let shown = server.get(&format!("/api/games/{game}"), None).await;
        if shown.body["status"] == "in_progress" {
            assert!(
                shown.body["clocks"]["running"] == "white",
                "White's clock runs at once"
            );
            break;
        }
        assert_eq!(shown.body["status"], "setup");
        assert!(Instant::now() < until, "the game did not start by itself");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn a_game_lost_on_time_counts_at_once(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let id = organise(
        &server,
        &ada,
        json!({"name": "Blitz", "format": "round_robin", "clock": {"initial_ms": 1_500}}),
    )
    .await;
    let red = add_team(&server, &ada, &id, "Red").await;
    let blue = add_team(&server, &ada, &id, "Blue").await;
    let mut stream = server
        .stream_at(&format!("/api/events/{id}/stream"), None)
        .await;
    stream.next().await.expect("the first line");
    post_as(&server, &ada, &format!("/api/events/{id}/start"), None).await;
    ready(&server, &id, &[&red, &blue]).await;
    // Nobody moves: White's clock (no first-move timer in an event) runs out.
    let result = line_of(&mut stream, "result").await;
    assert_eq!(result["pairing"]["result"], "black", "White lost on time");
    let view = event(&server, &id).await;
    assert_eq!(view["status"], "finished");
    let white = view["rounds"][0]["pairings"][0]["white"]
        .as_str()
        .expect("a team")
        .to_owned();
    let loser = if white == red.id { &red } else { &blue };
    assert_eq!(points_of(&view, loser), 0.0);
}

async fn refusals_are_clear_and_change_nothing(server: Server) {
    let anonymous = server
        .post(
            "/api/events",
            None,
            json!({"name": "x", "format": "swiss", "rounds": 3, "clock": {"initial_ms": 1000}}),
        )
        .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
    let ada = sign_up(&server, "ada").await;
    let bob = sign_up(&server, "bob").await;
    let clock = json!({"initial_ms": 60_000});
    for (body, code) in [
        (
            json!({"name": "", "format": "round_robin", "clock": clock}),
            "bad_event",
        ),
        (
            json!({"name": "x".repeat(81), "format": "round_robin", "clock": clock}),
            "bad_event",
        ),
        (
            json!({"name": "s", "format": "swiss", "clock": clock}),
            "bad_event",
        ),
        (
            json!({"name": "s", "format": "swiss", "rounds": 21, "clock": clock}),
            "bad_event",
        ),
        (
            json!({"name": "s", "format": "round_robin", "rounds": 3, "clock": clock}),
            "bad_event",
        ),
    ] {
        let refused = call(
            &server,
            &ada,
            Method::POST,
            "/api/events",
            None,
            Some(body.clone()),
        )
        .await;
        assert_eq!(refused.status, 422, "{body}: {}", refused.text);
        assert_eq!(refused.body["error"]["code"], code, "{body}");
    }
    let unknown = call(
        &server,
        &ada,
        Method::POST,
        "/api/events",
        None,
        Some(json!({"name": "k", "format": "knockout", "clock": clock})),
    )
    .await;
    assert!(
        unknown.status == 400 || unknown.status == 422,
        "{}",
        unknown.text
    );
    let id = organise(
        &server,
        &ada,
        json!({"name": "Camp", "format": "round_robin", "clock": clock}),
    )
    .await;
    let theirs = post_as(
        &server,
        &bob,
        &format!("/api/events/{id}/teams"),
        Some(json!({"name": "Intruders"})),
    )
    .await;
    assert_eq!(
        theirs.status, 403,
        "only the organiser adds teams: {}",
        theirs.text
    );
    let red = add_team(&server, &ada, &id, "Red").await;
    let twin = post_as(
        &server,
        &ada,
        &format!("/api/events/{id}/teams"),
        Some(json!({"name": "RED"})),
    )
    .await;
    assert_eq!(twin.status, 409);
    assert_eq!(twin.body["error"]["code"], "team_name_taken");
    let long = post_as(
        &server,
        &ada,
        &format!("/api/events/{id}/teams"),
        Some(json!({"name": "y".repeat(41)})),
    )
    .await;
    assert_eq!(long.status, 422);
    assert_eq!(long.body["error"]["code"], "bad_team");
    let too_few = post_as(&server, &ada, &format!("/api/events/{id}/start"), None).await;
    assert_eq!(too_few.status, 409);
    assert_eq!(too_few.body["error"]["code"], "too_few_teams");
    let wrong_code = server
        .post(
            &format!("/api/events/{id}/join"),
            None,
            json!({"code": "not-the-code"}),
        )
        .await;
    assert_eq!(wrong_code.status, 401, "{}", wrong_code.text);
    let long_code = server
        .post(
            &format!("/api/events/{id}/join"),
            None,
            json!({"code": "x".repeat(65)}),
        )
        .await;
    assert_eq!(long_code.status, 422, "{}", long_code.text);
    assert_eq!(long_code.body["error"]["code"], "invalid_field");
    for (kings, why) in [
        (json!([]), "no king"),
        (json!(["e2"]), "not on the back rank"),
        (json!(["e1", "e1"]), "twice"),
    ] {
        let refused = server
            .put(
                &format!("/api/events/{id}/lineup"),
                Some(&red.token),
                json!({"preset": "default", "kings": kings}),
            )
            .await;
        assert_eq!(refused.status, 422, "{why}: {}", refused.text);
        assert_eq!(refused.body["error"]["code"], "bad_lineup", "{why}");
    }
    let missing = server
        .put(
            &format!("/api/events/{id}/lineup"),
            Some(&red.token),
            json!({"preset": "zzzzzz", "kings": ["e1"]}),
        )
        .await;
    assert_eq!(missing.status, 404, "{}", missing.text);
    let stranger = server
        .put(
            &format!("/api/events/{id}/lineup"),
            Some("0123456789abcdef0123456789abcdef"),
            json!({"preset": "default", "kings": ["e1"]}),
        )
        .await;
    assert!(
        stranger.status == 401 || stranger.status == 403,
        "{}",
        stranger.text
    );
    let before = event(&server, &id).await;
    add_team(&server, &ada, &id, "Blue").await;
    let started = post_as(&server, &ada, &format!("/api/events/{id}/start"), None).await;
    assert_eq!(started.status, 200);
    let late = post_as(
        &server,
        &ada,
        &format!("/api/events/{id}/teams"),
        Some(json!({"name": "Late"})),
    )
    .await;
    assert_eq!(late.status, 409);
    assert_eq!(late.body["error"]["code"], "registration_closed");
    let twice = post_as(&server, &ada, &format!("/api/events/{id}/start"), None).await;
    assert_eq!(twice.status, 409);
    assert_eq!(
        event(&server, &id).await["rounds"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(before["teams"].as_array().map(Vec::len), Some(1));
    let nothing = server
        .get("/api/events/00000000000000000000000000000000", None)
        .await;
    assert_eq!(nothing.status, 404);
    let garbled = server.get("/api/events/nope", None).await;
    assert_eq!(garbled.status, 400);
    for _ in 0..9 {
        organise(
            &server,
            &bob,
            json!({"name": "many", "format": "round_robin", "clock": clock}),
        )
        .await;
    }
    let eleventh = call(
        &server,
        &bob,
        Method::POST,
        "/api/events",
        None,
        Some(json!({"name": "many", "format": "round_robin", "clock": clock})),
    )
    .await;
    assert_eq!(eleventh.status, 201, "bob has 10 now");
    let over = call(
        &server,
        &bob,
        Method::POST,
        "/api/events",
        None,
        Some(json!({"name": "many", "format": "round_robin", "clock": clock})),
    )
    .await;
    assert_eq!(over.status, 409, "{}", over.text);
    assert_eq!(over.body["error"]["code"], "event_limit");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_two_processes_pair_once_and_see_each_others_results() {
    crate::common::two_on_postgres(|one, two| async move {
        let ada = sign_up(&one, "ada").await;
        let id = organise(
            &one,
            &ada,
            json!({"name": "Two", "format": "round_robin", "clock": {"initial_ms": 60_000}}),
        )
        .await;
        let red = add_team(&one, &ada, &id, "Red").await;
        let blue = add_team(&one, &ada, &id, "Blue").await;
        let mut stream = two
            .stream_at(&format!("/api/events/{id}/stream"), None)
            .await;
        stream.next().await.expect("the first line");
        let path = format!("/api/events/{id}/start");
        let (first, second): (Answer, Answer) = tokio::join!(
            call(&one, &ada, Method::POST, &path, None, None),
            call(&two, &ada, Method::POST, &path, None, None),
        );
        let statuses = [first.status, second.status];
        assert!(statuses.contains(&200), "{statuses:?}");
        assert!(
            statuses
                .iter()
                .all(|status| *status == 200 || *status == 409),
            "{statuses:?}"
        );
        let view = event(&two, &id).await;
        assert_eq!(
            view["rounds"].as_array().map(Vec::len),
            Some(1),
            "paired once"
        );
        assert_eq!(
            view["rounds"][0]["pairings"].as_array().map(Vec::len),
            Some(1)
        );
        let paired = line_of(&mut stream, "round").await;
        assert_eq!(
            paired["round"]["number"], 1,
            "the other process's stream heard the pairing"
        );
        let (game, _) = ready(&one, &id, &[&red, &blue]).await;
        let loser = if view["rounds"][0]["pairings"][0]["white"] == red.id.as_str() {
            &blue
        } else {
            &red
        };
        let ended = Instant::now();
        resign(&one, &game, &loser.token).await;
        let result = line_of(&mut stream, "result").await;
        let standings = line_of(&mut stream, "standings").await;
        let took = ended.elapsed();
        assert_ne!(result["pairing"]["result"], "draw");
        assert_eq!(standings["standings"][0]["points"], 1.0);
        assert!(
            took < Duration::from_secs(5),
            "the standings reached the other process late: {took:?}"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_process_gone_mid_round_leaves_its_round_to_another() {
    crate::common::on_postgres(|one| async move {
        let (two, two_app) = another_server(&one.url).await;
        let ada = sign_up(&two, "ada").await;
        let id = organise(
            &two,
            &ada,
            json!({"name": "Crash", "format": "round_robin", "clock": {"initial_ms": 60_000}}),
        )
        .await;
        let red = add_team(&two, &ada, &id, "Red").await;
        let blue = add_team(&two, &ada, &id, "Blue").await;
        let mut stream = one
            .stream_at(&format!("/api/events/{id}/stream"), None)
            .await;
        stream.next().await.expect("the first line");
        let started = post_as(&two, &ada, &format!("/api/events/{id}/start"), None).await;
        assert_eq!(started.status, 200, "{}", started.text);
        two_app.shutdown().await.expect("the pairing process stops");
        // Nobody readies: the remaining process starts the game when it falls due.
        let game = one
            .get(&format!("/api/events/{id}/game"), Some(&red.token))
            .await;
        let game = game.body["game"].as_str().expect("a game").to_owned();
        let until = Instant::now() + Duration::from_secs(10);
        while one.get(&format!("/api/games/{game}"), None).await.body["status"] != "in_progress" {
            assert!(
                Instant::now() < until,
                "the game did not start on the other process"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        resign(&one, &game, &blue.token).await;
        let result = line_of(&mut stream, "result").await;
        assert!(result["pairing"]["result"] == "white" || result["pairing"]["result"] == "black");
        let finished = line_of(&mut stream, "status").await;
        assert_eq!(
            finished["status"], "finished",
            "a one-round event ends with its game"
        );
    })
    .await;
}

/// `GET /api/games/{id}/event`: an event's game names its event, round, board and each seat's
/// team (for anyone); a game of no event says `null`; an unknown game is not found.
async fn an_event_game_names_its_event_round_board_and_teams(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let clock = json!({"initial_ms": 300_000});
    let id = organise(
        &server,
        &ada,
        json!({"name": "Camp duels", "format": "round_robin", "clock": clock}),
    )
    .await;
    let orli = add_team(&server, &ada, &id, "Orli").await;
    let sokoly = add_team(&server, &ada, &id, "Sokoly").await;
    let started = post_as(&server, &ada, &format!("/api/events/{id}/start"), None).await;
    assert_eq!(started.status, 200, "{}", started.text);
    let game = server
        .get(&format!("/api/events/{id}/game"), Some(&orli.token))
        .await;
    assert_eq!(game.status, 200, "{}", game.text);
    let game_id = game.body["game"].as_str().expect("a game").to_owned();
    let seat = game.body["seat"].as_str().expect("a seat");
    let shown = server
        .get(&format!("/api/games/{game_id}/event"), None)
        .await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    let event = &shown.body["event"];
    assert_eq!(event["id"], id.as_str());
    assert_eq!(event["name"], "Camp duels");
    assert_eq!(
        (event["round"].clone(), event["board"].clone()),
        (json!(1), json!(1))
    );
    let (ours, theirs) = if seat == "white" {
        ("white", "black")
    } else {
        ("black", "white")
    };
    assert_eq!(event["teams"][ours], json!({"id": orli.id, "name": "Orli"}));
    assert_eq!(
        event["teams"][theirs],
        json!({"id": sokoly.id, "name": "Sokoly"})
    );

    let (plain, _, _, _) = crate::new_game(&server, json!({})).await;
    let none = server.get(&format!("/api/games/{plain}/event"), None).await;
    assert_eq!(none.status, 200, "{}", none.text);
    assert_eq!(none.body, json!({"event": null}));
    let unknown = server
        .get(&format!("/api/games/{}/event", "0".repeat(32)), None)
        .await;
    assert_eq!(unknown.status, 404, "{}", unknown.text);
}

/// Issue 37: a join code in capitals, or in groups with spaces and dashes as people read it
/// aloud, joins the same team with the same token; a code with any other character is `422`
/// naming the field, and joins nothing.
async fn a_join_code_is_read_as_people_type_it(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let clock = json!({"initial_ms": 60_000});
    let id = organise(
        &server,
        &ada,
        json!({"name": "Camp", "format": "round_robin", "clock": clock}),
    )
    .await;
    let path = format!("/api/events/{id}/teams");
    let added = post_as(&server, &ada, &path, Some(json!({"name": "Orli"}))).await;
    assert_eq!(added.status, 201, "{}", added.text);
    let code = added.body["code"].as_str().expect("a code").to_owned();
    let join = |code: String| {
        let server = &server;
        let path = format!("/api/events/{id}/join");
        async move { server.post(&path, None, json!({ "code": code })).await }
    };
    let plain = join(code.clone()).await;
    assert_eq!(plain.status, 200, "{}", plain.text);
    let grouped = |sep: &str| {
        let upper = code.to_uppercase();
        let (a, rest) = upper.split_at(4);
        let (b, c) = rest.split_at(4);
        format!(" {a}{sep}{b}{sep}{c} ")
    };
    for typed in [
        code.to_uppercase(),
        grouped("-"),
        grouped(" "),
        grouped(" - "),
    ] {
        let joined = join(typed.clone()).await;
        assert_eq!(joined.status, 200, "{typed:?}: {}", joined.text);
        assert_eq!(joined.body["team"], added.body["id"], "{typed:?}");
        assert_eq!(joined.body["token"], plain.body["token"], "{typed:?}");
    }
    for garbage in [
        format!("{code}!"),
        "ab_cdefghjkm".to_owned(),
        " - ".to_owned(),
    ] {
        let refused = join(garbage.clone()).await;
        assert_eq!(refused.status, 422, "{garbage:?}: {}", refused.text);
        assert_eq!(
            refused.body["error"]["code"], "invalid_field",
            "{garbage:?}"
        );
        let message = refused.body["error"]["message"].as_str().unwrap_or("");
        assert!(message.starts_with("`code`:"), "{message}");
    }
    let wrong = join("ABCD-EFGH-JKMN".to_owned()).await;
    assert_eq!(
        wrong.status, 401,
        "a well-typed code of no team: {}",
        wrong.text
    );
    assert_eq!(wrong.body["error"]["code"], "bad_credentials");
}
