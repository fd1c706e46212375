//! The database stops answering (a restart, a network cut): requests that need it are `503
//! unavailable` within the request timeout, nothing hangs or panics, and once it answers again
//! play goes on without a restart of the server.

use crate::common::another_server;
use serde_json::json;
use std::time::Duration;
use tokio::io::copy_bidirectional;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// A TCP relay between the server and PostgreSQL that can be cut: cut, it drops every relayed
/// connection and closes each new one at once (as a database that went away).
struct Relay {
    url: String,
    up: watch::Sender<bool>,
}

impl Relay {
    async fn start(url: &str) -> Relay {
        let (scheme, rest) = url.split_once("://").expect("a URL");
        let (authority, path) = rest.split_once('/').expect("a database name");
        let (user, target) = authority.rsplit_once('@').unwrap_or(("", authority));
        let target = if target.contains(':') {
            target.to_owned()
        } else {
            format!("{target}:5432")
        };
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let port = listener.local_addr().expect("an address").port();
        let (up, watching) = watch::channel(true);
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let mut up = watching.clone();
                if !*up.borrow() {
                    continue;
                }
                let target = target.clone();
                tokio::spawn(async move {
                    let Ok(mut database) = TcpStream::connect(&target).await else {
                        return;
                    };
                    tokio::select! {
                        _ = copy_bidirectional(&mut client, &mut database) => {}
                        _ = up.wait_for(|up| !*up) => {}
                    }
                });
            }
        });
        let at = if user.is_empty() { "" } else { "@" };
        Relay {
            url: format!("{scheme}://{user}{at}127.0.0.1:{port}/{path}"),
            up,
        }
    }

    fn set(&self, up: bool) {
        self.up.send_replace(up);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_database_that_does_not_answer_is_503_then_play_goes_on() {
    gmo_store::scratch::with_scratch_database("gmo_server_test", |url| async move {
        let relay = Relay::start(&url).await;
        let (server, app) = another_server(&relay.url).await;
        let (id, white, black) = crate::lichess::started(&server, json!({})).await;
        let game = format!("/api/games/{id}");
        let moves = format!("{game}/moves");
        let moved = server
            .post(&moves, Some(&white), json!({"from": "a2", "to": "a3"}))
            .await;
        assert_eq!(moved.status, 200, "{}", moved.text);

        relay.set(false);
        let read = server.get(&game, None).await;
        assert_eq!(read.status, 503, "{}", read.text);
        assert_eq!(read.body["error"]["code"], "unavailable", "{}", read.text);
        let created = server.post("/api/games", None, json!({})).await;
        assert_eq!(created.status, 503, "{}", created.text);
        let refused = server
            .post(&moves, Some(&black), json!({"from": "a7", "to": "a6"}))
            .await;
        assert_eq!(refused.status, 503, "{}", refused.text);

        relay.set(true);
        // Connections idle for a second are tested before use, so none of the dead ones is used.
        tokio::time::sleep(Duration::from_millis(1_200)).await;
        let read = server.get(&game, None).await;
        assert_eq!(read.status, 200, "{}", read.text);
        assert_eq!(
            read.body["moves_played"], 1,
            "the move refused while away did not count"
        );
        let moved = server
            .post(&moves, Some(&black), json!({"from": "a7", "to": "a6"}))
            .await;
        assert_eq!(moved.status, 200, "{}", moved.text);
        let created = server.post("/api/games", None, json!({})).await;
        assert_eq!(created.status, 201, "{}", created.text);
        app.shutdown().await.expect("the server stops");
    })
    .await;
}
