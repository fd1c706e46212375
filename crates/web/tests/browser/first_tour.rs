//! What a first tour on a phone, in an event and as a newcomer found (issue 37): the tap that
//! opens a question does not answer it, bot games wait for nobody, event games show only what the
//! server allows and speak of teams, discovery's box says one truth about hidden DNA.

use super::*;
use fantoccini::actions::{PenActions, TouchActions};

/// How a tap is made: a finger, a pen or a mouse (WebDriver's pointer types).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Pointer {
    Touch,
    Pen,
    Mouse,
}

/// A press and release on the middle of `selector`'s element by `pointer`, as one gesture.
pub(crate) async fn tap(client: &Client, selector: &str, pointer: Pointer) {
    let element = client
        .find(Locator::Css(selector))
        .await
        .unwrap_or_else(|error| panic!("{selector}: {error}"));
    let steps = [
        PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        },
        PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        },
        PointerAction::Pause {
            duration: Duration::from_millis(40),
        },
        PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        },
    ];
    let outcome = match pointer {
        Pointer::Touch => {
            let mut actions = TouchActions::new("finger".into());
            for step in steps {
                actions = actions.then(step);
            }
            client.perform_actions(actions).await
        }
        Pointer::Pen => {
            let mut actions = PenActions::new("pen".into());
            for step in steps {
                actions = actions.then(step);
            }
            client.perform_actions(actions).await
        }
        Pointer::Mouse => {
            let mut actions = MouseActions::new("mouse".into());
            for step in steps {
                actions = actions.then(step);
            }
            client.perform_actions(actions).await
        }
    };
    outcome.unwrap_or_else(|error| panic!("tapping {selector} ({pointer:?}): {error}"));
    client.release_actions().await.expect("released");
}

const QUESTION_OPEN: &str = "return !!document.querySelector('dialog#confirm-move[open]')";

/// From now on `window.__asked` turns true once the move question has been open, however briefly.
const WATCH_QUESTION: &str = "window.__asked = false; \
     const seen = () => { if (document.querySelector('dialog#confirm-move[open]')) window.__asked = true; }; \
     new MutationObserver(seen).observe(document.body, {childList: true, subtree: true, attributes: true})";

browser_test!(
    the_tap_that_opens_the_own_king_question_does_not_answer_it,
    own_king_on_a_phone,
    |settings| settings.play.first_move_time = Duration::from_secs(300)
);

