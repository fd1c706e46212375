//! On a discovery server the piece library answers `403 discovery` on every route: its
//! entries' features, values and diagrams would give the genome language away.

use crate::common::Server;
use crate::ratings::{call, sign_up};
use gmo_types::EntryId;
use reqwest::Method;
use serde_json::json;

fn discovery(settings: &mut gmo_server::Settings) {
    settings.play.discovery = true;
}

both_with!(super::discovery; every_library_route_answers_403_discovery);

async fn every_library_route_answers_403_discovery(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let entry = format!("/api/library/{}", EntryId::from_bits(1));
    let star = format!("{entry}/star");
    let publish = json!({"kind": "genome", "code": "rook", "name": "Rooky"});
    let routes = [
        (Method::POST, "/api/library".to_owned(), Some(publish)),
        (Method::GET, "/api/library".to_owned(), None),
        (Method::GET, "/api/library?q=rook".to_owned(), None),
        (Method::GET, entry.clone(), None),
        (Method::PATCH, entry.clone(), Some(json!({"name": "Other"}))),
        (Method::DELETE, entry, None),
        (Method::PUT, star.clone(), None),
        (Method::DELETE, star, None),
    ];
    for (method, path, body) in routes {
        for signed in [true, false] {
            let answer = if signed {
                call(&server, &ada, method.clone(), &path, None, body.clone()).await
            } else {
                server.call(method.clone(), &path, None, body.clone()).await
            };
            assert_eq!(answer.status, 403, "{method} {path}: {}", answer.text);
            assert_eq!(answer.body["error"]["code"], "discovery", "{method} {path}");
        }
    }
    // Nothing was published behind the refusal.
    let everything = gmo_play::library::entries::Search {
        kind: None,
        query: String::new(),
        sort: gmo_store::EntrySort::New,
        value_min: None,
        value_max: None,
        author: None,
        does: 0,
        page: 1,
    };
    let entries = server.app.play.entries.search(&everything).await;
    assert!(entries.expect("a search").0.is_empty());
}
