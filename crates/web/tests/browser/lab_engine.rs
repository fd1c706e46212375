//! Issue 35, the lab's engine panel: pieces placed in the page, "Analyse" with three lines, the
//! panel checked line by line against `GET /api/labs/{id}/analysis` and the best move marked on
//! the board, the answer cleared by a move; and a finished game's position opened in a lab
//! (`#/lab?game=…&ply=…`, what the record page's "Explore from here" links to).

use super::*;

/// One API call → its JSON answer (asserting success).
async fn api(
    base: &str,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> Value {
    let mut request = reqwest::Client::new().request(method.clone(), format!("{base}{path}"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if method != reqwest::Method::GET {
        request = request.json(&body);
    }
    let answer = request.send().await.expect("the server answers");
    let status = answer.status();
    let text = answer.text().await.unwrap_or_default();
    assert!(status.is_success(), "{method} {path}: {status} {text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// A game with the default army on both sides, White's e3, then Black resigns → its id.
async fn finished_game(base: &str) -> String {
    let post = reqwest::Method::POST;
    let created = api(base, post.clone(), "/api/games", None, json!({})).await;
    let id = created["id"].as_str().expect("an id").to_owned();
    let token = |side: &str| {
        created["seats"][side]["token"]
            .as_str()
            .expect("a token")
            .to_owned()
    };
    let (white, black) = (token("white"), token("black"));
    for (seat, king) in [(&white, "d1"), (&black, "d8")] {
        let game = format!("/api/games/{id}");
        api(
            base,
            reqwest::Method::PUT,
            &format!("{game}/preset"),
            Some(seat),
            json!({"preset": "default"}),
        )
        .await;
        api(
            base,
            post.clone(),
            &format!("{game}/kings/{king}"),
            Some(seat),
            json!({}),
        )
        .await;
        api(
            base,
            post.clone(),
            &format!("{game}/ready"),
            Some(seat),
            json!({}),
        )
        .await;
    }
    let moves = format!("/api/games/{id}/moves");
    api(
        base,
        post.clone(),
        &moves,
        Some(&white),
        json!({"from": "e2", "to": "e3"}),
    )
    .await;
    api(
        base,
        post,
        &format!("/api/games/{id}/resign"),
        Some(&black),
        json!({}),
    )
    .await;
    id
}

/// Places the palette's `name` for `color` on `at`, with the king mark when `king`.
async fn put(client: &Client, name: &str, color: &str, at: &str, king: bool) {
    click(client, &format!("#palette-{name}")).await;
    click(client, &format!("#side-{color}")).await;
    client
        .execute(
            &format!("document.querySelector('#place-king').checked = {king}"),
            vec![],
        )
        .await
        .expect("the king box");
    square(client, at).await;
    wait_label(client, at, &format!("{color} {name}")).await;
}

pub async fn lab_engine(driver: &mut Driver, base: String) {
    let client = driver.session(1280, 900).await;
    client
        .goto(&format!("{base}/#/lab?new=1"))
        .await
        .expect("the lab opens");
    wait_for(
        &client,
        "the lab board",
        "return !!document.querySelector('.board [data-square=\"h8\"]')",
    )
    .await;
    put(&client, "king", "white", "h1", true).await;
    put(&client, "rook", "white", "a1", false).await;
    put(&client, "king", "black", "a8", true).await;
    put(&client, "knight", "black", "c6", false).await;

    client
        .execute("const s = document.querySelector('#engine-lines'); s.value = '3'; s.dispatchEvent(new Event('change'));", vec![])
        .await
        .expect("three lines");
    click(&client, "#engine-go").await;
    wait_for(
        &client,
        "three lines",
        "return document.querySelectorAll('#engine-list li').length === 3",
    )
    .await;
    client
        .execute("document.querySelector('#engine').scrollIntoView()", vec![])
        .await
        .expect("the panel in view");
    shoot(&client, "lab-engine.png").await;

    // The panel says what the API says, line by line.
    let kept = client
        .execute("return JSON.parse(localStorage.getItem('gmo.lab'))", vec![])
        .await
        .expect("the lab kept in this browser");
    let (id, token) = (
        kept["id"].as_str().expect("an id"),
        kept["token"].as_str().expect("a token"),
    );
    let answer = api(
        &base,
        reqwest::Method::GET,
        &format!("/api/labs/{id}/analysis?lines=3"),
        Some(token),
        Value::Null,
    )
    .await;
    let shown = client
        .execute(
            "return [...document.querySelectorAll('#engine-list li')].map(li => [\
               JSON.parse(li.dataset.eval), li.querySelector('.engine-moves').textContent, \
               li.querySelector('.engine-eval').textContent])",
            vec![],
        )
        .await
        .expect("the lines shown");
    let lines = answer["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{answer}");
    for (line, shown) in lines.iter().zip(shown.as_array().expect("rows")) {
        assert_eq!(shown[0], line["eval"], "{shown}");
        let plies: Vec<String> = line["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| {
                format!(
                    "{}{}",
                    m["from"].as_str().unwrap_or(""),
                    m["to"].as_str().unwrap_or("")
                )
            })
            .collect();
        assert_eq!(shown[1], plies.join(" "), "{shown}");
    }
    // The best: the rook takes the king, a mate in one, marked on the board.
    assert_eq!(
        lines[0]["moves"][0],
        json!({"from": "a1", "to": "a8"}),
        "{answer}"
    );
    assert_eq!(shown[0][2], "White mates in 1 move", "{shown}");
    let marks = client
        .execute(
            "return [...document.querySelectorAll('.sq.engine-from, .sq.engine-to')].map(e => [e.dataset.square, e.classList.contains('engine-to')])",
            vec![],
        )
        .await
        .expect("the marks");
    assert_eq!(
        marks,
        json!([["a8", true], ["a1", false]]),
        "board order is from rank 8 down"
    );

    // A move changes the position: the lines and the marks go.
    type_into(&client, "#lab-move-text", "h1g1\n").await;
    wait_label(&client, "g1", "white king").await;
    wait_for(&client, "the panel cleared", "return document.querySelectorAll('#engine-list li, .sq.engine-from, .sq.engine-to').length === 0").await;

    // A finished game's position in a lab of its own.
    let game = finished_game(&base).await;
    client
        .goto(&format!("{base}/#/lab?game={game}&ply=1"))
        .await
        .expect("the lab of a game");
    wait_label(&client, "e3", "white pawn").await;
    wait_label(&client, "e2", "e2, empty").await;
    wait_label(&client, "d1", "king").await;
    let url = client.current_url().await.expect("the address");
    assert!(
        url.as_str().ends_with("#/lab"),
        "a reload keeps this lab: {url}"
    );
    click(&client, "#engine-go").await;
    wait_for(
        &client,
        "a line for Black",
        "return document.querySelectorAll('#engine-list li').length === 1",
    )
    .await;
    assert!(
        text_of(&client, "#engine-status")
            .await
            .contains("Black to move")
    );
}
