//! Finding 1 and the smaller ones of finding 10: every id, code and name is checked before any
//! query (a NUL byte made PostgreSQL answer 500), bodies of the wrong shape say so, and a 405
//! has a JSON body and `Allow`.

use crate::common::{Answer, Server};
use crate::{new_game, set_up};
use reqwest::Method;
use serde_json::json;

both!(
    ids_and_references_are_checked_before_any_query,
    bodies_of_the_wrong_shape_name_what_is_wrong,
    a_wrong_method_gets_a_json_error_and_allow,
);

/// A refusal: the status, the JSON error body, and a message naming `what`.
fn refused(answer: &Answer, status: u16, code: &str, what: &str) {
    assert_eq!(answer.status, status, "{}", answer.text);
    assert_eq!(answer.body["error"]["code"], code, "{}", answer.text);
    let message = answer.body["error"]["message"].as_str().expect("a message");
    assert!(message.contains(what), "{what:?} not in {message:?}");
}

async fn new_lab(server: &Server) -> (String, String) {
    let lab = server.post("/api/labs", None, json!({})).await;
    assert_eq!(lab.status, 201, "{}", lab.text);
    let field = |name: &str| lab.body[name].as_str().expect(name).to_owned();
    (field("id"), field("token"))
}

async fn ids_and_references_are_checked_before_any_query(server: Server) {
    let (game, white, _, _) = new_game(&server, json!({})).await;
    let (lab, token) = new_lab(&server).await;
    for (path, what) in [
        ("/api/genomes/a%00b", "a genome is named by"),
        ("/api/presets/x%00", "a preset is named by"),
        ("/api/games/%00/stream", "a game id is 32 hex digits"),
        ("/api/games/%00", "a game id is 32 hex digits"),
        ("/api/games/nosuch/record", "a game id is 32 hex digits"),
        ("/api/genomes/%E2%82%AC", "a genome is named by"),
    ] {
        refused(&server.get(path, None).await, 400, "bad_path", what);
    }
    let labs = server.get("/api/labs/x%00y", Some(&token)).await;
    refused(&labs, 400, "bad_path", "a lab id is 32 hex digits");
    let long = format!("/api/genomes/{}", "a".repeat(5_000));
    refused(&server.get(&long, None).await, 400, "bad_path", "…");

    // References inside JSON bodies: 422 naming the field.
    let preset = server
        .put(
            &format!("/api/games/{game}/preset"),
            Some(&white),
            json!({"preset": "x\u{0}"}),
        )
        .await;
    refused(
        &preset,
        422,
        "invalid_field",
        "`preset`: a preset is named by",
    );
    let stored = server
        .post(
            "/api/presets",
            None,
            json!({"genomes": ["rook", "x\u{0}", "rook", "rook"]}),
        )
        .await;
    refused(
        &stored,
        422,
        "invalid_field",
        "`genomes[1]`: a genome is named by",
    );
    let placed = server
        .put(
            &format!("/api/labs/{lab}/squares/a1"),
            Some(&token),
            json!({"genome": "x\u{0}", "color": "white"}),
        )
        .await;
    refused(&placed, 422, "invalid_field", "`genome`");
    let loaded = server
        .post(
            &format!("/api/labs/{lab}/preset"),
            Some(&token),
            json!({"preset": "x\u{0}", "color": "white"}),
        )
        .await;
    refused(&loaded, 422, "invalid_field", "`preset`");

    // Well-formed but unknown is still 404, and a good reference still works, in any case.
    let unknown = gmo_store::new_id();
    refused(
        &server.get(&format!("/api/games/{unknown}"), None).await,
        404,
        "not_found",
        "game",
    );
    refused(
        &server.get("/api/genomes/zzzzzz", None).await,
        404,
        "not_found",
        "genome",
    );
    assert_eq!(server.get("/api/genomes/Rook", None).await.status, 200);
    set_up(&server, &game, &white, "default", "d1").await;
}

async fn bodies_of_the_wrong_shape_name_what_is_wrong(server: Server) {
    let array = server.raw(Method::POST, "/api/labs", None, "[4,5]").await;
    refused(
        &array,
        422,
        "invalid_field",
        "must be a JSON object, not an array",
    );
    let (lab, token) = new_lab(&server).await;
    let color = server
        .raw(
            Method::PUT,
            &format!("/api/labs/{lab}/squares/a1"),
            Some(&token),
            r#"{"genome": "rook", "color": 5}"#,
        )
        .await;
    refused(&color, 422, "invalid_field", "`color`");
    let syntax = server
        .raw(Method::POST, "/api/labs", None, r#"{"width": "#)
        .await;
    refused(&syntax, 400, "malformed_json", "not valid JSON");
    let shown = server.get(&format!("/api/labs/{lab}"), Some(&token)).await;
    assert_eq!(shown.status, 200);
    let pieces = shown.body["board"].as_array().expect("a board").len();
    assert_eq!(
        pieces, 0,
        "the refused placement placed nothing: {}",
        shown.text
    );
}

async fn a_wrong_method_gets_a_json_error_and_allow(server: Server) {
    let response = server
        .client
        .delete(format!("{}/api/genomes", server.base))
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status().as_u16(), 405);
    let allow = response
        .headers()
        .get("allow")
        .map(|v| v.to_str().unwrap_or("").to_owned());
    assert_eq!(allow.as_deref(), Some("POST"));
    let text = response.text().await.expect("a body");
    let body: serde_json::Value = serde_json::from_str(&text).expect("a JSON body");
    assert_eq!(body["error"]["code"], "method_not_allowed", "{text}");
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("DELETE"), "{message}");
}
