//! Issue 34, the piece library over HTTP on both backends: publishing genomes and presets,
//! search with every filter and order, stable pages, edits and withdrawals by the author only,
//! stars counted once, the daily bound, games counted once when they end, values from the
//! evaluation, lineage from breeding, an operator's hiding, and `403 discovery`.

mod discovery;

use crate::common::{Answer, Server};
use crate::ratings::{Player, call, sign_up};
use crate::{fresh_genome, new_game, play, preset, set_up};
use gmo_types::EntryId;
use reqwest::Method;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Evaluations of 4 games, so that a value comes within seconds.
fn quick_values(settings: &mut gmo_server::Settings) {
    settings.play.value_games = 4;
    settings.play.max_value_jobs = 1;
    settings.play.max_value_queue = 50;
}

both_with!(super::quick_values;
    entries_are_published_found_and_read,
    search_filters_orders_and_pages_are_stable,
    only_the_author_edits_and_withdraws_and_codes_keep_working,
    bad_input_is_refused_naming_the_field_and_changes_nothing,
    stars_count_once_per_account,
    an_account_publishes_twenty_entries_a_day,
    games_played_with_an_entry_are_counted_once_when_they_end,
    a_genome_entry_gets_its_value_and_shows_its_lineage,
    an_operator_hides_an_entry_and_its_code_still_works,
    library_answers_fit_the_document,
);