/// White on a phone (390 × 844): the queen on e1 may take its own king on d1. A finger's tap on
/// d1 opens the question and the same tap's click answers nothing: the question stays open, no
/// move is made. Cancel by finger leaves the queen where it was. The same with a pen and a mouse;
/// then the finger takes the king after all, and the game is lost as asked.
async fn own_king_on_a_phone(driver: &mut Driver, base: String) {
    let white = driver.session(390, 844).await;
    let black = driver.session(1280, 900).await;
    start_friend_game(&white, &black, &base).await;
    for pointer in [Pointer::Touch, Pointer::Pen, Pointer::Mouse] {
        if !marks_of(&white, "e1").await[0]
            .as_str()
            .unwrap_or_default()
            .contains("selected")
        {
            tap(&white, "[data-square=\"e1\"]", pointer).await;
        }
        wait_for(
            &white,
            "the queen's moves",
            "return !!document.querySelector('.sq.target.loses-king[data-square=\"d1\"]')",
        )
        .await;
        white
            .execute(WATCH_QUESTION, vec![])
            .await
            .expect("the watch");
        tap(&white, "[data-square=\"d1\"]", pointer).await;
        wait_for(&white, "the question asked", "return window.__asked").await;
        // The tap's own click has come and gone by now.
        tokio::time::sleep(Duration::from_millis(700)).await;
        let open = white
            .execute(QUESTION_OPEN, vec![])
            .await
            .unwrap_or_default();
        assert_eq!(
            open,
            json!(true),
            "{pointer:?}: the tap that opened the question answered it"
        );
        shoot(&white, &format!("own-king-question-{pointer:?}-phone.png")).await;
        tap(&white, "#confirm-move-no", pointer).await;
        wait_for(
            &white,
            "the question gone",
            "return !document.querySelector('dialog#confirm-move')",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            label_of(&white, "d1").await.contains("white king"),
            "{pointer:?}: cancelled, the king stays"
        );
        assert!(!text_of(&white, "#move-list").await.contains("e1–d1"));
        assert!(
            text_of(&white, "#game-status")
                .await
                .starts_with("Your move")
        );
    }
    // Asked and answered by the finger: the king is taken.
    tap(&white, "[data-square=\"d1\"]", Pointer::Touch).await;
    wait_for(&white, "the question", QUESTION_OPEN).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    tap(&white, "#confirm-move-yes", Pointer::Touch).await;
    wait_status(&white, "You took your own king on d1").await;
    no_script_errors(&white).await;
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

browser_test!(a_bot_game_waits_for_nobody, bot_game_clock, |settings| {
    settings.play.first_move_time = Duration::from_secs(2)
});

/// On a server whose first moves are timed by 2 s: a newcomer on a phone starts a bot game and
/// reads for 3 s. No first-move countdown is shown, their own clock runs from the start, and the
/// game is still theirs to play (not aborted).
async fn bot_game_clock(driver: &mut Driver, base: String) {
    let client = driver.session(390, 844).await;
    client.goto(&format!("{base}/")).await.expect("home");
    click(&client, "#new-bot-game").await;
    wait_status(&client, "Your move").await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let shown = client
        .execute(
            "const e = document.querySelector('#first-move'); \
             const clock = document.querySelector('.player-bar.bottom .clock'); \
             return [!!e && !e.hidden && e.isConnected, clock?.classList.contains('running') ?? null, clock?.textContent ?? '', \
                     document.querySelector('#game-status')?.textContent ?? '']",
            vec![],
        )
        .await
        .expect("the page");
    assert_eq!(shown[0], json!(false), "no first-move countdown: {shown}");
    assert_eq!(shown[1], json!(true), "the reader's clock runs: {shown}");
    let clock = shown[2].as_str().unwrap_or_default();
    assert!(
        clock.starts_with("4:5") || clock.starts_with("4:4"),
        "about 3 s spent of 5:00: {shown}"
    );
    assert!(
        shown[3]
            .as_str()
            .unwrap_or_default()
            .starts_with("Your move"),
        "not aborted: {shown}"
    );
    no_script_errors(&client).await;
    client.close().await.expect("closed");
}

/// A team of an event made through the API.
struct ApiTeam {
    name: &'static str,
    code: String,
    token: String,
}

/// A discovery round robin of three teams (Orli, Sokoly, Vlci) made and started through the
/// API, the last team's lineup with a piece of its own on h → the event's id and the teams.
async fn api_event(base: &str) -> (String, Vec<ApiTeam>) {
    let cookie = api_sign_up(base, "leader").await;
    let session = ("cookie", cookie.as_str());
    let made = api_send(
        base,
        reqwest::Method::POST,
        "/api/events",
        session,
        Some(json!({"name": "Camp duels", "format": "round_robin",
                    "clock": {"initial_ms": 300_000}, "discovery": true})),
    )
    .await;
    let id = made["id"].as_str().expect("an event").to_owned();
    let mut teams = Vec::new();
    for name in ["Orli", "Sokoly", "Vlci"] {
        let added = api_send(
            base,
            reqwest::Method::POST,
            &format!("/api/events/{id}/teams"),
            session,
            Some(json!({"name": name})),
        )
        .await;
        let joined = api_send(
            base,
            reqwest::Method::POST,
            &format!("/api/events/{id}/join"),
            ("token", ""),
            Some(json!({"code": added["code"]})),
        )
        .await;
        teams.push(ApiTeam {
            name,
            code: added["code"].as_str().expect("a code").to_owned(),
            token: joined["token"].as_str().expect("its token").to_owned(),
        });
    }
    let client = reqwest::Client::new();
    let genome: Value = client
        .post(format!("{base}/api/genomes"))
        .json(&json!({"dna": CUSTOM_DNA}))
        .send()
        .await
        .expect("the genome stored")
        .json()
        .await
        .expect("its code");
    let preset = api_send(
        base,
        reqwest::Method::POST,
        "/api/presets",
        ("token", ""),
        Some(json!({"genomes": ["rook", "knight", "bishop", "king", "queen", "bishop", "knight", genome["code"]]})),
    )
    .await;
    for team in &teams {
        api_send(
            base,
            reqwest::Method::PUT,
            &format!("/api/events/{id}/lineup"),
            ("token", &team.token),
            Some(json!({"preset": preset["code"], "kings": ["d1"]})),
        )
        .await;
    }
    api_send(
        base,
        reqwest::Method::POST,
        &format!("/api/events/{id}/start"),
        session,
        None,
    )
    .await;
    (id, teams)
}

/// A team's game of the round → (game, seat), none with a bye.
async fn api_team_game(base: &str, event: &str, team: &ApiTeam) -> Option<(String, String)> {
    let answer = reqwest::Client::new()
        .get(format!("{base}/api/events/{event}/game"))
        .bearer_auth(&team.token)
        .send()
        .await
        .expect("the server answers");
    if answer.status() == 404 {
        return None;
    }
    let body: Value = answer.json().await.expect("the game");
    Some((
        body["game"].as_str().expect("a game").to_owned(),
        body["seat"].as_str().expect("a seat").to_owned(),
    ))
}

browser_test!(
    an_event_game_speaks_of_teams_and_offers_only_what_the_server_allows,
    event_game
);

/// A discovery event of three teams, round 1. The first paired team's player (a phone) opens the
/// team page, then its game: the game names the event, round, board and teams, each bar its
/// team, no Abort before the first move; the box for chess players says the opponent's DNA stays
/// hidden during the game and after (the game's mode, on an ordinary server); the opponent's own
/// piece is "an unknown piece", never its species label. The other team resigns: the result says
/// which team won, offers no rematch and no new game but the way back to the team's page, which
/// says the team won; the bye is listed under the numbered boards; the projector stands without
/// the site's header, says the result by team, and its footer ends in nothing dangling.
async fn event_game(driver: &mut Driver, base: String) {
    let (event, teams) = api_event(&base).await;
    let mut paired = Vec::new();
    let mut bye = None;
    for team in &teams {
        match api_team_game(&base, &event, team).await {
            Some((game, seat)) => paired.push((team, game, seat)),
            None => bye = Some(team),
        }
    }
    assert_eq!(paired.len(), 2, "one game and a bye in round 1");
    let bye = bye.expect("a bye");
    let (ours, game, seat) = &paired[0];
    let (theirs, _, _) = &paired[1];
    let (white_team, black_team) = if seat == "white" {
        (ours.name, theirs.name)
    } else {
        (theirs.name, ours.name)
    };

    let player = driver.session(390, 844).await;
    // The team's link, as its organiser hands it out.
    player
        .goto(&format!("{base}/#/events/{event}/join?code={}", ours.code))
        .await
        .expect("the team's link");
    click(&player, "#play-game").await;
    let line = wait_text(&player, "the event line", "#game-event:not([hidden])").await;
    assert!(
        line.contains(&format!(
            "Camp duels, round 1, board 1: {white_team} against {black_team}."
        )),
        "{line}"
    );
    assert!(line.contains("Back to your team’s page"), "{line}");
    // The other team declares ready through the API; the game starts.
    api_act(&base, game, &theirs.token, "ready", json!({})).await;
    wait_status(
        &player,
        if seat == "white" {
            "Your move"
        } else {
            "White to move"
        },
    )
    .await;
    let bars = player
        .execute(
            "return [document.querySelector('#team-white')?.textContent, document.querySelector('#team-black')?.textContent, !!document.querySelector('#abort')]",
            vec![],
        )
        .await
        .expect("the bars");
    assert_eq!(
        bars,
        json!([white_team, black_team, false]),
        "teams, no Abort"
    );
    let hidden_line = wait_text(
        &player,
        "the differences box",
        "#differences:not([hidden]) .differences-hidden",
    )
    .await;
    assert!(
        hidden_line.contains("during the game and after"),
        "{hidden_line}"
    );
    let theirs_on = if seat == "white" { "h8" } else { "h1" };
    let label = label_of(&player, theirs_on).await;
    let side = if seat == "white" { "Black" } else { "White" };
    assert!(
        label.contains(&format!("an unknown piece of {side}’s")) && !label.contains("sp-"),
        "{label}"
    );
    shoot(&player, "event-game-phone.png").await;

    api_act(&base, game, &theirs.token, "resign", json!({})).await;
    let result = wait_text(
        &player,
        "the result",
        "#result-box:not([hidden]) #result-text",
    )
    .await;
    assert_eq!(result, format!("{} won — by resignation", ours.name));
    wait_status(
        &player,
        &format!("You won: {side} resigned. {} won", ours.name),
    )
    .await;
    let controls = player
        .execute(
            "return [!!document.querySelector('#rematch'), !!document.querySelector('#new-game'), document.querySelector('#back-to-event')?.getAttribute('href')]",
            vec![],
        )
        .await
        .expect("the result's controls");
    assert_eq!(
        controls,
        json!([false, false, format!("#/events/{event}/team")]),
        "no rematch, no new game; the way back"
    );
    shoot(&player, "event-game-result-phone.png").await;
    click(&player, "#back-to-event").await;
    let outcome = wait_text(&player, "the team's result", "#team-game-result").await;
    assert!(outcome.starts_with("Your team won"), "{outcome}");
    let listed = player
        .execute(
            "return [document.querySelectorAll('#team-pairings li').length, \
                     document.querySelectorAll('#team-pairings li.bye').length, \
                     [...document.querySelectorAll('.round-pairings p.pairing.bye')].map(e => e.textContent)]",
            vec![],
        )
        .await
        .expect("the pairings");
    assert_eq!(
        listed,
        json!([1, 0, [format!("{} has a bye", bye.name)]]),
        "one numbered board, the bye beside it"
    );
    no_script_errors(&player).await;

    let room = driver.session(1280, 900).await;
    room.goto(&format!("{base}/#/events/{event}/screen"))
        .await
        .expect("the projector");
    let state = wait_text(
        &room,
        "the board's result",
        ".screen-game[data-status$='_won'] .screen-state",
    )
    .await;
    assert_eq!(state, format!("{} won — by resignation", ours.name));
    wait_text(&room, "the connection", "#screen-connection").await;
    // The footer as shown: its text, and the separator the style sheet puts before the
    // connection's words (none when they are gone).
    const FOOT: &str = "const c = document.querySelector('#screen-connection'); \
         return [getComputedStyle(document.querySelector('.site-top')).display, \
                 document.querySelector('#screen-foot').textContent, getComputedStyle(c, '::before').content]";
    let shown = room.execute(FOOT, vec![]).await.expect("the projector");
    assert_eq!(shown[0], json!("none"), "no site header: {shown}");
    let foot = shown[1].as_str().unwrap_or_default();
    assert!(
        foot.starts_with("The event") && !foot.contains('·'),
        "{shown}"
    );
    assert_eq!(shown[2], json!("\" · \""), "{shown}");
    room.execute(
        "document.querySelector('#screen-connection').textContent = ''",
        vec![],
    )
    .await
    .expect("quiet");
    let quiet = room.execute(FOOT, vec![]).await.expect("the footer");
    assert_eq!(
        (quiet[1].clone(), quiet[2].clone()),
        (json!("The event"), json!("none")),
        "nothing dangles: {quiet}"
    );
    shoot(&room, "event-screen-teams.png").await;
    no_script_errors(&room).await;
    player.close().await.expect("closed");
    room.close().await.expect("closed");
}
