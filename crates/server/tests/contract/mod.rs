//! The OpenAPI document as a contract: its own invariants (unique operation ids, a schema for
//! every request and answer, patterns on every path parameter), and every answer of a scripted
//! game, lab and their errors validated against the schema the document gives for its operation
//! and status (JSON Schema 2020-12, formats checked).

use crate::common::{Answer, Server};
use gmo_engine::{BoardSize, Settings};
use jsonschema::Validator;
use reqwest::Method;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

both!(
    the_document_describes_every_operation_fully,
    every_answer_of_a_scripted_game_fits_the_document,
    every_answer_about_accounts_fits_the_document,
    the_document_says_what_the_server_accepts,
);

/// The document of a running server, and what has been checked against it.
pub(crate) struct Contract {
    document: Value,
    checked: BTreeSet<(String, String, u16)>,
}

impl Contract {
    pub(crate) async fn of(server: &Server) -> Contract {
        let answer = server.get("/api/openapi.json", None).await;
        assert_eq!(answer.status, 200);
        assert_eq!(answer.body["openapi"], "3.1.0");
        Contract {
            document: answer.body,
            checked: BTreeSet::new(),
        }
    }

    /// Follows a `$ref` inside the document.
    fn resolve<'a>(&'a self, value: &'a Value) -> &'a Value {
        match value["$ref"].as_str() {
            Some(pointer) => self
                .document
                .pointer(pointer.trim_start_matches('#'))
                .unwrap_or_else(|| panic!("{pointer} resolves")),
            None => value,
        }
    }

    /// The validator for the body of `status` from `method path` in `media` type.
    fn validator(&self, method: &Method, path: &str, status: u16, media: &str) -> Validator {
        let operation = &self.document["paths"][path][method.as_str().to_lowercase()];
        assert!(operation.is_object(), "{method} {path} is documented");
        let response = self.resolve(&operation["responses"][status.to_string()]);
        assert!(
            response.is_object(),
            "{method} {path} documents {status}: {operation}"
        );
        let schema = &response["content"][media]["schema"];
        assert!(
            schema.is_object(),
            "{method} {path} {status} has a {media} schema"
        );
        validator_in(&self.document, schema)
    }

    /// Checks an answer of `method path` (the documented path, with `{id}`) against its schema.
    pub(crate) fn check(&mut self, method: Method, path: &str, answer: &Answer) -> Value {
        let validator = self.validator(&method, path, answer.status, "application/json");
        if let Err(error) = validator.validate(&answer.body) {
            panic!(
                "{method} {path} {}: {error} at {}\n{}",
                answer.status,
                error.instance_path(),
                answer.text
            );
        }
        self.checked
            .insert((method.to_string(), path.to_owned(), answer.status));
        answer.body.clone()
    }

    /// Checks one NDJSON line of the game stream against the line schema.
    fn check_line(&mut self, line: &Value) {
        let path = "/api/games/{id}/stream";
        let validator = self.validator(&Method::GET, path, 200, "application/x-ndjson");
        if let Err(error) = validator.validate(line) {
            panic!("stream line: {error} at {}\n{line}", error.instance_path());
        }
        self.checked.insert(("GET".into(), path.into(), 200));
    }
}

/// A validator for `schema`, a part of `document` whose `$ref`s point into the document.
fn validator_in(document: &Value, schema: &Value) -> Validator {
    let mut root = Map::new();
    root.insert("allOf".into(), json!([schema]));
    root.insert("components".into(), document["components"].clone());
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&Value::Object(root))
        .unwrap_or_else(|error| panic!("the schema compiles: {error}\n{schema}"))
}

/// The schema of the JSON body `method path` takes.
fn request_schema<'a>(document: &'a Value, method: &str, path: &str) -> &'a Value {
    let schema =
        &document["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"];
    assert!(schema.is_object(), "{method} {path} takes a body");
    schema
}

/// The schema of parameter `name` of `method path`.
fn parameter_schema<'a>(document: &'a Value, method: &str, path: &str, name: &str) -> &'a Value {
    document["paths"][path][method]["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|parameter| parameter["name"] == name)
        .map(|parameter| &parameter["schema"])
        .unwrap_or_else(|| panic!("{method} {path} has {name}"))
}