async fn as_player(
    server: &Server,
    who: &Player,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> Answer {
    call(server, who, method, path, None, body).await
}

/// Stores `n`-th fresh genome → its code.
async fn stored_genome(server: &Server, n: usize) -> String {
    let genome = fresh_genome(n);
    let stored = server
        .post("/api/genomes", None, json!({"dna": genome.to_string()}))
        .await;
    assert!(matches!(stored.status, 200 | 201), "{}", stored.text);
    stored.body["code"].as_str().expect("a code").to_owned()
}

async fn publish(server: &Server, who: &Player, body: Value) -> Value {
    let made = as_player(server, who, Method::POST, "/api/library", Some(body)).await;
    assert_eq!(made.status, 201, "{}", made.text);
    made.body
}

async fn search(server: &Server, query: &str) -> Value {
    let found = server.get(&format!("/api/library?{query}"), None).await;
    assert_eq!(found.status, 200, "{query}: {}", found.text);
    found.body
}

fn names(page: &Value) -> Vec<String> {
    page["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|entry| entry["name"].as_str().expect("a name").to_owned())
        .collect()
}

async fn entry(server: &Server, id: &Value) -> Answer {
    server
        .get(
            &format!("/api/library/{}", id.as_str().expect("an id")),
            None,
        )
        .await
}

/// Polls entry `id` until `done` holds of it (the counts are written after the answer).
async fn entry_until(server: &Server, id: &Value, done: impl Fn(&Value) -> bool) -> Value {
    // Four games of the search bot in a debug build on a busy machine can take a while.
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let found = entry(server, id).await;
        assert_eq!(found.status, 200, "{}", found.text);
        if done(&found.body) {
            return found.body;
        }
        assert!(Instant::now() < deadline, "never came: {}", found.text);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn entries_are_published_found_and_read(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let code = stored_genome(&server, 0).await;
    let genome = publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": code, "name": "  Twin Rook ",
               "description": "Slides like a rook, Šťastne."}),
    )
    .await;
    assert_eq!(genome["kind"], "genome");
    assert_eq!(genome["code"], code);
    assert_eq!(genome["name"], "Twin Rook", "trimmed");
    assert_eq!(genome["author"], "ada");
    assert_eq!(genome["stars"], 0);
    assert_eq!(genome["games"], 0);
    assert_eq!(genome["wins"], 0);
    assert_eq!(
        genome["diagram"],
        format!("/api/genomes/{code}/diagram.svg")
    );
    assert!(
        genome["created_at"]
            .as_str()
            .expect("a time")
            .ends_with('Z')
    );
    let does = genome["does"].as_array().expect("does");
    assert!(does.contains(&json!("slides")), "{does:?}");
    let army = publish(
        &server,
        &ada,
        json!({"kind": "preset", "code": "default", "name": "The classic army"}),
    )
    .await;
    assert_eq!(army["kind"], "preset");
    assert_eq!(army["description"], "");
    assert_eq!(army["diagram"], Value::Null);
    let default = server.get("/api/presets/default", None).await;
    assert_eq!(army["code"], default.body["code"], "stored under the code");

    let one = entry(&server, &genome["id"]).await;
    assert_eq!(one.status, 200, "{}", one.text);
    assert_eq!(one.body["name"], "Twin Rook");
    assert_eq!(one.body["starred"], false);
    assert_eq!(one.body["lineage"], json!({"parents": [], "children": []}));
    // Publishing asked for its evaluation (bounded as any other).
    assert!(one.body["evaluation"].is_object(), "{}", one.text);
    let asked = server
        .get(&format!("/api/genomes/{code}/value"), None)
        .await;
    assert_eq!(asked.status, 200, "{}", asked.text);

    // Text search: word prefixes of names and descriptions, in any case and language.
    assert_eq!(names(&search(&server, "q=twi").await), vec!["Twin Rook"]);
    assert_eq!(
        names(&search(&server, "q=%C5%A1%C5%A5ast").await),
        vec!["Twin Rook"]
    );
    assert_eq!(
        names(&search(&server, "q=CLASSIC%20arm").await),
        vec!["The classic army"]
    );
    assert!(names(&search(&server, "q=rookie").await).is_empty());
    assert_eq!(
        names(&search(&server, "kind=preset").await),
        vec!["The classic army"]
    );
    assert_eq!(
        search(&server, "author=ADA").await["entries"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    assert_eq!(search(&server, "author=nobody").await["entries"], json!([]));
}

async fn search_filters_orders_and_pages_are_stable(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let bob = sign_up(&server, "bob").await;
    let knight = publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": "knight", "name": "Jumper"}),
    )
    .await;
    // A later millisecond, so that the newest is certain.
    tokio::time::sleep(Duration::from_millis(5)).await;
    let rook = publish(
        &server,
        &bob,
        json!({"kind": "genome", "code": "rook", "name": "Slider"}),
    )
    .await;
    assert!(
        knight["does"]
            .as_array()
            .expect("does")
            .contains(&json!("leaps"))
    );
    assert_eq!(names(&search(&server, "does=leaps").await), vec!["Jumper"]);
    assert_eq!(
        names(&search(&server, "does=slides,no_wrap").await),
        vec!["Slider"]
    );
    assert!(names(&search(&server, "does=copies").await).is_empty());
    // Newest first; stars then order by count.
    assert_eq!(
        names(&search(&server, "sort=new").await),
        vec!["Slider", "Jumper"]
    );
    let starred = as_player(
        &server,
        &bob,
        Method::PUT,
        &format!("/api/library/{}/star", knight["id"].as_str().expect("id")),
        None,
    )
    .await;
    assert_eq!(starred.status, 200, "{}", starred.text);
    assert_eq!(
        names(&search(&server, "sort=stars").await),
        vec!["Jumper", "Slider"]
    );
    // Ties keep one order (by id), so pages never repeat or skip.
    let popular = names(&search(&server, "sort=popular").await);
    assert_eq!(popular, names(&search(&server, "sort=popular").await));
    assert_eq!(popular.len(), 2);
    assert_eq!(rook["author"], "bob");

    // 55 entries make two pages: 50 and 5, none twice (three authors: twenty a day each).
    let cid = sign_up(&server, "cid").await;
    for n in 0..53 {
        let who = [&ada, &bob, &cid][n % 3];
        let name = format!("Army {n:02}");
        publish(
            &server,
            who,
            json!({"kind": "preset", "code": "default", "name": name}),
        )
        .await;
    }
    let first = search(&server, "sort=new").await;
    let second = search(&server, "sort=new&page=2").await;
    assert_eq!(first["entries"].as_array().map(Vec::len), Some(50));
    assert_eq!(first["more"], true);
    assert_eq!(second["entries"].as_array().map(Vec::len), Some(5));
    assert_eq!(second["more"], false);
    let mut all = names(&first);
    all.extend(names(&second));
    let count = all.len();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), count, "no entry on two pages");
    let times: Vec<&str> = first["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .chain(second["entries"].as_array().expect("entries"))
        .map(|entry| entry["created_at"].as_str().expect("a time"))
        .collect();
    assert!(
        times.windows(2).all(|pair| pair[0] >= pair[1]),
        "newest first: {times:?}"
    );
}

