//! Issue 33, agents online, over HTTP on both backends: bot accounts, challenges, the event
//! stream (across two processes on PostgreSQL) and the bots online.

use crate::common::{Lines, Server};
use crate::ratings::{Player, call, sign_up};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

both!(
    an_account_becomes_a_bot_and_plays_only_through_bot_tokens,
    a_challenge_is_declined_canceled_accepted_and_streamed_to_both,
    bad_challenges_are_refused_naming_the_field_and_change_nothing,
    an_account_with_rated_games_cannot_become_a_bot,
    an_account_plays_a_bounded_number_of_games_from_challenges,
);

/// A signed-up account with one personal token.
struct Account {
    player: Player,
    token: String,
}

/// Signs `name` up; a bot (`bot`) gets a `bot` token, a person a `play` token.
async fn account(server: &Server, name: &'static str, bot: bool) -> Account {
    let player = sign_up(server, name).await;
    if bot {
        let made = call(
            server,
            &player,
            Method::POST,
            "/api/account/bot",
            None,
            None,
        )
        .await;
        assert_eq!(made.status, 200, "{}", made.text);
        assert_eq!(made.body["bot"], true, "{}", made.text);
    }
    let scope = if bot { "bot" } else { "play" };
    let body = json!({"description": "agent", "scopes": [scope]});
    let path = "/api/account/tokens";
    let made = call(server, &player, Method::POST, path, None, Some(body)).await;
    assert_eq!(made.status, 201, "{}", made.text);
    let token = made.body["token"].as_str().expect("a token").to_owned();
    Account { player, token }
}

fn clock(initial_ms: i64) -> Value {
    json!({"clock": {"initial_ms": initial_ms}})
}

/// `from` challenges `to` with `body` → the answer.
async fn challenge(
    server: &Server,
    from: &Account,
    to: &str,
    body: Value,
) -> crate::common::Answer {
    let path = format!("/api/challenges/{to}");
    server.post(&path, Some(&from.token), body).await
}

/// The next line of `lines` that is not of a type in `skip`.
async fn next(lines: &mut Lines) -> Value {
    lines
        .next_within(Duration::from_secs(10))
        .await
        .expect("a line")
        .0
}

async fn an_account_becomes_a_bot_and_plays_only_through_bot_tokens(server: Server) {
    let botty = account(&server, "botty", true).await;
    // Becoming a bot again changes nothing.
    let again = call(
        &server,
        &botty.player,
        Method::POST,
        "/api/account/bot",
        None,
        None,
    )
    .await;
    assert_eq!(
        (again.status, again.body["bot"].clone()),
        (200, json!(true))
    );
    let profile = server.get("/api/users/botty", None).await;
    assert_eq!(profile.body["bot"], true, "{}", profile.text);
    // A bot's tokens have the `bot` scope, and only a bot's.
    let play = json!({"description": "x", "scopes": ["play"]});
    let path = "/api/account/tokens";
    let refused = call(&server, &botty.player, Method::POST, path, None, Some(play)).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "bad_scopes");
    let ada = account(&server, "ada", false).await;
    let bot_scope = json!({"description": "x", "scopes": ["bot"]});
    let refused = call(
        &server,
        &ada.player,
        Method::POST,
        path,
        None,
        Some(bot_scope),
    )
    .await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    // A bot stays out of the lobby, with its session or its token.
    let seek = clock(60_000);
    let seek = json!({"clock": seek["clock"]});
    let by_session = call(
        &server,
        &botty.player,
        Method::POST,
        "/api/seeks",
        None,
        Some(seek.clone()),
    )
    .await;
    assert_eq!(by_session.status, 403, "{}", by_session.text);
    let by_token = server.post("/api/seeks", Some(&botty.token), seek).await;
    assert_eq!(by_token.status, 403, "{}", by_token.text);
    // Its session cannot challenge: only its `bot` token can.
    let by_session = call(
        &server,
        &botty.player,
        Method::POST,
        "/api/challenges/ada",
        None,
        Some(clock(60_000)),
    )
    .await;
    assert_eq!(by_session.status, 403, "{}", by_session.text);
    assert!(by_session.text.contains("bot"), "{}", by_session.text);
    let by_token = challenge(&server, &botty, "ada", clock(60_000)).await;
    assert_eq!(by_token.status, 201, "{}", by_token.text);
    assert_eq!(by_token.body["challenger"]["bot"], true);
    assert_eq!(by_token.body["challenged"]["bot"], false);
    // The event stream: a bot's `bot` token, a person's session; never a bot's session.
    let stream = |cookie: &str| {
        server
            .client
            .get(format!("{}/api/stream/event", server.base))
            .header("cookie", cookie.to_owned())
            .send()
    };
    let by_bot_session = stream(&botty.player.cookie).await.expect("an answer");
    assert_eq!(by_bot_session.status().as_u16(), 403);
    let by_person_session = stream(&ada.player.cookie).await.expect("an answer");
    assert_eq!(by_person_session.status().as_u16(), 200);
    drop(by_person_session);
    // The leaderboard is people's; the bots' is asked for by pool (nobody is established yet).
    let board = server.get("/api/leaderboard", None).await;
    assert!(!board.text.contains("botty"), "{}", board.text);
    let bots = server.get("/api/leaderboard?pool=bots", None).await;
    assert_eq!(
        (bots.status, bots.body.clone()),
        (200, json!([])),
        "{}",
        bots.text
    );
    let wrong = server.get("/api/leaderboard?pool=robots", None).await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(wrong.text.contains("pool"), "{}", wrong.text);
}

