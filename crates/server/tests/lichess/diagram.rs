//! `GET /api/genomes/{reference}/diagram.svg`: gmo-diagram's picture, cached, bad input refused.

use crate::common::Server;
use crate::standard;
use gmo_diagram::{Language, Options};
use gmo_engine::Color;

both!(
    a_genome_is_drawn_as_svg_by_code_or_name,
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

async fn bad_diagram_parameters_get_422_naming_the_field(server: Server) {
    for (query, code, field) in [
        ("width=9", "bad_size", "width"),
        ("height=3", "bad_size", "height"),
        ("width=seven", "bad_size", "width"),
        ("color=red", "invalid_field", "color"),
        ("color=white&color=black", "invalid_field", "color"),
        ("label=x", "invalid_field", "label"),
    ] {
        let answer = server
            .get(&format!("/api/genomes/rook/diagram.svg?{query}"), None)
            .await;
        assert_eq!(answer.status, 422, "{query}: {}", answer.text);
        assert_eq!(answer.body["error"]["code"], code, "{query}");
        let message = answer.body["error"]["message"].as_str().expect("a message");
        assert!(message.contains(field), "{query}: {message}");
    }
    let missing = server.get("/api/genomes/zzzzzz/diagram.svg", None).await;
    assert_eq!(missing.status, 404, "{}", missing.text);
    assert_eq!(missing.body["error"]["what"], "genome");
}