async fn only_the_author_edits_and_withdraws_and_codes_keep_working(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let bob = sign_up(&server, "bob").await;
    let code = stored_genome(&server, 1).await;
    let made = publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": code, "name": "Crab"}),
    )
    .await;
    let path = format!("/api/library/{}", made["id"].as_str().expect("id"));
    let edited = as_player(
        &server,
        &ada,
        Method::PATCH,
        &path,
        Some(json!({"description": "Walks sideways"})),
    )
    .await;
    assert_eq!(edited.status, 200, "{}", edited.text);
    assert_eq!(edited.body["description"], "Walks sideways");
    assert_eq!(edited.body["name"], "Crab");
    assert_eq!(names(&search(&server, "q=sideways").await), vec!["Crab"]);
    let renamed = as_player(
        &server,
        &ada,
        Method::PATCH,
        &path,
        Some(json!({"name": "Lobster"})),
    )
    .await;
    assert_eq!(renamed.status, 200, "{}", renamed.text);
    assert!(
        names(&search(&server, "q=crab").await).is_empty(),
        "the old words are gone"
    );
    assert_eq!(names(&search(&server, "q=lobster").await), vec!["Lobster"]);

    for method in [Method::PATCH, Method::DELETE] {
        let body = (method == Method::PATCH).then(|| json!({"name": "Mine now"}));
        let refused = as_player(&server, &bob, method.clone(), &path, body.clone()).await;
        assert_eq!(refused.status, 403, "{method}: {}", refused.text);
        let anonymous = server.call(method.clone(), &path, None, body).await;
        assert_eq!(anonymous.status, 401, "{method}: {}", anonymous.text);
    }
    assert_eq!(
        server.get(&path, None).await.body["name"],
        "Lobster",
        "unchanged"
    );

    let withdrawn = as_player(&server, &ada, Method::DELETE, &path, None).await;
    assert_eq!(withdrawn.status, 204, "{}", withdrawn.text);
    assert_eq!(server.get(&path, None).await.status, 404);
    assert!(names(&search(&server, "q=lobster").await).is_empty());
    let again = as_player(&server, &ada, Method::DELETE, &path, None).await;
    assert_eq!(again.status, 404, "{}", again.text);
    // The code keeps working everywhere: the genome, its diagram, a preset with it.
    assert_eq!(
        server
            .get(&format!("/api/genomes/{code}"), None)
            .await
            .status,
        200
    );
    assert_eq!(
        server
            .get(&format!("/api/genomes/{code}/diagram.svg"), None)
            .await
            .status,
        200
    );
    preset(&server, &[code.as_str(), "king", "rook", "rook"]).await;
    // The name is free again.
    publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": code, "name": "LOBSTER"}),
    )
    .await;
}

