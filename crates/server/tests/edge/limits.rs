//! Finding 9, rate limits: creation routes share a per-client budget a minute; beyond it `429`
//! with `Retry-After` and a JSON error, and nothing is created. `X-Forwarded-For` is believed
//! only from a trusted proxy.

use crate::common::Server;
use gmo_server::Settings;
use serde_json::{Value, json};

both_with!(
    super::five_a_minute;
    creations_beyond_the_budget_get_429_with_retry_after,
);

fn five_a_minute(settings: &mut Settings) {
    settings.rate_limit = 5;
}

async fn creations_beyond_the_budget_get_429_with_retry_after(server: Server) {
    let creations: [(&str, Value); 4] = [
        ("/api/games", json!({})),
        ("/api/labs", json!({})),
        ("/api/genomes", json!({"dna": gmo_genome::standard::ROOK})),
        (
            "/api/presets",
            json!({"genomes": ["rook", "knight", "bishop", "king"]}),
        ),
    ];
    // The four routes share one budget of 5: the sixth creation is refused, whatever the route.
    for (path, body) in creations.iter().chain(&creations[..1]) {
        let answer = server.post(path, None, body.clone()).await;
        assert!(
            matches!(answer.status, 200 | 201),
            "{path}: {}",
            answer.text
        );
    }
    for (path, body) in &creations {
        let response = server
            .client
            .post(format!("{}{path}", server.base))
            .json(body)
            .send()
            .await
            .expect("an answer");
        assert_eq!(response.status().as_u16(), 429, "{path}");
        let retry: u64 = response.headers()["retry-after"]
            .to_str()
            .expect("ascii")
            .parse()
            .expect("whole seconds");
        assert!((1..=60).contains(&retry), "Retry-After: {retry}");
        let body: Value = response.json().await.expect("a JSON body");
        assert_eq!(body["error"]["code"], "rate_limited", "{body}");
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("5 creations"), "{message}");
    }
    // Reading is not limited, and the refused creations created nothing.
    assert_eq!(server.get("/api/genomes/rook", None).await.status, 200);
    let metrics = server.get("/metrics", None).await.text;
    assert!(metrics.contains("gmo_games_created_total 2"), "{metrics}");
    // A client cannot pick another address by saying so: no proxy is trusted here.
    let spoofed = server
        .client
        .post(format!("{}/api/labs", server.base))
        .header("x-forwarded-for", "203.0.113.9")
        .json(&json!({}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(spoofed.status().as_u16(), 429);
    assert_eq!(server.app.clients.len(), 1);
}

/// The document types the 429 of every creation route (with `Retry-After`) and the 405.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_types_429_and_405() {
    crate::common::on_sqlite(document_types_429_and_405).await;
}

async fn document_types_429_and_405(server: Server) {
    let document = server.get("/api/openapi.json", None).await.body;
    for path in ["/api/games", "/api/labs", "/api/genomes", "/api/presets"] {
        let answer = &document["paths"][path]["post"]["responses"]["429"];
        assert_eq!(
            answer["$ref"], "#/components/responses/TooManyRequests",
            "{path}"
        );
    }
    let responses = &document["components"]["responses"];
    let limited = &responses["TooManyRequests"];
    assert!(limited["headers"]["Retry-After"].is_object(), "{limited}");
    let body = &limited["content"]["application/json"]["schema"]["$ref"];
    assert_eq!(body, "#/components/schemas/ErrorBody");
    let wrong_method = &responses["MethodNotAllowed"]["content"]["application/json"]["schema"];
    assert_eq!(wrong_method["$ref"], "#/components/schemas/ErrorBody");
}
