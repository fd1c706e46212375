//! Every page in one language: a player goes through the home page, the rules, the lab (a piece
//! placed, its moves, a DNA error), a code looked up, the live games and TV, the leaderboard,
//! signing up, a profile, an event (its organiser's page, a team's, the projector), a game
//! against the bot (a piece's panel, resigning, the result) and its record, and a friend game
//! set up by hand. On each page no message may be missing from the catalogues; in Slovak no
//! English may be shown (text, accessible names, titles, placeholders), and in English the same
//! check must find English (so that the check is seen to work).

use super::*;

/// English words a Slovak page never holds (capitalised forms are added by the script). Words
/// Slovak also has (`a`, `to`, `do`, `on`, `by`, `no`, `rating`, `start`) are left out; the
/// check is case-sensitive so that DNA (`HAS` is a codon) is not taken for English.
const ENGLISH_WORDS: &str = "the|you|your|are|is|of|with|this|that|game|games|piece|pieces|\
move|moves|play|click|white|black|board|king|draw|resign|team|teams|round|event|player|players|\
opponent|waiting|loading|not|yet|here|will|can|has|have|for|and|or|from|new|open|save|join|show|\
back|next|copy|sign|password|watch|rules|how|what|when|who|won|lost|offer|step|steps|block|\
square|squares|owner|capture|wrap|random|greedy|search";

/// The page's shown English, if any: text, accessible names, titles, placeholders and alt texts
/// outside elements marked `lang="en"` (the language switch's own button) and `<code>` (machine
/// words: DNA, codes, the standard genomes' names such as `king`, which the API answers to).
fn english_shown_script() -> String {
    format!(
        "const words = '{ENGLISH_WORDS}'.split('|'); \
         const all = words.concat(words.map((w) => w[0].toUpperCase() + w.slice(1))); \
         const english = new RegExp('(^|[^\\\\p{{L}}])(' + all.join('|') + ')(?![\\\\p{{L}}])', 'u'); \
         const skip = (el) => !el || !!el.closest('body [lang=\"en\"], code, script, style, noscript'); \
         const where = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''); \
         const found = []; \
         const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); \
         while (walker.nextNode()) {{ \
           const node = walker.currentNode; const text = node.textContent.trim(); \
           if (text && !skip(node.parentElement) && english.test(text)) found.push(text.slice(0, 120) + ' (in ' + where(node.parentElement) + ')'); \
         }} \
         for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {{ \
           if (skip(el)) continue; \
           for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {{ \
             const value = el.getAttribute(name); \
             if (value && english.test(value)) found.push(name + ': ' + value.slice(0, 120) + ' (on ' + where(el) + ')'); \
           }} \
         }} \
         if (english.test(document.title)) found.push('document.title: ' + document.title); \
         return [...new Set(found)];"
    )
}

/// Checks the page shown now, called `place`: nothing missing from the catalogues, no script
/// error; in Slovak no English shown, in English some.
pub(super) async fn check(client: &Client, lang: &str, place: &str) {
    // Answers in flight (a piece's explanation, a list) land before the page is read.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let state = client
        .execute(
            "return [document.documentElement.lang, window.__i18nMissing ?? ['no i18n'], window.__errors ?? []]",
            vec![],
        )
        .await
        .expect("the page's state");
    assert_eq!(state[0], json!(lang), "{place}: the page's language");
    assert_eq!(
        state[1],
        json!([]),
        "{place}: messages missing from the catalogues"
    );
    assert_eq!(state[2], json!([]), "{place}: script errors");
    let english = client
        .execute(&english_shown_script(), vec![])
        .await
        .expect("the page's words");
    let english = english.as_array().cloned().unwrap_or_default();
    if lang == "sk" {
        assert!(
            english.is_empty(),
            "{place}: English on a Slovak page: {english:#?}"
        );
    } else {
        assert!(
            !english.is_empty(),
            "{place}: the check finds no English on an English page"
        );
    }
    shoot(
        client,
        &format!("tour-{lang}-{}.png", place.replace([' ', '/', '\''], "-")),
    )
    .await;
}