async fn bad_input_is_refused_naming_the_field_and_changes_nothing(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let anonymous = server
        .post(
            "/api/library",
            None,
            json!({"kind": "genome", "code": "rook", "name": "Rooky"}),
        )
        .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
    assert_eq!(anonymous.body["error"]["code"], "sign_in_needed");
    let cases = [
        (
            json!({"kind": "genome", "code": "rook", "name": "ab"}),
            422,
            "bad_entry",
            "`name`",
        ),
        (
            json!({"kind": "genome", "code": "rook", "name": "x".repeat(41)}),
            422,
            "bad_entry",
            "`name`",
        ),
        (
            json!({"kind": "genome", "code": "rook", "name": "tab\there"}),
            422,
            "bad_entry",
            "`name`",
        ),
        (
            json!({"kind": "genome", "code": "rook", "name": "Rooky", "description": "a\u{7}b"}),
            422,
            "bad_entry",
            "`description`",
        ),
        (
            json!({"kind": "genome", "code": "rook", "name": "Rooky", "description": "x".repeat(501)}),
            422,
            "bad_entry",
            "`description`",
        ),
        (
            json!({"kind": "piece", "code": "rook", "name": "Rooky"}),
            422,
            "invalid_field",
            "kind",
        ),
        (
            json!({"kind": "genome", "code": "rook"}),
            422,
            "invalid_field",
            "name",
        ),
        (
            json!({"kind": "genome", "code": "rook", "name": "Rooky", "x": 1}),
            422,
            "invalid_field",
            "x",
        ),
        (
            json!({"kind": "genome", "code": "zzzzzz", "name": "Rooky"}),
            404,
            "not_found",
            "zzzzzz",
        ),
        (
            json!({"kind": "preset", "code": "rook", "name": "Rooky"}),
            404,
            "not_found",
            "rook",
        ),
    ];
    for (body, status, code, named) in cases {
        let answer = as_player(
            &server,
            &ada,
            Method::POST,
            "/api/library",
            Some(body.clone()),
        )
        .await;
        assert_eq!(answer.status, status, "{body}: {}", answer.text);
        assert_eq!(
            answer.body["error"]["code"], code,
            "{body}: {}",
            answer.text
        );
        let message = answer.body["error"]["message"].as_str().expect("a message");
        assert!(message.contains(named), "{body}: {message}");
    }
    assert_eq!(
        search(&server, "").await["entries"],
        json!([]),
        "nothing was published"
    );
    publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": "rook", "name": "Rooky"}),
    )
    .await;
    let taken = as_player(
        &server,
        &ada,
        Method::POST,
        "/api/library",
        Some(json!({"kind": "genome", "code": "queen", "name": "ROOKY"})),
    )
    .await;
    assert_eq!(taken.status, 409, "{}", taken.text);
    assert_eq!(taken.body["error"]["code"], "entry_name_taken");
    // Other authors may use the name.
    let bob = sign_up(&server, "bob").await;
    publish(
        &server,
        &bob,
        json!({"kind": "genome", "code": "queen", "name": "rooky"}),
    )
    .await;

    let unknown = server
        .get(&format!("/api/library/{}", EntryId::from_bits(7)), None)
        .await;
    assert_eq!(unknown.status, 404, "{}", unknown.text);
    assert_eq!(server.get("/api/library/nope", None).await.status, 400);
    for query in [
        "sort=best",
        "kind=army",
        "page=0",
        "value_min=abc",
        "does=flies",
        "color=red",
    ] {
        let refused = server.get(&format!("/api/library?{query}"), None).await;
        assert_eq!(refused.status, 422, "{query}: {}", refused.text);
        assert_eq!(refused.body["error"]["code"], "invalid_field");
    }
    let empty_edit = {
        let id = search(&server, "author=ada").await["entries"][0]["id"].clone();
        as_player(
            &server,
            &ada,
            Method::PATCH,
            &format!("/api/library/{}", id.as_str().expect("id")),
            Some(json!({})),
        )
        .await
    };
    assert_eq!(empty_edit.status, 422, "{}", empty_edit.text);
    assert_eq!(empty_edit.body["error"]["code"], "bad_entry");
}

