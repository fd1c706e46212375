//! `POST /api/genomes/breed`: children of two stored genomes, deterministic for a seed, each
//! stored and answered with its code, DNA, explanation and diagram (in the language asked for);
//! bad requests refused.

use crate::common::Server;
use crate::{fresh_genome, standard};
use gmo_genome::breeding::{DEFAULT_CHILDREN, MAX_CHILDREN};
use gmo_genome::{Breeding, Genome};
use serde_json::{Value, json};

both!(
    bred_children_are_the_genome_crates_stored_and_drawn,
    the_same_seed_breeds_the_same_children_and_none_given_is_answered,
    children_are_drawn_in_the_language_asked_for,
    bad_breeding_requests_are_refused_naming_the_field,
);

const BREED: &str = "/api/genomes/breed";

/// What gmo-genome breeds for these parents, as the service must.
fn expected(a: &Genome, b: &Genome, seed: u64, children: usize) -> Vec<Genome> {
    gmo_genome::breed(
        a,
        b,
        Breeding {
            seed,
            children,
            max_letters: gmo_server::MAX_DNA_LETTERS,
        },
    )
}

fn children(answer: &Value) -> &Vec<Value> {
    answer["children"].as_array().expect("children")
}

async fn bred_children_are_the_genome_crates_stored_and_drawn(server: Server) {
    // One parent by name, one stored by DNA and named by its code.
    let other = fresh_genome(3);
    let stored = server
        .post("/api/genomes", None, json!({"dna": other.to_string()}))
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text);
    let other_code = other.code().to_string();
    let knight = standard("knight");

    let answer = server
        .post(
            BREED,
            None,
            json!({"a": "Knight", "b": other_code, "seed": 7, "children": 6}),
        )
        .await;
    assert_eq!(answer.status, 201, "{}", answer.text);
    assert_eq!(answer.body["a"], knight.code().to_string());
    assert_eq!(answer.body["b"], other_code);
    assert_eq!(answer.body["seed"], 7);
    let want = expected(&knight, &other, 7, 6);
    assert_eq!(want.len(), 6, "the genome crate breeds six");
    let got = children(&answer.body);
    assert_eq!(got.len(), want.len(), "{}", answer.text);
    for (child, genome) in got.iter().zip(&want) {
        let code = genome.code().to_string();
        assert_eq!(child["code"], code);
        assert_eq!(child["dna"], genome.to_string());
        assert_eq!(child["explanation"], genome.explain());
        assert_eq!(child["created"], true);
        assert_eq!(child["diagram"], format!("/api/genomes/{code}/diagram.svg"));
        let svg = gmo_diagram::render(genome, &gmo_diagram::Options::default()).expect("drawn");
        assert_eq!(child["svg"], svg);
        // Stored like any genome: found by its code, and its picture served there.
        let found = server.get(&format!("/api/genomes/{code}"), None).await;
        assert_eq!(found.status, 200, "{}", found.text);
        assert_eq!(found.body["dna"], genome.to_string());
        let picture = server
            .client
            .get(format!("{}/api/genomes/{code}/diagram.svg", server.base))
            .send()
            .await
            .expect("an answer");
        assert_eq!(picture.status().as_u16(), 200);
        assert_eq!(picture.text().await.expect("the svg"), svg);
    }
    // Each child is valid and new: not a parent, not another child.
    for (i, child) in want.iter().enumerate() {
        assert_eq!(Genome::parse(&child.to_string()).as_ref(), Ok(child));
        assert!(child != &knight && child != &other && !want[..i].contains(child));
    }
}

async fn the_same_seed_breeds_the_same_children_and_none_given_is_answered(server: Server) {
    let ask = |body: Value| {
        let server = &server;
        async move {
            let answer = server.post(BREED, None, body).await;
            assert!(
                matches!(answer.status, 200 | 201),
                "{}: {}",
                answer.status,
                answer.text
            );
            answer
        }
    };
    let codes = |answer: &Value| -> Vec<String> {
        children(answer)
            .iter()
            .map(|c| c["code"].as_str().expect("a code").to_owned())
            .collect()
    };
    let first = ask(json!({"a": "bishop", "b": "pawn", "seed": 123})).await;
    assert_eq!(first.status, 201);
    assert_eq!(codes(&first.body).len(), DEFAULT_CHILDREN);
    let again = ask(json!({"a": "bishop", "b": "pawn", "seed": 123})).await;
    assert_eq!(again.status, 200, "every child was stored already");
    assert_eq!(codes(&again.body), codes(&first.body));
    assert!(children(&again.body).iter().all(|c| c["created"] == false));
    let other_seed = ask(json!({"a": "bishop", "b": "pawn", "seed": 124})).await;
    assert_ne!(codes(&other_seed.body), codes(&first.body));
    // Fewer children are the first of more.
    let more =
        ask(json!({"a": "bishop", "b": "pawn", "seed": 123, "children": MAX_CHILDREN})).await;
    assert_eq!(codes(&more.body).len(), MAX_CHILDREN);
    assert!(codes(&more.body).starts_with(&codes(&first.body)));

    // No seed: one is drawn and answered, and it repeats the children.
    let drawn = ask(json!({"a": "rook", "b": "king", "seed": null})).await;
    let seed = drawn.body["seed"].as_u64().expect("a seed");
    assert!(seed < (1 << 53), "{seed} is exact in a double");
    let repeated = ask(json!({"a": "rook", "b": "king", "seed": seed})).await;
    assert_eq!(codes(&repeated.body), codes(&drawn.body));
    let expected = expected(&standard("rook"), &standard("king"), seed, DEFAULT_CHILDREN);
    let dna: Vec<String> = expected.iter().map(|g| g.code().to_string()).collect();
    assert_eq!(codes(&drawn.body), dna);
}