/// Issue 36: the patterns, lengths and rules across fields that the server enforces are the
/// document's, for the operations schemathesis found mostly refusing what it generated: each
/// value below is judged by the document and by the server, and the two agree (a value the
/// document calls valid is not refused for its shape: 2xx, or 401/404 for a token or a code it
/// does not know; one it calls invalid is 400 or 422).
async fn the_document_says_what_the_server_accepts(server: Server) {
    let document = Contract::of(&server).await.document;
    let games = validator_in(&document, request_schema(&document, "post", "/api/games"));
    for (body, valid) in [
        (json!({"black": "bot:search:60s"}), true),
        (json!({"black": "bot:search:60000ms"}), true),
        (json!({"black": "bot:search:007ms"}), true),
        (json!({"black": "bot:search:61s"}), false),
        (json!({"black": "bot:search:60001ms"}), false),
        (json!({"black": "bot:search:320957358956892230s"}), false),
        (json!({"black": "bot:random", "width": 5}), true),
        (json!({"black": "bot:random", "width": 6}), false),
        (json!({"width": 6}), true),
        (
            json!({"white": "bot:random", "black": "bot:greedy", "clock": {"initial_ms": 600000}}),
            true,
        ),
        (
            json!({"white": "bot:random", "black": "bot:greedy", "clock": {"initial_ms": 600001}}),
            false,
        ),
        (
            json!({"black": "bot:greedy", "clock": {"initial_ms": 600001}}),
            true,
        ),
    ] {
        assert_eq!(games.is_valid(&body), valid, "the document on {body}");
        let answer = server.post("/api/games", None, body.clone()).await;
        let accepted = answer.status == 201;
        assert_eq!(accepted, valid, "the server on {body}: {}", answer.text);
    }
    let square = parameter_schema(&document, "get", "/api/games/{id}/moves/{square}", "square");
    let square = validator_in(&document, square);
    let (id, token, _, _) = crate::new_game(&server, json!({})).await;
    for (name, valid) in [("e2", true), ("H8", true), ("e2\n", false), ("i1", false)] {
        assert_eq!(
            square.is_valid(&json!(name)),
            valid,
            "the document on {name:?}"
        );
        let path = format!("/api/games/{id}/moves/{}", name.replace('\n', "%0A"));
        let answer = server.get(&path, Some(&token)).await;
        assert_eq!(
            answer.status == 200,
            valid,
            "the server on {name:?}: {}",
            answer.text
        );
    }
    let join = validator_in(
        &document,
        request_schema(&document, "post", "/api/events/{id}/join"),
    );
    let event = gmo_store::new_id();
    for (code, valid) in [
        ("abcdefgh".to_owned(), true),
        ("ABCD-EFGH JKMN".to_owned(), true),
        ("a".repeat(64), true),
        ("a".repeat(65), false),
        ("é".repeat(8), false),
        ("--------".to_owned(), false),
        ("abc".to_owned(), false),
    ] {
        let body = json!({"code": code});
        assert_eq!(join.is_valid(&body), valid, "the document on {code}");
        let answer = server
            .post(&format!("/api/events/{event}/join"), None, body)
            .await;
        // An unknown event: 404 for a code of a valid shape, before any look for a team.
        if valid {
            assert_eq!(answer.status, 404, "{code}: {}", answer.text);
        } else {
            assert!(
                [404, 422].contains(&answer.status),
                "{code}: {}",
                answer.text
            );
        }
    }
}

const METHODS: [&str; 5] = ["get", "put", "post", "patch", "delete"];

