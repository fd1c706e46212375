//! Issue 27, genomes explained in the reader's language: the routes that answer an `explanation`
//! or `traits` follow `Accept-Language` (Slovak when it asks for it first, English for anything
//! else, never a refusal) and say so in `Vary`; discovery still explains nothing.

use crate::common::Server;
use crate::fresh_genome;
use gmo_genome::{Genome, Language};
use serde_json::{Value, json};

both!(
    genome_answers_follow_accept_language,
    bred_children_are_explained_in_the_language_asked_for,
    the_document_names_the_header_where_it_counts,
);

mod secret {
    both_with!(
        crate::languages::in_discovery;
        discovery_explains_nothing_in_any_language,
    );

    use super::discovery_explains_nothing_in_any_language;
}

fn in_discovery(settings: &mut gmo_server::Settings) {
    settings.play.discovery = true;
}

/// Headers that ask for Slovak first, and what each of the others gives: English.
const SLOVAK: [&str; 3] = ["sk", "sk-SK,sk;q=0.9,en;q=0.8", "de, sk;q=0.5, en;q=0.4"];
const ENGLISH: [Option<&str>; 6] = [
    None,
    Some("en"),
    Some("de,en;q=0.5"),
    Some("garbage ;;; q=x"),
    Some("en;q=0.5, sk;q=0"),
    Some(""),
];

/// An answer's status, its `Vary` header and its JSON body.
struct Answer {
    status: u16,
    vary: Vec<String>,
    body: Value,
}

async fn call(
    server: &Server,
    method: &str,
    path: &str,
    language: Option<&str>,
    body: Option<Value>,
) -> Answer {
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
    let mut request = server
        .client
        .request(method, format!("{}{path}", server.base));
    if let Some(language) = language {
        request = request.header("accept-language", language);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let vary = response
        .headers()
        .get_all("vary")
        .iter()
        .map(|value| value.to_str().expect("ascii").to_ascii_lowercase())
        .collect();
    let body = response.json().await.expect("a JSON body");
    Answer { status, vary, body }
}

/// The answer's explanation and traits are `genome`'s in `language`, and it varies by language.
fn assert_in(answer: &Answer, genome: &Genome, language: Language, what: &str) {
    assert_eq!(
        answer.body["explanation"],
        genome.explain_in(language),
        "{what}"
    );
    assert_eq!(
        answer.body["traits"],
        json!(genome.traits_in(language)),
        "{what}"
    );
    assert!(
        answer
            .vary
            .iter()
            .any(|value| value.contains("accept-language")),
        "{what}: Vary {:?}",
        answer.vary
    );
}

async fn genome_answers_follow_accept_language(server: Server) {
    let rook = Genome::parse(gmo_genome::standard::ROOK).expect("the rook");
    let fresh = fresh_genome(5);
    let mut asked: Vec<(Option<&str>, Language)> = SLOVAK
        .iter()
        .map(|header| (Some(*header), Language::Sk))
        .collect();
    asked.extend(ENGLISH.iter().map(|header| (*header, Language::En)));
    for (header, language) in asked {
        let what = format!("Accept-Language {header:?}");
        let shown = call(&server, "GET", "/api/genomes/rook", header, None).await;
        assert_eq!(shown.status, 200, "{what}");
        assert_in(&shown, &rook, language, &what);
        let dna = json!({"dna": fresh.to_string()});
        let stored = call(&server, "POST", "/api/genomes", header, Some(dna)).await;
        assert!(
            [200, 201].contains(&stored.status),
            "{what}: {}",
            stored.body
        );
        assert_in(&stored, &fresh, language, &what);
    }
    // The words are Slovak indeed, and the English ones are exactly what they were.
    let slovak = call(&server, "GET", "/api/genomes/rook", Some("sk"), None).await;
    assert_eq!(
        slovak.body["traits"],
        json!(["Neprechádza cez ľavý a pravý okraj šachovnice na druhú stranu."])
    );
    let explanation = slovak.body["explanation"].as_str().expect("an explanation");
    assert!(explanation.starts_with("Blok 1 z 1:\n"), "{explanation}");
    let english = call(&server, "GET", "/api/genomes/rook", None, None).await;
    assert_eq!(
        english.body["traits"],
        json!(["It does not wrap around the left and right edges."])
    );
    assert_eq!(english.body["explanation"], rook.explain());

    // Bytes no header text holds (outside the document's pattern) are refused, naming the header.
    let response = server
        .client
        .get(format!("{}/api/genomes/rook", server.base))
        .header(
            "accept-language",
            reqwest::header::HeaderValue::from_bytes(b"sk\xc2\x84").expect("obs-text"),
        )
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status(), 422);
    let refused: Value = response.json().await.expect("a JSON body");
    assert_eq!(refused["error"]["code"], "invalid_field", "{refused}");
    let message = refused["error"]["message"].as_str().expect("a message");
    assert!(message.contains("Accept-Language"), "{message}");
}