/// Opens `route` (after `#`) and waits until `ready` (a script returning true) holds.
async fn visit(client: &Client, base: &str, route: &str, ready: &str) {
    client
        .goto(&format!("{base}/#{route}"))
        .await
        .unwrap_or_else(|error| panic!("{route} opens: {error}"));
    wait_for(client, route, ready).await;
}

fn exists(selector: &str) -> String {
    format!("return !!document.querySelector({selector:?})")
}

pub(super) async fn tour(driver: &mut Driver, base: String, lang: &str) {
    let languages = if lang == "sk" { "sk-SK,sk" } else { "en-US,en" };
    let client = driver.session_in(1280, 900, Some(languages)).await;
    // A live game for the watch list and TV.
    let _live = api_started_game(&base).await;

    visit(&client, &base, "/", &exists("#new-friend-game")).await;
    check(&client, lang, "home").await;
    visit(&client, &base, "/rules", &exists("#rules h2")).await;
    check(&client, lang, "rules").await;

    lab(&client, &base, lang).await;
    visit(
        &client,
        &base,
        &format!("/code/{CUSTOM_CODE}"),
        &exists("#genome-card"),
    )
    .await;
    check(&client, lang, "a genome's code").await;
    visit(&client, &base, "/code/default", &exists("#preset-card")).await;
    check(&client, lang, "a preset's code").await;

    visit(&client, &base, "/watch", &exists("#live-games a")).await;
    check(&client, lang, "watch").await;
    visit(
        &client,
        &base,
        "/tv",
        &exists("#tv .board [data-square='a1']"),
    )
    .await;
    check(&client, lang, "tv").await;
    visit(&client, &base, "/leaderboard", &exists("#leaderboard")).await;
    check(&client, lang, "leaderboard").await;

    visit(&client, &base, "/signup", &exists("#account-username")).await;
    check(&client, lang, "sign up").await;
    send_account_form(&client, "jano", PASSWORD).await;
    wait_signed_in(&client, "jano").await;
    visit(&client, &base, "/", &exists("#new-friend-game")).await;
    check(&client, lang, "home signed in").await;
    visit(&client, &base, "/@/jano", &exists("#profile-name")).await;
    check(&client, lang, "profile").await;

    event(&client, &base, lang).await;
    bot_game(&client, &base, lang).await;
    customised_friend_game(&client, &base, lang).await;
    client.close().await.expect("closed");
}

/// The pages that differ in discovery mode (the server keeps the genome language secret): the
/// rules that teach play, and the lab without explanations.
pub(super) async fn discovery_tour(driver: &mut Driver, base: String, lang: &str) {
    let languages = if lang == "sk" { "sk-SK,sk" } else { "en-US,en" };
    let client = driver.session_in(1280, 900, Some(languages)).await;
    visit(&client, &base, "/rules", &exists("#rules #standard-pieces")).await;
    check(&client, lang, "discovery rules").await;
    place_in_lab(&client, &base, lang).await;
    check(&client, lang, "discovery lab with a piece").await;
    client.close().await.expect("closed");
}

/// The lab: a piece typed, placed and its moves shown; then a DNA with an error.
async fn lab(client: &Client, base: &str, lang: &str) {
    place_in_lab(client, base, lang).await;
    check(client, lang, "lab with a piece").await;
    type_into(client, "#dna-input", BAD_DNA).await;
    wait_for(
        client,
        "the DNA's error",
        "return !!document.querySelector('.codon.error .under')",
    )
    .await;
    check(client, lang, "lab with an error").await;
}