async fn the_document_describes_every_operation_fully(server: Server) {
    let contract = Contract::of(&server).await;
    let document = &contract.document;
    let mut ids = BTreeSet::new();
    let mut operations = 0;
    for (path, item) in document["paths"].as_object().expect("paths") {
        for method in METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            operations += 1;
            let id = operation["operationId"].as_str().expect("an operationId");
            assert!(ids.insert(id.to_owned()), "operationId {id} is unique");
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let schema = contract.resolve(&parameter["schema"]);
                assert!(
                    schema["pattern"].is_string(),
                    "{method} {path}: parameter {} has a pattern",
                    parameter["name"]
                );
            }
            if let Some(body) = operation.get("requestBody") {
                assert!(
                    body["content"]["application/json"]["schema"].is_object(),
                    "{method} {path}: the request has a schema"
                );
            }
            let responses = operation["responses"].as_object().expect("responses");
            for (status, response) in responses {
                let response = contract.resolve(response);
                let content = response["content"].as_object();
                let has_schema = content.is_some_and(|content| {
                    content.values().all(|media| media["schema"].is_object())
                });
                // 408 comes from the timeout layer, 204 has no body by definition.
                assert!(
                    has_schema || status == "408" || status == "204",
                    "{method} {path} {status} has a schema: {response}"
                );
            }
            assert!(
                responses.contains_key("500"),
                "{method} {path} documents 500"
            );
            let secured = operation["security"].as_array();
            if let Some(requirements) = secured {
                assert!(
                    responses.contains_key("401"),
                    "{method} {path}: a token route documents 401"
                );
                let schemes = &document["components"]["securitySchemes"];
                for requirement in requirements {
                    for scheme in requirement.as_object().expect("a requirement").keys() {
                        assert!(
                            schemes[scheme].is_object(),
                            "{method} {path}: the scheme {scheme} is declared"
                        );
                    }
                }
                let names = |scheme: &str| requirements.iter().any(|r| r.get(scheme).is_some());
                assert!(
                    names("bearer") || names("session"),
                    "{method} {path}: a token or the session"
                );
                // A change made with the session cookie may be refused as cross-origin.
                if names("session") && method != "get" {
                    assert!(
                        responses.contains_key("403"),
                        "{method} {path}: a session route documents 403 cross_origin"
                    );
                }
            }
        }
    }
    assert_eq!(operations, 90, "every route is documented");
    // Every schema compiles, patterns included (an invalid pattern would fail here).
    for (name, schema) in document["components"]["schemas"]
        .as_object()
        .expect("schemas")
    {
        let reference = json!({"$ref": format!("#/components/schemas/{name}")});
        validator_in(document, &reference);
        assert!(schema.is_object(), "{name}");
    }
    // The limits it states are the engine's.
    let schemas = &document["components"]["schemas"];
    let clock = &schemas["ClockRequest"]["properties"];
    assert_eq!(clock["initial_ms"]["maximum"], Settings::MAX_INITIAL.ms());
    assert_eq!(
        clock["increment_ms"]["maximum"],
        Settings::MAX_INCREMENT.ms()
    );
    for (schema, field) in [
        ("NewGameRequest", "width"),
        ("NewLab", "height"),
        ("GameView", "width"),
    ] {
        // A schema with rules across its fields is `allOf` its fields' schema and the rules, or
        // `oneOf` its forms (a new lab's first form is the empty board).
        let own = match (
            schemas[schema]["allOf"].get(0),
            schemas[schema]["oneOf"].get(0),
        ) {
            (Some(fields), _) | (None, Some(fields)) => fields,
            (None, None) => &schemas[schema],
        };
        let bounds = &own["properties"][field];
        assert_eq!(bounds["minimum"], BoardSize::MIN, "{schema}.{field}");
        assert_eq!(bounds["maximum"], BoardSize::MAX, "{schema}.{field}");
    }
    let genomes = &schemas["NewPreset"]["properties"]["genomes"];
    assert_eq!(genomes["minItems"], BoardSize::MIN);
    assert_eq!(genomes["maxItems"], BoardSize::MAX);
    let most = gmo_genome::breeding::MAX_CHILDREN;
    let breeding = &schemas["BreedRequest"]["properties"];
    assert_eq!(breeding["children"]["maximum"], most);
    assert_eq!(breeding["seed"]["maximum"], (1u64 << 53) - 1);
    assert_eq!(schemas["Bred"]["properties"]["children"]["maxItems"], most);
    // The validator does reject what does not fit: a game view without its id.
    let game_view = validator_in(document, &json!({"$ref": "#/components/schemas/GameView"}));
    assert!(!game_view.is_valid(&json!({"status": "setup"})));
    let codes = &document["components"]["schemas"]["ErrorCode"]["enum"];
    for code in ["not_your_turn", "h_in_step", "malformed_json", "not_found"] {
        assert!(
            codes.as_array().expect("codes").contains(&json!(code)),
            "{code} is listed"
        );
    }
}