async fn a_challenge_is_declined_canceled_accepted_and_streamed_to_both(server: Server) {
    let ada = account(&server, "ada", false).await;
    let botty = account(&server, "botty", true).await;
    let bob = account(&server, "bob", false).await;
    let mut bot_lines = server
        .stream_at("/api/stream/event", Some(&botty.token))
        .await;
    let online = server.get("/api/bots/online", None).await;
    assert_eq!(online.body[0]["username"], "botty", "{}", online.text);
    assert_eq!(online.body[0]["rating"], 1500, "{}", online.text);
    // Declined, with a reason.
    let first = challenge(&server, &ada, "botty", clock(60_000)).await;
    assert_eq!(first.status, 201, "{}", first.text);
    assert_eq!(first.body["status"], "open");
    let id = first.body["id"].as_str().expect("an id").to_owned();
    let line = next(&mut bot_lines).await;
    assert_eq!(line["type"], "challenge", "{line}");
    assert_eq!(line["challenge"]["id"], id.as_str());
    assert_eq!(line["challenge"]["challenger"]["username"], "ada");
    let mut ada_lines = server
        .stream_at("/api/stream/event", Some(&ada.token))
        .await;
    let line = next(&mut ada_lines).await;
    assert_eq!(
        (line["type"].clone(), line["challenge"]["id"].clone()),
        (json!("challenge"), json!(id)),
        "the stream opens with the open challenges"
    );
    let path = format!("/api/challenges/{id}/decline");
    let by_challenger = server
        .post(&path, Some(&ada.token), json!({"reason": "later"}))
        .await;
    assert_eq!(by_challenger.status, 403, "{}", by_challenger.text);
    let declined = server
        .post(&path, Some(&botty.token), json!({"reason": "too_fast"}))
        .await;
    assert_eq!(declined.status, 204, "{}", declined.text);
    let line = next(&mut ada_lines).await;
    assert_eq!(line["type"], "challenge_declined", "{line}");
    assert_eq!(
        (line["id"].as_str(), line["reason"].as_str()),
        (Some(id.as_str()), Some("too_fast"))
    );
    // Both sides' streams follow the challenge, whoever changed it from where.
    assert_eq!(next(&mut bot_lines).await["type"], "challenge_declined");
    let late = server
        .post(
            &format!("/api/challenges/{id}/accept"),
            Some(&botty.token),
            json!({}),
        )
        .await;
    assert_eq!(late.status, 409, "{}", late.text);
    assert_eq!(late.body["error"]["code"], "challenge_closed");
    // Canceled by its challenger.
    let second = challenge(&server, &ada, "botty", clock(60_000)).await;
    let id = second.body["id"].as_str().expect("an id").to_owned();
    assert_eq!(next(&mut bot_lines).await["type"], "challenge");
    assert_eq!(next(&mut ada_lines).await["type"], "challenge");
    let cancel = format!("/api/challenges/{id}/cancel");
    let by_challenged = server.post(&cancel, Some(&botty.token), json!({})).await;
    assert_eq!(by_challenged.status, 403, "{}", by_challenged.text);
    let canceled = server.post(&cancel, Some(&ada.token), json!({})).await;
    assert_eq!(canceled.status, 204, "{}", canceled.text);
    let line = next(&mut bot_lines).await;
    assert_eq!(line["type"], "challenge_canceled", "{line}");
    assert_eq!(line["id"], id.as_str());
    assert_eq!(next(&mut ada_lines).await["type"], "challenge_canceled");
    // Accepted: both streams get their own seat and token.
    let body = json!({"clock": {"initial_ms": 120_000, "increment_ms": 1_000}, "color": "white"});
    let third = challenge(&server, &ada, "botty", body).await;
    let id = third.body["id"].as_str().expect("an id").to_owned();
    assert_eq!(next(&mut bot_lines).await["type"], "challenge");
    assert_eq!(next(&mut ada_lines).await["type"], "challenge");
    let accept = format!("/api/challenges/{id}/accept");
    let by_other = server.post(&accept, Some(&bob.token), json!({})).await;
    assert_eq!(by_other.status, 403, "{}", by_other.text);
    let accepted = server.post(&accept, Some(&botty.token), json!({})).await;
    assert_eq!(accepted.status, 200, "{}", accepted.text);
    assert_eq!(accepted.body["color"], "black");
    let game = accepted.body["game"].as_str().expect("a game").to_owned();
    let black = accepted.body["token"].as_str().expect("a token").to_owned();
    let line = next(&mut bot_lines).await;
    assert_eq!(line["type"], "game_start", "{line}");
    assert_eq!(
        line["game"],
        json!({"id": game, "color": "black", "token": black})
    );
    let line = next(&mut ada_lines).await;
    assert_eq!(line["type"], "game_start", "{line}");
    assert_eq!(
        (line["game"]["id"].as_str(), line["game"]["color"].as_str()),
        (Some(game.as_str()), Some("white"))
    );
    let white = line["game"]["token"].as_str().expect("a token").to_owned();
    let view = server
        .get(&format!("/api/games/{game}"), Some(&white))
        .await;
    assert_eq!(view.body["you"], "white", "{}", view.text);
    assert_eq!(view.body["players"]["black"]["username"], "botty");
    assert_eq!(view.body["players"]["black"]["bot"], true);
    assert_eq!(view.body["players"]["white"]["bot"], false);
    assert_eq!(view.body["clocks"]["increment_ms"], 1_000, "{}", view.text);
    // A stream opened now shows the game in progress.
    let mut again = server
        .stream_at("/api/stream/event", Some(&botty.token))
        .await;
    assert_eq!(next(&mut again).await["game"]["token"], black.as_str());
    drop(again);
    // The end reaches both streams.
    crate::set_up(&server, &game, &white, "default", "d1").await;
    crate::set_up(&server, &game, &black, "default", "d8").await;
    let resigned = server
        .post(
            &format!("/api/games/{game}/resign"),
            Some(&white),
            json!({}),
        )
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    for lines in [&mut bot_lines, &mut ada_lines] {
        let line = next(lines).await;
        assert_eq!(line["type"], "game_finish", "{line}");
        assert_eq!(line["game"]["id"], game.as_str());
        assert_eq!(line["game"]["status"], "black_won", "{line}");
        assert_eq!(line["game"]["reason"], "resigned", "{line}");
    }
}

