//! Finding 9, retention: the sweep deletes games never started and labs left alone for longer
//! than configured (here a second and three), and nothing else: games that started, finished
//! games and their records, and labs in use stay.

use crate::common::Server;
use crate::durable::eventually_async;
use crate::{new_game, play, set_up};
use gmo_server::Settings;
use serde_json::json;
use std::time::Duration;

both_with!(
    super::short_retention;
    unstarted_games_and_idle_labs_go_and_nothing_else,
);

fn short_retention(settings: &mut Settings) {
    settings.play.expire_unstarted_games_after = Duration::from_secs(1);
    settings.play.expire_idle_labs_after = Duration::from_secs(3);
    settings.play.retention_interval = Duration::from_millis(200);
}

async fn new_lab(server: &Server) -> (String, String) {
    let lab = server.post("/api/labs", None, json!({})).await;
    assert_eq!(lab.status, 201, "{}", lab.text);
    let field = |name: &str| lab.body[name].as_str().expect(name).to_owned();
    (field("id"), field("token"))
}

async fn unstarted_games_and_idle_labs_go_and_nothing_else(server: Server) {
    let (unstarted, unstarted_white, _, _) = new_game(&server, json!({})).await;
    set_up(&server, &unstarted, &unstarted_white, "default", "d1").await;
    let (playing, white, black, _) = new_game(&server, json!({})).await;
    set_up(&server, &playing, &white, "default", "d1").await;
    set_up(&server, &playing, &black, "default", "d8").await;
    let (finished, f_white, f_black, _) = new_game(&server, json!({})).await;
    set_up(&server, &finished, &f_white, "default", "d1").await;
    set_up(&server, &finished, &f_black, "default", "d8").await;
    play(&server, &finished, &f_white, "e2", "e3").await;
    let resigned = server
        .post(
            &format!("/api/games/{finished}/resign"),
            Some(&f_black),
            json!({}),
        )
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let (idle, idle_token) = new_lab(&server).await;
    let (used, used_token) = new_lab(&server).await;

    // The used lab is changed every half second while the sweep runs.
    let toucher = {
        let (client, base, used, token) = (
            server.client.clone(),
            server.base.clone(),
            used.clone(),
            used_token.clone(),
        );
        tokio::spawn(async move {
            for n in 0.. {
                let square = if n % 2 == 0 { "a1" } else { "b1" };
                let placed = client
                    .put(format!("{base}/api/labs/{used}/squares/{square}"))
                    .bearer_auth(&token)
                    .json(&json!({"genome": "rook", "color": "white"}))
                    .send()
                    .await
                    .expect("an answer");
                assert_eq!(placed.status().as_u16(), 200);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        })
    };
    let gone = |path: String, token: Option<String>| {
        let server = &server;
        move || {
            let (path, token) = (path.clone(), token.clone());
            async move { server.get(&path, token.as_deref()).await.status == 404 }
        }
    };
    let game_gone = gone(format!("/api/games/{unstarted}"), None);
    assert!(
        eventually_async(Duration::from_secs(8), game_gone).await,
        "the game never started is still there"
    );
    let lab_gone = gone(format!("/api/labs/{idle}"), Some(idle_token));
    assert!(
        eventually_async(Duration::from_secs(10), lab_gone).await,
        "the idle lab is still there"
    );
    let used_lab = server
        .get(&format!("/api/labs/{used}"), Some(&used_token))
        .await;
    toucher.abort();
    assert_eq!(
        used_lab.status, 200,
        "the lab in use went: {}",
        used_lab.text
    );
    for id in [&playing, &finished] {
        let game = server.get(&format!("/api/games/{id}"), None).await;
        assert_eq!(game.status, 200, "a started game went: {}", game.text);
    }
    let record = server
        .get(&format!("/api/games/{finished}/record"), None)
        .await;
    assert_eq!(record.status, 200, "{}", record.text);
    assert_eq!(record.body["plies"].as_array().map(Vec::len), Some(1));
    // The deleted game's token opens nothing any more, and asking is still an answer, not a 500.
    let after = server
        .put(
            &format!("/api/games/{unstarted}/preset"),
            Some(&unstarted_white),
            json!({"preset": "default"}),
        )
        .await;
    assert_eq!(after.status, 404, "{}", after.text);
}
