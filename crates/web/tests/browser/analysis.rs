//! Issue 35, the page: a finished game against the greedy bot — White leaving a king to be taken
//! whenever it can, so that the bot ends it and the analysis has a blunder to mark — opened on
//! its record page. "Request analysis" shows its progress, then the evaluation graph (one point
//! per ply), the marks beside the moves where the server's JSON judges them, the better move as
//! an arrow, both accuracies; a point of the graph moves the board to its ply. The same in Slovak
//! shows no English; "Explore from here" opens the position in a lab.

use super::*;

/// White's moves at most before it resigns (the bot takes a king long before, as a rule).
const WHITE_MOVES: usize = 30;

/// Small searches, so that the game's analysis takes seconds.
pub(super) fn small_analyses(settings: &mut gmo_server::Settings) {
    settings.play.analysis_nodes = 2_000;
    settings.play.first_move_time = Duration::from_secs(300);
}

async fn get_json(url: String, token: Option<&str>) -> Value {
    let mut request = reqwest::Client::new().get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let answer = request.send().await.expect("the server answers");
    let status = answer.status();
    let body: Value = answer.json().await.unwrap_or_default();
    assert!(status.is_success(), "{status}: {body}");
    body
}

/// A White move that leaves a king to the bot if there is one, else any safe one; None when
/// White has no move.
async fn white_move(base: &str, id: &str, token: &str, view: &Value) -> Option<(String, String)> {
    let mut fallback = None;
    let board = view["board"].as_array().cloned().unwrap_or_default();
    for piece in board.iter().filter(|p| p["color"] == "white") {
        let from = piece["square"].as_str().unwrap_or_default().to_owned();
        let moves = get_json(format!("{base}/api/games/{id}/moves/{from}"), Some(token)).await;
        for step in moves.as_array().cloned().unwrap_or_default() {
            if step["loses_own_king"] == json!(true) {
                continue;
            }
            let to = step["to"].as_str().unwrap_or_default().to_owned();
            if step["exposes_king"] == json!(true) {
                return Some((from, to));
            }
            fallback.get_or_insert((from.clone(), to));
        }
    }
    fallback
}

/// A move through the API → whether it was made (false while the game is frozen after the bot's
/// move: the next look tries again).
async fn moved(base: &str, id: &str, token: &str, from: &str, to: &str) -> bool {
    let answer = reqwest::Client::new()
        .post(format!("{base}/api/games/{id}/moves"))
        .bearer_auth(token)
        .json(&json!({"from": from, "to": to}))
        .send()
        .await
        .expect("the server answers");
    let status = answer.status();
    let body: Value = answer.json().await.unwrap_or_default();
    if status == 409 && body["error"]["code"] == "frozen" {
        return false;
    }
    assert!(status.is_success(), "{from}–{to}: {status} {body}");
    true
}