async fn bad_challenges_are_refused_naming_the_field_and_change_nothing(server: Server) {
    let ada = account(&server, "ada", false).await;
    let botty = account(&server, "botty", true).await;
    let refused = |status: u16, answer: &crate::common::Answer, words: &[&str]| {
        assert_eq!(answer.status, status, "{}", answer.text);
        for word in words {
            assert!(answer.text.contains(word), "{word}: {}", answer.text);
        }
    };
    refused(
        422,
        &challenge(&server, &ada, "ada", clock(60_000)).await,
        &["own_challenge", "username"],
    );
    refused(
        404,
        &challenge(&server, &ada, "nobody", clock(60_000)).await,
        &["nobody"],
    );
    refused(
        422,
        &challenge(&server, &ada, "botty", json!({})).await,
        &["clock"],
    );
    refused(
        422,
        &challenge(&server, &ada, "botty", json!({"clock": {"initial_ms": 0}})).await,
        &[],
    );
    let bad = |extra: Value| {
        let mut body = clock(60_000);
        for (key, value) in extra.as_object().expect("an object") {
            body[key] = value.clone();
        }
        body
    };
    refused(
        422,
        &challenge(&server, &ada, "botty", bad(json!({"width": 3}))).await,
        &[],
    );
    refused(
        422,
        &challenge(&server, &ada, "botty", bad(json!({"color": "green"}))).await,
        &["color"],
    );
    refused(
        422,
        &challenge(&server, &ada, "botty", bad(json!({"rated": true}))).await,
        &["rated_pool", "rated"],
    );
    refused(
        404,
        &challenge(&server, &ada, "botty", bad(json!({"preset": "nosuch"}))).await,
        &["preset"],
    );
    refused(
        422,
        &challenge(&server, &ada, "botty", bad(json!({"extra": 1}))).await,
        &["extra"],
    );
    let bob = account(&server, "bob", false).await;
    let six = bad(json!({"rated": true, "width": 6, "height": 6}));
    refused(
        422,
        &challenge(&server, &ada, "bob", six).await,
        &["rated_board", "rated"],
    );
    let anonymous = server
        .post("/api/challenges/bob", None, clock(60_000))
        .await;
    refused(401, &anonymous, &[]);
    let unknown = format!("/api/challenges/{}/accept", "0".repeat(32));
    refused(
        404,
        &server.post(&unknown, Some(&bob.token), json!({})).await,
        &["challenge"],
    );
    // Nothing of the above was stored: Bob's stream opens empty, and the first real challenge
    // is the first line.
    let mut lines = server
        .stream_at("/api/stream/event", Some(&bob.token))
        .await;
    let made = challenge(&server, &ada, "bob", bad(json!({"preset": "default"}))).await;
    assert_eq!(made.status, 201, "{}", made.text);
    assert_eq!(made.body["preset"], "default");
    let line = next(&mut lines).await;
    assert_eq!(line["challenge"]["id"], made.body["id"], "{line}");
    let id = made.body["id"].as_str().expect("an id");
    let long = json!({"reason": "x".repeat(101)});
    let decline = format!("/api/challenges/{id}/decline");
    refused(
        422,
        &server.post(&decline, Some(&bob.token), long).await,
        &["reason"],
    );
    // At most 20 open challenges per account: the first was the 1st.
    for n in 2..=20 {
        let made = challenge(&server, &ada, "bob", clock(60_000)).await;
        assert_eq!(made.status, 201, "challenge {n}: {}", made.text);
    }
    refused(
        409,
        &challenge(&server, &ada, "bob", clock(60_000)).await,
        &["challenge_limit"],
    );
    // Declined without a body: the reason is `generic`, and there is room for one more.
    let declined = server
        .client
        .post(format!("{}{decline}", server.base))
        .bearer_auth(&bob.token)
        .send()
        .await
        .expect("an answer");
    assert_eq!(declined.status().as_u16(), 204);
    assert_eq!(
        challenge(&server, &ada, "bob", clock(60_000)).await.status,
        201
    );
    // At most 4 event streams per account.
    let mut open = Vec::new();
    for _ in 0..4 {
        open.push(
            server
                .stream_at("/api/stream/event", Some(&botty.token))
                .await,
        );
    }
    let fifth = server.get("/api/stream/event", Some(&botty.token)).await;
    refused(409, &fifth, &["too_many_streams"]);
    let challenges = &server.app.play.challenges;
    assert_eq!(
        challenges.bell().len(),
        2,
        "Bob's and Botty's streams hold a bell"
    );
    drop(open);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let answer = server
            .client
            .get(format!("{}/api/stream/event", server.base))
            .bearer_auth(&botty.token)
            .send()
            .await
            .expect("an answer");
        if answer.status().as_u16() == 200 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "closed streams free their place"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn an_account_with_rated_games_cannot_become_a_bot(server: Server) {
    let ada = account(&server, "ada", false).await;
    let bob = account(&server, "bob", false).await;
    let mut ada_lines = server
        .stream_at("/api/stream/event", Some(&ada.token))
        .await;
    let rated = json!({"clock": {"initial_ms": 60_000}, "rated": true, "color": "white"});
    let made = challenge(&server, &ada, "bob", rated).await;
    assert_eq!(made.status, 201, "{}", made.text);
    assert_eq!(next(&mut ada_lines).await["type"], "challenge");
    let id = made.body["id"].as_str().expect("an id");
    let accepted = server
        .post(
            &format!("/api/challenges/{id}/accept"),
            Some(&bob.token),
            json!({}),
        )
        .await;
    assert_eq!(accepted.status, 200, "{}", accepted.text);
    let game = accepted.body["game"].as_str().expect("a game");
    let black = accepted.body["token"].as_str().expect("a token");
    let start = next(&mut ada_lines).await;
    let white = start["game"]["token"].as_str().expect("a token");
    crate::set_up(&server, game, white, "default", "d1").await;
    crate::set_up(&server, game, black, "default", "d8").await;
    let resigned = server
        .post(&format!("/api/games/{game}/resign"), Some(black), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let view = server.get(&format!("/api/games/{game}"), None).await;
    assert_eq!(view.body["rated"], true, "{}", view.text);
    let refused = call(
        &server,
        &bob.player,
        Method::POST,
        "/api/account/bot",
        None,
        None,
    )
    .await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "rated_games_played");
    let shown = call(
        &server,
        &bob.player,
        Method::GET,
        "/api/account",
        None,
        None,
    )
    .await;
    assert_eq!(shown.body["bot"], false, "nothing changed: {}", shown.text);
}

/// At most 32 games from challenges at once per account: the 33rd accept is refused until one
/// of them ends.
async fn an_account_plays_a_bounded_number_of_games_from_challenges(server: Server) {
    let ada = account(&server, "ada", false).await;
    let bob = account(&server, "bob", false).await;
    let mut games = Vec::new();
    let accept = async || {
        let made = challenge(&server, &ada, "bob", clock(60_000)).await;
        assert_eq!(made.status, 201, "{}", made.text);
        let id = made.body["id"].as_str().expect("an id").to_owned();
        let path = format!("/api/challenges/{id}/accept");
        server.post(&path, Some(&bob.token), json!({})).await
    };
    for n in 1..=32 {
        let accepted = accept().await;
        assert_eq!(accepted.status, 200, "game {n}: {}", accepted.text);
        let game = accepted.body["game"].as_str().expect("a game").to_owned();
        let token = accepted.body["token"].as_str().expect("a token").to_owned();
        games.push((game, token));
    }
    let refused = accept().await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "too_many_games");
    let (game, token) = &games[0];
    let aborted = server
        .post(&format!("/api/games/{game}/abort"), Some(token), json!({}))
        .await;
    assert_eq!(aborted.status, 200, "{}", aborted.text);
    assert_eq!(accept().await.status, 200, "room again once a game ended");
}