async fn bred_children_are_explained_in_the_language_asked_for(server: Server) {
    let request = json!({"a": "knight", "b": "queen", "seed": 3, "children": 2});
    for (header, language) in [
        (Some("sk-SK,sk;q=0.9,en;q=0.8"), Language::Sk),
        (Some("de,en;q=0.5"), Language::En),
        (None, Language::En),
    ] {
        let bred = call(
            &server,
            "POST",
            "/api/genomes/breed",
            header,
            Some(request.clone()),
        )
        .await;
        assert!([200, 201].contains(&bred.status), "{}", bred.body);
        assert!(
            bred.vary
                .iter()
                .any(|value| value.contains("accept-language"))
        );
        let children = bred.body["children"].as_array().expect("children");
        assert!(!children.is_empty(), "{}", bred.body);
        for child in children {
            let genome = Genome::parse(child["dna"].as_str().expect("DNA")).expect("a genome");
            assert_eq!(
                child["explanation"],
                genome.explain_in(language),
                "{header:?}"
            );
        }
    }
}

async fn discovery_explains_nothing_in_any_language(server: Server) {
    let dna = json!({"dna": fresh_genome(6).to_string()});
    let stored = call(&server, "POST", "/api/genomes", Some("sk"), Some(dna)).await;
    assert_eq!(stored.status, 201, "{}", stored.body);
    let shown = call(&server, "GET", "/api/genomes/rook", Some("sk"), None).await;
    assert_eq!(shown.status, 200);
    for answer in [&stored, &shown] {
        assert!(answer.body.get("explanation").is_none(), "{}", answer.body);
        assert!(answer.body.get("traits").is_none(), "{}", answer.body);
    }
}

/// The operations whose answers explain genomes, as the OpenAPI document names them.
const EXPLAINING: [(&str, &str, &str); 3] = [
    ("/api/genomes", "post", "201"),
    ("/api/genomes/{reference}", "get", "200"),
    ("/api/genomes/breed", "post", "201"),
];

async fn the_document_names_the_header_where_it_counts(server: Server) {
    let document = server.get("/api/openapi.json", None).await.body;
    for (path, method, status) in EXPLAINING {
        let operation = &document["paths"][path][method];
        let parameters = operation["parameters"].as_array().expect("parameters");
        let header = parameters
            .iter()
            .find(|p| p["name"] == "Accept-Language")
            .unwrap_or_else(|| panic!("{method} {path} names Accept-Language"));
        assert_eq!(header["in"], "header", "{method} {path}");
        assert_eq!(header["required"], false, "{method} {path}");
        let vary = &operation["responses"][status]["headers"]["Vary"];
        assert!(vary.is_object(), "{method} {path} {status} names Vary");
    }
    let schema = &document["components"]["schemas"]["AcceptLanguage"];
    let pattern = schema["pattern"].as_str().expect("a pattern");
    // Its end is exact in every regex dialect (`(?!\n)$`, crates/engine/src/openapi.rs).
    assert_eq!(
        pattern, "^[\\t -~]*(?!\\n)$",
        "any header text: none is refused"
    );
}