async fn stars_count_once_per_account(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let bob = sign_up(&server, "bob").await;
    let cid = sign_up(&server, "cid").await;
    let made = publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": "rook", "name": "Rooky"}),
    )
    .await;
    let path = format!("/api/library/{}/star", made["id"].as_str().expect("id"));
    for (who, times) in [(&bob, 2), (&cid, 1)] {
        for _ in 0..times {
            let starred = as_player(&server, who, Method::PUT, &path, None).await;
            assert_eq!(starred.status, 200, "{}", starred.text);
            assert_eq!(starred.body["starred"], true);
        }
    }
    assert_eq!(
        entry(&server, &made["id"]).await.body["stars"],
        2,
        "twice by bob counts once"
    );
    let unstarred = as_player(&server, &bob, Method::DELETE, &path, None).await;
    assert_eq!(unstarred.status, 200, "{}", unstarred.text);
    assert_eq!(unstarred.body["stars"], 1);
    assert_eq!(unstarred.body["starred"], false);
    let again = as_player(&server, &bob, Method::DELETE, &path, None).await;
    assert_eq!(again.body["stars"], 1, "unstarring twice takes one star");
    assert_eq!(server.put(&path, None, json!({})).await.status, 401);
    let missing = format!("/api/library/{}/star", EntryId::from_bits(9));
    assert_eq!(
        as_player(&server, &bob, Method::PUT, &missing, None)
            .await
            .status,
        404
    );
}

async fn an_account_publishes_twenty_entries_a_day(server: Server) {
    let ada = sign_up(&server, "ada").await;
    for n in 0..20 {
        publish(
            &server,
            &ada,
            json!({"kind": "preset", "code": "default", "name": format!("Army {n}")}),
        )
        .await;
    }
    let refused = server
        .client
        .post(format!("{}/api/library", server.base))
        .header("cookie", &ada.cookie)
        .json(&json!({"kind": "preset", "code": "default", "name": "Army 20"}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(refused.status().as_u16(), 429);
    let wait: u64 = refused.headers()["retry-after"]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!((86_000..=86_400).contains(&wait), "about a day: {wait}");
    let body: Value = refused.json().await.expect("json");
    assert_eq!(body["error"]["code"], "rate_limited");
    assert_eq!(
        search(&server, "author=ada").await["entries"]
            .as_array()
            .map(Vec::len),
        Some(20)
    );
    // Withdrawing does not give a publication back; another account has its own twenty.
    let bob = sign_up(&server, "bob").await;
    publish(
        &server,
        &bob,
        json!({"kind": "preset", "code": "default", "name": "Army 20"}),
    )
    .await;
}

async fn games_played_with_an_entry_are_counted_once_when_they_end(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let white_preset = preset(&server, &["rook", "king", "rook", "rook"]).await;
    let black_preset = preset(&server, &["rook", "rook", "king", "rook"]).await;
    let army = publish(
        &server,
        &ada,
        json!({"kind": "preset", "code": white_preset, "name": "Four files"}),
    )
    .await;
    let rook = publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": "rook", "name": "Rooky"}),
    )
    .await;
    let queen = publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": "queen", "name": "Queeny"}),
    )
    .await;
    let first = played(&server, &white_preset, &black_preset, false).await;
    let army_now = entry_until(&server, &army["id"], |e| e["games"] == 1).await;
    assert_eq!(army_now["wins"], 1, "White fielded the army and won");
    let rook_now = entry_until(&server, &rook["id"], |e| e["games"] == 1).await;
    assert_eq!(
        rook_now["wins"], 1,
        "both sides fielded rooks: one game, won by a rook side"
    );
    played(&server, &white_preset, &black_preset, true).await;
    let army_now = entry_until(&server, &army["id"], |e| e["games"] == 2).await;
    assert_eq!(army_now["wins"], 1, "White fielded the army and lost");
    assert_eq!(
        entry(&server, &queen["id"]).await.body["games"],
        0,
        "nobody fielded a queen"
    );

    // Counting the first game again (another process, a retry) changes nothing.
    let again = server
        .app
        .play
        .store()
        .count_library_game(&gmo_store::FinishedGame {
            game: &first,
            white: gmo_store::Fielded::default(),
            black: gmo_store::Fielded::default(),
            white_won: Some(true),
            now: gmo_types::Timestamp::from_ms(0),
        })
        .await
        .expect("counted");
    assert!(!again, "counted before");
    assert_eq!(entry(&server, &army["id"]).await.body["games"], 2);
    let popular = names(&search(&server, "sort=popular").await);
    assert_eq!(
        popular.last().map(String::as_str),
        Some("Queeny"),
        "{popular:?}"
    );
}