/// A challenge made through one process reaches the challenged's event stream on another, and
/// the streams of one account are counted across both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_challenge_on_one_process_reaches_an_event_stream_on_another() {
    crate::common::two_on_postgres(|one, two| async move {
        let ada = account(&one, "ada", false).await;
        let botty = account(&one, "botty", true).await;
        let mut lines = two.stream_at("/api/stream/event", Some(&botty.token)).await;
        let asked = std::time::Instant::now();
        let made = challenge(&one, &ada, "botty", clock(60_000)).await;
        assert_eq!(made.status, 201, "{}", made.text);
        let line = next(&mut lines).await;
        eprintln!(
            "a challenge reached the other process's stream in {:?}",
            asked.elapsed()
        );
        assert_eq!(line["challenge"]["id"], made.body["id"], "{line}");
        let online = one.get("/api/bots/online", None).await;
        assert_eq!(online.body[0]["username"], "botty", "{}", online.text);
        let id = made.body["id"].as_str().expect("an id");
        let accepted = one
            .post(
                &format!("/api/challenges/{id}/accept"),
                Some(&botty.token),
                json!({}),
            )
            .await;
        assert_eq!(accepted.status, 200, "{}", accepted.text);
        let line = next(&mut lines).await;
        assert_eq!(line["type"], "game_start", "{line}");
        assert_eq!(line["game"]["token"], accepted.body["token"]);
        let _more = [
            one.stream_at("/api/stream/event", Some(&botty.token)).await,
            two.stream_at("/api/stream/event", Some(&botty.token)).await,
            one.stream_at("/api/stream/event", Some(&botty.token)).await,
        ];
        let fifth = two.get("/api/stream/event", Some(&botty.token)).await;
        assert_eq!(fifth.status, 409, "{}", fifth.text);
        assert_eq!(fifth.body["error"]["code"], "too_many_streams");
    })
    .await;
}