async fn every_answer_of_a_scripted_game_fits_the_document(server: Server) {
    let mut c = Contract::of(&server).await;
    let games = "/api/games";
    let game = "/api/games/{id}";

    // Genomes and presets.
    let bad_dna = server
        .post("/api/genomes", None, json!({"dna": "AHHX"}))
        .await;
    assert_eq!(
        c.check(Method::POST, "/api/genomes", &bad_dna)["error"]["codon"],
        1
    );
    let rook = server
        .post(
            "/api/genomes",
            None,
            json!({"dna": gmo_genome::standard::ROOK}),
        )
        .await;
    c.check(Method::POST, "/api/genomes", &rook);
    let rook_code = rook.body["code"].as_str().expect("a code").to_owned();
    c.check(
        Method::GET,
        "/api/genomes/{reference}",
        &server.get("/api/genomes/rook", None).await,
    );
    c.check(
        Method::GET,
        "/api/genomes/{reference}",
        &server.get("/api/genomes/zzzzzz", None).await,
    );
    let breed = "/api/genomes/breed";
    let bred = server
        .post(breed, None, json!({"a": "knight", "b": "queen", "seed": 1}))
        .await;
    assert_eq!(bred.status, 201, "{}", bred.text);
    c.check(Method::POST, breed, &bred);
    let again = server
        .post(breed, None, json!({"a": "knight", "b": "queen", "seed": 1}))
        .await;
    assert_eq!(again.status, 200, "{}", again.text);
    c.check(Method::POST, breed, &again);
    for body in [json!({"a": "knight"}), json!({"a": "zzzzzz", "b": "rook"})] {
        c.check(Method::POST, breed, &server.post(breed, None, body).await);
    }
    // A genome's value: never asked, started, joined (the evaluation runs in the background).
    let value = "/api/genomes/{reference}/value";
    c.check(
        Method::GET,
        value,
        &server.get("/api/genomes/queen/value", None).await,
    );
    let started = server
        .post("/api/genomes/rook/value", None, json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.text);
    c.check(Method::POST, value, &started);
    let joined = server
        .post("/api/genomes/rook/value", None, json!({}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    c.check(Method::POST, value, &joined);
    c.check(
        Method::GET,
        value,
        &server.get("/api/genomes/rook/value", None).await,
    );
    c.check(
        Method::POST,
        value,
        &server
            .post("/api/genomes/zzzzzz/value", None, json!({}))
            .await,
    );
    let presets = "/api/presets";
    let white_preset = server
        .post(
            presets,
            None,
            json!({"genomes": ["rook", "king", "rook", "rook"]}),
        )
        .await;
    let white_preset = c.check(Method::POST, presets, &white_preset)["code"].clone();
    let black_preset = server
        .post(
            presets,
            None,
            json!({"genomes": ["rook", "rook", "king", "rook"]}),
        )
        .await;
    let black_preset = c.check(Method::POST, presets, &black_preset)["code"].clone();
    c.check(
        Method::GET,
        "/api/presets/{reference}",
        &server.get("/api/presets/default", None).await,
    );
    let short = server
        .post(presets, None, json!({"genomes": ["rook"]}))
        .await;
    assert_eq!(
        c.check(Method::POST, presets, &short)["error"]["code"],
        "preset_length"
    );

    // A 4×4 game to a promotion and a king's capture, every answer checked.
    let created = server
        .post(
            games,
            None,
            json!({"width": 4, "height": 4, "clock": {"initial_ms": 60_000}}),
        )
        .await;
    let created = c.check(Method::POST, games, &created);
    let id = created["id"].as_str().expect("an id").to_owned();
    let token = |side: &str| {
        created["seats"][side]["token"]
            .as_str()
            .expect("a token")
            .to_owned()
    };
    let (white, black) = (token("white"), token("black"));
    let url = |tail: &str| format!("/api/games/{id}{tail}");
    let mut stream = server.stream(&id, Some(&black)).await;
    c.check(Method::GET, game, &server.get(&url(""), None).await);
    for (seat, preset, king) in [(&white, &white_preset, "b1"), (&black, &black_preset, "c4")] {
        let loaded = server
            .put(&url("/preset"), Some(seat), json!({"preset": preset}))
            .await;
        c.check(Method::PUT, "/api/games/{id}/preset", &loaded);
        let kinged = server
            .post(&url(&format!("/kings/{king}")), Some(seat), json!({}))
            .await;
        c.check(Method::POST, "/api/games/{id}/kings/{square}", &kinged);
        let ready = server.post(&url("/ready"), Some(seat), json!({})).await;
        c.check(Method::POST, "/api/games/{id}/ready", &ready);
    }
    let moves = "/api/games/{id}/moves";
    let listed = server.get(&url("/moves/b2"), Some(&white)).await;
    assert!(
        !c.check(Method::GET, "/api/games/{id}/moves/{square}", &listed)
            .as_array()
            .expect("moves")
            .is_empty()
    );
    for (seat, from, to) in [
        (&white, "b2", "c3"),
        (&black, "b3", "b2"),
        (&white, "c3", "d4"),
    ] {
        let moved = server
            .post(&url("/moves"), Some(seat), json!({"from": from, "to": to}))
            .await;
        assert_eq!(c.check(Method::POST, moves, &moved)["ply"]["type"], "move");
    }
    let promoted = server
        .post(&url("/promotion"), Some(&white), json!({"genome": "rook"}))
        .await;
    assert_eq!(
        c.check(Method::POST, "/api/games/{id}/promotion", &promoted)["ply"]["type"],
        "promotion"
    );
    let early = server.get(&url("/record"), None).await;
    assert_eq!(
        c.check(Method::GET, "/api/games/{id}/record", &early)["error"]["code"],
        "not_over"
    );
    for (seat, from, to) in [(&black, "d3", "c2"), (&white, "d4", "c4")] {
        let moved = server
            .post(&url("/moves"), Some(seat), json!({"from": from, "to": to}))
            .await;
        c.check(Method::POST, moves, &moved);
    }
    let plies = server.get(&url("/plies"), Some(&white)).await;
    let plies = c.check(Method::GET, "/api/games/{id}/plies", &plies);
    assert_eq!(plies.as_array().expect("plies").len(), 6);
    let positions = server.get(&url("/positions"), Some(&white)).await;
    let positions = c.check(Method::GET, "/api/games/{id}/positions", &positions);
    assert_eq!(positions["positions"].as_array().map(Vec::len), Some(7));
    let beyond = server.get(&url("/positions?from=8"), None).await;
    let beyond = c.check(Method::GET, "/api/games/{id}/positions", &beyond);
    assert_eq!(beyond["positions"], json!([]));
    let bad = server.get(&url("/positions?from=x"), None).await;
    let bad = c.check(Method::GET, "/api/games/{id}/positions", &bad);
    assert_eq!(bad["error"]["code"], "invalid_field");
    let late_draw = server.post(&url("/draw"), Some(&white), json!({})).await;
    assert_eq!(
        c.check(Method::POST, "/api/games/{id}/draw", &late_draw)["error"]["code"],
        "not_in_progress"
    );
    let rematch = server.post(&url("/rematch"), Some(&white), json!({})).await;
    let rematch = c.check(Method::POST, "/api/games/{id}/rematch", &rematch);
    assert_eq!(rematch["asked"]["white"], true);
    let record = server.get(&url("/record"), Some(&black)).await;
    let record = c.check(Method::GET, "/api/games/{id}/record", &record);
    assert_eq!(record["plies"].as_array().expect("plies").len(), 6);
    assert_eq!(record["plies"][3]["genome"], rook_code);
    let mut types = Vec::new();
    while let Some((line, _)) = stream.next().await {
        c.check_line(&line);
        types.push(line["type"].as_str().unwrap_or("view").to_owned());
    }
    assert_eq!(types.len(), 15, "the view, White joining, then 13 changes");
    assert_eq!(types[..2], ["view", "joined"]);

    // Refusals, each with its documented status and the error body.
    let clock = json!({"clock": {"initial_ms": 180_000, "increment_ms": 2_000}});
    let other = c.check(Method::POST, games, &server.post(games, None, clock).await);
    assert_eq!(other["game"]["clocks"]["increment_ms"], 2_000);
    let other_id = other["id"].as_str().expect("an id").to_owned();
    let other_white = other["seats"]["white"]["token"]
        .as_str()
        .expect("a token")
        .to_owned();
    let other_url = |tail: &str| format!("/api/games/{other_id}{tail}");
    let refusals = [
        (
            Method::POST,
            moves,
            server
                .raw(Method::POST, &other_url("/moves"), Some(&other_white), "{")
                .await,
            400,
        ),
        (
            Method::POST,
            moves,
            server
                .post(
                    &other_url("/moves"),
                    None,
                    json!({"from": "e2", "to": "e4"}),
                )
                .await,
            401,
        ),
        (
            Method::POST,
            moves,
            server
                .post(
                    &other_url("/moves"),
                    Some(&white),
                    json!({"from": "e2", "to": "e4"}),
                )
                .await,
            403,
        ),
        (
            Method::GET,
            game,
            server
                .get("/api/games/00000000000000000000000000000000", None)
                .await,
            404,
        ),
        (
            Method::GET,
            "/api/genomes/{reference}",
            server.get("/api/genomes/%FF", None).await,
            400,
        ),
        (
            Method::POST,
            moves,
            server
                .post(
                    &other_url("/moves"),
                    Some(&other_white),
                    json!({"from": "e2", "to": "e4"}),
                )
                .await,
            409,
        ),
        (
            Method::POST,
            moves,
            server
                .raw(
                    Method::POST,
                    &other_url("/moves"),
                    Some(&other_white),
                    &" ".repeat(70_000),
                )
                .await,
            413,
        ),
        (
            Method::POST,
            moves,
            server
                .post(
                    &other_url("/moves"),
                    Some(&other_white),
                    json!({"from": "e2"}),
                )
                .await,
            422,
        ),
        (
            Method::POST,
            moves,
            server
                .raw(
                    Method::POST,
                    &other_url("/moves"),
                    Some(&other_white),
                    r#"["e2", "e4"]"#,
                )
                .await,
            422,
        ),
        (
            Method::POST,
            "/api/games/{id}/kings/{square}",
            server
                .post(&other_url("/kings/z9"), Some(&other_white), json!({}))
                .await,
            422,
        ),
        (
            Method::POST,
            "/api/games/{id}/abort",
            server
                .post(&other_url("/abort"), Some(&other_white), json!({}))
                .await,
            200,
        ),
        (
            Method::POST,
            "/api/games/{id}/resign",
            server
                .post(&other_url("/resign"), Some(&other_white), json!({}))
                .await,
            409,
        ),
    ];
    for (method, path, answer, status) in refusals {
        assert_eq!(answer.status, status, "{method} {path}: {}", answer.text);
        c.check(method, path, &answer);
    }

    // A lab: a pawn promoted, a move, a saved preset.
    let labs = "/api/labs";
    let lab = c.check(
        Method::POST,
        labs,
        &server
            .post(labs, None, json!({"width": 4, "height": 4}))
            .await,
    );
    let (lab_id, lab_token) = (
        lab["id"].as_str().expect("an id"),
        lab["token"].as_str().expect("a token"),
    );
    let lab_url = |tail: &str| format!("/api/labs/{lab_id}{tail}");
    let place = "/api/labs/{id}/squares/{square}";
    let pawn = server
        .put(
            &lab_url("/squares/a3"),
            Some(lab_token),
            json!({"genome": "pawn", "color": "white", "pawn": true}),
        )
        .await;
    c.check(Method::PUT, place, &pawn);
    let both = server
        .put(
            &lab_url("/squares/b3"),
            Some(lab_token),
            json!({"genome": "rook", "dna": "AHH", "color": "white"}),
        )
        .await;
    assert_eq!(
        c.check(Method::PUT, place, &both)["error"]["code"],
        "genome_or_dna"
    );
    let null = server
        .put(
            &lab_url("/squares/b3"),
            Some(lab_token),
            json!({"genome": null, "dna": "AHH", "color": "white"}),
        )
        .await;
    c.check(Method::PUT, place, &null);
    assert_eq!(null.status, 422, "{}", null.text);
    let listed = server.get(&lab_url("/moves/a3"), Some(lab_token)).await;
    c.check(Method::GET, "/api/labs/{id}/moves/{square}", &listed);
    let moved = server
        .post(
            &lab_url("/moves"),
            Some(lab_token),
            json!({"from": "a3", "to": "a4"}),
        )
        .await;
    c.check(Method::POST, "/api/labs/{id}/moves", &moved);
    let promoted = server
        .post(
            &lab_url("/promotion"),
            Some(lab_token),
            json!({"genome": "queen"}),
        )
        .await;
    assert_eq!(
        c.check(Method::POST, "/api/labs/{id}/promotion", &promoted)["ply"]["type"],
        "promotion"
    );
    let filled = server
        .post(
            &lab_url("/preset"),
            Some(lab_token),
            json!({"color": "black", "preset": black_preset}),
        )
        .await;
    c.check(Method::POST, "/api/labs/{id}/preset", &filled);
    let saved = server
        .post(
            &lab_url("/preset/save"),
            Some(lab_token),
            json!({"color": "black"}),
        )
        .await;
    assert_eq!(
        c.check(Method::POST, "/api/labs/{id}/preset/save", &saved)["code"],
        black_preset
    );
    let king = server
        .post(&lab_url("/squares/a4/king"), Some(lab_token), json!({}))
        .await;
    c.check(Method::POST, "/api/labs/{id}/squares/{square}/king", &king);
    let erased = server
        .call(
            Method::DELETE,
            &lab_url("/squares/a4"),
            Some(lab_token),
            None,
        )
        .await;
    c.check(Method::DELETE, place, &erased);
    c.check(
        Method::GET,
        "/api/labs/{id}",
        &server.get(&lab_url(""), Some(lab_token)).await,
    );
    c.check(
        Method::GET,
        "/api/labs/{id}",
        &server.get(&lab_url(""), Some(&white)).await,
    );
    c.check(Method::GET, "/healthz", &server.get("/healthz", None).await);

    let statuses: BTreeSet<u16> = c.checked.iter().map(|(_, _, status)| *status).collect();
    assert_eq!(
        statuses,
        BTreeSet::from([200, 201, 400, 401, 403, 404, 409, 413, 422]),
        "{:?}",
        c.checked
    );
    assert!(c.checked.len() >= 40, "{} answers checked", c.checked.len());
}

/// `method path` with a session cookie and/or a bearer token → the answer and the new cookie, if
/// one was set.
async fn as_signed(
    server: &Server,
    method: Method,
    path: &str,
    cookie: Option<&str>,
    bearer: Option<&str>,
    body: Option<Value>,
) -> (Answer, Option<String>) {
    let mut request = server
        .client
        .request(method, format!("{}{path}", server.base));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .filter(|pair| pair.len() > "gmo_session=".len())
        .map(str::to_owned);
    let text = response.text().await.expect("a body");
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    (Answer { status, body, text }, cookie)
}

async fn every_answer_about_accounts_fits_the_document(server: Server) {
    let mut c = Contract::of(&server).await;
    let credentials = json!({"username": "Ada", "password": "correct horse battery"});
    let (made, cookie) = as_signed(
        &server,
        Method::POST,
        "/api/account",
        None,
        None,
        Some(credentials.clone()),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.text);
    c.check(Method::POST, "/api/account", &made);
    let cookie = cookie.expect("a session cookie");
    let cookie = Some(cookie.as_str());
    let taken = server
        .post(
            "/api/account",
            None,
            json!({"username": "ADA", "password": "another password"}),
        )
        .await;
    assert_eq!(taken.status, 409, "{}", taken.text);
    c.check(Method::POST, "/api/account", &taken);
    let short = server
        .post(
            "/api/account",
            None,
            json!({"username": "ab", "password": "x"}),
        )
        .await;
    assert_eq!(short.status, 422, "{}", short.text);
    c.check(Method::POST, "/api/account", &short);
    let signed_in = server.post("/api/session", None, credentials).await;
    assert_eq!(signed_in.status, 200, "{}", signed_in.text);
    c.check(Method::POST, "/api/session", &signed_in);
    let wrong = server
        .post(
            "/api/session",
            None,
            json!({"username": "ada", "password": "not the password"}),
        )
        .await;
    assert_eq!(wrong.status, 401, "{}", wrong.text);
    c.check(Method::POST, "/api/session", &wrong);

    let (shown, _) = as_signed(&server, Method::GET, "/api/account", cookie, None, None).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    c.check(Method::GET, "/api/account", &shown);
    c.check(
        Method::GET,
        "/api/account",
        &server.get("/api/account", None).await,
    );
    let tokens = "/api/account/tokens";
    let body = json!({"description": "a bot", "scopes": ["play"]});
    let (token, _) = as_signed(&server, Method::POST, tokens, cookie, None, Some(body)).await;
    assert_eq!(token.status, 201, "{}", token.text);
    c.check(Method::POST, tokens, &token);
    let secret = token.body["token"].as_str().expect("a token").to_owned();
    let id = token.body["id"].as_str().expect("an id").to_owned();
    let bad = json!({"description": "", "scopes": []});
    let (refused, _) = as_signed(&server, Method::POST, tokens, cookie, None, Some(bad)).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    c.check(Method::POST, tokens, &refused);
    let body = json!({"description": "a child", "scopes": ["play"]});
    let (child, _) = as_signed(
        &server,
        Method::POST,
        tokens,
        None,
        Some(&secret),
        Some(body),
    )
    .await;
    assert_eq!(child.status, 403, "{}", child.text);
    c.check(Method::POST, tokens, &child);
    let (listed, _) = as_signed(&server, Method::GET, tokens, cookie, None, None).await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    c.check(Method::GET, tokens, &listed);
    let by_token = server.get("/api/account", Some(&secret)).await;
    assert_eq!(by_token.status, 200, "{}", by_token.text);
    c.check(Method::GET, "/api/account", &by_token);

    // A game Ada's invite links, seen by anyone.
    let created = server.post("/api/games", None, json!({})).await;
    let game = created.body["id"].as_str().expect("an id").to_owned();
    let white = created.body["seats"]["white"]["token"]
        .as_str()
        .expect("a token")
        .to_owned();
    let path = format!("/api/games/{game}");
    let (linked, _) = as_signed(&server, Method::GET, &path, cookie, Some(&white), None).await;
    assert_eq!(linked.body["players"]["white"]["username"], "Ada");
    c.check(Method::GET, "/api/games/{id}", &linked);

    let user = server.get("/api/users/ada", None).await;
    assert_eq!(user.status, 200, "{}", user.text);
    c.check(Method::GET, "/api/users/{username}", &user);
    c.check(
        Method::GET,
        "/api/users/{username}",
        &server.get("/api/users/nobody", None).await,
    );
    let games = server.get("/api/users/ada/games", None).await;
    assert_eq!(games.body[0]["id"], game.as_str(), "{}", games.text);
    c.check(Method::GET, "/api/users/{username}/games", &games);
    c.check(
        Method::GET,
        "/api/users/{username}/games",
        &server.get("/api/users/ada/games?before=zz", None).await,
    );
    c.check(
        Method::GET,
        "/api/users/{username}/rating-history",
        &server.get("/api/users/ada/rating-history", None).await,
    );
    c.check(
        Method::GET,
        "/api/leaderboard",
        &server.get("/api/leaderboard", None).await,
    );
    let revoke = format!("/api/account/tokens/{id}");
    let (revoked, _) = as_signed(&server, Method::DELETE, &revoke, cookie, None, None).await;
    assert_eq!(revoked.status, 204, "{}", revoked.text);
    let (again, _) = as_signed(&server, Method::DELETE, &revoke, cookie, None, None).await;
    assert_eq!(again.status, 404, "{}", again.text);
    c.check(Method::DELETE, "/api/account/tokens/{id}", &again);

    let change = json!({"password": "correct horse battery", "new_password": "a new password"});
    let (changed, renewed) = as_signed(
        &server,
        Method::PUT,
        "/api/account/password",
        cookie,
        None,
        Some(change),
    )
    .await;
    assert_eq!(changed.status, 200, "{}", changed.text);
    c.check(Method::PUT, "/api/account/password", &changed);
    let renewed = renewed.expect("a new cookie");
    let deletion = json!({"password": "a new password"});
    let (deleted, _) = as_signed(
        &server,
        Method::DELETE,
        "/api/account",
        Some(&renewed),
        None,
        Some(deletion),
    )
    .await;
    assert_eq!(deleted.status, 204, "{}", deleted.text);
    // The game names a deleted player.
    let orphaned = server.get(&path, None).await;
    assert_eq!(orphaned.body["players"]["white"]["deleted"], true);
    c.check(Method::GET, "/api/games/{id}", &orphaned);
}