/// A game against `bot:greedy`, played by White through the API until it ends (White resigns
/// after `WHITE_MOVES`) → its id and White's token.
pub(super) async fn finished_bot_game(base: &str) -> (String, String) {
    let client = reqwest::Client::new();
    let created: Value = client
        .post(format!("{base}/api/games"))
        .json(&json!({"black": "bot:greedy"}))
        .send()
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("the game");
    let id = created["id"].as_str().expect("an id").to_owned();
    let white = created["seats"]["white"]["token"]
        .as_str()
        .expect("White's token")
        .to_owned();
    let loaded = client
        .put(format!("{base}/api/games/{id}/preset"))
        .bearer_auth(&white)
        .json(&json!({"preset": "default"}))
        .send()
        .await
        .expect("the preset");
    assert!(loaded.status().is_success());
    api_act(base, &id, &white, "kings/d1", Value::Null).await;
    api_act(base, &id, &white, "ready", Value::Null).await;
    let started = Instant::now();
    let mut played = 0;
    loop {
        let view = get_json(format!("{base}/api/games/{id}"), Some(&white)).await;
        let status = view["status"].as_str().unwrap_or_default();
        if status != "in_progress" && status != "setup" {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the bot game lasts: {view}"
        );
        if status != "in_progress" || view["to_move"] != "white" || !view["promotion_due"].is_null()
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        match white_move(base, &id, &white, &view).await {
            Some((from, to)) if played < WHITE_MOVES => {
                if moved(base, &id, &white, &from, &to).await {
                    played += 1;
                } else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
            _ => {
                api_act(base, &id, &white, "resign", Value::Null).await;
                break;
            }
        }
    }
    (id, white)
}

/// The record page of `id`, analysed: "Request analysis" clicked, the progress seen, the state
/// done → the server's analysis.
async fn request_analysis(client: &Client, base: &str, id: &str, done: &str) -> Value {
    client
        .goto(&format!("{base}/#/record/{id}"))
        .await
        .expect("the record opens");
    wait_for(
        client,
        "the request button",
        "const b = document.querySelector('#request-analysis'); return !!b && !b.hidden",
    )
    .await;
    // Every state the panel says, and whether the progress bar was shown, kept from now on.
    client
        .execute(
            "window.__analysis = []; const s = document.querySelector('#analysis-state'); \
             new MutationObserver(() => window.__analysis.push([s.textContent, !document.querySelector('#analysis-progress').hidden])) \
               .observe(s, {childList: true, characterData: true, subtree: true})",
            vec![],
        )
        .await
        .expect("the state watched");
    click(client, "#request-analysis").await;
    let script = format!(
        "return (document.querySelector('#analysis-state')?.textContent ?? '').startsWith({done:?})"
    );
    wait_for(client, "the analysis done", &script).await;
    let answer = get_json(format!("{base}/api/games/{id}/analysis"), None).await;
    assert_eq!(answer["state"], "done", "{answer}");
    answer
}

/// The greedy bot's game analysed on its record page, checked against the server's JSON.
pub(super) async fn analysed_record(driver: &mut Driver, base: String) {
    let (id, _) = finished_bot_game(&base).await;
    let client = driver.session(1280, 900).await;
    let analysis = request_analysis(&client, &base, &id, "Analysed").await;
    let plies = analysis["plies"].as_array().cloned().unwrap_or_default();
    let record = get_json(format!("{base}/api/games/{id}/plies"), None).await;
    let total = record
        .as_array()
        .or_else(|| record["plies"].as_array())
        .map(Vec::len)
        .expect("the plies");
    assert!(total >= 2, "a game of {total} plies");
    assert_eq!(plies.len(), total, "one analysed ply per ply: {analysis}");

    // The progress was shown while it ran (a state other than done, with the bar).
    let seen = client
        .execute("return window.__analysis", vec![])
        .await
        .expect("the states");
    let seen = seen.as_array().cloned().unwrap_or_default();
    assert!(
        seen.iter().any(|state| state[1] == json!(true)),
        "no progress shown: {seen:?}"
    );

    // One point per ply, each named.
    let points = client
        .execute(
            "return [...document.querySelectorAll('#analysis-graph [data-ply]')].map(p => [Number(p.dataset.ply), p.getAttribute('aria-label')])",
            vec![],
        )
        .await
        .expect("the points");
    let points = points.as_array().cloned().unwrap_or_default();
    assert_eq!(points.len(), total, "{points:?}");
    for (i, point) in points.iter().enumerate() {
        assert_eq!(point[0], json!(i + 1));
        let name = point[1].as_str().unwrap_or_default();
        assert!(name.starts_with(&format!("Ply {}, ", i + 1)), "{name}");
    }

    // The marks: exactly where the server judged a ply, each with its symbol and its name.
    let marks = client
        .execute(
            "return [...document.querySelectorAll('#record-moves .ply-line')].map(l => { \
               const m = l.querySelector('.mark'); return [Number(l.dataset.index) + 1, m.className, m.textContent, m.getAttribute('aria-label')]; })",
            vec![],
        )
        .await
        .expect("the marks");
    let expected: Vec<Value> = plies
        .iter()
        .filter(|p| !p["judgement"].is_null())
        .map(|p| {
            let judgement = p["judgement"].as_str().unwrap_or_default();
            let (symbol, name) = match judgement {
                "inaccuracy" => ("?!", "Inaccuracy"),
                "mistake" => ("?", "Mistake"),
                _ => ("??", "Blunder"),
            };
            json!([p["ply"], format!("mark {judgement}"), symbol, name])
        })
        .collect();
    assert!(!expected.is_empty(), "no ply judged: {analysis}");
    assert_eq!(marks, json!(expected));

    // A point goes to its ply: the judged one, with the better move as an arrow if there is one.
    let judged = &plies
        .iter()
        .find(|p| !p["judgement"].is_null())
        .expect("a judged ply");
    let ply = judged["ply"].as_u64().expect("a ply number");
    click(&client, &format!("#analysis-graph [data-ply=\"{ply}\"]")).await;
    let script = format!(
        "return (document.querySelector('#record-where')?.textContent ?? '').includes('(ply {ply} of {total})')"
    );
    wait_for(&client, "the board at the judged ply", &script).await;
    let current = client
        .execute(
            "return [document.querySelector('#record-moves .ply.current')?.dataset.index, \
               document.querySelector('#analysis-graph .point.current')?.dataset.ply]",
            vec![],
        )
        .await
        .expect("the ply shown");
    assert_eq!(current, json!([(ply - 1).to_string(), ply.to_string()]));
    let arrow = client
        .execute(
            "const a = document.querySelector('.board svg.arrow'); return a ? [a.dataset.from, a.dataset.to] : null",
            vec![],
        )
        .await
        .expect("the arrow");
    if judged["best"].is_null() {
        assert_eq!(arrow, Value::Null);
    } else {
        assert_eq!(arrow, json!([judged["best"]["from"], judged["best"]["to"]]));
        assert!(text_of(&client, "#analysis-best").await.contains(&format!(
            "{}–{}",
            judged["best"]["from"].as_str().unwrap_or_default(),
            judged["best"]["to"].as_str().unwrap_or_default()
        )));
    }
    // The start has no arrow; a point back to the first ply.
    click(&client, "#record-first").await;
    wait_for(
        &client,
        "no arrow at the start",
        "return !document.querySelector('.board svg.arrow')",
    )
    .await;
    click(&client, "#analysis-graph [data-ply=\"1\"]").await;
    let script = format!(
        "return (document.querySelector('#record-where')?.textContent ?? '').includes('(ply 1 of {total})')"
    );
    wait_for(&client, "the board at the first ply", &script).await;
    // The graph is one tab stop, the point shown; → steps on and the focus follows.
    let stops = client
        .execute(
            "return [...document.querySelectorAll('#analysis-graph [tabindex=\"0\"]')].map(p => p.dataset.ply)",
            vec![],
        )
        .await
        .expect("the tab stops");
    assert_eq!(stops, json!(["1"]));
    client
        .execute(
            "document.querySelector('#analysis-graph [data-ply=\"1\"]').focus()",
            vec![],
        )
        .await
        .expect("the focus");
    let focused = client.active_element().await.expect("the focus");
    focused.send_keys("\u{E014}").await.expect("→");
    let script = format!(
        "return (document.querySelector('#record-where')?.textContent ?? '').includes('(ply 2 of {total})') \
           && document.activeElement?.dataset?.ply === '2'"
    );
    wait_for(&client, "the second ply, focused in the graph", &script).await;

    // Both accuracies, as the server gives them (one decimal).
    for color in ["white", "black"] {
        let shown = text_of(&client, &format!("#accuracy-{color}")).await;
        let number: String = shown
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let value = analysis["accuracy"][color].as_f64().expect("an accuracy");
        let read: f64 = number.parse().unwrap_or(f64::NAN);
        assert!(
            (read - value).abs() < 0.051,
            "{color}: {shown} against {value}"
        );
    }
    shoot(&client, "record-analysed.png").await;
    let errors = client
        .execute("return window.__errors ?? []", vec![])
        .await
        .unwrap_or_default();
    assert_eq!(errors, json!([]));
    client.close().await.expect("closed");
}

/// The same in Slovak: no English on the analysed record, a point and the arrow shown.
pub(super) async fn analysed_record_in_slovak(driver: &mut Driver, base: String) {
    let (id, _) = finished_bot_game(&base).await;
    let client = driver.session_in(1280, 900, Some("sk-SK,sk")).await;
    let analysis = request_analysis(&client, &base, &id, "Rozobraté").await;
    let judged = analysis["plies"]
        .as_array()
        .and_then(|plies| plies.iter().find(|p| !p["best"].is_null()).cloned())
        .unwrap_or_else(|| json!({"ply": 1}));
    click(
        &client,
        &format!("#analysis-graph [data-ply=\"{}\"]", judged["ply"]),
    )
    .await;
    super::tour::check(&client, "sk", "an analysed record").await;
    client.close().await.expect("closed");
}

/// "Explore from here": the position after the shown ply opens in a lab (POST /api/labs {game,
/// ply}), whose board is the record's.
pub(super) async fn explore_from_here(driver: &mut Driver, base: String) {
    let (id, _) = finished_bot_game(&base).await;
    let client = driver.session(1280, 900).await;
    client
        .goto(&format!("{base}/#/record/{id}"))
        .await
        .expect("the record opens");
    wait_for(
        &client,
        "the record",
        "return !!document.querySelector('#record-moves .ply')",
    )
    .await;
    click(&client, "#record-next").await;
    click(&client, "#record-next").await;
    wait_for(
        &client,
        "the second ply",
        "return (document.querySelector('#record-where')?.textContent ?? '').includes('(ply 2 of')",
    )
    .await;
    let shown = client
        .execute(
            "return [...document.querySelectorAll('.board [data-square]')].map(s => s.getAttribute('aria-label')).sort()",
            vec![],
        )
        .await
        .expect("the record's board");
    click(&client, "#record-explore").await;
    wait_for(
        &client,
        "the lab",
        "return location.hash === '#/lab' && !!document.querySelector('.board [data-square=\"h8\"]')",
    )
    .await;
    let script = format!(
        "const now = [...document.querySelectorAll('.board [data-square]')].map(s => s.getAttribute('aria-label')).sort(); \
         return JSON.stringify(now) === JSON.stringify({shown})"
    );
    wait_for(&client, "the lab holding the record's position", &script).await;
    client.close().await.expect("closed");
}

/// A server in discovery, with small analyses.
pub(super) fn discovery_analyses(settings: &mut gmo_server::Settings) {
    small_analyses(settings);
    settings.play.discovery = true;
}

/// A game played in discovery: its record says why it has no analysis, offers no button and asks
/// the server nothing (which would answer 403 `discovery`).
pub(super) async fn no_analysis_in_discovery(driver: &mut Driver, base: String) {
    let (id, _) = finished_bot_game(&base).await;
    let refused = reqwest::get(format!("{base}/api/games/{id}/analysis"))
        .await
        .expect("the server answers");
    assert_eq!(refused.status(), 403);
    let client = driver.session(1280, 900).await;
    log_every_request(&client).await;
    client
        .goto(&format!("{base}/#/record/{id}"))
        .await
        .expect("the record opens");
    wait_for(
        &client,
        "the discovery note",
        "return (document.querySelector('#analysis-state')?.textContent ?? '').includes('played in discovery')",
    )
    .await;
    let shown = client
        .execute(
            "const b = document.querySelector('#request-analysis'); \
             return [!!b && !b.hidden, document.querySelectorAll('#analysis-graph [data-ply]').length, \
               performance.getEntriesByType('resource').filter(e => e.name.includes('/api/games/') && e.name.endsWith('/analysis')).length]",
            vec![],
        )
        .await
        .expect("the panel");
    assert_eq!(shown, json!([false, 0, 0]));
    client.close().await.expect("closed");
}