/// Unanswered challenges expire (here after 1.5 s), whichever process reads them.
mod expiry {
    use super::*;

    both_with!(
        super::quick_expiry;
        an_unanswered_challenge_expires_on_both_streams,
    );

    async fn an_unanswered_challenge_expires_on_both_streams(server: Server) {
        let ada = account(&server, "ada", false).await;
        let botty = account(&server, "botty", true).await;
        let mut bot_lines = server
            .stream_at("/api/stream/event", Some(&botty.token))
            .await;
        let made = challenge(&server, &ada, "botty", clock(60_000)).await;
        assert_eq!(made.status, 201, "{}", made.text);
        let id = made.body["id"].as_str().expect("an id");
        let mut ada_lines = server
            .stream_at("/api/stream/event", Some(&ada.token))
            .await;
        assert_eq!(next(&mut bot_lines).await["type"], "challenge");
        assert_eq!(next(&mut ada_lines).await["type"], "challenge");
        for lines in [&mut bot_lines, &mut ada_lines] {
            let line = next(lines).await;
            assert_eq!(line["type"], "challenge_canceled", "{line}");
            assert_eq!(
                (line["id"].as_str(), line["reason"].as_str()),
                (Some(id), Some("expired"))
            );
        }
        let accept = format!("/api/challenges/{id}/accept");
        let late = server.post(&accept, Some(&botty.token), json!({})).await;
        assert_eq!(late.status, 409, "{}", late.text);
        assert!(late.text.contains("expired"), "{}", late.text);
        let cancel = format!("/api/challenges/{id}/cancel");
        let late = server.post(&cancel, Some(&ada.token), json!({})).await;
        assert_eq!(late.status, 409, "{}", late.text);
    }
}

fn quick_expiry(settings: &mut gmo_server::Settings) {
    settings.play.challenge_expiry = Duration::from_millis(1_500);
}
