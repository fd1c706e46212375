//! `GET /api/genomes/{reference}/diagram.svg`: gmo-diagram's picture, cached, in the language
//! asked for, bad input refused.

use crate::common::Server;
use crate::standard;
use gmo_diagram::{Language, Options};
use gmo_engine::Color;

both!(
    a_genome_is_drawn_as_svg_by_code_or_name,
    the_picture_speaks_the_language_asked_for,
    bad_diagram_parameters_get_422_naming_the_field,
);

async fn get(server: &Server, path: &str) -> (u16, String, String, String) {
    let response = server
        .client
        .get(format!("{}{path}", server.base))
        .send()
        .await
        .expect("an answer");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|value| value.to_str().expect("ascii").to_owned())
            .unwrap_or_default()
    };
    let (kind, cache) = (header("content-type"), header("cache-control"));
    let status = response.status().as_u16();
    (status, kind, cache, response.text().await.expect("a body"))
}

async fn a_genome_is_drawn_as_svg_by_code_or_name(server: Server) {
    let knight = standard("knight");
    let code = knight.code().to_string();
    let (status, kind, cache, svg) =
        get(&server, &format!("/api/genomes/{code}/diagram.svg")).await;
    assert_eq!(status, 200, "{svg}");
    assert_eq!(kind, "image/svg+xml");
    assert!(cache.contains("immutable"), "{cache}");
    let expected = gmo_diagram::render(&knight, &Options::default()).expect("drawn");
    assert_eq!(svg, expected, "the default is a white piece on 7×7");
    assert_eq!(
        svg.matches("class=\"mark ").count(),
        8,
        "a knight's eight squares"
    );

    let path = "/api/genomes/knight/diagram.svg?width=5&height=8&color=black";
    let (status, _, cache, named) = get(&server, path).await;
    assert_eq!(status, 200, "{named}");
    assert!(!cache.contains("immutable"), "a name may change: {cache}");
    let options = Options {
        width: 5,
        height: 8,
        color: Color::Black,
        label: None,
        language: Language::En,
    };
    assert_eq!(
        named,
        gmo_diagram::render(&knight, &options).expect("drawn")
    );
    assert_ne!(named, svg);
}

async fn the_picture_speaks_the_language_asked_for(server: Server) {
    let knight = standard("knight");
    let code = knight.code().to_string();
    let path = format!("/api/genomes/{code}/diagram.svg");
    let in_ = |language| Options {
        language,
        ..Options::default()
    };
    let english = gmo_diagram::render(&knight, &in_(Language::En)).expect("drawn");
    let slovak = gmo_diagram::render(&knight, &in_(Language::Sk)).expect("drawn");
    let (status, kind, cache, sk) = get(&server, &format!("{path}?lang=sk")).await;
    assert_eq!((status, kind.as_str()), (200, "image/svg+xml"), "{sk}");
    assert!(cache.contains("immutable"), "a URL of its own: {cache}");
    assert_eq!(sk, slovak);
    assert!(sk.contains(">Legenda</text>"), "{sk}");
    assert!(sk.contains("Oslabenie „jedno kolo“ (HAC)"), "{sk}");
    assert!(
        !sk.contains(">Legend</text>") && !sk.contains("Debuff"),
        "{sk}"
    );
    // English: absent or asked for, the same bytes as ever.
    let (_, _, _, absent) = get(&server, &path).await;
    let (status, _, _, en) = get(&server, &format!("{path}?lang=en")).await;
    assert_eq!(status, 200, "{en}");
    assert_eq!(absent, english);
    assert_eq!(en, english);
    assert!(en.contains(">Legend</text>"), "{en}");
    // With the other parameters, in any order.
    let (status, _, _, black) = get(
        &server,
        "/api/genomes/knight/diagram.svg?lang=sk&color=black&width=5",
    )
    .await;
    assert_eq!(status, 200, "{black}");
    let options = Options {
        width: 5,
        color: Color::Black,
        ..in_(Language::Sk)
    };
    assert_eq!(
        black,
        gmo_diagram::render(&knight, &options).expect("drawn")
    );
}

async fn bad_diagram_parameters_get_422_naming_the_field(server: Server) {
    for (query, code, field) in [
        ("width=9", "bad_size", "width"),
        ("height=3", "bad_size", "height"),
        ("width=seven", "bad_size", "width"),
        ("color=red", "invalid_field", "color"),
        ("color=white&color=black", "invalid_field", "color"),
        ("label=x", "invalid_field", "label"),
        ("lang=de", "invalid_field", "lang"),
        ("lang=SK", "invalid_field", "lang"),
        ("lang=sk&lang=en", "invalid_field", "lang"),
    ] {
        let answer = server
            .get(&format!("/api/genomes/rook/diagram.svg?{query}"), None)
            .await;
        assert_eq!(answer.status, 422, "{query}: {}", answer.text);
        assert_eq!(answer.body["error"]["code"], code, "{query}");
        let message = answer.body["error"]["message"].as_str().expect("a message");
        assert!(message.contains(field), "{query}: {message}");
    }
    // The refusal of a language says which there are.
    let german = server
        .get("/api/genomes/rook/diagram.svg?lang=de", None)
        .await;
    let message = german.body["error"]["message"].as_str().expect("a message");
    assert!(message.contains("en or sk"), "{message}");
    let missing = server.get("/api/genomes/zzzzzz/diagram.svg", None).await;
    assert_eq!(missing.status, 404, "{}", missing.text);
    assert_eq!(missing.body["error"]["what"], "genome");
}