/// A 4 × 4 game with these presets, one move, then a resignation → its id.
async fn played(
    server: &Server,
    white_preset: &str,
    black_preset: &str,
    white_loses: bool,
) -> String {
    let (id, white, black, _) = new_game(
        server,
        json!({"width": 4, "height": 4, "clock": {"initial_ms": 60_000}}),
    )
    .await;
    set_up(server, &id, &white, white_preset, "b1").await;
    set_up(server, &id, &black, black_preset, "c4").await;
    play(server, &id, &white, "a2", "b3").await;
    let loser = if white_loses { &white } else { &black };
    let resigned = server
        .post(&format!("/api/games/{id}/resign"), Some(loser), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    id
}

async fn a_genome_entry_gets_its_value_and_shows_its_lineage(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let (a, b) = (
        stored_genome(&server, 2).await,
        stored_genome(&server, 3).await,
    );
    let bred = server
        .post(
            "/api/genomes/breed",
            None,
            json!({"a": a, "b": b, "seed": 7, "children": 4}),
        )
        .await;
    assert!(matches!(bred.status, 200 | 201), "{}", bred.text);
    let child = bred.body["children"]
        .as_array()
        .expect("children")
        .iter()
        .map(|c| c["code"].as_str().expect("a code").to_owned())
        .find(|code| *code != a && *code != b)
        .expect("a child unlike its parents");
    let parent = publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": a, "name": "Mother"}),
    )
    .await;
    let kid = publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": child, "name": "Kid"}),
    )
    .await;
    let shown = entry(&server, &kid["id"]).await;
    let parents = shown.body["lineage"]["parents"]
        .as_array()
        .expect("parents")
        .clone();
    let codes: Vec<&Value> = parents.iter().map(|p| &p["code"]).collect();
    assert_eq!(codes, vec![&json!(a), &json!(b)], "{}", shown.text);
    assert_eq!(parents[0]["entries"][0]["name"], "Mother");
    assert_eq!(
        parents[1]["entries"],
        json!([]),
        "the other parent is not published"
    );
    let mother = entry(&server, &parent["id"]).await;
    let children = mother.body["lineage"]["children"]
        .as_array()
        .expect("children")
        .clone();
    assert_eq!(children.len(), 1, "{}", mother.text);
    assert_eq!(children[0]["name"], "Kid");

    // The evaluation publishing started ends with a value, the same as the genome's own.
    let valued = entry_until(&server, &parent["id"], |e| e["value"].is_number()).await;
    assert_eq!(valued["evaluation"]["state"], "done");
    let value = server.get(&format!("/api/genomes/{a}/value"), None).await;
    let pawns = value.body["estimate"]["pawns"].as_f64().expect("pawns");
    assert!((valued["value"].as_f64().expect("a value") - pawns).abs() < 0.006);
    let found = search(&server, "sort=value").await;
    assert!(names(&found).contains(&"Mother".to_owned()), "{found}");
    let low = pawns - 0.01;
    let high = pawns + 0.01;
    assert!(
        names(&search(&server, &format!("value_min={low}&value_max={high}")).await)
            .contains(&"Mother".to_owned())
    );
    assert!(
        !names(&search(&server, &format!("value_min={}", pawns + 1.0)).await)
            .contains(&"Mother".to_owned())
    );
}