async fn children_are_drawn_in_the_language_asked_for(server: Server) {
    let body = json!({"a": "knight", "b": "bishop", "seed": 5, "children": 2});
    // The words and the pictures follow `Accept-Language`, as the explanations do.
    let breed = |language: &'static str| {
        let request = server
            .client
            .post(format!("{}{BREED}", server.base))
            .header("accept-language", language)
            .json(&body);
        async move {
            let answer = request.send().await.expect("an answer");
            let status = answer.status().as_u16();
            let body: serde_json::Value = answer.json().await.expect("JSON");
            (status, body)
        }
    };
    let (status, slovak) = breed("sk-SK,sk;q=0.9").await;
    assert_eq!(status, 201, "{slovak}");
    let (status, english) = breed("en").await;
    assert_eq!(status, 200, "{english}");
    let want = expected(&standard("knight"), &standard("bishop"), 5, 2);
    let options = |language| gmo_diagram::Options {
        language,
        ..gmo_diagram::Options::default()
    };
    for ((sk, en), genome) in children(&slovak).iter().zip(children(&english)).zip(&want) {
        let code = genome.code().to_string();
        let drawn = |language| gmo_diagram::render(genome, &options(language)).expect("drawn");
        assert_eq!(sk["svg"], drawn(gmo_diagram::Language::Sk));
        assert_eq!(
            sk["diagram"],
            format!("/api/genomes/{code}/diagram.svg?lang=sk")
        );
        assert_eq!(en["svg"], drawn(gmo_diagram::Language::En));
        assert_eq!(en["diagram"], format!("/api/genomes/{code}/diagram.svg"));
        // The path passed on answers the same picture.
        let path = sk["diagram"].as_str().expect("a path");
        let picture = server
            .client
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .expect("an answer");
        assert_eq!(picture.text().await.expect("the svg"), sk["svg"]);
    }
}

async fn bad_breeding_requests_are_refused_naming_the_field(server: Server) {
    for (body, field) in [
        (json!({"b": "rook"}), "a"),
        (json!({"a": "rook"}), "b"),
        (json!({"a": "no such!", "b": "rook"}), "a"),
        (json!({"a": "rook", "b": 5}), "b"),
        (
            json!({"a": "rook", "b": "AHH HSH HAA CHA CHA CHA HHA SAS"}),
            "b",
        ),
        (json!({"a": "rook", "b": "king", "seed": -1}), "seed"),
        (json!({"a": "rook", "b": "king", "seed": 1.5}), "seed"),
        (
            json!({"a": "rook", "b": "king", "seed": 9_007_199_254_740_992_u64}),
            "seed",
        ),
        (json!({"a": "rook", "b": "king", "seed": "7"}), "seed"),
        (json!({"a": "rook", "b": "king", "children": 0}), "children"),
        (
            json!({"a": "rook", "b": "king", "children": MAX_CHILDREN + 1}),
            "children",
        ),
        (
            json!({"a": "rook", "b": "king", "children": 300}),
            "children",
        ),
        (json!({"a": "rook", "b": "king", "dna": "SAS"}), "dna"),
    ] {
        let answer = server.post(BREED, None, body.clone()).await;
        assert_eq!(answer.status, 422, "{body}: {}", answer.text);
        assert_eq!(answer.body["error"]["code"], "invalid_field", "{body}");
        let message = answer.body["error"]["message"].as_str().expect("a message");
        assert!(message.contains(&format!("`{field}`")), "{body}: {message}");
    }
    // A reference that names nothing stored.
    let unknown = server
        .post(BREED, None, json!({"a": "rook", "b": "zzzzzz"}))
        .await;
    assert_eq!(unknown.status, 404, "{}", unknown.text);
    assert_eq!(unknown.body["error"]["code"], "not_found");
    assert!(
        unknown.body["error"]["message"]
            .as_str()
            .expect("a message")
            .contains("zzzzzz")
    );
    let malformed = server
        .raw(reqwest::Method::POST, BREED, None, "{\"a\": ")
        .await;
    assert_eq!(malformed.status, 400);
    // Breeding is a creation: it has no other method.
    let listed = server.get(BREED, None).await;
    assert_eq!(listed.status, 405, "{}", listed.text);
}
