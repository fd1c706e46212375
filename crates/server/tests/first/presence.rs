//! Presence over HTTP, on a server where a player is away after 0.6 s without a stream and the
//! other may claim the victory 1.5 s later: "your opponent left" on the stream (`?presence=true`),
//! and the claim.

use crate::common::{Lines, Server};
use serde_json::{Value, json};
use std::time::Duration;

fn quick_absence(settings: &mut gmo_server::Settings) {
    settings.play.away_after = Duration::from_millis(600);
    settings.play.claim_after = Duration::from_millis(1_500);
}

both_with!(super::quick_absence;
    a_player_who_leaves_is_away_and_the_other_claims_the_victory,
    presence_lines_come_only_when_asked,
);

/// The next `presence` line of `stream` whose seats satisfy `wanted` (other lines skipped).
async fn presence_until(stream: &mut Lines, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let (line, _) = stream
            .next_within(Duration::from_secs(5))
            .await
            .expect("the stream goes on");
        if line["type"] == "presence" && wanted(&line["seats"]) {
            return line;
        }
    }
}

async fn claim(server: &Server, id: &str, token: &str) -> crate::common::Answer {
    server
        .post(&format!("/api/games/{id}/claim"), Some(token), json!({}))
        .await
}

async fn a_player_who_leaves_is_away_and_the_other_claims_the_victory(server: Server) {
    let (id, white, black) = crate::lichess::started(&server, json!({})).await;
    crate::play(&server, &id, &white, "d2", "d3").await;
    crate::play(&server, &id, &black, "d7", "d6").await;
    let path = format!("/api/games/{id}/stream?presence=true");
    let mut whites = server.stream_at(&path, Some(&white)).await;
    let mut blacks = server.stream_at(&path, Some(&black)).await;
    let both_here = presence_until(&mut blacks, |seats| {
        seats["white"]["present"] == true && seats["black"]["present"] == true
    })
    .await;
    assert_eq!(both_here["seats"]["white"]["away_since"], Value::Null);
    let refused = claim(&server, &id, &black).await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "opponent_present");
    // White closes its page: after a while it is away, and Black's stream says so.
    let _ = whites.next().await;
    drop(whites);
    let away = presence_until(&mut blacks, |seats| seats["white"]["present"] == false).await;
    let white_away = &away["seats"]["white"];
    assert!(white_away["away_since"].is_string(), "{away}");
    assert!(white_away["claimable_at"].is_string(), "{away}");
    assert_eq!(away["seats"]["black"]["present"], true);
    let early = claim(&server, &id, &black).await;
    if early.status == 409 {
        let message = early.body["error"]["message"].as_str().expect("a message");
        assert!(message.contains("wait"), "{message}");
        tokio::time::sleep(Duration::from_millis(1_600)).await;
    }
    let won = claim(&server, &id, &black).await;
    assert_eq!(won.status, 200, "{}", won.text);
    assert_eq!(
        (won.body["status"].clone(), won.body["reason"].clone()),
        (json!("black_won"), json!("abandoned"))
    );
    let mut ended = false;
    while let Some((line, _)) = blacks.next_within(Duration::from_secs(5)).await {
        ended |= line["type"] == "end";
    }
    assert!(ended, "Black's stream ends with the game");
    let record = server.get(&format!("/api/games/{id}/record"), None).await;
    assert_eq!(record.status, 200, "{}", record.text);
    crate::check_record_replays(&record.body);
    // A bot never leaves.
    let against_bot = server
        .post("/api/games", None, json!({"black": "bot:random"}))
        .await;
    let bot_game = against_bot.body["id"].as_str().expect("an id");
    let person = against_bot.body["seats"]["white"]["token"]
        .as_str()
        .expect("a token");
    let refused = claim(&server, bot_game, person).await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert!(refused.text.contains("bot"), "{}", refused.text);
}

async fn presence_lines_come_only_when_asked(server: Server) {
    let (id, white, _black) = crate::lichess::started(&server, json!({})).await;
    let bad = server
        .client
        .get(format!(
            "{}/api/games/{id}/stream?presence=maybe",
            server.base
        ))
        .send()
        .await
        .expect("an answer");
    assert_eq!(bad.status().as_u16(), 422);
    // A spectator who asks sees who is there: White (its stream open), not Black.
    let _whites = server
        .stream_at(
            &format!("/api/games/{id}/stream?presence=true"),
            Some(&white),
        )
        .await;
    let mut watcher = server
        .stream_at(&format!("/api/games/{id}/stream?presence=true"), None)
        .await;
    let seen = presence_until(&mut watcher, |seats| seats["white"]["present"] == true).await;
    assert_eq!(seen["seats"]["black"]["present"], false);
    // Black was never seen: away since the start, and claimable against from then on.
    assert!(seen["seats"]["black"]["away_since"].is_string(), "{seen}");
    assert!(seen["seats"]["black"]["claimable_at"].is_string(), "{seen}");
    // The default stream stays as it was: no presence lines.
    let mut plain = server.stream(&id, None).await;
    plain.next().await.expect("the first line");
    let none = tokio::time::timeout(Duration::from_millis(1_500), plain.next()).await;
    assert!(none.is_err(), "no line without a change: {none:?}");
}