async fn an_operator_hides_an_entry_and_its_code_still_works(server: Server) {
    let ada = sign_up(&server, "ada").await;
    let made = publish(
        &server,
        &ada,
        json!({"kind": "genome", "code": "rook", "name": "Rude name"}),
    )
    .await;
    let id = EntryId::parse(made["id"].as_str().expect("id")).expect("an id");
    let entries = &server.app.play.entries;
    assert!(entries.hide(&id).await.expect("hidden"));
    assert!(
        !entries
            .hide(&EntryId::from_bits(3))
            .await
            .expect("no such entry")
    );
    assert_eq!(entry(&server, &made["id"]).await.status, 404);
    assert_eq!(search(&server, "").await["entries"], json!([]));
    assert_eq!(server.get("/api/genomes/rook", None).await.status, 200);
}

/// Every library answer, refusals included, fits the OpenAPI document's schema for it.
async fn library_answers_fit_the_document(server: Server) {
    let mut contract = crate::contract::Contract::of(&server).await;
    let ada = sign_up(&server, "ada").await;
    let bob = sign_up(&server, "bob").await;
    let body = json!({"kind": "genome", "code": "knight", "name": "Jumpy", "description": "Leaps"});
    let made = as_player(&server, &ada, Method::POST, "/api/library", Some(body)).await;
    contract.check(Method::POST, "/api/library", &made);
    let army = json!({"kind": "preset", "code": "default", "name": "Army"});
    let preset = as_player(&server, &ada, Method::POST, "/api/library", Some(army)).await;
    contract.check(Method::POST, "/api/library", &preset);
    let id = made.body["id"].as_str().expect("an id").to_owned();
    let one = format!("/api/library/{id}");
    let star = format!("{one}/star");
    let cases = [
        (
            Method::GET,
            "/api/library?q=jum&does=leaps&sort=new".to_owned(),
            "/api/library",
            None,
            &ada,
        ),
        (
            Method::GET,
            "/api/library?sort=nope".to_owned(),
            "/api/library",
            None,
            &ada,
        ),
        (Method::GET, one.clone(), "/api/library/{id}", None, &ada),
        (
            Method::GET,
            format!("/api/library/{}", preset.body["id"].as_str().expect("id")),
            "/api/library/{id}",
            None,
            &ada,
        ),
        (
            Method::PATCH,
            one.clone(),
            "/api/library/{id}",
            Some(json!({"name": "Jumpier"})),
            &ada,
        ),
        (
            Method::PATCH,
            one.clone(),
            "/api/library/{id}",
            Some(json!({"name": "x"})),
            &ada,
        ),
        (
            Method::PATCH,
            one.clone(),
            "/api/library/{id}",
            Some(json!({"name": "Mine"})),
            &bob,
        ),
        (
            Method::PUT,
            star.clone(),
            "/api/library/{id}/star",
            None,
            &bob,
        ),
        (
            Method::DELETE,
            star.clone(),
            "/api/library/{id}/star",
            None,
            &bob,
        ),
        (
            Method::POST,
            "/api/library".to_owned(),
            "/api/library",
            Some(json!({"kind": "genome", "code": "knight", "name": "jumpier"})),
            &ada,
        ),
        (
            Method::GET,
            format!("/api/library/{}", EntryId::from_bits(1)),
            "/api/library/{id}",
            None,
            &ada,
        ),
    ];
    for (method, path, documented, body, who) in cases {
        let answer = as_player(&server, who, method.clone(), &path, body).await;
        assert!(answer.status < 500, "{method} {path}: {}", answer.text);
        contract.check(method, documented, &answer);
    }
    let withdrawn = as_player(&server, &ada, Method::DELETE, &one, None).await;
    assert_eq!(withdrawn.status, 204);
    let anonymous = server
        .post(
            "/api/library",
            None,
            json!({"kind": "genome", "code": "rook", "name": "Rooky"}),
        )
        .await;
    contract.check(Method::POST, "/api/library", &anonymous);
}