/// Opens a new lab, types a piece's DNA, places it and shows its moves.
async fn place_in_lab(client: &Client, base: &str, lang: &str) {
    visit(
        client,
        base,
        "/lab?new=1",
        &exists(".board [data-square='h8']"),
    )
    .await;
    check(client, lang, "lab").await;
    type_into(client, "#dna-input", CUSTOM_DNA).await;
    wait_for(
        client,
        "the code",
        &format!("return document.querySelector('#dna-code')?.textContent === {CUSTOM_CODE:?}"),
    )
    .await;
    click(client, "#palette-current").await;
    square(client, "d4").await;
    click(client, "#tool-move").await;
    square(client, "d4").await;
    wait_for(client, "its moves", &exists(".sq.target")).await;
}

/// An event: created on its page, two teams added, one joined by its link, the projector.
async fn event(client: &Client, base: &str, lang: &str) {
    visit(client, base, "/events/new", &exists("#event-name")).await;
    check(client, lang, "a new event").await;
    type_into(client, "#event-name", "Tábor").await;
    type_into(client, "#event-minutes", "5").await;
    type_into(client, "#event-increment", "0").await;
    click(client, "#create-event").await;
    let id = wait_for(
        client,
        "the event's page",
        "const m = /^#\\/events\\/([^/?]+)$/.exec(location.hash); \
         return m && document.querySelector('#team-name') ? m[1] : ''",
    )
    .await;
    let id = id.as_str().expect("the event's id").to_owned();
    for name in ["Sokoli", "Orli"] {
        type_into(client, "#team-name", name).await;
        click(client, "#add-team").await;
        wait_for(
            client,
            "the team's code",
            &format!(
                "return [...document.querySelectorAll('#team-list .team-row')].some((r) => \
                 r.querySelector('.team-name')?.textContent === {name:?} && r.querySelector('.team-code'))"
            ),
        )
        .await;
    }
    check(client, lang, "an event's organiser").await;
    let code = client
        .execute(
            "return document.querySelector('#team-list .team-row .team-code').textContent",
            vec![],
        )
        .await
        .expect("a team's code");
    let code = code.as_str().expect("a code").to_owned();
    visit(
        client,
        base,
        &format!("/events/{id}/join?code={code}"),
        "return !document.querySelector('#lineup-panel')?.hidden && !location.hash.includes('code=')",
    )
    .await;
    check(client, lang, "a team").await;
    visit(
        client,
        base,
        &format!("/events/{id}/screen"),
        &exists("#screen-title"),
    )
    .await;
    check(client, lang, "the projector").await;
}

/// A game against the bot: a piece's panel, resigning (asked twice), the result, the record.
async fn bot_game(client: &Client, base: &str, lang: &str) {
    visit(client, base, "/", &exists("#new-bot-game")).await;
    click(client, "#new-bot-game").await;
    wait_for(client, "the bot game", &exists("#game-status")).await;
    wait_for(
        client,
        "the game under way",
        "return !!document.querySelector('#resign') && !!document.querySelector('.board [data-square=\"e1\"]')",
    )
    .await;
    square(client, "e1").await;
    wait_for(
        client,
        "the piece's panel",
        "return (document.querySelector('#piece-explanation')?.textContent ?? '').length > 20",
    )
    .await;
    check(client, lang, "a game with a piece's panel").await;
    let game = game_of(client).await;
    click(client, "#resign").await;
    check(client, lang, "resigning asked").await;
    click(client, "#resign").await;
    wait_for(
        client,
        "the result",
        &exists("#result-box:not([hidden]) #result-text"),
    )
    .await;
    check(client, lang, "a result").await;
    visit(
        client,
        base,
        &format!("/record/{game}"),
        &exists("#record-moves"),
    )
    .await;
    check(client, lang, "a record").await;
}

/// A friend game set up by hand: the invite, and the setup of one's side.
async fn customised_friend_game(client: &Client, base: &str, lang: &str) {
    customise(client, base).await;
    click(client, "#new-friend-game").await;
    wait_for(
        client,
        "the invite",
        "return (document.querySelector('#invite-link')?.value ?? '').length > 0",
    )
    .await;
    check(client, lang, "a friend game being set up").await;
}
