//! Issue 37, what a newcomer on a phone met (points 4, 5, 8, 9 and 10): refusals said beside
//! their fields in the page's language, join codes typed as people type them, the lab's board
//! right after the DNA box, the rules' captions in their diagrams' frames, no keyboard hints on a
//! touch screen, a move's notice that covers no text, an open-seeks list that stays under the
//! finger, finished games told in the past, a frozen refusal that goes with the freeze, and the
//! army a saved lineup sets up.

use super::*;

/// A phone's window, as the issue tried it.
const PHONE: (u32, u32) = (390, 844);

/// A message of the page's catalogue `lang` (en or sk), as the page shows it.
fn message(lang: &str, id: &str) -> String {
    let text = match lang {
        "sk" => include_str!("../../assets/i18n/sk.json"),
        _ => include_str!("../../assets/i18n/en.json"),
    };
    let catalogue: Value = serde_json::from_str(text).expect("the catalogue");
    catalogue[id]
        .as_str()
        .unwrap_or_else(|| panic!("{lang}: no message {id}"))
        .to_owned()
}

/// Waits until `selector`'s text is `expected`; fails with what it was.
async fn wait_exact(client: &Client, selector: &str, expected: &str) {
    let script = format!(
        "return (document.querySelector({selector:?})?.textContent ?? '') === {expected:?}"
    );
    let started = Instant::now();
    while client
        .execute(&script, vec![])
        .await
        .ok()
        .and_then(|value| value.as_bool())
        != Some(true)
    {
        if started.elapsed() > WAIT {
            shoot(client, "failed-newcomer-text.png").await;
            panic!(
                "{selector} never read {expected:?}; it read {:?}",
                text_of(client, selector).await
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Whether the field `input` is marked invalid and its refusal `error` sits in the same part of
/// the form, right after it (not in the page's header or the form's foot).
async fn beside(client: &Client, input: &str, error: &str) -> Value {
    client
        .execute(
            &format!(
                "const i = document.querySelector({input:?}), e = document.querySelector({error:?}); \
                 if (!i || !e) return 'missing'; \
                 const a = i.getBoundingClientRect(), b = e.getBoundingClientRect(); \
                 return [i.getAttribute('aria-invalid'), b.top >= a.top && b.top - a.bottom < 80, \
                   (i.getAttribute('aria-describedby') ?? '').split(' ').includes(e.id)];"
            ),
            vec![],
        )
        .await
        .expect("the field")
}

browser_test!(
    a_short_password_is_explained_beside_it_in_slovak_and_english,
    sign_up_refusals
);

/// Point 4: on a phone, in Slovak and in English, a short password reads "A password is 8 to
/// 128 characters" (in the page's language, no backticks) under the password, and a username
/// with a space the username's rule under the username; nothing in the form's foot.
async fn sign_up_refusals(driver: &mut Driver, base: String) {
    for (lang, languages) in [("sk", "sk-SK,sk"), ("en", "en-US,en")] {
        let client = driver.session_in(PHONE.0, PHONE.1, Some(languages)).await;
        client
            .goto(&format!("{base}/#/signup"))
            .await
            .expect("sign-up opens");
        send_account_form(&client, "jano", "short").await;
        let password = message(lang, "field.password");
        wait_exact(&client, "#account-password-error", &password).await;
        assert!(!password.contains('`'));
        assert_eq!(
            beside(&client, "#account-password", "#account-password-error").await,
            json!(["true", true, true]),
            "{lang}"
        );
        assert_eq!(text_of(&client, "#account-error").await, "", "{lang}");
        assert_eq!(text_of(&client, "#account-username-error").await, "");
        shoot(&client, &format!("newcomer-password-{lang}.png")).await;
        send_account_form(&client, "ja no", PASSWORD).await;
        wait_exact(
            &client,
            "#account-username-error",
            &message(lang, "field.username"),
        )
        .await;
        assert_eq!(
            beside(&client, "#account-username", "#account-username-error").await,
            json!(["true", true, true]),
            "{lang}"
        );
        assert_eq!(
            text_of(&client, "#account-password-error").await,
            "",
            "the earlier refusal is gone"
        );
        assert_eq!(
            client
                .execute("return window.__errors ?? []", vec![])
                .await
                .expect("errors"),
            json!([])
        );
        client.close().await.expect("closed");
    }
}

browser_test!(every_form_says_a_refusal_beside_its_field, form_refusals);

/// Point 4, the other forms a newcomer fills: the lobby's own clock of 0 minutes, an event
/// named with spaces only, a team name longer than 40 characters, the lab's breeding with a seed
/// that is no number and a parent that is no genome, the lab's presets with a name no preset has
/// and one that is no name; each refusal under its own field, saying
/// what is allowed, nothing in the form's notice.
async fn form_refusals(driver: &mut Driver, base: String) {
    let client = driver.session(PHONE.0, PHONE.1).await;
    sign_up(&client, &base, "ada").await;

    // The lobby's own clock.
    type_into(&client, "#seek-minutes", "0").await;
    click(&client, "#seek-custom").await;
    wait_exact(
        &client,
        "#seek-clock-error",
        &message("en", "field.minutes"),
    )
    .await;
    assert_eq!(
        beside(&client, "#seek-minutes", "#seek-clock-error").await,
        json!(["true", true, true])
    );
    assert_eq!(text_of(&client, "#lobby-notice").await, "");

    // A new event named with spaces only (the browser's own checks keep the numbers in range).
    client
        .goto(&format!("{base}/#/events/new"))
        .await
        .expect("the event form");
    type_into(&client, "#event-name", "   ").await;
    click(&client, "#create-event").await;
    wait_exact(
        &client,
        "#event-name-error",
        &message("en", "field.eventName"),
    )
    .await;
    assert_eq!(
        beside(&client, "#event-name", "#event-name-error").await,
        json!(["true", true, true])
    );
    assert_eq!(text_of(&client, "#event-form-error").await, "");
    type_into(&client, "#event-name", "Camp").await;
    click(&client, "#create-event").await;

    // A team's name of 41 characters.
    wait_for(
        &client,
        "the event's page",
        "return !!document.querySelector('#team-name') && !document.querySelector('#add-team-form').hidden",
    )
    .await;
    type_into(&client, "#team-name", &"x".repeat(41)).await;
    click(&client, "#add-team").await;
    wait_exact(
        &client,
        "#team-name-error",
        &message("en", "field.teamName"),
    )
    .await;
    assert_eq!(
        beside(&client, "#team-name", "#team-name-error").await,
        json!(["true", true, true])
    );
    assert_eq!(text_of(&client, "#event-notice").await, "");
    shoot(&client, "newcomer-team-name.png").await;

    // The lab's breeding: a seed that is no number, then a parent no genome is.
    client
        .goto(&format!("{base}/#/lab?new=1"))
        .await
        .expect("the lab");
    type_into(&client, "#breed-seed", "abc").await;
    click(&client, "#breed-go").await;
    wait_exact(&client, "#breed-seed-error", &message("en", "field.seed")).await;
    assert_eq!(
        beside(&client, "#breed-seed", "#breed-seed-error").await,
        json!(["true", true, true])
    );
    assert_eq!(text_of(&client, "#breed-note").await, "");
    type_into(&client, "#breed-seed", "").await;
    type_into(&client, "#breed-b", "zzzzzz").await;
    click(&client, "#breed-go").await;
    wait_exact(
        &client,
        "#breed-b-error",
        &message("en", "field.noSuchGenome").replace("{ref}", "zzzzzz"),
    )
    .await;
    assert_eq!(text_of(&client, "#breed-a-error").await, "");
    assert_eq!(text_of(&client, "#breed-seed-error").await, "");

    // The lab's presets: a name no preset has, then one that is no name.
    type_into(&client, "#lab-preset-code", "nosuch").await;
    click(&client, "#lab-load-preset").await;
    wait_exact(
        &client,
        "#lab-preset-error",
        &message("en", "field.noSuchPreset").replace("{ref}", "nosuch"),
    )
    .await;
    assert_eq!(
        beside(&client, "#lab-preset-code", "#lab-preset-error").await,
        json!(["true", true, true])
    );
    type_into(&client, "#lab-preset-code", "no such").await;
    click(&client, "#lab-load-preset").await;
    wait_exact(&client, "#lab-preset-error", &message("en", "field.preset")).await;
    assert_eq!(text_of(&client, "#lab-notice").await, "");
    client.close().await.expect("closed");
}

/// An event organised through the API with one team → the event's id and the team's code.
async fn api_event_with_team(base: &str) -> (String, String) {
    let organiser = api_sign_up(base, "leader").await;
    let event = api_send(
        base,
        reqwest::Method::POST,
        "/api/events",
        ("cookie", &organiser),
        Some(json!({"name": "Camp", "format": "round_robin",
            "clock": {"initial_ms": 600_000, "increment_ms": 0}})),
    )
    .await;
    let id = event["id"].as_str().expect("an id").to_owned();
    let team = api_send(
        base,
        reqwest::Method::POST,
        &format!("/api/events/{id}/teams"),
        ("cookie", &organiser),
        Some(json!({"name": "Orli"})),
    )
    .await;
    (id, team["code"].as_str().expect("a code").to_owned())
}

/// "abcdefghjkmn" → "ABCD-EFGH JKMN": a code as read aloud off the projector.
fn read_aloud(code: &str) -> String {
    let upper = code.to_uppercase();
    let (a, rest) = upper.split_at(4);
    let (b, c) = rest.split_at(4);
    format!("{a}-{b} {c}")
}

browser_test!(a_join_code_typed_in_capitals_and_groups_joins, join_code);

/// Point 5 on a phone: a code with a character no code has is refused under the code field
/// (its rule, not "no such code", and nothing in the header); a well-typed code of no team says
/// so there; the team's code in capitals with a dash and a space joins.
async fn join_code(driver: &mut Driver, base: String) {
    let (id, code) = api_event_with_team(&base).await;
    let client = driver.session(PHONE.0, PHONE.1).await;
    client
        .goto(&format!("{base}/#/events/{id}/team"))
        .await
        .expect("the team page");
    wait_for(
        &client,
        "the join form",
        "return !!document.querySelector('#join-code') && !document.querySelector('#join-panel').hidden",
    )
    .await;
    type_into(&client, "#join-code", &format!("{code}!")).await;
    click(&client, "#join-team").await;
    wait_exact(&client, "#join-code-error", &message("en", "field.code")).await;
    assert_eq!(
        beside(&client, "#join-code", "#join-code-error").await,
        json!(["true", true, true])
    );
    assert_eq!(
        text_of(&client, "#team-notice").await,
        "",
        "not in the header"
    );
    type_into(&client, "#join-code", "ABCD-EFGH JKMN").await;
    click(&client, "#join-team").await;
    wait_exact(
        &client,
        "#join-code-error",
        &message("en", "field.noSuchCode"),
    )
    .await;
    assert_eq!(text_of(&client, "#team-notice").await, "");
    type_into(&client, "#join-code", &read_aloud(&code)).await;
    click(&client, "#join-team").await;
    wait_for(
        &client,
        "joined",
        "return document.querySelector('#join-panel').hidden && !document.querySelector('#lineup-panel').hidden",
    )
    .await;
    assert_eq!(text_of(&client, "#join-code-error").await, "");
    client.close().await.expect("closed");
}

browser_test!(a_saved_lineup_shows_the_army_it_sets_up, lineup_army);

/// Point 10: after saving a lineup (the default preset, kings on d1 and e1) the team page shows
/// its back rank: eight pieces a1–h1, the rook on a1, the kings crowned on d1 and e1 only; after
/// a reload too.
async fn lineup_army(driver: &mut Driver, base: String) {
    let (id, code) = api_event_with_team(&base).await;
    let client = driver.session(PHONE.0, PHONE.1).await;
    client
        .goto(&format!("{base}/#/events/{id}/join?code={code}"))
        .await
        .expect("the join link");
    wait_for(
        &client,
        "the lineup form",
        "return !document.querySelector('#lineup-panel').hidden",
    )
    .await;
    assert_eq!(
        text_of(&client, "#lineup-army").await,
        "",
        "no army before a lineup"
    );
    click(&client, "#king-e1").await;
    click(&client, "#save-lineup").await;
    let army = "const rows = [...document.querySelectorAll('#lineup-army li')]; if (rows.length === 0) return null; \
        return rows.map(li => [li.dataset.square, li.dataset.king, li.textContent, !!li.querySelector('svg')]);";
    for round in ["saved", "reloaded"] {
        let rows = wait_for(&client, "the army", army).await;
        let rows = rows.as_array().expect("rows");
        let squares: Vec<&str> = rows.iter().map(|r| r[0].as_str().unwrap_or("")).collect();
        assert_eq!(
            squares,
            ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"],
            "{round}"
        );
        let kings: Vec<&str> = rows
            .iter()
            .filter(|r| r[1] == json!("true"))
            .map(|r| r[0].as_str().unwrap_or(""))
            .collect();
        assert_eq!(kings, ["d1", "e1"], "{round}");
        assert_eq!(rows[0][2], json!("a1 rook"), "{round}");
        assert!(
            rows.iter().all(|r| r[3] == json!(true)),
            "{round}: {rows:?}"
        );
        client
            .execute(
                "document.querySelector('#lineup-army').scrollIntoView()",
                vec![],
            )
            .await
            .expect("scrolled");
        shoot(&client, &format!("newcomer-army-{round}.png")).await;
        client.refresh().await.expect("reloaded");
    }
    client.close().await.expect("closed");
}

browser_test!(the_open_seeks_stay_under_the_finger, seeks_in_place);

/// Point 9: an open seek's button in the lobby is the same element across refreshes of the
/// list (every 2 s), so it keeps the focus, and a tap held for 2.5 s takes the seek.
async fn seeks_in_place(driver: &mut Driver, base: String) {
    let client = driver.session(PHONE.0, PHONE.1).await;
    client.goto(&format!("{base}/")).await.expect("home opens");
    let seek: Value = reqwest::Client::new()
        .post(format!("{base}/api/seeks"))
        .json(&json!({"clock": {"initial_ms": 300_000, "increment_ms": 0}, "color": "white"}))
        .send()
        .await
        .expect("the seek")
        .json()
        .await
        .expect("its answer");
    let (id, token) = (
        seek["id"].as_str().expect("an id"),
        seek["token"].as_str().expect("a token"),
    );
    // The seeker follows its seek, as a page would, so that it stays open.
    let _stream = reqwest::Client::new()
        .get(format!("{base}/api/seeks/{id}/stream"))
        .bearer_auth(token)
        .send()
        .await
        .expect("the seek's stream");
    let button = format!(".seek-accept[data-seek=\"{id}\"]");
    wait_for(
        &client,
        "the seek listed",
        &format!("return !!document.querySelector({button:?})"),
    )
    .await;
    client
        .execute(
            &format!(
                "const b = document.querySelector({button:?}); window.__seekButton = b; \
                 b.scrollIntoView({{block: 'center'}}); b.focus(); \
                 window.__seekText = b.textContent;"
            ),
            vec![],
        )
        .await
        .expect("focused");
    tokio::time::sleep(Duration::from_millis(4500)).await;
    let kept = client
        .execute(
            &format!(
                "const b = document.querySelector({button:?}); \
                 return [b === window.__seekButton, document.activeElement === window.__seekButton, \
                   b.textContent !== window.__seekText];"
            ),
            vec![],
        )
        .await
        .expect("the button");
    assert_eq!(
        kept,
        json!([true, true, true]),
        "[the same button, still focused, its age updated]"
    );
    // A tap held across a refresh of the list still takes the seek.
    let element = client
        .find(Locator::Css(&button))
        .await
        .expect("the button");
    let tap = MouseActions::new("finger".into())
        .then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Pause {
            duration: Duration::from_millis(2500),
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(tap).await.expect("the tap");
    client.release_actions().await.expect("released");
    wait_for(
        &client,
        "the game taken",
        "return location.hash.startsWith('#/game/')",
    )
    .await;
    client.close().await.expect("closed");
}

browser_test!(finished_games_are_told_in_the_past, past_games);

/// Point 9: a finished rated game reads "You played Black against bob" (or White) in My games on
/// the home page and on the player's own profile; "You play" is for games going on.
async fn past_games(driver: &mut Driver, base: String) {
    let ada = api_sign_up(&base, "ada").await;
    let bob = api_sign_up(&base, "bob").await;
    let (game, seats, ada_color) = api_rated_game(&base, &ada, &bob).await;
    let bob_color = if ada_color == "white" {
        "black"
    } else {
        "white"
    };
    let client = driver.session(PHONE.0, PHONE.1).await;
    client
        .goto(&format!("{base}/#/signin"))
        .await
        .expect("sign-in");
    send_account_form(&client, "ada", PASSWORD).await;
    wait_signed_in(&client, "ada").await;
    client.goto(&format!("{base}/")).await.expect("home");
    let row = format!("#my-games-list .game-row[data-game=\"{game}\"] .who");
    let going = wait_text(&client, "the game going on", &row).await;
    let color = if ada_color == "white" {
        "White"
    } else {
        "Black"
    };
    assert!(going.starts_with(&format!("You play {color}")), "{going}");
    api_send(
        &base,
        reqwest::Method::POST,
        &format!("/api/games/{game}/resign"),
        ("bearer", seats[bob_color].as_str().expect("bob's seat")),
        None,
    )
    .await;
    client.refresh().await.expect("reloaded");
    let over = format!(
        "#my-games-list .game-row[data-game=\"{game}\"][data-status=\"{ada_color}_won\"] .who"
    );
    let home = wait_text(&client, "the game over", &over).await;
    assert!(
        home.starts_with(&format!("You played {color}")) && home.contains("against bob"),
        "{home}"
    );
    client
        .goto(&format!("{base}/#/@/ada"))
        .await
        .expect("the profile");
    let profile = wait_text(
        &client,
        "the profile's game",
        &format!("#profile-games .game-row[data-game=\"{game}\"] .who"),
    )
    .await;
    assert!(
        profile.starts_with(&format!("You played {color} against bob")),
        "{profile}"
    );
    client.close().await.expect("closed");
}

browser_test!(a_frozen_refusal_goes_when_the_freeze_ends, frozen_refusal);

/// Point 10: Black's move refused during the queen's freeze says "frozen for … s more"; once the
/// freeze is over the words are gone (they are no longer true).
async fn frozen_refusal(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(PHONE.0, PHONE.1).await;
    start_friend_game(&white, &black, &base).await;
    play(&white, &black, "f2", "f3").await;
    play(&black, &white, "e7", "e6").await;
    // The queen's move freezes the game.
    play(&white, &black, "e1", "h4").await;
    wait_for(
        &black,
        "the freeze",
        "return !document.querySelector('#freeze').hidden",
    )
    .await;
    type_into(&black, "#move-text", "d8e7\n").await;
    let refused = wait_text(&black, "the frozen refusal", "#game-notice").await;
    assert!(
        refused.starts_with("The game is frozen: no move for "),
        "{refused}"
    );
    wait_for(
        &black,
        "the freeze over",
        "return document.querySelector('#freeze').hidden",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        text_of(&black, "#game-notice").await,
        "",
        "the refusal went with the freeze"
    );
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

browser_test!(
    the_lab_on_a_phone_shows_the_board_right_after_the_dna,
    lab_on_a_phone
);

/// Point 8: in the lab on a phone, the board follows the DNA box with nothing between them;
/// what the DNA does and breeding come after the board.
async fn lab_on_a_phone(driver: &mut Driver, base: String) {
    let client = driver.session(PHONE.0, PHONE.1).await;
    client
        .goto(&format!("{base}/#/lab?new=1"))
        .await
        .expect("the lab");
    wait_for(
        &client,
        "the board",
        "return !!document.querySelector('.board [data-square=\"h8\"]')",
    )
    .await;
    let places = client
        .execute(
            "const top = (s) => document.querySelector(s).getBoundingClientRect(); \
             const dna = top('#dna-input'), board = top('.lab-page .board'), \
               editor = top('.lab-page .editor-col'), explain = top('#explanation'), breed = top('#breed'); \
             return [board.top - dna.bottom < 120, editor.bottom <= top('.lab-page .board-col').top, \
               explain.top >= board.bottom, breed.top >= board.bottom];",
            vec![],
        )
        .await
        .expect("the places");
    shoot(&client, "newcomer-lab-phone.png").await;
    assert_eq!(
        places,
        json!([true, true, true, true]),
        "[the board close under the DNA, the DNA box above the board, the explanation below it, breeding below it]"
    );
    client.close().await.expect("closed");
}

browser_test!(
    the_rules_on_a_phone_frame_each_caption_with_its_diagram,
    rules_on_a_phone
);

/// Point 8: on the rules page on a phone every diagram and its caption share one visible frame
/// (a border around both), and frames stand apart more than a caption from its own picture.
async fn rules_on_a_phone(driver: &mut Driver, base: String) {
    let client = driver.session(PHONE.0, PHONE.1).await;
    client
        .goto(&format!("{base}/#/rules"))
        .await
        .expect("the rules");
    let figures = wait_for(
        &client,
        "the figures",
        "const figs = [...document.querySelectorAll('figure.rule-figure:not(.pending)')]; \
         if (figs.length < 6 || figs.some(f => !f.querySelector('img')?.complete)) return null; \
         return figs.map((f, i) => { \
           const box = f.getBoundingClientRect(), cap = f.querySelector('figcaption').getBoundingClientRect(), \
             img = f.querySelector('img').getBoundingClientRect(), style = getComputedStyle(f); \
           const next = figs[i + 1]?.parentElement === f.parentElement ? figs[i + 1].getBoundingClientRect() : null; \
           return [style.borderTopStyle !== 'none' && parseFloat(style.borderTopWidth) >= 1 \
               && style.borderBottomStyle !== 'none', \
             cap.top >= box.top && cap.bottom <= box.bottom && img.top >= box.top, \
             next === null || next.top - cap.bottom > cap.top - img.bottom]; });",
    )
    .await;
    client
        .execute(
            "document.querySelector('figure.rule-figure').scrollIntoView()",
            vec![],
        )
        .await
        .expect("scrolled");
    shoot(&client, "newcomer-rules-phone.png").await;
    for (index, figure) in figures.as_array().expect("figures").iter().enumerate() {
        assert_eq!(
            figure,
            &json!([true, true, true]),
            "figure {index}: [framed, the caption inside its frame, apart from the next]"
        );
    }
    client.close().await.expect("closed");
}

/// A phone's browser with a touch screen (Chromium's mobile emulation): no hover, a coarse pointer.
async fn touch_session(driver: &mut Driver) -> Client {
    let profile = tempfile::tempdir().expect("a browser profile");
    let args = vec![
        "--headless".to_owned(),
        "--no-sandbox".to_owned(),
        "--disable-gpu".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        "--disable-dev-shm-usage".to_owned(),
        "--hide-scrollbars".to_owned(),
        format!("--user-data-dir={}", profile.path().display()),
    ];
    driver.profiles.push(profile);
    let options = json!({
        "binary": driver.chromium,
        "args": args,
        "mobileEmulation": {"deviceMetrics": {"width": PHONE.0, "height": PHONE.1,
            "pixelRatio": 1.0, "touch": true, "mobile": true}},
    });
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("browserName".into(), json!("chrome"));
    capabilities.insert("goog:chromeOptions".into(), options);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .expect("a touch browser session")
}

/// Whether the record page's keyboard hint is shown, with the page's media features.
const KEYS_SHOWN: &str = "const k = [...document.querySelectorAll('.record-page p.hint')].find(p => p.textContent.includes('Home')); if (!k) return null; \
    return [k.getClientRects().length > 0, matchMedia('(pointer: coarse)').matches, matchMedia('(hover: none)').matches];";

browser_test!(
    the_record_on_a_touch_screen_shows_no_keyboard_hints,
    record_on_touch
);

/// Point 8: the record page of a finished game tells a window without touch its keys (← → Home
/// End), and a touch screen (Chromium's mobile emulation) nothing about keys.
async fn record_on_touch(driver: &mut Driver, base: String) {
    let (game, white, _black) = api_started_game(&base).await;
    api_move(&base, &game, &white, "e2", "e3").await;
    api_act(&base, &game, &white, "resign", Value::Null).await;
    let desk = driver.session(1280, 900).await;
    let phone = touch_session(driver).await;
    let mut seen = Vec::new();
    for client in [&desk, &phone] {
        client
            .goto(&format!("{base}/#/record/{game}"))
            .await
            .expect("the record");
        seen.push(wait_for(client, "the record's hint", KEYS_SHOWN).await);
    }
    shoot(&phone, "newcomer-record-touch.png").await;
    assert_eq!(
        [&seen[0][0], &seen[0][1]],
        [&json!(true), &json!(false)],
        "a window without touch: the keys said ({})",
        seen[0]
    );
    assert_eq!(
        seen[1],
        json!([false, true, true]),
        "a touch screen: no keys (its media: a coarse pointer, no hover)"
    );
    desk.close().await.expect("closed");
    phone.close().await.expect("closed");
}

browser_test!(a_moves_notice_on_a_phone_covers_no_text, notice_on_a_phone);

/// Point 8: on a phone the notice of the opponent's move is shown where it covers no text of
/// the page (no text's box meets the notice's).
async fn notice_on_a_phone(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(PHONE.0, PHONE.1).await;
    start_friend_game(&white, &black, &base).await;
    play(&white, &black, "e2", "e3").await;
    let covered = wait_for(
        &black,
        "the notice of White's move",
        "const t = document.querySelector('#toast.shown'); if (!t || !t.textContent.startsWith('White played')) return null; \
         const r = t.getBoundingClientRect(); if (r.width === 0) return null; \
         const hit = []; const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); \
         while (walker.nextNode()) { const node = walker.currentNode; \
           if (!node.textContent.trim() || t.contains(node)) continue; \
           const range = document.createRange(); range.selectNodeContents(node); \
           for (const k of range.getClientRects()) { \
             if (k.width > 0 && r.left < k.right && k.left < r.right && r.top < k.bottom && k.top < r.bottom) { hit.push(node.textContent.trim().slice(0, 40)); break; } } } \
         return [hit];",
    )
    .await;
    shoot(&black, "newcomer-notice-phone.png").await;
    assert_eq!(covered, json!([[]]), "text under the notice");
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}
