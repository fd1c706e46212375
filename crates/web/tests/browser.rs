//! The web client in a real browser: headless Chromium driven over WebDriver (chromedriver)
//! against the real server, started in-process on a fresh SQLite database.
//!
//! Without Chromium the tests say so and pass, except under `CI`, where they fail: CI must
//! install `chromium` and `chromium-driver`. Screenshots of every page land in
//! `<target>/web-screenshots/`.

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::io::Write;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::process::{Child, Command};
use tokio::sync::Mutex;

/// Chromium is heavy on a small machine: the tests take turns.
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

const WAIT: Duration = Duration::from_secs(20);
/// Games per value evaluation on the test server.
const VALUE_GAMES: u32 = 4;

/// The DNA typed in the lab: a diagonal stepper that is none of the standard pieces.
const CUSTOM_DNA: &str = "AHH HSH HAA HHH CHA CHA HHA CAS SAS";
const CUSTOM_CODE: &str = "jf47ky";
/// The same with an `H` in its second step codon (codon 8, offset 24).
const BAD_DNA: &str = "AHH HSH HAA HHH CHA CHA HHA CAS SHS";

struct Tools {
    chromium: PathBuf,
    chromedriver: PathBuf,
}

/// Finds Chromium and its driver (`CHROMIUM`, `CHROMEDRIVER` override the Debian paths).
/// `None` means skip — unless `CI` is set, where a missing browser is a failure.
fn tools() -> Option<Tools> {
    let pick = |var: &str, default: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(default))
    };
    let found = Tools {
        chromium: pick("CHROMIUM", "/usr/bin/chromium"),
        chromedriver: pick("CHROMEDRIVER", "/usr/bin/chromedriver"),
    };
    if found.chromium.exists() && found.chromedriver.exists() {
        return Some(found);
    }
    let message = format!(
        "browser tests need {} and {} (Debian: apt-get install chromium chromium-driver)",
        found.chromium.display(),
        found.chromedriver.display()
    );
    assert!(
        std::env::var_os("CI").is_none(),
        "{message}; CI must install them"
    );
    // Straight to stderr, past the test harness's capture, so a skip is seen.
    let _ = writeln!(std::io::stderr(), "SKIPPED: {message}");
    None
}

fn screenshot_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target>/tmp: the screenshots go beside it.
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.parent().unwrap_or(tmp).join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot directory");
    dir
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// The real server, which must serve the page itself (`gmo serve` mounts `gmo_web::router()`):
/// the browser opens the server's own address, and nothing stands in between.
struct Site {
    app: Option<gmo_server::RunningApp>,
    base: String,
    _db: tempfile::TempDir,
}

impl Site {
    /// The server with its default settings but for a fast sweep and small evaluations, then
    /// whatever `tune` changes (a test's short first-move or away times).
    async fn start(tune: fn(&mut gmo_server::Settings)) -> Site {
        let db = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", db.path().join("gmo.db").display());
        let mut settings = gmo_server::Settings::new(([127, 0, 0, 1], 0).into(), url);
        settings.play.sweep_interval = Duration::from_millis(250);
        // Tests sign up and in several times in a row; the hashing budget has its own test.
        settings.play.password_hash_share = 100;
        // A genome's value from a handful of games, so that the lab's panel finishes quickly.
        settings.play.value_games = VALUE_GAMES;
        tune(&mut settings);
        let app = gmo_server::spawn(settings)
            .await
            .expect("the server starts");
        let base = format!("http://{}", app.addr());
        let page = reqwest::get(format!("{base}/"))
            .await
            .expect("the server answers");
        let html = page
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|kind| kind.starts_with("text/html"));
        let body = page.text().await.unwrap_or_default();
        assert!(
            html && body.contains("/assets/app.js"),
            "the server must serve the page at / itself (gmo_web::router() mounted); it answered: {body:.200}"
        );
        Site {
            app: Some(app),
            base,
            _db: db,
        }
    }

    async fn stop(mut self) {
        if let Some(app) = self.app.take() {
            app.shutdown().await.expect("the server stops cleanly");
        }
    }
}

/// A chromedriver process; each session gets its own browser and profile.
struct Driver {
    process: Child,
    url: String,
    chromium: PathBuf,
    profiles: Vec<tempfile::TempDir>,
}

impl Driver {
    async fn start(tools: &Tools) -> Driver {
        let port = free_port();
        let process = Command::new(&tools.chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("chromedriver starts");
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        loop {
            let status = reqwest::get(format!("{url}/status")).await;
            if let Ok(answer) = status {
                let body: Value = answer.json().await.unwrap_or_default();
                if body["value"]["ready"] == json!(true) {
                    break;
                }
            }
            assert!(started.elapsed() < WAIT, "chromedriver did not get ready");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Driver {
            process,
            url,
            chromium: tools.chromium.clone(),
            profiles: Vec::new(),
        }
    }

    /// A new browser window of `width` × `height` CSS pixels.
    async fn session(&mut self, width: u32, height: u32) -> Client {
        self.session_in(width, height, None).await
    }

    /// A new browser window whose languages are `languages` ("sk,en"), else the default.
    async fn session_in(&mut self, width: u32, height: u32, languages: Option<&str>) -> Client {
        let profile = tempfile::tempdir().expect("a browser profile");
        let mut args = vec![
            "--headless".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--no-first-run".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--disable-quic".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            "--hide-scrollbars".to_owned(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        self.profiles.push(profile);
        let mut options = json!({"binary": self.chromium});
        if let Some(languages) = languages {
            args.push(format!(
                "--lang={}",
                languages.split(',').next().unwrap_or("en")
            ));
            args.push(format!("--accept-lang={languages}"));
            options["prefs"] = json!({"intl.accept_languages": languages});
        }
        options["args"] = json!(args);
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), json!("chrome"));
        capabilities.insert("goog:chromeOptions".into(), options);
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .expect("a browser session");
        client
            .set_window_size(width, height)
            .await
            .expect("the window size");
        client
    }

    async fn stop(mut self) {
        let _ = self.process.kill().await;
    }
}

/// Polls a script until it returns something truthy; fails with a screenshot otherwise.
async fn wait_for(client: &Client, what: &str, script: &str) -> Value {
    let started = Instant::now();
    loop {
        let value = client.execute(script, vec![]).await.unwrap_or(Value::Null);
        let truthy = match &value {
            Value::Null | Value::Bool(false) => false,
            Value::String(text) => !text.is_empty(),
            Value::Number(n) => n.as_f64() != Some(0.0),
            _ => true,
        };
        if truthy {
            return value;
        }
        if started.elapsed() > WAIT {
            let name = format!(
                "failed-{}.png",
                what.replace(|c: char| !c.is_alphanumeric(), "-")
            );
            shoot(client, &name).await;
            let page = client
                .execute("return document.body.innerText", vec![])
                .await
                .unwrap_or_default();
            panic!("timed out waiting for {what}; the page said:\n{page}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn text_of(client: &Client, selector: &str) -> String {
    let script = format!("return document.querySelector({selector:?})?.textContent ?? ''");
    client
        .execute(&script, vec![])
        .await
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_default()
}

async fn click(client: &Client, selector: &str) {
    // Wait until it exists and is enabled: pages redraw after every answer, and a redraw between
    // finding the element and clicking it makes it stale — then it is found again.
    let ready =
        format!("const e = document.querySelector({selector:?}); return !!e && !e.disabled");
    let mut tries = 0;
    loop {
        wait_for(client, selector, &ready).await;
        let outcome = match client.find(Locator::Css(selector)).await {
            Ok(element) => element.click().await,
            Err(error) => Err(error),
        };
        match outcome {
            Ok(_) => return,
            Err(error) if tries < 5 && error.to_string().contains("stale") => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(error) => panic!("clicking {selector}: {error}"),
        }
    }
}

async fn square(client: &Client, name: &str) {
    click(client, &format!("[data-square=\"{name}\"]")).await;
}

async fn label_of(client: &Client, name: &str) -> String {
    let script = format!(
        "return document.querySelector('[data-square=\"{name}\"]')?.getAttribute('aria-label') ?? ''"
    );
    client
        .execute(&script, vec![])
        .await
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_default()
}

async fn wait_label(client: &Client, name: &str, contains: &str) {
    let script = format!(
        "return (document.querySelector('[data-square=\"{name}\"]')?.getAttribute('aria-label') ?? '').includes({contains:?})"
    );
    wait_for(client, &format!("{name} to say {contains}"), &script).await;
}

async fn type_into(client: &Client, selector: &str, text: &str) {
    let field = client
        .find(Locator::Css(selector))
        .await
        .expect("the field");
    field.clear().await.expect("cleared");
    field.send_keys(text).await.expect("typed");
}

/// Drags with a real pointer: press on one square, move across, release on another.
async fn drag(client: &Client, from: &str, to: &str) {
    let from = client
        .find(Locator::Css(&format!("[data-square=\"{from}\"]")))
        .await
        .expect("the from square");
    let to = client
        .find(Locator::Css(&format!("[data-square=\"{to}\"]")))
        .await
        .expect("the to square");
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: from.clone(),
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveToElement {
            element: from,
            duration: Some(Duration::from_millis(50)),
            x: 12.0,
            y: 12.0,
        })
        .then(PointerAction::MoveToElement {
            element: to,
            duration: Some(Duration::from_millis(150)),
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(mouse).await.expect("the drag");
    client.release_actions().await.expect("released");
}

async fn shoot(client: &Client, name: &str) {
    // Let the last frame paint (clocks, highlights) before the picture.
    tokio::time::sleep(Duration::from_millis(150)).await;
    match client.screenshot().await {
        Ok(png) => {
            let path = screenshot_dir().join(name);
            std::fs::write(&path, png).expect("the screenshot is written");
            eprintln!("screenshot: {}", path.display());
        }
        Err(error) => eprintln!("no screenshot {name}: {error}"),
    }
}

/// Waits until the page's game status line contains `text`.
async fn wait_status(client: &Client, text: &str) {
    let script = format!(
        "return (document.querySelector('#game-status')?.textContent ?? '').includes({text:?})"
    );
    wait_for(client, &format!("status {text}"), &script).await;
}

/// Runs a browser test body with a fresh server and driver, stopping both whatever happens;
/// `$tune` changes the server's settings (`fn(&mut gmo_server::Settings)`).
macro_rules! browser_test {
    ($name:ident, $body:ident) => {
        browser_test!($name, $body, |_| {});
    };
    ($name:ident, $body:ident, $tune:expr) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let Some(tools) = tools() else { return };
            let _turn = ONE_AT_A_TIME.lock().await;
            let site = Site::start($tune).await;
            let mut driver = Driver::start(&tools).await;
            let base = site.base.clone();
            let outcome = {
                let driver = &mut driver;
                // Spawned on this runtime through a local future: a panic comes back as Err.
                futures_util::FutureExt::catch_unwind(std::panic::AssertUnwindSafe($body(
                    driver, base,
                )))
                .await
            };
            driver.stop().await;
            site.stop().await;
            if let Err(failure) = outcome {
                std::panic::resume_unwind(failure);
            }
        }
    };
}

#[path = "browser/tour.rs"]
mod tour;

#[path = "browser/bots.rs"]
mod bots;
#[path = "browser/first_tour.rs"]
mod first_tour;
#[path = "browser/lab_engine.rs"]
mod lab_engine;
#[path = "browser/newcomer.rs"]
mod newcomer;
#[path = "browser/quiet_retry.rs"]
mod quiet_retry;

#[path = "browser/analysis.rs"]
mod analysis;

browser_test!(
    a_finished_bot_game_is_analysed_on_its_record_page,
    analysis_english,
    analysis::small_analyses
);
browser_test!(
    an_analysed_record_in_slovak_shows_no_english,
    analysis_slovak,
    analysis::small_analyses
);
browser_test!(
    explore_from_here_opens_the_record_position_in_a_lab,
    analysis_explore,
    analysis::small_analyses
);

browser_test!(
    a_discovery_record_offers_no_analysis,
    analysis_discovery,
    analysis::discovery_analyses
);

async fn analysis_discovery(driver: &mut Driver, base: String) {
    analysis::no_analysis_in_discovery(driver, base).await;
}

async fn analysis_english(driver: &mut Driver, base: String) {
    analysis::analysed_record(driver, base).await;
}

async fn analysis_slovak(driver: &mut Driver, base: String) {
    analysis::analysed_record_in_slovak(driver, base).await;
}

async fn analysis_explore(driver: &mut Driver, base: String) {
    analysis::explore_from_here(driver, base).await;
}

use lab_engine::lab_engine;
browser_test!(the_lab_s_engine_shows_the_api_s_lines, lab_engine);

browser_test!(the_lab_explains_places_and_shows_moves, lab);
browser_test!(a_slovak_player_reads_no_english_on_any_page, tour_in_slovak);
browser_test!(an_english_player_tours_every_page, tour_in_english);

async fn tour_in_slovak(driver: &mut Driver, base: String) {
    tour::tour(driver, base, "sk").await;
}

async fn tour_in_english(driver: &mut Driver, base: String) {
    tour::tour(driver, base, "en").await;
}

browser_test!(
    discovery_in_slovak_teaches_play_in_slovak,
    discovery_tour_in_slovak,
    discovery
);

async fn discovery_tour_in_slovak(driver: &mut Driver, base: String) {
    tour::discovery_tour(driver, base, "sk").await;
}
browser_test!(the_page_speaks_slovak_and_remembers_it, slovak);
browser_test!(two_players_play_a_game_to_a_result, game);
browser_test!(pages_are_served_and_look_up_codes, pages);
browser_test!(two_browsers_press_5_0_and_meet_in_one_game, lobby);
browser_test!(the_lab_breeds_and_places_a_child, breed);
browser_test!(the_lab_evaluates_the_genome_to_place, value);

/// The lab: typed DNA becomes an explanation, a code, a placed piece and highlighted moves;
/// an invalid DNA shows its error under the offending codon.
async fn lab(driver: &mut Driver, base: String) {
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
    // A main heading; the DNA box's placeholder is an example ("e.g. …"), light and slanted, not
    // to be taken for typed DNA.
    let looks = client
        .execute(
            "const f = document.querySelector('#dna-input'); \
             const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).map(Number); return 0.2126 * r + 0.7152 * g + 0.0722 * b; }; \
             return [document.querySelectorAll('h1').length, f.placeholder.startsWith('e.g. '), \
               lum(getComputedStyle(f, '::placeholder').color) > lum(getComputedStyle(f).color) + 100 \
                 && getComputedStyle(f, '::placeholder').fontStyle === 'italic'];",
            vec![],
        )
        .await
        .expect("the lab's heading and placeholder");
    assert_eq!(looks, json!([1, true, true]));

    type_into(&client, "#dna-input", CUSTOM_DNA).await;
    wait_for(
        &client,
        "the code",
        &format!("return document.querySelector('#dna-code')?.textContent === {CUSTOM_CODE:?}"),
    )
    .await;
    // Typed DNA is ready to place whatever tool was active, and the page says so.
    wait_for(
        &client,
        "the place tool",
        "return document.querySelector('#tool-place')?.getAttribute('aria-pressed') === 'true'",
    )
    .await;
    assert!(
        text_of(&client, "#tool-hint")
            .await
            .contains("click a square to place it")
    );
    let explanation = text_of(&client, "#explanation").await;
    assert!(
        explanation.contains("Block 1 of 1"),
        "explanation: {explanation}"
    );
    assert!(
        explanation.contains("no wrap"),
        "explanation: {explanation}"
    );

    // Place it as White on d4 and as Black on f6, and a standard rook beside.
    click(&client, "#palette-current").await;
    square(&client, "d4").await;
    wait_label(&client, "d4", &format!("white piece {CUSTOM_CODE}")).await;
    click(&client, "#side-black").await;
    square(&client, "f6").await;
    wait_label(&client, "f6", &format!("black piece {CUSTOM_CODE}")).await;
    click(&client, "#palette-rook").await;
    square(&client, "a8").await;
    wait_label(&client, "a8", "black rook").await;

    // Its moves, highlighted: diagonal neighbours, and the capture on f6's diagonal reach.
    click(&client, "#tool-move").await;
    square(&client, "d4").await;
    let targets = wait_for(
        &client,
        "highlighted moves",
        "const t = [...document.querySelectorAll('.sq.target')].map(e => e.dataset.square); return t.length ? t : null",
    )
    .await;
    let targets: Vec<String> = serde_json::from_value(targets).expect("square names");
    assert!(targets.contains(&"e5".to_owned()), "targets {targets:?}");
    assert!(targets.contains(&"c3".to_owned()), "targets {targets:?}");
    assert!(label_of(&client, "e5").await.contains("legal destination"));
    shoot(&client, "lab.png").await;

    // Move it by clicking a highlighted square, then toggle a king and erase.
    square(&client, "e5").await;
    wait_label(&client, "e5", &format!("white piece {CUSTOM_CODE}")).await;
    click(&client, "#tool-king").await;
    square(&client, "e5").await;
    wait_label(&client, "e5", ", king").await;
    click(&client, "#tool-erase").await;
    square(&client, "a8").await;
    wait_label(&client, "a8", "a8, empty").await;

    // A preset into White's side, saved back as a preset: the default's code.
    type_into(&client, "#lab-preset-code", "default").await;
    click(&client, "#lab-load-preset").await;
    wait_label(&client, "d1", "white king").await;
    wait_label(&client, "e2", "white pawn").await;
    click(&client, "#save-white").await;
    wait_for(
        &client,
        "the saved preset",
        "return document.querySelector('#saved-preset-code')?.textContent === 'emcym3'",
    )
    .await;

    // A pawn on e7 steps to e8 and must be promoted: the picker turns it into a queen.
    click(&client, "#side-white").await;
    click(&client, "#palette-pawn").await;
    // The palette's pawn is a pawn: its flag is set by itself (or it could never promote).
    let flagged = client
        .execute(
            "return document.querySelector('#place-pawn').checked",
            vec![],
        )
        .await
        .expect("the flag");
    assert_eq!(flagged, json!(true));
    square(&client, "e7").await;
    wait_label(&client, "e7", "white pawn").await;
    click(&client, "#tool-move").await;
    square(&client, "e7").await;
    wait_for(
        &client,
        "e7's moves",
        "return !!document.querySelector('.sq.target[data-square=\"e8\"]')",
    )
    .await;
    square(&client, "e8").await;
    wait_for(
        &client,
        "the promotion picker",
        "return !!document.querySelector('#lab-promotion [data-genome=\"queen\"]')",
    )
    .await;
    shoot(&client, "lab-promotion.png").await;
    click(&client, "#lab-promotion [data-genome=\"queen\"]").await;
    wait_label(&client, "e8", "white queen").await;
    wait_for(
        &client,
        "the picker gone",
        "return !document.querySelector('#lab-promotion [data-genome]')",
    )
    .await;

    // Keyboard only: arrows to b1, Enter selects the knight, and a typed move plays it.
    client
        .execute(
            "document.querySelector('[data-square=\"a1\"]').focus()",
            vec![],
        )
        .await
        .expect("focus");
    let focused = client.active_element().await.expect("the focused square");
    focused.send_keys("\u{E014}").await.expect("arrow right");
    let focused = client.active_element().await.expect("the focused square");
    assert_eq!(
        focused
            .attr("data-square")
            .await
            .expect("an attribute")
            .as_deref(),
        Some("b1")
    );
    focused.send_keys("\u{E007}").await.expect("enter");
    wait_for(
        &client,
        "b1's moves",
        "return !!document.querySelector('.sq.target[data-square=\"c3\"]')",
    )
    .await;
    type_into(&client, "#lab-move-text", "b1c3\n").await;
    wait_label(&client, "c3", "white knight").await;

    // Escape drops the selection.
    click(&client, "#tool-move").await;
    square(&client, "e5").await;
    wait_for(
        &client,
        "e5 selected",
        "return !!document.querySelector('.sq.selected[data-square=\"e5\"]')",
    )
    .await;
    let focused = client.active_element().await.expect("the focus");
    focused.send_keys("\u{E00C}").await.expect("escape");
    wait_for(
        &client,
        "no selection",
        "return !document.querySelector('.sq.selected') && !document.querySelector('.sq.target')",
    )
    .await;

    // "Edit its DNA" keeps the codons apart.
    square(&client, "e5").await;
    click(&client, "#edit-dna").await;
    let typed = client
        .execute("return document.querySelector('#dna-input').value", vec![])
        .await
        .expect("the DNA");
    assert_eq!(typed, json!(CUSTOM_DNA));

    // An invalid DNA: the message sits under codon 8, the letters the error names marked.
    type_into(&client, "#dna-input", BAD_DNA).await;
    wait_for(
        &client,
        "the codon error",
        "return !!document.querySelector('.codon.error')",
    )
    .await;
    let codon = client
        .execute(
            "const e = document.querySelector('.codon.error'); return [e.dataset.codon, [...e.querySelectorAll('.letter')].map(l => l.textContent).join(''), e.querySelector('.under')?.textContent ?? '']",
            vec![],
        )
        .await
        .expect("the codon");
    assert_eq!(codon[0], json!("8"), "{codon}");
    assert_eq!(codon[1], json!("SHS"), "{codon}");
    let under = codon[2].as_str().unwrap_or_default();
    assert!(under.contains("step codon cannot contain H"), "{under}");
    // One numbering everywhere, from 1: the state, the screen reader's text and the chip.
    assert!(text_of(&client, "#dna-state").await.contains("codon 9"));
    let spoken = text_of(&client, "#dna-error").await;
    assert!(spoken.starts_with("Codon 9, letter 25:"), "{spoken}");
    assert!(under.starts_with("codon 9:"), "{under}");
    assert_eq!(
        text_of(&client, "#dna-code").await,
        CUSTOM_CODE,
        "the last valid code stays"
    );
    shoot(&client, "lab-error.png").await;

    // A bad letter: the letter itself is marked.
    type_into(&client, "#dna-input", "AHH HSH HAA HHH CHA CHA HHX CAS").await;
    wait_for(&client, "the bad letter", "return document.querySelector('.codon.error')?.dataset.codon === '6' && document.querySelector('.letter.bad')?.textContent === 'X'").await;

    // "New empty lab" asks before it wipes the board: the first click only arms it.
    click(&client, "#new-lab").await;
    assert_eq!(
        text_of(&client, "#new-lab").await,
        "Really wipe this board?"
    );
    assert!(label_of(&client, "c3").await.contains("white knight"));
    click(&client, "#new-lab").await;
    wait_label(&client, "c3", "c3, empty").await;
    wait_label(&client, "e8", "e8, empty").await;
    client.close().await.expect("the session closes");
}

/// The lab's Breed panel: two parents and a seed give the genome crate's children, drawn by the
/// server; "Use" makes a child the genome to place, and a click places it. A parent given as DNA
/// is stored first and bred by its code.
async fn breed(driver: &mut Driver, base: String) {
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
    let parent = |name: &str| gmo_genome::standard::by_name(name).expect("a standard genome");
    let expected = |a: &gmo_genome::Genome, b: &gmo_genome::Genome, seed: u64| -> Vec<String> {
        let breeding = gmo_genome::Breeding {
            seed,
            children: gmo_genome::breeding::DEFAULT_CHILDREN,
            max_letters: gmo_server::MAX_DNA_LETTERS,
        };
        gmo_genome::breed(a, b, breeding)
            .iter()
            .map(|child| child.code().to_string())
            .collect()
    };
    // The codes of the children shown, in order.
    let shown = "[...document.querySelectorAll('#breed-children .child')].map(c => c.dataset.code)";

    type_into(&client, "#breed-a", "knight").await;
    type_into(&client, "#breed-b", "queen").await;
    type_into(&client, "#breed-seed", "7").await;
    click(&client, "#breed-go").await;
    let want = expected(&parent("knight"), &parent("queen"), 7);
    assert_eq!(want.len(), gmo_genome::breeding::DEFAULT_CHILDREN);
    let codes = wait_for(
        &client,
        "the children",
        &format!("const c = {}; return c.length ? c : null", shown),
    )
    .await;
    assert_eq!(codes, json!(want));
    // Every child is drawn by the server's diagram route.
    wait_for(
        &client,
        "the children's diagrams",
        "const i = [...document.querySelectorAll('#breed-children img.diagram')]; return i.length > 0 && i.every(e => e.complete && e.naturalWidth > 0)",
    )
    .await;
    assert!(
        text_of(&client, "#breed-note").await.contains("seed 7"),
        "{}",
        text_of(&client, "#breed-note").await
    );
    client
        .execute("document.querySelector('#breed').scrollIntoView()", vec![])
        .await
        .expect("scrolled");
    shoot(&client, "lab-breed.png").await;

    // "Use" readies the second child for placing; one click on a square places it.
    click(&client, "#breed-use-2").await;
    wait_for(
        &client,
        "the place tool",
        "return document.querySelector('#tool-place')?.getAttribute('aria-pressed') === 'true'",
    )
    .await;
    square(&client, "d4").await;
    wait_label(&client, "d4", &format!("white piece {}", want[1])).await;
    // The editor holds the child's DNA, as if it had been typed.
    wait_for(
        &client,
        "the child's code in the editor",
        &format!(
            "return document.querySelector('#dna-code')?.textContent === {:?}",
            want[1]
        ),
    )
    .await;

    // A parent given as DNA: stored, then bred by its code.
    type_into(&client, "#breed-a", CUSTOM_DNA).await;
    type_into(&client, "#breed-b", "rook").await;
    type_into(&client, "#breed-seed", "3").await;
    click(&client, "#breed-go").await;
    let custom = gmo_genome::Genome::parse(CUSTOM_DNA).expect("the custom DNA");
    let want = expected(&custom, &parent("rook"), 3);
    assert!(!want.is_empty());
    wait_for(
        &client,
        "the DNA parent's children",
        &format!(
            "return JSON.stringify({}) === {:?}",
            shown,
            json!(want).to_string()
        ),
    )
    .await;
    assert!(text_of(&client, "#breed-note").await.contains(CUSTOM_CODE));

    // An unknown parent: said under that parent, no children.
    type_into(&client, "#breed-a", "zzzzzz").await;
    click(&client, "#breed-go").await;
    wait_for(
        &client,
        "the refusal",
        "return (document.querySelector('#breed-a-error')?.textContent ?? '').includes('zzzzzz') && !document.querySelector('#breed-children .child')",
    )
    .await;
    client.close().await.expect("the session closes");
}

/// Two browsers, two seats: create, invite, set up, play by click, drag and keyboard, resign.
async fn game(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(1280, 900).await;

    white.goto(&format!("{base}/")).await.expect("home opens");
    wait_for(
        &white,
        "the home page",
        "return !!document.querySelector('#new-friend-game')",
    )
    .await;
    shoot(&white, "home.png").await;
    // Both players customise their setup: the page leaves it to them (load, kings, ready).
    click(&white, "#customise-setup").await;
    click(&white, "#new-friend-game").await;
    let invite = wait_for(
        &white,
        "the invite link",
        "return document.querySelector('#invite-link')?.value ?? ''",
    )
    .await;
    let invite = invite.as_str().expect("a link").to_owned();
    assert!(
        invite.contains("#/game/") && invite.contains("token="),
        "{invite}"
    );

    customise(&black, &base).await;
    black.goto(&invite).await.expect("the invite opens");
    wait_status(&black, "Setting up").await;

    // Setup: the default preset, the king on d, ready.
    for (client, king) in [(&white, "d1"), (&black, "d8")] {
        click(client, "#load-preset").await;
        wait_label(client, king, "king").await;
        square(client, king).await;
        wait_label(client, king, "marked king").await;
    }
    shoot(&white, "game-setup.png").await;
    click(&white, "#ready").await;
    wait_for(
        &black,
        "white ready",
        "return document.querySelector('#setup-opponent')?.textContent.includes(', ready')",
    )
    .await;
    click(&black, "#ready").await;
    wait_status(&white, "Your move").await;
    wait_status(&black, "White to move").await;

    // Black sees the board from its side: h1 is the first square, a8 the last.
    let order = black
        .execute("const s = [...document.querySelectorAll('.board [data-square]')]; return [s[0].dataset.square, s[s.length - 1].dataset.square]", vec![])
        .await
        .expect("the order");
    assert_eq!(order, json!(["h1", "a8"]));
    // White's genomes are hidden from Black (species, not codes), but a standard piece is
    // named for everybody.
    assert!(label_of(&black, "e2").await.contains("white pawn"));
    assert!(hidden_code(&black, "e2").await);
    assert!(label_of(&white, "e2").await.contains("white pawn"));

    // 1. e2–e3 by clicks, after the highlights show.
    square(&white, "e2").await;
    wait_for(
        &white,
        "e2's moves",
        "return !!document.querySelector('.sq.target[data-square=\"e3\"]')",
    )
    .await;
    square(&white, "e3").await;
    wait_status(&black, "Your move").await;
    wait_label(&black, "e3", "white").await;
    // The opponent's piece: its legal squares too, never its DNA.
    square(&black, "g1").await;
    wait_for(
        &black,
        "g1's moves",
        "return !!document.querySelector('.sq.target[data-square=\"f3\"]')",
    )
    .await;

    // 1… e7–e6 by dragging.
    drag(&black, "e7", "e6").await;
    wait_status(&white, "Your move").await;
    wait_label(&white, "e6", "black").await;
    shoot(&black, "game-black.png").await;

    // 2. g1–f3 typed — while Black's connection is down: Black's page reconnects and catches up.
    black
        .execute("window.dispatchEvent(new Event('gmo:drop-stream'))", vec![])
        .await
        .expect("the stream drops");
    type_into(&white, "#move-text", "g1f3\n").await;
    wait_status(&black, "Your move").await;
    wait_label(&black, "f3", "white").await;
    wait_for(
        &black,
        "live again",
        "return document.querySelector('#connection')?.dataset.state === 'live'",
    )
    .await;
    // The list is whole again: the stream's gap is filled (from the plies, or from this
    // browser's own history) or shown as one.
    let listed = text_of(&black, "#move-list").await;
    assert!(
        listed.contains("g1–f3") || listed.contains("made while away"),
        "{listed}"
    );

    // 2… b8–c6 by clicks.
    square(&black, "b8").await;
    wait_for(
        &black,
        "b8's moves",
        "return !!document.querySelector('.sq.target[data-square=\"c6\"]')",
    )
    .await;
    square(&black, "c6").await;
    wait_status(&white, "Your move").await;

    // The clocks run: White's is counting down on both pages.
    let before = text_of(&white, ".player-bar.bottom .clock").await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let after = text_of(&white, ".player-bar.bottom .clock").await;
    assert_ne!(before, after, "White's clock counts down");
    assert!(
        black
            .find(Locator::Css(".player-bar.top .clock.running"))
            .await
            .is_ok()
    );

    // An illegal move is refused with the server's words.
    type_into(&white, "#move-text", "a1a5\n").await;
    wait_for(
        &white,
        "the refusal",
        "return (document.querySelector('#game-notice')?.textContent ?? '').length > 0",
    )
    .await;

    // After four moves over compact stream lines, both pages' boards are the server's.
    let (id, white_token) = seat_of(white.current_url().await.expect("the address").as_ref());
    let (_, black_token) = seat_of(&invite);
    board_as_server(&white, &base, &id, Some(&white_token)).await;
    board_as_server(&black, &base, &id, Some(&black_token)).await;

    // White resigns (two clicks, no dialog).
    click(&white, "#resign").await;
    click(&white, "#resign").await;
    wait_status(&white, "Black won — by resignation").await;
    wait_status(&black, "Black won — by resignation").await;
    // The stream, closed by the server after the end, was asked for with compact lines.
    for client in [&white, &black] {
        stream_was_compact(client, &id).await;
    }
    let moves = wait_for(
        &black,
        "the move list",
        "const m = [...document.querySelectorAll('#move-list .ply')].map(e => e.textContent); return m.length === 4 ? m : null",
    )
    .await;
    assert_eq!(moves, json!(["e2–e3", "e7–e6", "g1–f3", "b8–c6"]));
    // Numbered in pairs, as on paper.
    let pairs = black
        .execute(
            "return [...document.querySelectorAll('#move-list li.pair')].map(e => e.textContent)",
            vec![],
        )
        .await
        .expect("the pairs");
    assert_eq!(pairs, json!(["1.e2–e3e7–e6", "2.g1–f3b8–c6"]));
    // The result over the board, with a rematch, a new game and the record.
    wait_for(&black, "the result box", "return document.querySelector('#result-box:not([hidden]) #result-text')?.textContent === 'Black won — by resignation'").await;
    for control in ["#rematch", "#new-game", "#record-link"] {
        assert!(black.find(Locator::Css(control)).await.is_ok(), "{control}");
    }
    // After the end every genome is open: Black now sees White's pawns as pawns.
    wait_label(&black, "d2", "white pawn").await;
    shoot(&black, "game-over.png").await;
    // The result box can be put away to see the final position; the status keeps the result.
    click(&black, "#result-close").await;
    wait_for(
        &black,
        "the box put away",
        "return document.querySelector('#result-box').hidden",
    )
    .await;
    assert!(text_of(&black, "#game-status").await.contains("Black won"));
    // Flip board: the same position from the other side.
    let first_square = "return document.querySelector('.board [data-square]').dataset.square";
    assert_eq!(
        black.execute(first_square, vec![]).await.expect("a square"),
        json!("h1")
    );
    click(&black, "#flip").await;
    wait_for(
        &black,
        "the board flipped",
        "return document.querySelector('.board [data-square]').dataset.square === 'a8'",
    )
    .await;
    click(&black, "#flip").await;

    // A spectator (no token): the same board, read-only.
    let spectator_link = invite.split('?').next().unwrap_or_default().to_owned();
    white
        .goto(&spectator_link)
        .await
        .expect("the spectator page");
    wait_status(&white, "Black won").await;
    let controls = white
        .execute("return [!!document.querySelector('#resign'), document.querySelector('.move-form').hidden]", vec![])
        .await
        .expect("controls");
    assert_eq!(controls, json!([false, true]));
    // A browser that never saw this game still steps through it: the record gives the plies and
    // the start position.
    wait_for(
        &white,
        "the spectator's history",
        "return document.querySelectorAll('#move-list .ply').length === 4",
    )
    .await;
    click(&white, "#history-first").await;
    wait_label(&white, "e2", "white pawn").await;
    wait_label(&white, "e7", "black pawn").await;
    click(&white, "#move-list .ply[data-index=\"0\"]").await;
    wait_label(&white, "e3", "white pawn").await;
    wait_label(&white, "e2", "e2, empty").await;
    assert_eq!(squares_with(&white, "last").await, json!(["e2", "e3"]));

    // Black's home page lists the finished game among the results, with who won.
    black.goto(&format!("{base}/")).await.expect("home");
    let row = wait_for(
        &black,
        "the result in my games",
        "return document.querySelector('#my-games-list .game-row[data-status=\"black_won\"]')?.textContent ?? ''",
    )
    .await;
    let row = row.as_str().unwrap_or_default();
    assert!(
        row.contains("You played Black") && row.contains("You won: White resigned"),
        "{row}"
    );
    black.back().await.expect("back to the game");
    wait_status(&black, "Black won").await;

    // The same game page on a phone.
    black
        .set_window_size(390, 844)
        .await
        .expect("a phone-sized window");
    shoot(&black, "game-phone.png").await;
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

/// Assets and the look-up page: a preset by code shows its back rank; a genome by name its DNA.
async fn pages(driver: &mut Driver, base: String) {
    let client = driver.session(1000, 800).await;
    client
        .goto(&format!("{base}/#/code/default"))
        .await
        .expect("the look-up");
    wait_for(
        &client,
        "the preset",
        "return document.querySelectorAll('#preset-card li').length === 8",
    )
    .await;
    assert!(text_of(&client, "#preset-card h2").await.contains("emcym3"));
    shoot(&client, "lookup-preset.png").await;
    client
        .goto(&format!("{base}/#/code/3gbkd6"))
        .await
        .expect("the look-up");
    wait_for(&client, "the rook", "return (document.querySelector('#genome-card h2')?.textContent ?? '').includes('standard rook')").await;
    // A piece's page: the server's diagram of it (loaded, within the window, on a phone too) and
    // "Use in the lab", which opens the lab with its DNA.
    let diagram = "const i = document.querySelector('#genome-diagram'); \
        return !!i && i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().right <= innerWidth";
    wait_for(&client, "the rook's diagram", diagram).await;
    shoot(&client, "lookup-genome.png").await;
    client
        .set_window_size(390, 844)
        .await
        .expect("a phone-sized window");
    wait_for(&client, "the rook's diagram on a phone", diagram).await;
    shoot(&client, "lookup-genome-phone.png").await;
    click(&client, "#use-in-lab").await;
    wait_for(
        &client,
        "the rook in the lab",
        "return document.querySelector('#dna-code')?.textContent === '3gbkd6'",
    )
    .await;
    client
        .set_window_size(1000, 800)
        .await
        .expect("a desktop window");

    // A preset's page: "Play the bot with this" starts a bot game with that preset, set up at
    // once — its king genome (on e1 in this one) marked.
    let preset: Value = reqwest::Client::new()
        .post(format!("{base}/api/presets"))
        .json(&json!({"genomes": ["rook", "knight", "bishop", "queen", "king", "bishop", "knight", "rook"]}))
        .send()
        .await
        .expect("the preset stored")
        .json()
        .await
        .expect("its code");
    let code = preset["code"].as_str().expect("a code").to_owned();
    client
        .goto(&format!("{base}/#/code/{code}"))
        .await
        .expect("the preset's page");
    click(&client, "#play-preset").await;
    wait_status(&client, "Your move").await;
    wait_label(&client, "e1", "white king, marked king").await;
    assert!(label_of(&client, "d1").await.contains("white queen"));
    assert!(!label_of(&client, "d1").await.contains("king"));
    assert!(
        text_of(&client, ".player-bar.top .player")
            .await
            .contains("Bot (search)"),
        "the bot by its strength"
    );
    // The page has its icon.
    let icon = client
        .execute(
            "const l = document.querySelector('link[rel=icon]'); return l ? fetch(l.href).then(r => [r.status, r.headers.get('content-type')]) : null",
            vec![],
        )
        .await
        .expect("the icon");
    assert_eq!(icon, json!([200, "image/svg+xml"]));
    client
        .goto(&format!("{base}/#/code/zzzzzz"))
        .await
        .expect("the look-up");
    wait_for(
        &client,
        "not found",
        "return (document.body.textContent).includes('No genome or preset has the code zzzzzz')",
    )
    .await;

    // A bad game link: one clear message, no empty board, and the way back.
    client
        .goto(&format!("{base}/#/game/nosuchgame?token=nope"))
        .await
        .expect("a bad link");
    wait_for(
        &client,
        "the error",
        "return !!document.querySelector('#cannot-open')",
    )
    .await;
    let bad = client
        .execute("return [document.querySelectorAll('.board').length, document.querySelectorAll('[role=alert]:not(:empty)').length, !!document.querySelector('#back-home')]", vec![])
        .await
        .expect("the page");
    assert_eq!(bad, json!([0, 1, true]), "one error, no board, a way back");
    shoot(&client, "game-not-found.png").await;
    click(&client, "#back-home").await;
    wait_for(
        &client,
        "home",
        "return !!document.querySelector('#new-bot-game')",
    )
    .await;

    // A bot game (3+2): this server has bots, so a game must start — a refusal fails the test.
    client
        .execute("document.querySelector('#clock-minutes').value = '3'; document.querySelector('#clock-increment').value = '2'", vec![])
        .await
        .expect("the clock chosen");
    click(&client, "#new-bot-game").await;
    wait_for(
        &client,
        "a bot game",
        "return location.hash.startsWith('#/game/') && !!document.querySelector('#game-status')",
    )
    .await;
    assert_eq!(text_of(&client, "#cannot-open").await, "");
    // The bot set up its side already, and the page ours: the default preset, the king on d1.
    wait_status(&client, "Your move").await;
    wait_label(&client, "d1", "white king").await;
    assert_eq!(
        text_of(&client, "#time-control").await,
        "Increment: +2 s after each move"
    );
    // A game with a bot has no first-move timer (rules §5.4): no countdown, and White's clock
    // runs from the start, under 3:00 already.
    let shown = wait_for(
        &client,
        "White's clock running from the start",
        "const c = [...document.querySelectorAll('.player-bar .clock')].map(c => [c.textContent, c.classList.contains('running')]); \
         return c[1][1] && c[1][0] !== '3:00' && !document.querySelector('#first-move:not([hidden])') ? c : null",
    )
    .await;
    assert_eq!(
        shown[0],
        json!(["3:00", false]),
        "the bot's clock stands: {shown}"
    );
    shoot(&client, "game-bot.png").await;
    square(&client, "e2").await;
    wait_for(
        &client,
        "e2's moves",
        "return !!document.querySelector('.sq.target[data-square=\"e3\"]')",
    )
    .await;
    square(&client, "e3").await;
    wait_for(
        &client,
        "the bot's first move",
        "return document.querySelectorAll('#move-list .ply').length === 2",
    )
    .await;
    wait_for(
        &client,
        "White's clock running",
        "return !!document.querySelector('.player-bar.bottom .clock.running') && !document.querySelector('#first-move:not([hidden])')",
    )
    .await;
    // No script errors on any page: the console stays clean.
    let errors = client
        .execute("return window.__errors ?? []", vec![])
        .await
        .unwrap_or_default();
    assert_eq!(errors, json!([]));
    client.close().await.expect("closed");
}

/// Opens a friend game in two browsers and plays both setups to the start; returns the link
/// of Black's seat.
async fn start_friend_game(white: &Client, black: &Client, base: &str) -> String {
    white.goto(&format!("{base}/")).await.expect("home opens");
    click(white, "#new-friend-game").await;
    let invite = wait_for(
        white,
        "the invite link",
        "return document.querySelector('#invite-link')?.value ?? ''",
    )
    .await;
    let invite = invite.as_str().expect("a link").to_owned();
    assert!(
        text_of(white, "#invite-state")
            .await
            .contains("Waiting for your friend"),
        "before Black opens it"
    );
    // Both pages set their side up by themselves (the default preset, the king on d, ready):
    // the game starts once Black's page opens.
    black.goto(&invite).await.expect("the invite opens");
    wait_status(white, "Your move").await;
    wait_status(black, "White to move").await;
    invite
}

/// Ticks "Customise setup" on the home page: this browser's new games are set up by hand.
async fn customise(client: &Client, base: &str) {
    client.goto(&format!("{base}/")).await.expect("home opens");
    click(client, "#customise-setup").await;
    wait_for(
        client,
        "customise remembered",
        "return JSON.parse(localStorage.getItem('gmo.setup') || '{}').customise === true",
    )
    .await;
}

/// Plays `from`–`to` by clicking on the highlighted square, and waits for the other side to see it.
async fn play(mover: &Client, watcher: &Client, from: &str, to: &str) {
    square(mover, from).await;
    wait_for(
        mover,
        &format!("{from}'s moves"),
        &format!("return !!document.querySelector('.sq.target[data-square=\"{to}\"]')"),
    )
    .await;
    square(mover, to).await;
    wait_status(watcher, "Your move").await;
}

/// Whether the piece on a square is drawn from its species label, its code unknown to the page.
async fn hidden_code(client: &Client, name: &str) -> bool {
    let key = client
        .execute(
            &format!(
                "return document.querySelector('[data-square=\"{name}\"]')?.dataset.piece ?? ''"
            ),
            vec![],
        )
        .await
        .unwrap_or_default();
    key.as_str().is_some_and(|key| {
        key.split('|')
            .nth(1)
            .is_some_and(|id| id.starts_with("sp-"))
    })
}

/// Plays `from`–`to` like [`play`], a move that leaves the mover's king to be taken: the page
/// asks first, and the mover plays it anyway.
async fn play_anyway(mover: &Client, watcher: &Client, from: &str, to: &str) {
    square(mover, from).await;
    wait_for(
        mover,
        &format!("{from}'s moves"),
        &format!("return !!document.querySelector('.sq.target.exposes[data-square=\"{to}\"]')"),
    )
    .await;
    square(mover, to).await;
    click(mover, "dialog#confirm-move[open] #confirm-move-yes").await;
    wait_status(watcher, "Your move").await;
}

/// The squares drawn with a class, on one page.
async fn squares_with(client: &Client, class: &str) -> Value {
    client
        .execute(
            &format!("return [...document.querySelectorAll('.sq.{class}')].map(e => e.dataset.square).sort()"),
            vec![],
        )
        .await
        .expect("the squares")
}

browser_test!(the_inviter_sees_the_friend_open_the_invite, invite_opened);

/// White creates a friend game and waits; the moment Black's browser opens the invite (and does
/// nothing else), White's game page says so, live; after a reload too; and White's "My games"
/// row. Before that, both say White is still waiting.
async fn invite_opened(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(1280, 900).await;
    white.goto(&format!("{base}/")).await.expect("home opens");
    click(&white, "#new-friend-game").await;
    let invite = wait_for(
        &white,
        "the invite link",
        "return document.querySelector('#invite-link')?.value ?? ''",
    )
    .await;
    let invite = invite.as_str().expect("a link").to_owned();
    let game = white.current_url().await.expect("the address").to_string();
    wait_for(
        &white,
        "waiting for the friend",
        "return (document.querySelector('#invite-state')?.textContent ?? '').includes('Waiting for your friend')",
    )
    .await;
    // "My games" says the same before the friend comes.
    white.goto(&format!("{base}/")).await.expect("home");
    let row = wait_for(
        &white,
        "my games",
        "return document.querySelector('#my-games-list .game-row')?.textContent ?? ''",
    )
    .await;
    assert!(
        row.as_str()
            .unwrap_or_default()
            .contains("waiting for your friend to open the invite"),
        "{row}"
    );
    white.goto(&game).await.expect("back in the game");
    wait_status(&white, "Setting up").await;
    // Still waiting: White's own visits do not count as the friend's.
    assert!(
        text_of(&white, "#invite-state")
            .await
            .contains("Waiting for your friend"),
        "{}",
        text_of(&white, "#invite-state").await
    );

    // Black customises its setup, so that opening the invite is all it does.
    customise(&black, &base).await;
    black.goto(&invite).await.expect("the invite opens");
    wait_status(&black, "Setting up").await;
    wait_for(
        &white,
        "the invite opened, live",
        "return (document.querySelector('#invite-state')?.textContent ?? '').includes('Your friend has opened the invite')",
    )
    .await;
    let seats = white
        .execute(
            "return document.querySelector('.player-bar.top .player')?.textContent ?? ''",
            vec![],
        )
        .await
        .expect("the bar");
    assert!(
        seats.as_str().unwrap_or_default().contains("no preset yet"),
        "Black has done nothing but open it: {seats}"
    );
    shoot(&white, "game-invite-opened.png").await;
    white.refresh().await.expect("reloaded");
    wait_for(
        &white,
        "the invite opened, after a reload",
        "return (document.querySelector('#invite-state')?.textContent ?? '').includes('Your friend has opened the invite')",
    )
    .await;
    white.goto(&format!("{base}/")).await.expect("home");
    let row = wait_for(
        &white,
        "my games, opened",
        "const t = document.querySelector('#my-games-list .game-row')?.textContent ?? ''; return t.includes('your friend has opened the invite') ? t : ''",
    )
    .await;
    assert!(
        row.as_str().unwrap_or_default().contains("Setting up"),
        "{row}"
    );
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

browser_test!(
    my_games_history_and_danger_survive_closing_the_page,
    come_back
);

/// A king in danger is marked on both boards; a freeze refuses moves with a countdown; the
/// history survives a reload (pairs, positions, arrow keys, the last move); and after the tab is
/// closed, "My games" on the home page leads back into the game with the seat.
async fn come_back(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(1280, 900).await;
    start_friend_game(&white, &black, &base).await;

    // 1. f2–f3 e7–e6 2. Qe1–h4: the queen on h4 can take Black's king on d8 (h4 g5 f6 e7 d8).
    play(&white, &black, "f2", "f3").await;
    // Black's turn: the tab's title says so, and a chime sounded (counted by the page).
    let turn = black
        .execute("return [document.title, window.__chimes ?? 0]", vec![])
        .await
        .expect("the title");
    assert_eq!(turn[0], json!("● Your move — GMO chess"), "{turn}");
    assert!(turn[1].as_u64().unwrap_or(0) >= 1, "a chime: {turn}");
    assert!(!text_of(&white, "title").await.contains("Your move"));
    // Muted, the next turn is silent.
    click(&black, "#mute").await;
    wait_for(
        &black,
        "muted",
        "return document.querySelector('#mute')?.getAttribute('aria-pressed') === 'true'",
    )
    .await;
    let chimes = turn[1].clone();
    // A refused move, then a legal one: the refusal does not stay.
    type_into(&black, "#move-text", "a8a4\n").await;
    wait_for(
        &black,
        "the refusal",
        "return (document.querySelector('#game-notice')?.textContent ?? '').length > 0",
    )
    .await;
    play(&black, &white, "e7", "e6").await;
    wait_for(
        &black,
        "the notice cleared",
        "return document.querySelector('#game-notice')?.textContent === ''",
    )
    .await;
    assert_eq!(squares_with(&white, "danger").await, json!([]));
    play(&white, &black, "e1", "h4").await;
    let after = black
        .execute("return window.__chimes ?? 0", vec![])
        .await
        .expect("the chimes");
    assert_eq!(after, chimes, "no chime when muted");
    for client in [&white, &black] {
        wait_for(
            client,
            "the danger mark",
            "return !!document.querySelector('.sq.danger[data-square=\"d8\"]')",
        )
        .await;
        assert_eq!(squares_with(client, "danger").await, json!(["d8"]));
        assert!(label_of(client, "d8").await.contains("in danger"));
    }
    assert!(
        text_of(&black, "#game-status")
            .await
            .contains("Your king on d8 can be taken")
    );

    // The queen freezes the game: a countdown, and the board refuses a move with words, not a time stamp.
    wait_for(&black, "the freeze", "return !document.querySelector('#freeze').hidden && document.querySelector('.board-wrap.frozen')").await;
    let countdown = text_of(&black, "#freeze").await;
    assert!(
        countdown.starts_with("Frozen: no move for ") && countdown.ends_with(" s"),
        "{countdown}"
    );
    shoot(&black, "game-danger.png").await;
    type_into(&black, "#move-text", "d8e7\n").await;
    let refused = wait_for(
        &black,
        "the frozen refusal",
        "return document.querySelector('#game-notice')?.textContent ?? ''",
    )
    .await;
    let refused = refused.as_str().unwrap_or_default();
    assert!(
        refused.starts_with("The game is frozen: no move for "),
        "{refused}"
    );
    assert!(!refused.contains("ms"), "{refused}");
    wait_for(
        &black,
        "the freeze over",
        "return document.querySelector('#freeze').hidden",
    )
    .await;
    // Escape drops a selection (and its highlighted squares).
    square(&black, "d7").await;
    wait_for(
        &black,
        "d7's moves",
        "return !!document.querySelector('.sq.target[data-square=\"d6\"]')",
    )
    .await;
    let focused = black.active_element().await.expect("the focus");
    focused.send_keys("\u{E00C}").await.expect("escape");
    wait_for(
        &black,
        "no selection",
        "return !document.querySelector('.sq.selected') && !document.querySelector('.sq.target')",
    )
    .await;
    play_anyway(&black, &white, "d7", "d6").await;

    // Reload White's page: the whole history is back, in pairs, the last move highlighted.
    white.refresh().await.expect("reloaded");
    wait_status(&white, "Your move").await;
    let pairs = wait_for(
        &white,
        "the history",
        "const p = [...document.querySelectorAll('#move-list li.pair')].map(e => e.textContent); return p.length === 2 ? p : null",
    )
    .await;
    assert_eq!(pairs, json!(["1.f2–f3e7–e6", "2.e1–h4d7–d6"]));
    assert_eq!(squares_with(&white, "last").await, json!(["d6", "d7"]));
    assert!(!text_of(&white, "#move-list").await.contains("while away"));

    // Clicking a move shows its position; the arrow keys step; End comes back.
    click(&white, "#move-list .ply[data-index=\"0\"]").await;
    wait_label(&white, "f2", "f2, empty").await;
    assert!(label_of(&white, "f3").await.contains("white pawn"));
    assert!(label_of(&white, "e7").await.contains("black"));
    assert!(label_of(&white, "e1").await.contains("white queen"));
    assert_eq!(squares_with(&white, "last").await, json!(["f2", "f3"]));
    white
        .execute("document.querySelector('#history-next').focus()", vec![])
        .await
        .expect("focus");
    let focused = white.active_element().await.expect("the focus");
    focused.send_keys("\u{E014}").await.expect("arrow right");
    wait_label(&white, "e7", "e7, empty").await;
    assert!(label_of(&white, "e6").await.contains("black"));
    let focused = white.active_element().await.expect("the focus");
    focused.send_keys("\u{E014}").await.expect("arrow right");
    wait_label(&white, "h4", "white queen").await;
    wait_for(
        &white,
        "the danger in the past",
        "return !!document.querySelector('.sq.danger[data-square=\"d8\"]')",
    )
    .await;
    let focused = white.active_element().await.expect("the focus");
    focused.send_keys("\u{E010}").await.expect("end");
    wait_for(
        &white,
        "the game now",
        "return document.querySelector('#past-note').hidden",
    )
    .await;
    wait_label(&white, "d6", "black").await;

    // Close White's tab: a new tab's home page lists the game, and one click is back in it.
    let fresh = white.new_window(true).await.expect("a new tab");
    white.close_window().await.expect("the game's tab closes");
    white
        .switch_to_window(fresh.handle)
        .await
        .expect("the new tab");
    assert_eq!(white.windows().await.expect("the tabs").len(), 1);
    white.goto(&format!("{base}/")).await.expect("home");
    let row = wait_for(
        &white,
        "my games",
        "return document.querySelector('#my-games-list .game-row')?.textContent ?? ''",
    )
    .await;
    let row = row.as_str().unwrap_or_default();
    assert!(
        row.contains("You play White") && row.contains("Your move"),
        "{row}"
    );
    // Four plies are two moves, as chess players count them.
    assert!(row.contains("2 moves"), "{row}");
    shoot(&white, "home-my-games.png").await;
    click(&white, "#my-games-list .game-row a").await;
    wait_status(&white, "Your move").await;
    assert!(label_of(&white, "h4").await.contains("white queen"));
    // The seat is really held: a move is accepted.
    play(&white, &black, "a2", "a3").await;
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

browser_test!(
    a_fresh_browser_opening_a_seat_mid_game_sees_the_whole_history,
    fresh_history
);

/// A browser with nothing of the game in its storage (a new profile) opens Black's seat link
/// after five plies: the whole history in numbered pairs, the last move highlighted, and every
/// earlier position — with its danger mark — by click, arrow keys, Home and End; White's hidden
/// genomes stay hidden in the past too.
async fn fresh_history(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(1280, 900).await;
    let link = start_friend_game(&white, &black, &base).await;
    play(&white, &black, "f2", "f3").await;
    play(&black, &white, "e7", "e6").await;
    play(&white, &black, "e1", "h4").await;
    wait_for(
        &black,
        "the freeze over",
        "return document.querySelector('#freeze').hidden",
    )
    .await;
    play_anyway(&black, &white, "d7", "d6").await;
    play(&white, &black, "a2", "a3").await;

    let fresh = driver.session(1280, 900).await;
    fresh.goto(&link).await.expect("the seat link opens");
    wait_status(&fresh, "Your move").await;
    let stored = fresh
        .execute(
            "return Object.keys(localStorage).filter(k => k.startsWith('gmo.history.')).length",
            vec![],
        )
        .await
        .expect("the storage");
    assert!(
        stored.as_u64().unwrap_or(0) <= 2,
        "a fresh profile: {stored}"
    );
    let pairs = wait_for(
        &fresh,
        "the whole history",
        "const p = [...document.querySelectorAll('#move-list li.pair')].map(e => e.textContent); return p.length === 3 ? p : null",
    )
    .await;
    assert_eq!(pairs, json!(["1.f2–f3e7–e6", "2.e1–h4d7–d6", "3.a2–a3"]));
    assert!(!text_of(&fresh, "#move-list").await.contains("while away"));
    assert_eq!(squares_with(&fresh, "last").await, json!(["a2", "a3"]));

    // The first ply's position, by click: the pawn on f3, the rest as at the start.
    click(&fresh, "#move-list .ply[data-index=\"0\"]").await;
    wait_label(&fresh, "f2", "f2, empty").await;
    let note = text_of(&fresh, "#past-note").await;
    assert!(note.starts_with("The position after f2–f3"), "{note}");
    assert!(label_of(&fresh, "f3").await.contains("white pawn"));
    assert!(hidden_code(&fresh, "f3").await);
    assert!(label_of(&fresh, "e7").await.contains("black pawn"));
    assert!(label_of(&fresh, "e1").await.contains("white queen"));
    assert!(hidden_code(&fresh, "e1").await);
    assert_eq!(squares_with(&fresh, "last").await, json!(["f2", "f3"]));
    // → steps on: Black's reply, then the queen's move with Black's king in danger.
    fresh
        .execute("document.querySelector('#history-next').focus()", vec![])
        .await
        .expect("focus");
    let key = |key: &'static str| {
        let fresh = &fresh;
        async move {
            let focused = fresh.active_element().await.expect("the focus");
            focused.send_keys(key).await.expect("a key");
        }
    };
    key("\u{E014}").await;
    wait_label(&fresh, "e7", "e7, empty").await;
    assert!(label_of(&fresh, "e6").await.contains("black pawn"));
    assert_eq!(squares_with(&fresh, "danger").await, json!([]));
    key("\u{E014}").await;
    wait_label(&fresh, "h4", "white queen").await;
    wait_for(
        &fresh,
        "the danger in the past",
        "return !!document.querySelector('.sq.danger[data-square=\"d8\"]')",
    )
    .await;
    assert!(hidden_code(&fresh, "h4").await, "hidden in the past too");
    shoot(&fresh, "game-fresh-history.png").await;
    // Home is the start; End the game now.
    key("\u{E011}").await;
    wait_label(&fresh, "f2", "white pawn").await;
    assert!(hidden_code(&fresh, "f2").await);
    assert!(label_of(&fresh, "f3").await.contains("f3, empty"));
    assert_eq!(squares_with(&fresh, "last").await, json!([]));
    key("\u{E010}").await;
    wait_for(
        &fresh,
        "the game now",
        "return document.querySelector('#past-note').hidden",
    )
    .await;
    assert!(label_of(&fresh, "a3").await.contains("white pawn"));
    assert!(hidden_code(&fresh, "a3").await);
    assert_eq!(squares_with(&fresh, "last").await, json!(["a2", "a3"]));
    // The seat is really held: a move is accepted.
    play_anyway(&fresh, &white, "a7", "a6").await;
    for client in [white, black, fresh] {
        client.close().await.expect("closed");
    }
}

browser_test!(
    move_numbers_and_notices_fit_a_long_game_and_a_phone,
    long_game_on_a_phone
);

/// The issue's layout fixes, in a game of eleven moves between a 1280 px window (White) and a
/// phone (Black, 390 × 844): move numbers from 10 on are whole in both move lists, and the notice
/// of the opponent's move covers neither clock on the phone.
async fn long_game_on_a_phone(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(390, 844).await;
    start_friend_game(&white, &black, &base).await;
    for _ in 0..5 {
        play(&white, &black, "b1", "c3").await;
        play(&black, &white, "b8", "c6").await;
        play(&white, &black, "c3", "b1").await;
        play(&black, &white, "c6", "b8").await;
    }
    play(&white, &black, "g1", "f3").await;
    // The phone's notice of White's move: shown, and over neither clock.
    let overlap = wait_for(
        &black,
        "the notice of White's move",
        "const t = document.querySelector('#toast.shown'); if (!t || !t.textContent.startsWith('White played')) return null; \
         const r = t.getBoundingClientRect(); \
         return [...document.querySelectorAll('.clock')].map(c => { const k = c.getBoundingClientRect(); \
           return k.width > 0 && r.left < k.right && k.left < r.right && r.top < k.bottom && k.top < r.bottom; });",
    )
    .await;
    assert_eq!(overlap, json!([false, false]), "the notice covers no clock");
    shoot(&black, "game-phone-notice.png").await;
    play(&black, &white, "g8", "f6").await;
    play(&white, &black, "e2", "e3").await;
    // Eleven numbered rows; every number whole (nothing cut off) in both windows.
    let fits = "const nums = [...document.querySelectorAll('#move-list .num')]; \
        if (nums.length !== 12) return null; \
        return nums.map(n => { const box = n.getBoundingClientRect(), list = n.closest('ol').getBoundingClientRect(); \
          return [n.textContent, n.scrollWidth <= n.clientWidth && box.left >= list.left && box.right <= list.right]; });";
    for client in [&white, &black] {
        let numbers = wait_for(client, "twelve numbered rows", fits).await;
        let numbers = numbers.as_array().expect("the numbers");
        for (index, number) in numbers.iter().enumerate() {
            assert_eq!(number[0], json!(format!("{}.", index + 1)));
            assert_eq!(number[1], json!(true), "{} is cut off", number[0]);
        }
    }
    black
        .execute(
            "document.querySelector('#move-list li.pair:last-child').scrollIntoView()",
            vec![],
        )
        .await
        .expect("scrolled");
    shoot(&black, "game-phone-moves.png").await;
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

browser_test!(
    two_browsers_agree_a_draw_and_play_a_rematch,
    draw_and_rematch
);

/// White offers a draw, Black sees it and accepts: both show the draw by agreement over the
/// board; both ask for a rematch and land in a new game with the colours swapped.
async fn draw_and_rematch(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(1280, 900).await;
    start_friend_game(&white, &black, &base).await;
    play(&white, &black, "e2", "e3").await;

    // White offers, Black declines by moving; then Black offers and White accepts.
    click(&white, "#offer-draw").await;
    wait_for(
        &black,
        "the offer",
        "return !!document.querySelector('#accept-draw')",
    )
    .await;
    assert!(
        text_of(&black, "#draw-offered")
            .await
            .contains("offers a draw")
    );
    let offered = white
        .execute(
            "return document.querySelector('#offer-draw').disabled",
            vec![],
        )
        .await
        .expect("the button");
    assert_eq!(offered, json!(true), "White's offer stands");
    play(&black, &white, "e7", "e6").await;
    wait_for(&black, "the offer declined", "return !document.querySelector('#accept-draw') && !!document.querySelector('#offer-draw:not([disabled])')").await;
    wait_for(
        &white,
        "the offer gone",
        "return !!document.querySelector('#offer-draw:not([disabled])')",
    )
    .await;
    click(&black, "#offer-draw").await;
    wait_for(
        &white,
        "Black's offer",
        "return !!document.querySelector('#accept-draw')",
    )
    .await;
    click(&white, "#accept-draw").await;
    for client in [&white, &black] {
        wait_status(client, "Draw — by agreement").await;
        wait_for(client, "the result over the board", "return document.querySelector('#result-box:not([hidden]) #result-text')?.textContent === 'Draw — by agreement'").await;
    }
    shoot(&black, "game-draw.png").await;
    let old = white.current_url().await.expect("the address").to_string();

    // A rematch, with both pages reloaded on the way: Black reloads the finished game before
    // anyone asks, White asks and then reloads; each page still hears the other's ask from the
    // finished game's stream, and both land in one new game, colours swapped, each in its own
    // seat (the server answers each page's token for it: no refusal passes for a game).
    black
        .refresh()
        .await
        .expect("Black reloads the finished game");
    wait_for(&black, "the result after a reload", "return document.querySelector('#result-box:not([hidden]) #result-text')?.textContent === 'Draw — by agreement'").await;
    click(&white, "#rematch").await;
    wait_for(
        &white,
        "waiting for the opponent",
        "return !!document.querySelector('#rematch-state')",
    )
    .await;
    white.refresh().await.expect("White reloads after asking");
    wait_for(
        &white,
        "still waiting after a reload",
        "return !!document.querySelector('#rematch-state') && document.querySelector('#rematch')?.disabled",
    )
    .await;
    // Black hears of it, and accepts.
    wait_for(
        &black,
        "the rematch offer",
        "return !!document.querySelector('#rematch-offered') && document.querySelector('#rematch')?.textContent === 'Accept the rematch'",
    )
    .await;
    click(&black, "#rematch").await;
    let mut games = Vec::new();
    for (client, now) in [(&white, "black"), (&black, "white")] {
        let hash = wait_for(
            client,
            "the new game",
            &format!("return location.href !== {old:?} && location.hash.startsWith('#/game/') && /Your move|White to move/.test(document.querySelector('#game-status')?.textContent ?? '') ? location.hash : null"),
        )
        .await;
        let hash = hash.as_str().unwrap_or_default().to_owned();
        let (path, token) = hash
            .trim_start_matches("#/game/")
            .split_once("?token=")
            .unwrap_or_else(|| panic!("a game and a token: {hash}"));
        let view = reqwest::Client::new()
            .get(format!("{base}/api/games/{path}"))
            .bearer_auth(token)
            .send()
            .await
            .expect("the server answers");
        assert_eq!(view.status(), 200, "the page's token opens the new game");
        let view: Value = view.json().await.expect("a view");
        assert_eq!(view["you"], now, "{view}");
        // Ready to play at once: both pages set their side up by themselves.
        assert_eq!(view["status"], "in_progress", "{view}");
        assert!(
            text_of(client, "#cannot-open").await.is_empty(),
            "no refusal on the page"
        );
        games.push(path.to_owned());
    }
    assert_eq!(games[0], games[1], "both in the same new game");
    assert!(!old.contains(&games[0]), "a new game, not the old one");
    // White is Black now, and the other way round: each sees its own seat at the bottom.
    wait_for(&white, "White plays Black", "return document.querySelector('.player-bar.bottom .player')?.textContent.includes('You (Black)')").await;
    wait_for(&black, "Black plays White", "return document.querySelector('.player-bar.bottom .player')?.textContent.includes('You (White)')").await;
    wait_label(&white, "d8", "marked king").await;
    wait_label(&black, "d1", "marked king").await;
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

browser_test!(the_rules_page_teaches_with_the_servers_diagrams, rules);

/// How to play: every section, every diagram drawn by the server (loaded, not broken), and the
/// game links to it; a selected own piece shows its code and diagram.
async fn rules(driver: &mut Driver, base: String) {
    let client = driver.session(1280, 900).await;
    client
        .goto(&format!("{base}/#/rules"))
        .await
        .expect("the rules");
    let sections = wait_for(
        &client,
        "the sections",
        "const all = [...document.querySelectorAll('.rules-section h2')].map(e => e.textContent); \
         return all.length ? all : null",
    )
    .await;
    assert_eq!(
        sections,
        json!([
            "DNA and codes",
            "How a piece walks",
            "Copies and owners",
            "The nine debuffs",
            "Wrapping edges",
            "Kings, and how a game is lost",
            "Promotion",
            "The clock"
        ])
    );
    // At the top, before anything else: what differs from chess, in plain words — in the first
    // screen on a desktop and on a phone.
    differences_at_the_top(&client).await;
    client
        .set_window_size(390, 844)
        .await
        .expect("a phone-sized window");
    differences_at_the_top(&client).await;
    shoot(&client, "rules-phone.png").await;
    client
        .set_window_size(1280, 900)
        .await
        .expect("a desktop window");
    // Nine debuffs, freeze with both clocks.
    let debuffs = text_of(&client, "#rules-debuffs").await;
    assert!(
        debuffs.contains("loses 5 seconds") && debuffs.contains("gains 5 seconds"),
        "{debuffs}"
    );
    let images = wait_for(
        &client,
        "every diagram loaded",
        "const i = [...document.querySelectorAll('#rules img.diagram')]; return i.length === 9 && i.every(e => e.complete && e.naturalWidth > 0) ? i.map(e => e.dataset.genome) : null",
    )
    .await;
    let images: Vec<String> = serde_json::from_value(images).expect("genome refs");
    for name in ["rook", "knight", "bishop", "queen", "king", "pawn"] {
        assert!(images.contains(&name.to_owned()), "{images:?}");
    }
    // The pictures are the server's: the same bytes as the route answers, and SVG.
    let answer = reqwest::get(format!(
        "{base}/api/genomes/rook/diagram.svg?width=7&height=7&color=white"
    ))
    .await
    .expect("the diagram");
    assert_eq!(answer.status(), 200);
    assert!(
        answer.headers()["content-type"]
            .to_str()
            .unwrap_or_default()
            .starts_with("image/svg+xml")
    );
    client
        .execute(
            "document.querySelector('#rules-dna .figures').scrollIntoView()",
            vec![],
        )
        .await
        .expect("scrolled");
    shoot(&client, "rules.png").await;

    // Linked from setup; in the game, selecting one's own piece shows its code, its diagram
    // and what it does.
    client.goto(&format!("{base}/")).await.expect("home");
    click(&client, "#new-bot-game").await;
    wait_status(&client, "Your move").await;
    wait_label(&client, "d1", "marked king").await;
    // Beside the game's start: what differs from chess, with the way to all the rules.
    wait_for(
        &client,
        "the differences beside the game",
        "const b = document.querySelector('#differences'); return !!b && !b.hidden && !!b.querySelector('a[href=\"#/rules\"]')",
    )
    .await;
    assert!(
        client
            .find(Locator::Css(
                "#actions ~ p a[href='#/rules'], .side-col a[href='#/rules']"
            ))
            .await
            .is_ok()
    );
    square(&client, "e1").await;
    wait_for(
        &client,
        "the piece's diagram",
        "const i = document.querySelector('#piece-diagram'); return !!i && i.complete && i.naturalWidth > 0 && (document.querySelector('#piece-explanation')?.textContent ?? '').length > 20",
    )
    .await;
    assert_eq!(text_of(&client, "#piece-code").await, "1hapeh");
    shoot(&client, "game-piece.png").await;
    client.close().await.expect("closed");
}

/// The rules page's "For chess players" box: right under the main heading, its top in the first
/// screen, with the six differences.
async fn differences_at_the_top(client: &Client) {
    client
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .expect("scrolled up");
    let found = wait_for(
        client,
        "the differences box",
        "const b = document.querySelector('#rules #differences'); if (!b) return null; \
         const r = b.getBoundingClientRect(); \
         return [b.previousElementSibling?.tagName, r.top >= 0 && r.top < innerHeight / 2, r.width > 0 && r.right <= innerWidth, \
           b.querySelector('h2').textContent, b.textContent];",
    )
    .await;
    assert_eq!(found[0], json!("H1"), "{found}");
    assert_eq!(found[1], json!(true), "in the first screen: {found}");
    assert_eq!(found[2], json!(true), "within the width: {found}");
    assert_eq!(found[3], json!("For chess players: what’s different"));
    let text = found[4].as_str().unwrap_or_default();
    for point in [
        "Pawns move one square",
        "d1",
        "no check",
        "taking the king",
        "freeze",
        "capture your own pieces",
        "DNA is hidden",
    ] {
        assert!(text.contains(point), "{point}: {text}");
    }
}

/// The game id in a page's address, once it shows a game.
async fn game_of(client: &Client) -> String {
    let id = wait_for(
        client,
        "a game page",
        "const m = location.hash.match(/^#\\/game\\/([0-9a-f]{32})\\?token=[0-9a-f]{32}$/); \
         return m && document.querySelector('#game-status') ? m[1] : ''",
    )
    .await;
    id.as_str().expect("a game id").to_owned()
}

/// The lobby (issue 13): two browsers press 5+0 and land in one game, one seat each; then one
/// opens a 3+2 seek and the other accepts it from the live list.
async fn lobby(driver: &mut Driver, base: String) {
    let first = driver.session(1280, 900).await;
    let second = driver.session(1280, 900).await;
    for client in [&first, &second] {
        client.goto(&format!("{base}/")).await.expect("home opens");
        wait_for(
            client,
            "the lobby",
            "return !!document.querySelector('#seek-5-0')",
        )
        .await;
    }
    // The custom clock starts as the menu's 5 + 0, not 15 + 10.
    let fields = first
        .execute(
            "return [document.querySelector('#seek-minutes').value, document.querySelector('#seek-increment').value]",
            vec![],
        )
        .await
        .expect("the fields");
    assert_eq!(fields, json!(["5", "0"]));
    click(&first, "#seek-5-0").await;
    wait_for(
        &first,
        "the waiting state",
        "const w = document.querySelector('#seek-waiting'); return !!w && !w.hidden && w.textContent.includes('5+0')",
    )
    .await;
    shoot(&first, "lobby-waiting.png").await;
    // The second browser's list shows the first's seek.
    wait_for(
        &second,
        "the listed seek",
        "return [...document.querySelectorAll('.seek-accept')].some(b => b.textContent.startsWith('5+0'))",
    )
    .await;
    click(&second, "#seek-5-0").await;
    let (one, two) = (game_of(&first).await, game_of(&second).await);
    assert_eq!(one, two, "both browsers are in the same game");
    // Paired, both pages set their side up: the game is on at once.
    for client in [&first, &second] {
        wait_for(
            client,
            "the paired game under way",
            "return /Your move|White to move/.test(document.querySelector('#game-status')?.textContent ?? '')",
        )
        .await;
    }
    // Each page holds one seat: asked of the server with the token in its address.
    let seat = "const m = location.hash.match(/token=([0-9a-f]{32})/); \
        return fetch(`/api/games/${location.hash.split('/')[2].split('?')[0]}`, \
        {headers: {Authorization: `Bearer ${m[1]}`}}).then(r => r.json()).then(g => g.you)";
    let (a, b) = (
        first.execute(seat, vec![]).await.expect("a seat"),
        second.execute(seat, vec![]).await.expect("a seat"),
    );
    let mut seats = [
        a.as_str().unwrap_or_default(),
        b.as_str().unwrap_or_default(),
    ];
    seats.sort_unstable();
    assert_eq!(seats, ["black", "white"], "one seat each");
    shoot(&second, "lobby-paired.png").await;

    // Accepting from the list: a 3+2 seek, clicked in the other browser.
    for client in [&first, &second] {
        client
            .goto(&format!("{base}/#/"))
            .await
            .expect("home opens");
        wait_for(
            client,
            "the lobby",
            "return !!document.querySelector('#seek-3-2')",
        )
        .await;
    }
    click(&first, "#seek-3-2").await;
    wait_for(
        &second,
        "the 3+2 seek listed",
        "return [...document.querySelectorAll('.seek-accept')].some(b => b.textContent.startsWith('3+2'))",
    )
    .await;
    second
        .execute(
            "[...document.querySelectorAll('.seek-accept')].find(b => b.textContent.startsWith('3+2')).click()",
            vec![],
        )
        .await
        .expect("the click");
    let (one, two) = (game_of(&first).await, game_of(&second).await);
    assert_eq!(one, two, "the accepted seek's game opens in both browsers");
    let errors = first
        .execute("return window.__errors", vec![])
        .await
        .expect("errors");
    assert_eq!(errors, json!([]), "no script errors");
    first.close().await.expect("the session closes");
    second.close().await.expect("the session closes");
}

async fn value(driver: &mut Driver, base: String) {
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
    // The panel follows the genome to place; nobody has asked for the rook's value yet.
    click(&client, "#palette-rook").await;
    wait_for(
        &client,
        "the rook, not evaluated",
        "return document.querySelector('#value-genome')?.textContent === 'rook' && document.querySelector('#value-result')?.textContent === 'Not evaluated yet.'",
    )
    .await;
    click(&client, "#value-go").await;
    let shown = wait_for(
        &client,
        "the rook's value",
        "const t = document.querySelector('#value-result')?.textContent ?? ''; return t.startsWith('≈') ? t : null",
    )
    .await;
    // What the page shows is the server's result, rounded.
    let value: Value = reqwest::get(format!("{base}/api/genomes/rook/value"))
        .await
        .expect("the value")
        .json()
        .await
        .expect("JSON");
    assert_eq!(value["state"], "done", "{value}");
    let estimate = &value["estimate"];
    let want = format!(
        "≈ {:.1} pawns ± {:.1} ({VALUE_GAMES} games)",
        estimate["pawns"].as_f64().expect("pawns"),
        estimate["margin"].as_f64().expect("margin")
    );
    assert_eq!(shown, json!(want));
    assert_eq!(
        client
            .execute(
                "return [document.querySelector('#value-progress').hidden, document.querySelector('#value-go').disabled]",
                vec![]
            )
            .await
            .expect("the panel"),
        json!([true, true])
    );
    client
        .execute("document.querySelector('#value').scrollIntoView()", vec![])
        .await
        .expect("scrolled");
    shoot(&client, "lab-value.png").await;
    // Another genome to place: the panel shows it, and the rook's result comes back at once.
    click(&client, "#palette-queen").await;
    wait_for(
        &client,
        "the queen, not evaluated",
        "return document.querySelector('#value-genome')?.textContent === 'queen' && document.querySelector('#value-result')?.textContent === 'Not evaluated yet.' && !document.querySelector('#value-go').disabled",
    )
    .await;
    click(&client, "#palette-rook").await;
    wait_for(
        &client,
        "the rook's value again",
        &format!("return document.querySelector('#value-result')?.textContent === {want:?}"),
    )
    .await;
    client.close().await.expect("the session closes");
}

browser_test!(
    bot_and_friend_games_are_ready_at_once_unless_customised,
    play_at_once
);

/// The contrast of a move dot on a dark square against the square (WCAG's ratio, the dot
/// composited over the square's colour).
const DOT_CONTRAST: &str = "const sq = document.querySelector('.sq.target.dark:not(.capture)'); if (!sq) return null; \
    const rgba = (c) => { const v = c.match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; }; \
    const dot = rgba(getComputedStyle(sq, '::after').backgroundColor), base = rgba(getComputedStyle(sq).backgroundColor); \
    const mix = [0, 1, 2].map(i => dot[i] * dot[3] + base[i] * (1 - dot[3])); \
    const lum = (c) => { const l = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); \
      return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; }; \
    const [a, b] = [lum(mix), lum(base.slice(0, 3))]; return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);";

/// Issue 22, "play at once": "Play the bot" opens a game that is ready to play — the default
/// preset loaded, the king on d1 marked, ready — and the first move can be made within a second
/// of the click; the bot is named by its strength; the differences from chess stand beside the
/// start. "Customise setup" (remembered, with the chosen preset) leaves setup to the player: the
/// preset field keeps a custom preset, the focus stays on the board after Load and Ready. Back
/// to automatic, the custom preset's king genome (e1) is the one marked. A friend game between
/// a desktop and a phone starts as soon as the friend opens the invite.
async fn play_at_once(driver: &mut Driver, base: String) {
    let client = driver.session(1280, 900).await;
    client.goto(&format!("{base}/")).await.expect("home opens");
    wait_for(
        &client,
        "the setup choice",
        "return document.querySelector('#my-preset')?.value === 'default' && document.querySelector('#customise-setup')?.checked === false",
    )
    .await;
    // Clicked in the page, timed in the page: from the click to "Your move" with e2's moves.
    let elapsed = client
        .execute_async(
            "const done = arguments[arguments.length - 1]; const t0 = performance.now(); \
             document.querySelector('#new-bot-game').click(); \
             const look = () => (document.querySelector('#game-status')?.textContent ?? '').startsWith('Your move') \
               ? done(performance.now() - t0) : setTimeout(look, 5); look();",
            vec![],
        )
        .await
        .expect("the game starts");
    let elapsed = elapsed.as_f64().expect("milliseconds");
    assert!(
        elapsed < 1000.0,
        "ready to play {elapsed:.0} ms after the click"
    );
    wait_label(&client, "d1", "white king, marked king").await;
    assert!(
        text_of(&client, ".player-bar.top .player")
            .await
            .contains("Bot (search)"),
        "{}",
        text_of(&client, ".player-bar.top .player").await
    );
    let page = client
        .execute(
            "return [[...document.querySelectorAll('h1')].map(e => e.textContent), document.querySelector('#setup').hidden, \
               !document.querySelector('#differences').hidden]",
            vec![],
        )
        .await
        .expect("the page");
    assert_eq!(page[0].as_array().map(Vec::len), Some(1), "{page}");
    assert!(page[0][0].as_str().unwrap_or_default().starts_with("Game"));
    assert_eq!(page[1], json!(true), "no setup left to do");
    assert_eq!(page[2], json!(true), "the differences beside the start");
    // The first move: e2's dots stand out on the dark e3 (3:1 at least), and the move is made.
    square(&client, "e2").await;
    let contrast = wait_for(&client, "a dot on a dark square", DOT_CONTRAST).await;
    assert!(
        contrast.as_f64().unwrap_or(0.0) >= 3.0,
        "the dot on e3 stands {contrast}:1"
    );
    shoot(&client, "game-bot-at-once.png").await;
    square(&client, "e3").await;
    wait_for(
        &client,
        "e2–e3 played",
        "return (document.querySelector('#move-list')?.textContent ?? '').includes('e2–e3')",
    )
    .await;

    // Customise setup, with a preset of one's own (the king genome on e): remembered.
    let preset: Value = reqwest::Client::new()
        .post(format!("{base}/api/presets"))
        .json(&json!({"genomes": ["rook", "knight", "bishop", "queen", "king", "bishop", "knight", "rook"]}))
        .send()
        .await
        .expect("the preset stored")
        .json()
        .await
        .expect("its code");
    let code = preset["code"].as_str().expect("a code").to_owned();
    client.goto(&format!("{base}/")).await.expect("home");
    click(&client, "#customise-setup").await;
    type_into(&client, "#my-preset", &code).await;
    client.refresh().await.expect("reloaded");
    let kept = wait_for(
        &client,
        "the choice kept",
        "const b = document.querySelector('#customise-setup'); return b ? [b.checked, document.querySelector('#my-preset').value] : null",
    )
    .await;
    assert_eq!(kept, json!([true, code]));
    click(&client, "#new-bot-game").await;
    wait_status(&client, "Setting up").await;
    wait_for(
        &client,
        "the setup tools",
        "return !document.querySelector('#setup').hidden && !document.querySelector('#setup-steps').hidden",
    )
    .await;
    assert_eq!(
        client
            .execute(
                "return document.querySelector('#preset-code').value",
                vec![]
            )
            .await
            .expect("the field"),
        json!(code)
    );
    click(&client, "#load-preset").await;
    wait_label(&client, "e1", "white king").await;
    // The field keeps the custom preset, also after the next views; the focus went to the board
    // (on the king genome's square), not to the top of the page.
    let after = wait_for(
        &client,
        "the preset loaded",
        "const f = document.querySelector('#preset-code'); return f.disabled && document.activeElement?.dataset?.square ? [f.value, document.activeElement.dataset.square] : null",
    )
    .await;
    assert_eq!(after, json!([code, "e1"]));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        client
            .execute(
                "return document.querySelector('#preset-code').value",
                vec![]
            )
            .await
            .expect("the field"),
        json!(code),
        "no spring back to default"
    );
    shoot(&client, "game-customise.png").await;
    // The keyboard marks the king where the focus is; Ready keeps the focus on the board.
    let focused = client.active_element().await.expect("the focus");
    focused.send_keys("\u{E007}").await.expect("enter");
    wait_label(&client, "e1", "marked king").await;
    click(&client, "#ready").await;
    wait_status(&client, "Your move").await;
    let focus = client
        .execute(
            "return document.activeElement?.closest('.board') ? 'board' : document.activeElement?.id || document.activeElement?.tagName",
            vec![],
        )
        .await
        .expect("the focus");
    assert_eq!(focus, json!("board"));

    // Automatic again: the custom preset, its king genome's square marked.
    client.goto(&format!("{base}/")).await.expect("home");
    click(&client, "#customise-setup").await;
    click(&client, "#new-bot-game").await;
    wait_status(&client, "Your move").await;
    wait_label(&client, "e1", "white king, marked king").await;
    assert!(!label_of(&client, "d1").await.contains("king"));
    assert!(
        text_of(&client, "#game-status")
            .await
            .starts_with("Your move")
    );

    // A friend game, the friend on a phone: White's side is ready while waiting; the game
    // starts as soon as the invite is opened, nothing more done on either page.
    client
        .execute("localStorage.removeItem('gmo.setup')", vec![])
        .await
        .expect("the default choice");
    client.goto(&format!("{base}/")).await.expect("home");
    click(&client, "#new-friend-game").await;
    let invite = wait_for(
        &client,
        "the invite link",
        "return document.querySelector('#invite-link')?.value ?? ''",
    )
    .await;
    wait_status(&client, "you are ready; waiting for your opponent").await;
    let phone = driver.session(390, 844).await;
    phone
        .goto(invite.as_str().expect("a link"))
        .await
        .expect("the invite opens");
    wait_status(&client, "Your move").await;
    wait_status(&phone, "White to move").await;
    wait_label(&phone, "d8", "black king, marked king").await;
    let seen = phone
        .execute(
            "const b = document.querySelector('#differences'); \
             return [!!b && !b.hidden, document.querySelector('#setup').hidden, document.querySelectorAll('h1').length, \
               document.querySelector('.board').getBoundingClientRect().right <= innerWidth]",
            vec![],
        )
        .await
        .expect("the phone's page");
    assert_eq!(seen, json!([true, true, 1, true]));
    shoot(&phone, "game-phone-at-once.png").await;
    let errors = client
        .execute("return window.__errors ?? []", vec![])
        .await
        .unwrap_or_default();
    assert_eq!(errors, json!([]));
    phone.close().await.expect("closed");
    client.close().await.expect("closed");
}

browser_test!(
    a_promotion_reads_right_and_the_record_replays_on_a_board,
    promotion_and_record
);

/// One seat's move or promotion, made through the API with that seat's token.
async fn api_act(base: &str, game: &str, token: &str, path: &str, body: Value) {
    let answer = reqwest::Client::new()
        .post(format!("{base}/api/games/{game}/{path}"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("the server answers");
    let status = answer.status();
    assert!(
        status.is_success(),
        "{path} {body}: {status} {}",
        answer.text().await.unwrap_or_default()
    );
}

/// White's page plays a friend game whose moves go through the API (both seats' tokens) up to
/// White's pawn taking on c8: the page never says "Black played b7–c8" to White; White promotes
/// in the picker and reads "You promoted the pawn on c8 to a queen."; the move list keeps its
/// columns (Black's reply beside White's move, the promotion under it). At the end "The record"
/// opens a page with a board, stepped through by buttons, arrow keys, Home, End and a click,
/// every genome shown; on a phone too.
async fn promotion_and_record(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    white.goto(&format!("{base}/")).await.expect("home opens");
    click(&white, "#new-friend-game").await;
    let invite = wait_for(
        &white,
        "the invite link",
        "return document.querySelector('#invite-link')?.value ?? ''",
    )
    .await;
    let seat = |link: &str| -> (String, String) {
        let hash = link.split("#/game/").nth(1).expect("a game link");
        let (id, token) = hash.split_once("?token=").expect("a token");
        (id.to_owned(), token.to_owned())
    };
    let (game, black) = seat(invite.as_str().expect("a link"));
    let (_, white_token) = seat(white.current_url().await.expect("the address").as_ref());
    // Black sets up through the API.
    let client = reqwest::Client::new();
    let setup = client
        .put(format!("{base}/api/games/{game}/preset"))
        .bearer_auth(&black)
        .json(&json!({"preset": "default"}))
        .send()
        .await
        .expect("the preset");
    assert!(setup.status().is_success());
    api_act(&base, &game, &black, "kings/d8", Value::Null).await;
    api_act(&base, &game, &black, "ready", Value::Null).await;
    wait_status(&white, "Your move").await;
    // Every notice the page shows, kept.
    white
        .execute(
            "window.__toasts = []; new MutationObserver(() => window.__toasts.push(document.querySelector('#toast').textContent)) \
             .observe(document.querySelector('#toast'), {childList: true, characterData: true, subtree: true})",
            vec![],
        )
        .await
        .expect("the notices watched");
    let moves = [
        (&white_token, "a2", "a3"),
        (&black, "h7", "h6"),
        (&white_token, "a3", "a4"),
        (&black, "h6", "h5"),
        (&white_token, "a4", "a5"),
        (&black, "g7", "g6"),
        (&white_token, "a5", "a6"),
        (&black, "g6", "g5"),
        (&white_token, "a6", "b7"),
        (&black, "g5", "g4"),
    ];
    for (token, from, to) in moves {
        api_act(
            &base,
            &game,
            token,
            "moves",
            json!({"from": from, "to": to}),
        )
        .await;
    }
    wait_status(&white, "Your move").await;
    wait_label(&white, "g4", "black").await;
    // b7×c8 on the board, and the picker.
    square(&white, "b7").await;
    wait_for(
        &white,
        "b7's moves",
        "return !!document.querySelector('.sq.target[data-square=\"c8\"]')",
    )
    .await;
    square(&white, "c8").await;
    click(&white, "#promotion [data-genome=\"queen\"]").await;
    wait_label(&white, "c8", "white queen").await;
    let toasts = wait_for(
        &white,
        "the promotion's notice",
        "const t = window.__toasts; return t.some(x => x.startsWith('You promoted')) ? t : null",
    )
    .await;
    let toasts: Vec<String> = serde_json::from_value(toasts).expect("the notices");
    assert!(
        toasts
            .iter()
            .any(|t| t == "You promoted the pawn on c8 to a queen."),
        "{toasts:?}"
    );
    assert!(
        !toasts.iter().any(|t| t.contains("played b7–c8")),
        "White's own move told as Black's: {toasts:?}"
    );
    // Black's reply, then White's next move: the list keeps its columns.
    api_act(
        &base,
        &game,
        &black,
        "moves",
        json!({"from": "g4", "to": "g3"}),
    )
    .await;
    wait_status(&white, "Your move").await;
    api_act(
        &base,
        &game,
        &white_token,
        "moves",
        json!({"from": "h2", "to": "h3"}),
    )
    .await;
    let rows = wait_for(
        &white,
        "the move list after the promotion",
        "const rows = [...document.querySelectorAll('#move-list li.pair')]; if (rows.length !== 7) return null; \
         const x = (e) => Math.round(e.getBoundingClientRect().left); \
         return rows.slice(4).map(r => [...r.querySelectorAll('.num, .ply')].map(e => [e.textContent, x(e)]));",
    )
    .await;
    let row = |i: usize| rows[i].as_array().cloned().unwrap_or_default();
    let texts = |row: &[Value]| -> Vec<String> {
        row.iter()
            .filter_map(|cell| cell[0].as_str().map(str::to_owned))
            .collect()
    };
    let (five, six, seven) = (row(0), row(1), row(2));
    assert_eq!(texts(&five), ["5.", "a6–b7", "g5–g4"], "{rows}");
    assert_eq!(
        texts(&six),
        ["6.", "b7–c8", "c8 = queen", "g4–g3"],
        "{rows}"
    );
    assert_eq!(texts(&seven), ["7.", "h2–h3"], "{rows}");
    let left = |row: &[Value], i: usize| row[i][1].as_i64().unwrap_or_default();
    assert!(
        left(&six, 1) > left(&six, 0),
        "White's move right of the number: {rows}"
    );
    assert_eq!(
        left(&six, 2),
        left(&six, 1),
        "the promotion under its move: {rows}"
    );
    assert_eq!(
        left(&six, 3),
        left(&five, 2),
        "Black's reply in Black's column: {rows}"
    );
    assert_eq!(
        left(&seven, 1),
        left(&five, 1),
        "White's next move in White's column: {rows}"
    );
    shoot(&white, "game-promotion.png").await;

    // The end, and the record.
    api_act(&base, &game, &black, "resign", Value::Null).await;
    wait_status(&white, "White won — by resignation").await;
    let href = wait_for(
        &white,
        "the record link",
        "return document.querySelector('#record-link')?.getAttribute('href')",
    )
    .await;
    assert_eq!(href, json!(format!("#/record/{game}")));
    click(&white, "#record-link").await;
    wait_for(
        &white,
        "the record page",
        "return document.querySelector('#record-where')?.textContent === 'The start position.'",
    )
    .await;
    let heading = text_of(&white, "h1").await;
    assert!(heading.starts_with("The record of game"), "{heading}");
    // The end in the result box's words, from White's side, then the summary.
    assert_eq!(
        text_of(&white, "#record-story").await,
        "You won: Black resigned"
    );
    assert_eq!(
        text_of(&white, "#record-result").await,
        "White won — by resignation"
    );
    assert!(label_of(&white, "a2").await.contains("white pawn"));
    // Every genome shown: Black's pieces by name.
    assert!(label_of(&white, "d8").await.contains("black king"));
    click(&white, "#record-next").await;
    wait_label(&white, "a2", "a2, empty").await;
    assert!(label_of(&white, "a3").await.contains("white pawn"));
    assert_eq!(squares_with(&white, "last").await, json!(["a2", "a3"]));
    let key = |key: &'static str| {
        let white = &white;
        async move {
            let focused = white.active_element().await.expect("the focus");
            focused.send_keys(key).await.expect("a key");
        }
    };
    key("\u{E014}").await; // →
    wait_label(&white, "h6", "black pawn").await;
    key("\u{E010}").await; // End
    wait_label(&white, "h3", "white pawn").await;
    assert!(label_of(&white, "c8").await.contains("white queen"));
    assert!(
        text_of(&white, "#record-where")
            .await
            .starts_with("After 7. h2–h3 (ply 14 of 14)"),
        "{}",
        text_of(&white, "#record-where").await
    );
    key("\u{E012}").await; // ←
    wait_label(&white, "h3", "h3, empty").await;
    key("\u{E011}").await; // Home
    wait_for(
        &white,
        "the start again",
        "return document.querySelector('#record-where')?.textContent === 'The start position.'",
    )
    .await;
    // A click on the promotion: the queen on c8, the pawn gone from b7.
    click(&white, "#record-moves .ply.promotion").await;
    wait_label(&white, "c8", "white queen").await;
    assert!(label_of(&white, "b7").await.contains("b7, empty"));
    shoot(&white, "record.png").await;
    // On a phone: the board fits, and the buttons step.
    white
        .set_window_size(390, 844)
        .await
        .expect("a phone-sized window");
    click(&white, "#record-prev").await;
    wait_label(&white, "c8", "white pawn").await;
    let fits = white
        .execute(
            "const b = document.querySelector('.board').getBoundingClientRect(), n = document.querySelector('#record-next').getBoundingClientRect(); \
             return [b.left >= 0 && b.right <= innerWidth, n.width > 0]",
            vec![],
        )
        .await
        .expect("the layout");
    assert_eq!(fits, json!([true, true]));
    shoot(&white, "record-phone.png").await;
    let errors = white
        .execute("return window.__errors ?? []", vec![])
        .await
        .unwrap_or_default();
    assert_eq!(errors, json!([]));
    white.close().await.expect("closed");
}

/// A game's id and seat token from a seat's link (`…#/game/{id}?token={token}`).
fn seat_of(link: &str) -> (String, String) {
    let hash = link.split("#/game/").nth(1).expect("a game link");
    let (id, token) = hash.split_once("?token=").expect("a token");
    (id.to_owned(), token.to_owned())
}

/// The page's clocks as [text, running] pairs, top bar first.
const CLOCKS: &str = "return [...document.querySelectorAll('.player-bar .clock')].map(c => [c.textContent, c.classList.contains('running')])";

/// `side`'s first-move countdown and the bar it is in (`top` or `bottom`), once shown; else ''.
fn first_move_shown(side: &str) -> String {
    format!(
        "const e = document.querySelector('#first-move'); \
         return e && !e.hidden && e.isConnected && e.textContent.startsWith('{side} to make a first move: ') \
           ? [e.textContent, e.closest('.player-bar.top') ? 'top' : 'bottom'] : ''"
    )
}

browser_test!(
    first_moves_are_counted_down_and_a_game_nobody_starts_aborts,
    first_moves,
    |settings| settings.play.first_move_time = Duration::from_secs(6)
);

/// On a server with 6 s first-move timers: a friend game between a desktop (White) and a phone
/// (Black) shows White's countdown beside White's clock on both pages, the clocks standing at
/// 5:00; White's first move (by click) starts Black's countdown, the clocks still standing; Black
/// lets it run out and the game is aborted, each page saying so from its side.
async fn first_moves(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(390, 844).await;
    start_friend_game(&white, &black, &base).await;
    for (client, bar) in [(&white, "bottom"), (&black, "top")] {
        let shown = wait_for(client, "White's countdown", &first_move_shown("White")).await;
        assert!(
            shown[0]
                .as_str()
                .unwrap_or_default()
                .starts_with("White to make a first move: 0:0"),
            "{shown}"
        );
        assert_eq!(shown[1], json!(bar), "beside White's clock: {shown}");
        assert_eq!(
            client.execute(CLOCKS, vec![]).await.expect("the clocks"),
            json!([["5:00", false], ["5:00", false]])
        );
    }
    // On the phone the countdown is in the first screen, within the width.
    let seen = black
        .execute(
            "const r = document.querySelector('#first-move').getBoundingClientRect(); \
             return [r.left >= 0 && r.right <= innerWidth, r.top >= 0 && r.bottom <= innerHeight]",
            vec![],
        )
        .await
        .expect("the countdown's place");
    assert_eq!(seen, json!([true, true]));
    assert!(
        text_of(&white, "#game-status")
            .await
            .contains("before the countdown ends"),
        "{}",
        text_of(&white, "#game-status").await
    );
    play(&white, &black, "e2", "e3").await;
    for (client, bar) in [(&white, "top"), (&black, "bottom")] {
        let shown = wait_for(client, "Black's countdown", &first_move_shown("Black")).await;
        assert_eq!(shown[1], json!(bar), "beside Black's clock: {shown}");
        // White's first move is on no clock (no increment either): both still stand.
        assert_eq!(
            client.execute(CLOCKS, vec![]).await.expect("the clocks"),
            json!([["5:00", false], ["5:00", false]])
        );
    }
    shoot(&black, "game-first-move-phone.png").await;
    // Black does not move: the game is aborted, said from each side.
    for (client, words) in [
        (
            &black,
            "You did not make your first move in time: the game is aborted",
        ),
        (
            &white,
            "Your opponent did not make a first move: the game is aborted",
        ),
    ] {
        wait_status(client, words).await;
        wait_for(
            client,
            "the end over the board",
            &format!(
                "return document.querySelector('#result-box:not([hidden]) #result-story')?.textContent === {words:?}"
            ),
        )
        .await;
        assert_eq!(
            client
                .execute(
                    "return !document.querySelector('#first-move:not([hidden])') && !document.querySelector('.clock.running')",
                    vec![]
                )
                .await
                .expect("the countdown gone"),
            json!(true)
        );
    }
    shoot(&black, "game-aborted-phone.png").await;
    let errors = white
        .execute("return window.__errors ?? []", vec![])
        .await
        .unwrap_or_default();
    assert_eq!(errors, json!([]));
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

browser_test!(
    a_move_that_loses_or_exposes_ones_own_king_asks_first,
    own_king
);

/// The classes and label of a square, on one page.
async fn marks_of(client: &Client, name: &str) -> Value {
    client
        .execute(
            &format!("const e = document.querySelector('[data-square=\"{name}\"]'); return [e.className, e.getAttribute('aria-label')]"),
            vec![],
        )
        .await
        .expect("the square")
}

/// Selects `from` and waits for its moves; returns `to`'s classes and label.
async fn select_and_look(client: &Client, from: &str, to: &str) -> (String, String) {
    square(client, from).await;
    wait_for(
        client,
        &format!("{from}'s moves"),
        &format!("return !!document.querySelector('.sq.target[data-square=\"{to}\"]')"),
    )
    .await;
    let marks = marks_of(client, to).await;
    (
        marks[0].as_str().unwrap_or_default().to_owned(),
        marks[1].as_str().unwrap_or_default().to_owned(),
    )
}

/// Waits for the move dialog; returns its class, its title and the focused button's id.
async fn the_question(client: &Client) -> Value {
    wait_for(
        client,
        "the question",
        "const d = document.querySelector('dialog#confirm-move[open]'); \
         return d ? [d.className, d.querySelector('h2').textContent, document.activeElement?.id ?? ''] : null",
    )
    .await
}

/// Black's page on a phone, White's on a desktop (White's moves through the API). After 1.
/// g1–f3, Black's queen on e8 may take its own king on d8: the square is marked apart and named
/// so; the click asks first, and Escape leaves everything as it was. Once White's knight stands on
/// e6 (3. g5–e6), a Black pawn move that leaves the king to be taken is marked with a warning and
/// asked about too (the keyboard answers: Tab, Enter); then the queen takes its own king after
/// all, and each page says what happened from its side.
async fn own_king(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(390, 844).await;
    start_friend_game(&white, &black, &base).await;
    let (game, white_token) = seat_of(white.current_url().await.expect("the address").as_ref());
    let white_moves = |from: &'static str, to: &'static str| {
        let (base, game, token) = (base.clone(), game.clone(), white_token.clone());
        async move {
            api_act(
                &base,
                &game,
                &token,
                "moves",
                json!({"from": from, "to": to}),
            )
            .await
        }
    };
    white_moves("g1", "f3").await;
    wait_status(&black, "Your move").await;
    let (classes, label) = select_and_look(&black, "e8", "d8").await;
    assert!(
        classes.contains("target") && classes.contains("loses-king"),
        "{classes}"
    );
    assert!(label.contains("takes its own king"), "{label}");
    let plain = squares_with(&black, "target:not(.loses-king)").await;
    assert!(
        !plain.as_array().is_some_and(Vec::is_empty),
        "the queen's other moves are plain: {plain}"
    );
    assert_eq!(
        squares_with(&black, "loses-king").await,
        json!(["d8"]),
        "only the king's square"
    );
    shoot(&black, "game-own-king-phone.png").await;
    square(&black, "d8").await;
    let question = the_question(&black).await;
    assert!(
        question[0].as_str().unwrap_or_default().contains("danger"),
        "{question}"
    );
    assert_eq!(question[1], json!("This move takes your own king"));
    assert_eq!(
        question[2],
        json!("confirm-move-no"),
        "the focus on the safe answer"
    );
    shoot(&black, "game-own-king-question-phone.png").await;
    // Escape: nothing happens; the queen stays selected with its moves.
    let focused = black.active_element().await.expect("the focus");
    focused.send_keys("\u{E00C}").await.expect("escape");
    wait_for(
        &black,
        "the question gone",
        "return !document.querySelector('dialog#confirm-move')",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(label_of(&black, "d8").await.contains("black king"));
    assert!(
        label_of(&black, "e8")
            .await
            .contains("black queen, selected")
    );
    assert!(
        text_of(&black, "#game-status")
            .await
            .starts_with("Your move")
    );
    assert!(!text_of(&black, "#move-list").await.contains("e8–d8"));

    // A plain move, then White's knight comes to e6, from where it can take the king on d8.
    square(&black, "e8").await;
    play(&black, &white, "a7", "a6").await;
    white_moves("f3", "g5").await;
    wait_status(&black, "Your move").await;
    play(&black, &white, "a6", "a5").await;
    white_moves("g5", "e6").await;
    wait_status(&black, "can be taken").await;
    let (classes, label) = select_and_look(&black, "a5", "a4").await;
    assert!(
        classes.contains("exposes") && !classes.contains("loses-king"),
        "{classes}"
    );
    assert!(label.contains("its king can be taken"), "{label}");
    square(&black, "a4").await;
    let question = the_question(&black).await;
    assert!(
        question[0].as_str().unwrap_or_default().contains("warning"),
        "{question}"
    );
    assert_eq!(question[1], json!("Your king could be taken"));
    // The keyboard: Tab to "Play it anyway", Enter.
    let focused = black.active_element().await.expect("the focus");
    focused.send_keys("\u{E004}").await.expect("tab");
    let focused = black.active_element().await.expect("the focus");
    assert_eq!(
        focused.attr("id").await.expect("its id").as_deref(),
        Some("confirm-move-yes")
    );
    focused.send_keys("\u{E007}").await.expect("enter");
    wait_status(&white, "Your move").await;
    assert!(text_of(&black, "#move-list").await.contains("a5–a4"));

    // White lets it be; Black's queen takes its own king after all.
    white_moves("h2", "h3").await;
    wait_status(&black, "Your move").await;
    select_and_look(&black, "e8", "d8").await;
    square(&black, "d8").await;
    the_question(&black).await;
    click(&black, "#confirm-move-yes").await;
    for (client, words) in [
        (&black, "You took your own king on d8"),
        (&white, "You won: Black took its own king on d8"),
    ] {
        wait_status(client, words).await;
        wait_for(
            client,
            "the end over the board",
            &format!(
                "return document.querySelector('#result-box:not([hidden]) #result-story')?.textContent === {words:?}"
            ),
        )
        .await;
    }
    assert_eq!(
        text_of(&white, "#result-text").await,
        "White won — a king was lost"
    );
    shoot(&black, "game-own-king-end-phone.png").await;
    for client in [&white, &black] {
        let errors = client
            .execute("return window.__errors ?? []", vec![])
            .await
            .unwrap_or_default();
        assert_eq!(errors, json!([]));
    }
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

browser_test!(
    standard_pieces_look_and_read_alike_on_both_sides,
    named_pieces
);

/// The selected piece's panel in plain words, once its traits are there: [the "moves like"
/// line, the traits, [whether "Details" is open, whether the explanation is inside it]].
const PLAIN_WORDS: &str = "const t = [...document.querySelectorAll('#piece-traits li')].map(e => e.textContent); \
     if (!t.length || t[0].startsWith('Looking')) return null; \
     const d = document.querySelector('#piece-details'); \
     return [document.querySelector('#piece-moves-like')?.textContent ?? null, t, [!!d?.open, !!d?.querySelector('#piece-explanation')]]";

/// How a square's piece is drawn: [the figure's name or null, the pattern's key or null].
async fn drawn(client: &Client, name: &str) -> Value {
    client
        .execute(
            &format!(
                "const svg = document.querySelector('[data-square=\"{name}\"] svg.piece'); \
                 return svg ? [svg.dataset.figure ?? null, svg.dataset.figure ? null : svg.dataset.key] : null"
            ),
            vec![],
        )
        .await
        .expect("the piece")
}

/// White (a desktop) plays with a preset of its own whose h-file piece is no standard genome;
/// Black is on a phone. Each page draws and names the other side's standard pieces as chess
/// pieces ("white queen"), its queen selected shows the queen's code and diagram and says in
/// plain words what it does; the custom piece keeps its pattern (White's by its code, Black's by
/// its per-game species), and selected on White's page reads its genome's traits. White's pawn
/// reaches c8 and becomes a queen: Black's move list and notice say "queen", never a species —
/// and so does a fresh start of Black's page that cannot have the positions (the ply's name).
async fn named_pieces(driver: &mut Driver, base: String) {
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
    assert_eq!(genome["code"], json!(CUSTOM_CODE), "{genome}");
    let preset: Value = client
        .post(format!("{base}/api/presets"))
        .json(&json!({"genomes": ["rook", "knight", "bishop", "king", "queen", "bishop", "knight", CUSTOM_CODE]}))
        .send()
        .await
        .expect("the preset stored")
        .json()
        .await
        .expect("its code");
    let preset = preset["code"].as_str().expect("a code").to_owned();
    let white = driver.session(1280, 900).await;
    let black = driver.session(390, 844).await;
    white.goto(&format!("{base}/")).await.expect("home opens");
    white
        .execute(
            &format!("localStorage.setItem('gmo.setup', JSON.stringify({{customise: false, preset: {preset:?}}}))"),
            vec![],
        )
        .await
        .expect("the preset chosen");
    start_friend_game(&white, &black, &base).await;
    let (game, white_token) = seat_of(white.current_url().await.expect("the address").as_ref());
    let black_token = seat_of(black.current_url().await.expect("the address").as_ref()).1;

    // The other side's standard pieces: figures, named; the custom piece: a pattern.
    assert!(
        label_of(&black, "e1").await.contains("e1, white queen"),
        "{}",
        label_of(&black, "e1").await
    );
    assert!(label_of(&black, "d1").await.contains("white king"));
    assert!(label_of(&black, "a2").await.contains("white pawn"));
    assert_eq!(drawn(&black, "e1").await, json!(["queen", null]));
    assert_eq!(drawn(&black, "g1").await, json!(["knight", null]));
    assert!(label_of(&white, "e8").await.contains("e8, black queen"));
    assert_eq!(drawn(&white, "e8").await, json!(["queen", null]));
    assert_eq!(drawn(&white, "d7").await, json!(["pawn", null]));
    let theirs = drawn(&black, "h1").await;
    assert_eq!(theirs[0], Value::Null, "{theirs}");
    assert!(
        theirs[1].as_str().unwrap_or_default().starts_with("sp-"),
        "{theirs}"
    );
    assert!(
        label_of(&black, "h1")
            .await
            .contains("an unknown piece of White’s"),
        "a hidden piece is never named by its species label"
    );
    assert_eq!(
        drawn(&white, "h1").await,
        json!([null, CUSTOM_CODE]),
        "its owner's, by code"
    );
    // The opponent's queen, selected: a queen's code and diagram, as anybody's, and what it does
    // in plain words — "It moves like a queen." and its traits (the queen's freeze) — the
    // codon-by-codon explanation behind a closed "Details".
    square(&black, "e1").await;
    wait_for(
        &black,
        "the queen's panel",
        "return document.querySelector('#piece-code')?.textContent === '1hapeh' && !!document.querySelector('#piece-diagram')",
    )
    .await;
    let panel = wait_for(&black, "the queen in plain words", PLAIN_WORDS).await;
    assert_eq!(panel[0], json!("It moves like a queen."), "{panel}");
    assert!(
        panel[1]
            .as_array()
            .is_some_and(|traits| traits.iter().any(|t| t
                .as_str()
                .is_some_and(|t| t.starts_with("Moving it freezes the game")))),
        "{panel}"
    );
    assert_eq!(panel[2], json!([false, true]), "Details closed: {panel}");
    shoot(&black, "game-named-phone.png").await;
    square(&black, "e1").await;

    // White's a-pawn takes its way to c8 and becomes a queen.
    let moves = [
        (&white_token, "a2", "a3"),
        (&black_token, "h7", "h6"),
        (&white_token, "a3", "a4"),
        (&black_token, "h6", "h5"),
        (&white_token, "a4", "a5"),
        (&black_token, "g7", "g6"),
        (&white_token, "a5", "a6"),
        (&black_token, "g6", "g5"),
        (&white_token, "a6", "b7"),
        (&black_token, "g5", "g4"),
        (&white_token, "b7", "c8"),
    ];
    for (token, from, to) in moves {
        api_act(
            &base,
            &game,
            token,
            "moves",
            json!({"from": from, "to": to}),
        )
        .await;
    }
    black
        .execute(
            "window.__toasts = []; new MutationObserver(() => window.__toasts.push(document.querySelector('#toast').textContent)) \
             .observe(document.querySelector('#toast'), {childList: true, characterData: true, subtree: true})",
            vec![],
        )
        .await
        .expect("the notices watched");
    wait_status(&black, "White is promoting on c8").await;
    api_act(
        &base,
        &game,
        &white_token,
        "promotion",
        json!({"genome": "queen"}),
    )
    .await;
    wait_label(&black, "c8", "c8, white queen").await;
    assert_eq!(drawn(&black, "c8").await, json!(["queen", null]));
    let list = wait_for(
        &black,
        "the promotion in the list",
        "const t = document.querySelector('#move-list')?.textContent ?? ''; return t.includes('c8 = ') ? t : ''",
    )
    .await;
    let list = list.as_str().unwrap_or_default();
    assert!(
        list.contains("c8 = queen") && !list.contains("sp-"),
        "{list}"
    );
    let toasts = wait_for(
        &black,
        "the promotion's notice",
        "const t = window.__toasts; return t.some(x => x.includes('promoted')) ? t : null",
    )
    .await;
    let toasts: Vec<String> = serde_json::from_value(toasts).expect("the notices");
    assert!(
        toasts
            .iter()
            .any(|t| t == "White promoted the pawn on c8 to a queen."),
        "{toasts:?}"
    );
    assert!(!toasts.iter().any(|t| t.contains("sp-")), "{toasts:?}");
    shoot(&black, "game-named-promotion-phone.png").await;

    // Black's page has been open all along: White's never says Black left (not even from the
    // presence line sent before Black opened the invite).
    assert_eq!(
        white
            .execute(&format!("return {AWAY}"), vec![])
            .await
            .expect("none"),
        json!([])
    );
    // White's own custom piece, selected: a piece of its own, and its genome's traits.
    square(&white, "h1").await;
    let panel = wait_for(&white, "the custom piece in plain words", PLAIN_WORDS).await;
    assert!(
        panel[0]
            .as_str()
            .unwrap_or_default()
            .starts_with("A piece of its own"),
        "{panel}"
    );
    let traits = genome["traits"].as_array().cloned().unwrap_or_default();
    if traits.is_empty() {
        assert_eq!(
            panel[1],
            json!(["Nothing else to know: no freeze, no surprises."])
        );
    } else {
        assert_eq!(panel[1], Value::Array(traits), "{panel}");
    }
    assert_eq!(panel[2], json!([false, true]), "Details closed: {panel}");
    shoot(&white, "game-piece-words.png").await;

    // Black replies; then Black's page starts afresh, with no history kept and the positions
    // not to be had (GET …/positions fails): the promotion is named from its ply alone.
    api_act(
        &base,
        &game,
        &black_token,
        "moves",
        json!({"from": "g4", "to": "g3"}),
    )
    .await;
    wait_status(&white, "Your move").await;
    let seat_hash = format!("#/game/{game}?token={black_token}");
    black
        .execute("location.hash = '#/'", vec![])
        .await
        .expect("home");
    wait_for(
        &black,
        "the home page",
        "return document.body.dataset.page === 'home'",
    )
    .await;
    black
        .execute(
            "for (const key of Object.keys(localStorage)) if (key.startsWith('gmo.history')) localStorage.removeItem(key); \
             const real = window.fetch.bind(window); \
             window.fetch = (url, init) => String(url).includes('/positions') ? Promise.reject(new TypeError('no positions in this test')) : real(url, init); \
             location.hash = arguments[0];",
            vec![json!(seat_hash)],
        )
        .await
        .expect("the page afresh");
    let list = wait_for(
        &black,
        "the promotion in a fresh list",
        "const t = document.querySelector('#move-list')?.textContent ?? ''; return t.includes('g4–g3') && t.includes('c8 = ') ? t : ''",
    )
    .await;
    let list = list.as_str().unwrap_or_default();
    assert!(
        list.contains("c8 = queen") && !list.contains("a piece"),
        "{list}"
    );
    for client in [&white, &black] {
        let errors = client
            .execute("return window.__errors ?? []", vec![])
            .await
            .unwrap_or_default();
        assert_eq!(errors, json!([]));
    }
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

browser_test!(
    an_opponent_who_leaves_is_shown_and_the_victory_claimed,
    opponent_left,
    |settings| {
        settings.play.away_after = Duration::from_secs(1);
        settings.play.claim_after = Duration::from_secs(3);
    }
);

/// The visible "left" notices of a page: [the bar it is in (`top` or `bottom`), its words,
/// whether it has the claim button, whether it is in the first screen and within the width].
const AWAY: &str = "[...document.querySelectorAll('.away:not([hidden])')].map(e => { \
     const r = e.getBoundingClientRect(); \
     return [e.closest('.player-bar.top') ? 'top' : 'bottom', e.querySelector('.away-text')?.textContent ?? '', \
       !!e.querySelector('#claim-victory'), r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth]; })";

/// On a server where a player is away 1 s after its seat's stream was last seen, and the victory
/// may be claimed 3 s after it was last seen:
/// White (a desktop) and Black (a phone) make their first moves; Black's phone leaves its seat
/// for the spectator's page of the same game: White's page says "Your opponent left" above the
/// board, counting down to the claim, and the phone, now a spectator, reads "Black left the
/// game." without a claim button. Black comes back: the notice goes. Black leaves again: White
/// gets "Claim victory", claims, and reads "You won: your opponent left"; Black's My games reads
/// "You lost: you left the game …", White's record page "You won: your opponent left".
async fn opponent_left(driver: &mut Driver, base: String) {
    let white = driver.session(1280, 900).await;
    let black = driver.session(390, 844).await;
    start_friend_game(&white, &black, &base).await;
    let seat_link = black.current_url().await.expect("the address").to_string();
    let (game, _) = seat_of(&seat_link);
    play(&white, &black, "e2", "e3").await;
    play(&black, &white, "e7", "e6").await;
    // Both there: nothing said (past the time after which a player is away).
    tokio::time::sleep(Duration::from_millis(2000)).await;
    assert_eq!(
        white
            .execute(&format!("return {AWAY}"), vec![])
            .await
            .expect("none"),
        json!([])
    );

    // Black's phone leaves its seat and watches the game instead.
    black
        .goto(&format!("{base}/#/game/{game}"))
        .await
        .expect("the spectator's page");
    let shown = wait_for(
        &white,
        "the opponent left",
        &format!("const a = {AWAY}; return a.length ? a : null"),
    )
    .await;
    let words = shown[0][1].as_str().unwrap_or_default().to_owned();
    assert!(
        words.starts_with("Your opponent left. You may claim the victory in "),
        "{shown}"
    );
    assert_eq!(shown[0][0], json!("top"), "in Black's bar: {shown}");
    assert_eq!(shown[0][2], json!(false), "no claim yet: {shown}");
    assert_eq!(shown[0][3], json!(true), "in the first screen: {shown}");
    shoot(&white, "game-opponent-left.png").await;
    let watched = wait_for(
        &black,
        "the spectator sees Black gone",
        "const e = document.querySelector('#away-black:not([hidden]) .away-text'); return e ? e.textContent : ''",
    )
    .await;
    assert_eq!(watched, json!("Black left the game."));
    tokio::time::sleep(Duration::from_millis(500)).await;
    let seen = black
        .execute(&format!("return {AWAY}"), vec![])
        .await
        .expect("the notices");
    assert_eq!(
        seen,
        json!([["top", "Black left the game.", false, true]]),
        "in Black's bar (at the top for a spectator), never a claim, in the phone's first screen"
    );
    assert!(black.find(Locator::Css("#claim-victory")).await.is_err());
    shoot(&black, "game-spectator-left-phone.png").await;

    // Black comes back: the notice goes.
    black.goto(&seat_link).await.expect("the seat again");
    wait_for(
        &white,
        "the notice gone",
        "return !document.querySelector('.away:not([hidden])')",
    )
    .await;

    // Black leaves again, for good: the claim, once it may be made.
    black
        .goto(&format!("{base}/"))
        .await
        .expect("the home page");
    wait_for(
        &white,
        "the claim",
        "return !!document.querySelector('#away-black:not([hidden]) #claim-victory')",
    )
    .await;
    assert_eq!(
        text_of(&white, "#away-black .away-text").await,
        "Your opponent left. You may claim the victory."
    );
    shoot(&white, "game-claim.png").await;
    click(&white, "#claim-victory").await;
    wait_status(&white, "You won: your opponent left").await;
    wait_for(
        &white,
        "the end over the board",
        "return document.querySelector('#result-box:not([hidden]) #result-story')?.textContent === 'You won: your opponent left'",
    )
    .await;
    assert_eq!(
        text_of(&white, "#result-text").await,
        "White won — Black left"
    );
    assert_eq!(
        white
            .execute(&format!("return {AWAY}"), vec![])
            .await
            .expect("none"),
        json!([])
    );

    // Black's My games, and White's record page, say it from each side.
    black.refresh().await.expect("home again");
    let row = wait_for(
        &black,
        "the result in my games",
        "return document.querySelector('#my-games-list .game-row[data-status=\"white_won\"]')?.textContent ?? ''",
    )
    .await;
    assert!(
        row.as_str()
            .unwrap_or_default()
            .contains("You lost: you left the game, and your opponent claimed the victory"),
        "{row}"
    );
    click(&white, "#record-link").await;
    wait_for(
        &white,
        "the record's end",
        "return document.querySelector('#record-story')?.textContent === 'You won: your opponent left'",
    )
    .await;
    assert_eq!(
        text_of(&white, "#record-result").await,
        "White won — Black left"
    );
    for client in [&white, &black] {
        let errors = client
            .execute("return window.__errors ?? []", vec![])
            .await
            .unwrap_or_default();
        assert_eq!(errors, json!([]));
    }
    white.close().await.expect("closed");
    black.close().await.expect("closed");
}

// Issue 23: accounts and ratings in the page.

/// Every test account's password (8 to 128 characters).
const PASSWORD: &str = "correct horse battery";

/// Which of the header's parts are shown: [the signed-in name or "", "Sign in" shown, "Sign up"
/// shown, "Sign out" shown].
const HEADER: &str = "return [document.querySelector('#account-name')?.textContent ?? '', \
     !!document.querySelector('#sign-in-link'), !!document.querySelector('#sign-up-link'), \
     !!document.querySelector('#sign-out')]";

/// Waits until the header says `name` is signed in (with "Sign out", no way in).
async fn wait_signed_in(client: &Client, name: &str) {
    wait_for(
        client,
        &format!("{name} signed in"),
        &format!(
            "return document.querySelector('#account-name')?.textContent === {name:?} \
             && !!document.querySelector('#sign-out') && !document.querySelector('#sign-in-link')"
        ),
    )
    .await;
}

/// Fills the sign-up or sign-in form shown and sends it.
async fn send_account_form(client: &Client, name: &str, password: &str) {
    wait_for(
        client,
        "the account form",
        "return !!document.querySelector('#account-username')",
    )
    .await;
    type_into(client, "#account-username", name).await;
    type_into(client, "#account-password", password).await;
    click(client, "#account-submit").await;
}

/// Signs up `name` from the header's "Sign up" on the home page: the page comes back signed in.
async fn sign_up(client: &Client, base: &str, name: &str) {
    client.goto(&format!("{base}/")).await.expect("home opens");
    click(client, "#sign-up-link").await;
    send_account_form(client, name, PASSWORD).await;
    wait_signed_in(client, name).await;
}

/// The text of the element `selector` once it has some.
async fn wait_text(client: &Client, what: &str, selector: &str) -> String {
    let script = format!("return document.querySelector({selector:?})?.textContent ?? ''");
    let text = wait_for(client, what, &script).await;
    text.as_str().unwrap_or_default().to_owned()
}

async fn no_script_errors(client: &Client) {
    let errors = client
        .execute("return window.__errors ?? []", vec![])
        .await
        .unwrap_or_default();
    assert_eq!(errors, json!([]), "no script errors");
}

/// Sign-up from the header: the lobby's "Rated" switch waits for an account; a short password is
/// refused next to its field; signed up, the header shows the name (a link to the profile) and
/// "Sign out", and the switch can be ticked. Signed out, the server no longer knows the browser;
/// the name taken in another case is refused next to the username; a wrong password says
/// "unknown username or wrong password"; signing in from the leaderboard comes back to it, and a
/// reload keeps the session.
async fn accounts(driver: &mut Driver, base: String) {
    let client = driver.session(1280, 900).await;
    client.goto(&format!("{base}/")).await.expect("home opens");
    wait_for(
        &client,
        "the lobby",
        "return !!document.querySelector('#seek-rated')",
    )
    .await;
    let header = client.execute(HEADER, vec![]).await.expect("the header");
    assert_eq!(
        header,
        json!(["", true, true, false]),
        "signed out at first"
    );
    let switch = client
        .execute(
            "return [document.querySelector('#seek-rated').disabled, document.querySelector('#seek-rated-note').textContent]",
            vec![],
        )
        .await
        .expect("the switch");
    assert_eq!(switch[0], json!(true), "no rated seek without an account");
    assert!(
        switch[1].as_str().unwrap_or_default().contains("Sign in"),
        "{switch}"
    );

    // Sign up: a password too short is refused, in the server's words, under the password.
    click(&client, "#sign-up-link").await;
    send_account_form(&client, "Alice_1", "short").await;
    let refused = wait_text(&client, "the password refused", "#account-password-error").await;
    assert!(refused.contains('8'), "{refused}");
    assert_eq!(text_of(&client, "#account-username-error").await, "");
    shoot(&client, "account-sign-up-refused.png").await;
    type_into(&client, "#account-password", PASSWORD).await;
    click(&client, "#account-submit").await;
    wait_signed_in(&client, "Alice_1").await;
    let link = client
        .execute(
            "return document.querySelector('#account-name').getAttribute('href')",
            vec![],
        )
        .await
        .expect("the link");
    assert_eq!(link, json!("#/@/Alice_1"));
    // Back home, the lobby's switch is open and says what a rated game is.
    wait_for(
        &client,
        "the switch enabled",
        "const e = document.querySelector('#seek-rated'); return !!e && !e.disabled",
    )
    .await;
    click(&client, "#seek-rated").await;
    let note = text_of(&client, "#seek-rated-note").await;
    assert!(note.contains("8×8") && note.contains("bot"), "{note}");
    shoot(&client, "account-signed-in.png").await;

    // Sign out: the header offers the way in again, and the session no longer works.
    click(&client, "#sign-out").await;
    wait_for(
        &client,
        "signed out",
        "return !!document.querySelector('#sign-in-link') && !document.querySelector('#account-name')",
    )
    .await;
    let status = client
        .execute("return fetch('/api/account').then(r => r.status)", vec![])
        .await
        .expect("a status");
    assert_eq!(status, json!(401), "the session is gone");
    wait_for(
        &client,
        "the switch closed again",
        "return document.querySelector('#seek-rated')?.disabled === true",
    )
    .await;

    // The name is taken, whatever its case: said under the username.
    click(&client, "#sign-up-link").await;
    send_account_form(&client, "ALICE_1", PASSWORD).await;
    let taken = wait_text(&client, "the name taken", "#account-username-error").await;
    assert!(taken.contains("taken"), "{taken}");

    // Sign in from the leaderboard: a wrong password first, then the right one, back to it.
    client
        .goto(&format!("{base}/#/leaderboard"))
        .await
        .expect("the leaderboard");
    click(&client, "#sign-in-link").await;
    send_account_form(&client, "alice_1", "not the password").await;
    let wrong = wait_text(&client, "the wrong password", "#account-error").await;
    assert!(
        wrong.contains("unknown username or wrong password"),
        "{wrong}"
    );
    assert_eq!(
        client.execute(HEADER, vec![]).await.expect("the header")[0],
        json!(""),
        "still signed out"
    );
    shoot(&client, "account-sign-in-refused.png").await;
    type_into(&client, "#account-password", PASSWORD).await;
    click(&client, "#account-submit").await;
    // The name as it was given at sign-up, whatever case was typed.
    wait_signed_in(&client, "Alice_1").await;
    wait_for(
        &client,
        "back on the leaderboard",
        "return location.hash === '#/leaderboard' && !!document.querySelector('#leaderboard')",
    )
    .await;
    client.refresh().await.expect("a reload");
    wait_signed_in(&client, "Alice_1").await;
    no_script_errors(&client).await;
    client.close().await.expect("closed");
}

browser_test!(
    accounts_sign_up_sign_out_and_sign_in_from_the_header,
    accounts
);

/// The side a page plays, from its own bar (at the bottom, not flipped).
async fn own_color(client: &Client) -> String {
    let color = wait_for(
        client,
        "the own bar",
        "const p = document.querySelector('.player-bar.bottom .player'); \
         return p ? (p.classList.contains('white') ? 'white' : 'black') : ''",
    )
    .await;
    color.as_str().unwrap_or_default().to_owned()
}

/// The rating shown on a profile page: [its number, whether it ends with `?`].
async fn profile_rating(client: &Client, base: &str, name: &str) -> (i64, bool) {
    client
        .goto(&format!("{base}/#/@/{name}"))
        .await
        .expect("the profile");
    let shown = wait_for(
        client,
        "the profile's rating",
        &format!(
            "return document.querySelector('#profile-name')?.textContent === {name:?} \
             ? document.querySelector('#profile-rating')?.textContent : ''"
        ),
    )
    .await;
    let shown = shown.as_str().unwrap_or_default();
    let number = shown.trim_end_matches('?').parse().expect("a number");
    (number, shown.ends_with('?'))
}

/// A rated game between two browsers: each signs up; one ticks "Rated" and presses 5+0, the
/// other sees the seek listed as rated with the seeker's name and takes it. Both pages show both
/// names with "1500?" by the board and say the game is rated; after a few moves White resigns,
/// and both show White's rating change with a minus and Black's with a plus, by the board and
/// under the result. The profiles have moved from 1500 (up for Black, down for White, still
/// provisional). A third browser signs in as the winner: its "My games" (from the account) lists
/// the game as won, rated, with the change.
async fn rated_game(driver: &mut Driver, base: String) {
    let first = driver.session(1280, 900).await;
    let second = driver.session(1280, 900).await;
    sign_up(&first, &base, "alice").await;
    sign_up(&second, &base, "bob").await;

    wait_for(
        &first,
        "the switch enabled",
        "const e = document.querySelector('#seek-rated'); return !!e && !e.disabled",
    )
    .await;
    click(&first, "#seek-rated").await;
    click(&first, "#seek-5-0").await;
    wait_for(
        &first,
        "the rated seek waiting",
        "const w = document.querySelector('#seek-waiting'); return !!w && !w.hidden && w.textContent.includes('5+0, rated')",
    )
    .await;
    let listed = wait_for(
        &second,
        "the rated seek listed",
        "const b = document.querySelector('.seek-accept[data-rated=\"true\"]'); return b ? b.textContent : ''",
    )
    .await;
    let listed = listed.as_str().unwrap_or_default();
    assert!(
        listed.starts_with("5+0") && listed.contains("rated") && listed.contains("alice 1500?"),
        "{listed}"
    );
    shoot(&second, "rated-seek-listed.png").await;
    second
        .execute(
            "document.querySelector('.seek-accept[data-rated=\"true\"]').click()",
            vec![],
        )
        .await
        .expect("the click");
    let (one, two) = (game_of(&first).await, game_of(&second).await);
    assert_eq!(one, two, "both browsers are in the same game");
    let game = one;

    // Names and ratings by the board, on both pages.
    let alice = own_color(&first).await;
    let bob = own_color(&second).await;
    assert_ne!(alice, bob, "one seat each");
    for (client, side) in [(&first, &alice), (&second, &bob)] {
        for (color, name) in [(&alice, "alice"), (&bob, "bob")] {
            wait_for(
                client,
                &format!("{name}'s name and rating"),
                &format!(
                    "const t = document.querySelector('#player-{color}')?.textContent ?? ''; \
                     return t.includes({name:?}) && t.includes('1500?')"
                ),
            )
            .await;
        }
        assert!(
            text_of(client, "#game-rated").await.contains("Rated game"),
            "the page says the game is rated"
        );
        let own = text_of(client, ".player-bar.bottom .player").await;
        let side = if side == "white" { "White" } else { "Black" };
        assert!(own.contains(&format!("(you, {side})")), "{own}");
    }
    let (white, black) = if alice == "white" {
        (&first, &second)
    } else {
        (&second, &first)
    };
    let (white_name, black_name) = if alice == "white" {
        ("alice", "bob")
    } else {
        ("bob", "alice")
    };
    wait_status(white, "Your move").await;
    shoot(white, "rated-game.png").await;
    play(white, black, "e2", "e3").await;
    play(black, white, "e7", "e6").await;
    play(white, black, "g1", "f3").await;

    // Black to move; White resigns.
    click(white, "#resign").await;
    click(white, "#resign").await;
    for client in [white, black] {
        wait_status(client, "Black won — by resignation").await;
        let diffs = wait_for(
            client,
            "the rating changes",
            "const w = document.querySelector('#rating-diff-white')?.textContent ?? ''; \
             const b = document.querySelector('#rating-diff-black')?.textContent ?? ''; \
             return w && b ? [w, b] : null",
        )
        .await;
        let (lost, won) = (
            diffs[0].as_str().unwrap_or_default(),
            diffs[1].as_str().unwrap_or_default(),
        );
        let minus = lost.strip_prefix('−').and_then(|n| n.parse::<i64>().ok());
        let plus = won.strip_prefix('+').and_then(|n| n.parse::<i64>().ok());
        assert!(minus.is_some_and(|n| n > 0), "{lost}");
        assert!(plus.is_some_and(|n| n > 0), "{won}");
        let under = wait_text(client, "the ratings under the result", "#result-rating").await;
        let after = 1500 + plus.unwrap_or(0);
        assert!(
            under.contains(&format!("1500? → {after} ({won})")),
            "{under}"
        );
    }
    shoot(black, "rated-game-over.png").await;

    // The profiles moved from 1500; the winner's name by the board opens its profile.
    click(white, "#player-black a.player-name").await;
    wait_for(
        white,
        "the winner's profile",
        &format!("return location.hash === '#/@/{black_name}' && !!document.querySelector('#profile-rating')"),
    )
    .await;
    let (won, provisional) = profile_rating(white, &base, black_name).await;
    assert!(won > 1500 && provisional, "{won}");
    let (lost, provisional) = profile_rating(black, &base, white_name).await;
    assert!(lost < 1500 && provisional, "{lost}");

    // A third browser, signed in as the winner: "My games" comes from the account.
    let third = driver.session(1280, 900).await;
    third.goto(&format!("{base}/")).await.expect("home opens");
    click(&third, "#sign-in-link").await;
    send_account_form(&third, black_name, PASSWORD).await;
    wait_signed_in(&third, black_name).await;
    let row = wait_for(
        &third,
        "the game in My games",
        &format!(
            "return document.querySelector('#my-games-list .game-row[data-game=\"{game}\"]')?.textContent ?? ''"
        ),
    )
    .await;
    let row = row.as_str().unwrap_or_default();
    assert!(
        row.contains("You played Black")
            && row.contains(&format!("against {white_name}"))
            && row.contains("You won: White resigned")
            && row.contains("rated")
            && row.contains('+'),
        "{row}"
    );
    shoot(&third, "rated-my-games.png").await;
    for client in [&first, &second, &third] {
        no_script_errors(client).await;
    }
    first.close().await.expect("closed");
    second.close().await.expect("closed");
    third.close().await.expect("closed");
}

browser_test!(
    two_browsers_play_a_rated_game_and_the_ratings_move,
    rated_game
);

/// Makes an account through the API → its session cookie (`gmo_session=…`), to send by hand.
async fn api_sign_up(base: &str, name: &str) -> String {
    let answer = reqwest::Client::new()
        .post(format!("{base}/api/account"))
        .json(&json!({"username": name, "password": PASSWORD}))
        .send()
        .await
        .expect("the server answers");
    assert_eq!(answer.status(), 201, "{name} signs up");
    answer
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| value.starts_with("gmo_session="))
        .and_then(|value| value.split(';').next())
        .expect("the session cookie")
        .to_owned()
}

/// A request through the API, with a seat's token or a session's cookie → its JSON answer.
async fn api_send(
    base: &str,
    method: reqwest::Method,
    path: &str,
    auth: (&str, &str),
    body: Option<Value>,
) -> Value {
    let mut request = reqwest::Client::new().request(method, format!("{base}{path}"));
    request = match auth {
        ("cookie", cookie) => request.header("cookie", cookie),
        (_, token) => request.bearer_auth(token),
    };
    if let Some(body) = body {
        request = request.json(&body);
    }
    let answer = request.send().await.expect("the server answers");
    let status = answer.status();
    let text = answer.text().await.unwrap_or_default();
    assert!(status.is_success(), "{path}: {status} {text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// A rated game between two accounts made through the API (a rated seek, taken by the other),
/// set up by both seats (the default preset, the king on d) and under way → the game's id and
/// the seat tokens by colour, and the seeker's colour (the server draws the colours).
async fn api_rated_game(base: &str, seeker: &str, taker: &str) -> (String, Value, String) {
    use futures_util::StreamExt;
    let seek = api_send(
        base,
        reqwest::Method::POST,
        "/api/seeks",
        ("cookie", seeker),
        Some(json!({"clock": {"initial_ms": 300_000, "increment_ms": 0}, "rated": true})),
    )
    .await;
    let (id, token) = (
        seek["id"].as_str().expect("an id"),
        seek["token"].as_str().expect("a token"),
    );
    // The seeker follows its seek (as the page does) before the other takes it.
    let stream = reqwest::Client::new()
        .get(format!("{base}/api/seeks/{id}/stream"))
        .bearer_auth(token)
        .send()
        .await
        .expect("the seek's stream");
    let taken = api_send(
        base,
        reqwest::Method::POST,
        &format!("/api/seeks/{id}/accept"),
        ("cookie", taker),
        None,
    )
    .await;
    let mut body = stream.bytes_stream();
    let mut buffer = String::new();
    let paired = loop {
        let chunk = tokio::time::timeout(WAIT, body.next())
            .await
            .expect("the seek's stream speaks")
            .expect("the seek's stream stays open until paired")
            .expect("a chunk");
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        let found = buffer
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(|line| line["type"] == "paired");
        if let Some(line) = found {
            break line;
        }
    };
    let game = taken["game"].as_str().expect("a game").to_owned();
    assert_eq!(paired["game"], json!(game));
    let mut seats = serde_json::Map::new();
    seats.insert(
        paired["seat"].as_str().expect("a seat").to_owned(),
        paired["token"].clone(),
    );
    seats.insert(
        taken["seat"].as_str().expect("a seat").to_owned(),
        taken["token"].clone(),
    );
    for (color, king) in [("white", "d1"), ("black", "d8")] {
        let token = seats[color].as_str().expect("a token");
        let steps = [
            (
                reqwest::Method::PUT,
                format!("/api/games/{game}/preset"),
                Some(json!({"preset": "default"})),
            ),
            (
                reqwest::Method::POST,
                format!("/api/games/{game}/kings/{king}"),
                None,
            ),
            (
                reqwest::Method::POST,
                format!("/api/games/{game}/ready"),
                None,
            ),
        ];
        for (method, path, body) in steps {
            api_send(base, method, &path, ("bearer", token), body).await;
        }
    }
    let seeker_color = paired["seat"].as_str().expect("a seat").to_owned();
    (game, Value::Object(seats), seeker_color)
}

/// The profile: three rated games made through the API between two accounts (Carol the seeker
/// each time: Dave resigns, a draw agreed, Carol resigns). Carol's profile shows her rating with
/// `?`, its deviation, "3 rated games", 1 win, 1 draw, 1 loss; the SVG graph is an image with a
/// title, one point per rated game; the games, newest first, each rated with its change and a
/// link to its record, no "Older games" (fewer than 50). A player without games has the graph's
/// empty state, an unknown one "No such player". The leaderboard, from the header, is empty (every
/// rating is provisional): its empty state says so.
async fn profile(driver: &mut Driver, base: String) {
    let carol = api_sign_up(&base, "Carol").await;
    let dave = api_sign_up(&base, "dave").await;
    api_sign_up(&base, "erin").await;
    let mut games = Vec::new();
    for ending in ["dave resigns", "draw", "carol resigns"] {
        let (game, seats, carols) = api_rated_game(&base, &carol, &dave).await;
        let daves = if carols == "white" { "black" } else { "white" };
        let post = |color: &str, what: &str| {
            let token = seats[color].as_str().expect("a token").to_owned();
            let path = format!("/api/games/{game}/{what}");
            let base = base.clone();
            async move {
                api_send(
                    &base,
                    reqwest::Method::POST,
                    &path,
                    ("bearer", &token),
                    None,
                )
                .await;
            }
        };
        match ending {
            "dave resigns" => post(daves, "resign").await,
            "carol resigns" => post(&carols, "resign").await,
            _ => {
                post("white", "draw").await;
                post("black", "draw").await;
            }
        }
        games.push(game);
    }

    let client = driver.session(1280, 900).await;
    client
        .goto(&format!("{base}/#/@/carol"))
        .await
        .expect("the profile");
    // The name as it was given, whatever case the address has.
    wait_for(
        &client,
        "Carol's profile",
        "return document.querySelector('#profile-name')?.textContent === 'Carol'",
    )
    .await;
    let rating = text_of(&client, "#profile-rating").await;
    assert!(
        rating.ends_with('?') && rating.trim_end_matches('?').parse::<u32>().is_ok(),
        "{rating}"
    );
    assert!(
        text_of(&client, "#profile-deviation")
            .await
            .starts_with("± "),
        "the deviation"
    );
    assert_eq!(
        text_of(&client, "#profile-rated-games").await,
        "3 rated games"
    );
    assert!(
        text_of(&client, "#profile-provisional")
            .await
            .contains("provisional")
    );
    let counts = client
        .execute(
            "return ['games', 'wins', 'draws', 'losses'].map(k => document.querySelector(`#profile-${k}`).textContent)",
            vec![],
        )
        .await
        .expect("the counts");
    assert_eq!(counts, json!(["3", "1", "1", "1"]));
    let graph = client
        .execute(
            "const g = document.querySelector('svg#rating-graph'); \
             return g && [g.getAttribute('role'), g.querySelector('title')?.textContent ?? '', \
               g.querySelectorAll('circle.point').length, !!g.querySelector('polyline.line'), \
               g.getBoundingClientRect().width > 200]",
            vec![],
        )
        .await
        .expect("the graph");
    assert_eq!(graph[0], json!("img"), "{graph}");
    assert!(
        graph[1].as_str().unwrap_or_default().contains("Carol"),
        "{graph}"
    );
    assert_eq!(graph[2], json!(3), "a point per rated game: {graph}");
    assert_eq!(graph[3], json!(true), "{graph}");
    assert_eq!(graph[4], json!(true), "drawn wide: {graph}");
    // The last point is the rating shown.
    let last = client
        .execute(
            "const p = [...document.querySelectorAll('#rating-graph circle.point')]; return p[p.length - 1].dataset.value",
            vec![],
        )
        .await
        .expect("the last point");
    assert_eq!(last, json!(rating.trim_end_matches('?')));
    // The games, newest first: each rated, with its change and a link to its record.
    let rows = client
        .execute(
            "return [...document.querySelectorAll('#profile-games .game-row')].map(r => \
               [r.dataset.game, r.dataset.status, r.textContent, r.querySelector('a').getAttribute('href')])",
            vec![],
        )
        .await
        .expect("the rows");
    let rows = rows.as_array().expect("rows");
    assert_eq!(rows.len(), 3, "{rows:?}");
    let newest: Vec<&str> = games.iter().rev().map(String::as_str).collect();
    let listed: Vec<&str> = rows
        .iter()
        .map(|row| row[0].as_str().unwrap_or(""))
        .collect();
    assert_eq!(listed, newest, "newest first");
    for row in rows {
        let (id, text, href) = (
            row[0].as_str().unwrap_or(""),
            row[2].as_str().unwrap_or(""),
            row[3].as_str().unwrap_or(""),
        );
        assert!(
            text.contains("rated") && text.contains("against dave"),
            "{text}"
        );
        assert_eq!(href, format!("#/record/{id}"));
    }
    assert!(
        client
            .execute(
                "return document.querySelector('#profile-older').hidden",
                vec![]
            )
            .await
            .expect("the button")
            .as_bool()
            .unwrap_or(false),
        "no older games"
    );
    shoot(&client, "profile.png").await;
    // A row opens the game's record.
    click(
        &client,
        &format!("#profile-games .game-row[data-game=\"{}\"] a", games[0]),
    )
    .await;
    wait_for(
        &client,
        "the record",
        &format!(
            "return location.hash === '#/record/{}' && !!document.querySelector('#record-story')",
            games[0]
        ),
    )
    .await;

    // A player without games, and one who does not exist.
    client
        .goto(&format!("{base}/#/@/erin"))
        .await
        .expect("erin's profile");
    let empty = wait_text(&client, "the graph's empty state", "#rating-graph-empty").await;
    assert!(empty.contains("No rated games yet"), "{empty}");
    assert_eq!(text_of(&client, "#profile-rating").await, "1500?");
    assert!(
        text_of(&client, "#profile-no-games")
            .await
            .contains("No games")
    );
    client
        .goto(&format!("{base}/#/@/nobody_here"))
        .await
        .expect("an unknown profile");
    let missing = wait_text(&client, "no such player", "#no-such-player").await;
    assert!(missing.contains("No such player"), "{missing}");

    // The leaderboard, from the header: nobody is established yet.
    click(&client, "header nav a[href=\"#/leaderboard\"]").await;
    let board = wait_text(
        &client,
        "the leaderboard's empty state",
        "#leaderboard-empty",
    )
    .await;
    assert!(board.contains("Nobody"), "{board}");
    assert!(
        client
            .find(Locator::Css("#leaderboard-table"))
            .await
            .is_err(),
        "no table"
    );
    shoot(&client, "leaderboard-empty.png").await;

    // The profile on a phone.
    client
        .set_window_size(390, 844)
        .await
        .expect("a phone-sized window");
    client
        .goto(&format!("{base}/#/@/Carol"))
        .await
        .expect("the profile");
    wait_for(
        &client,
        "the graph on a phone",
        "const g = document.querySelector('#rating-graph'); return !!g && g.getBoundingClientRect().right <= innerWidth",
    )
    .await;
    shoot(&client, "profile-phone.png").await;
    no_script_errors(&client).await;
    client.close().await.expect("closed");
}

browser_test!(
    a_profile_shows_the_rating_graph_the_results_and_the_games,
    profile
);

browser_test!(three_teams_play_an_event_through_two_rounds, event);

/// The state of the organiser's current round once it is round `number` and its game is
/// paired: [white team, black team, game].
fn paired_round(number: u32) -> String {
    format!(
        "const round = document.querySelector('#event-round h3')?.textContent; \
         const li = document.querySelector('#current-pairings li[data-game]'); \
         return round === 'Round {number}' && li ? [li.dataset.white, li.dataset.black, li.dataset.game] : null"
    )
}

/// The standings a page shows, as {team: points}, once it shows `teams` lines.
async fn standings_shown(client: &Client, selector: &str, expected: &Value) {
    let script = format!(
        "const rows = [...document.querySelectorAll('{selector} tbody tr')]; \
         const shown = Object.fromEntries(rows.map((r) => [r.dataset.team, Number(r.dataset.points)])); \
         const want = {expected}; \
         return Object.keys(want).every((t) => shown[t] === want[t]) && rows.length === Object.keys(want).length"
    );
    wait_for(
        client,
        &format!("the standings {expected} in {selector}"),
        &script,
    )
    .await;
}

/// An event of three teams from three browsers through two rounds. The organiser signs up in the
/// first browser and runs a round robin from the home page's "Run an event": three teams added,
/// their codes read off the page. The second browser joins a team by typing its code, the third
/// by the join link, the first joins the third team itself; each sets a lineup. The organiser
/// starts: in each round the team with the bye reads "Bye this round" and opens the projector
/// view, which shows the round's board live; the two paired teams press "Play your game", their
/// pages set up and declare ready by themselves, and White resigns. The result and the standings
/// reach the organiser's page and the projector; the organiser pairs round 2 (the projector's
/// boards follow), which ends the same way. The points add up: a win and a bye are a point each.
async fn event(driver: &mut Driver, base: String) {
    let first = driver.session(1280, 900).await;
    let second = driver.session(1280, 900).await;
    let third = driver.session(1280, 900).await;
    sign_up(&first, &base, "organiser").await;
    click(&first, "#run-event").await;
    wait_for(
        &first,
        "the event form",
        "return !!document.querySelector('#event-name')",
    )
    .await;
    type_into(&first, "#event-name", "Camp duels").await;
    type_into(&first, "#event-minutes", "5").await;
    type_into(&first, "#event-increment", "0").await;
    shoot(&first, "event-new.png").await;
    click(&first, "#create-event").await;
    let id = wait_for(
        &first,
        "the event's page",
        "const m = /^#\\/events\\/([^/?]+)$/.exec(location.hash); \
         return m && document.querySelector('#event-title')?.textContent === 'Camp duels' ? m[1] : ''",
    )
    .await;
    let id = id.as_str().expect("the event's id").to_owned();
    assert_eq!(
        text_of(&first, "#event-status").await,
        "Registration: teams join"
    );

    for name in ["Alpha", "Bravo", "Charlie"] {
        type_into(&first, "#team-name", name).await;
        click(&first, "#add-team").await;
        wait_for(
            &first,
            &format!("{name}'s code"),
            &format!(
                "return [...document.querySelectorAll('#team-list .team-row')].some((r) => \
                 r.querySelector('.team-name')?.textContent === {name:?} && r.querySelector('.team-code'))"
            ),
        )
        .await;
    }
    let teams = wait_for(
        &first,
        "three teams with their codes",
        "const rows = [...document.querySelectorAll('#team-list .team-row')]; \
         return rows.length === 3 ? rows.map((r) => [r.dataset.team, r.querySelector('.team-name').textContent, \
         r.querySelector('.team-code').textContent]) : null",
    )
    .await;
    let teams: Vec<(String, String, String)> =
        serde_json::from_value(teams).expect("[id, name, code] of each team");
    assert!(
        teams.iter().all(|(_, _, code)| code.len() >= 8),
        "{teams:?}"
    );
    shoot(&first, "event-organiser-teams.png").await;

    // Alpha in the second browser (the code typed), Bravo in the third (the join link), Charlie
    // in the organiser's own.
    let clients = [&second, &third, &first];
    for (index, (client, (_, name, code))) in clients.iter().zip(&teams).enumerate() {
        if index == 1 {
            client
                .goto(&format!("{base}/#/events/{id}/join?code={code}"))
                .await
                .expect("the join link opens");
        } else {
            client
                .goto(&format!("{base}/#/events/{id}/team"))
                .await
                .expect("the team page opens");
            wait_for(
                client,
                "the join form",
                "return !!document.querySelector('#join-code') && !document.querySelector('#join-panel').hidden",
            )
            .await;
            type_into(client, "#join-code", code).await;
            click(client, "#join-team").await;
        }
        wait_for(
            client,
            &format!("{name} joined"),
            &format!(
                "return !document.querySelector('#lineup-panel').hidden && \
                 (document.querySelector('#team-title')?.textContent ?? '').startsWith({name:?}) && \
                 !location.hash.includes('code=')"
            ),
        )
        .await;
        type_into(client, "#lineup-preset", "default").await;
        if index == 1 {
            // Bravo plays with two kings.
            click(client, "#king-e1").await;
        }
        click(client, "#save-lineup").await;
        let saved = wait_text(client, "the lineup saved", "#lineup-state").await;
        let kings = if index == 1 { "d1, e1" } else { "d1" };
        assert!(
            saved.starts_with("Saved: preset default (")
                && saved.ends_with(&format!("), kings on {kings}.")),
            "{saved}"
        );
    }
    shoot(&third, "event-team.png").await;

    first
        .goto(&format!("{base}/#/events/{id}"))
        .await
        .expect("the organiser's page");
    click(&first, "#start-event").await;

    let browser_of = |team: &str| {
        let index = teams
            .iter()
            .position(|(id, _, _)| id == team)
            .expect("a team of the event");
        clients[index]
    };
    let mut points: std::collections::HashMap<String, f64> =
        teams.iter().map(|(id, _, _)| (id.clone(), 0.0)).collect();
    let mut previous_screen: Option<&Client> = None;
    for round in 1..=2 {
        first
            .goto(&format!("{base}/#/events/{id}"))
            .await
            .expect("the organiser's page");
        let paired = wait_for(
            &first,
            &format!("round {round} paired"),
            &paired_round(round),
        )
        .await;
        let [white_team, black_team, game]: [String; 3] =
            serde_json::from_value(paired).expect("the pairing");
        let bye_team = teams
            .iter()
            .map(|(id, _, _)| id.clone())
            .find(|team| *team != white_team && *team != black_team)
            .expect("the team with a bye");
        let (white, black, bye) = (
            browser_of(&white_team),
            browser_of(&black_team),
            browser_of(&bye_team),
        );
        // The projector of the last round moves on to this round's board by itself.
        if let Some(screen) = previous_screen {
            wait_for(
                screen,
                "the projector's new round",
                &format!(
                    "const boards = [...document.querySelectorAll('.screen-game')]; \
                     return document.querySelector('#screen-round')?.textContent.startsWith('Round {round}') \
                     && boards.length === 1 && boards[0].dataset.game === {game:?}"
                ),
            )
            .await;
        }

        bye.goto(&format!("{base}/#/events/{id}/team"))
            .await
            .expect("the team page");
        let said = wait_text(bye, "the bye", "#team-game-state[data-bye]").await;
        assert!(said.starts_with("Bye this round"), "{said}");
        bye.goto(&format!("{base}/#/events/{id}/screen"))
            .await
            .expect("the projector view");
        wait_for(
            bye,
            "the projector's board",
            &format!(
                "return !!document.querySelector('.screen-game[data-game={game:?}] .board [data-square=\"a1\"]')"
            ),
        )
        .await;

        for client in [white, black] {
            client
                .goto(&format!("{base}/#/events/{id}/team"))
                .await
                .expect("the team page");
            click(client, "#play-game").await;
            wait_for(
                client,
                "the game page",
                &format!("return location.hash.startsWith('#/game/{game}?token=')"),
            )
            .await;
        }
        wait_status(white, "Your move").await;
        wait_status(black, "White to move").await;
        assert_eq!(own_color(white).await, "white");
        assert_eq!(own_color(black).await, "black");
        wait_for(
            bye,
            "the projector's game under way",
            &format!(
                "return document.querySelector('.screen-game[data-game={game:?}]')?.dataset.status === 'in_progress'"
            ),
        )
        .await;
        if round == 1 {
            shoot(bye, "event-screen.png").await;
            shoot(white, "event-game.png").await;
        }

        click(white, "#resign").await;
        click(white, "#resign").await;
        // An event's game says the result by team.
        let black_name = teams
            .iter()
            .find(|(id, _, _)| *id == black_team)
            .map(|(_, name, _)| name.clone())
            .expect("black's name");
        wait_status(white, &format!("{black_name} won — by resignation")).await;
        *points.get_mut(&black_team).expect("black's points") += 1.0;
        *points.get_mut(&bye_team).expect("the bye's points") += 1.0;
        let expected = json!(points);

        wait_for(
            bye,
            "the result on the projector",
            &format!(
                "return document.querySelector('.screen-game[data-game={game:?}] .screen-result')?.textContent === '0–1'"
            ),
        )
        .await;
        standings_shown(bye, "#screen-standings-table", &expected).await;
        shoot(bye, &format!("event-screen-round-{round}.png")).await;
        // The winner's team page says it too.
        black
            .goto(&format!("{base}/#/events/{id}/team"))
            .await
            .expect("the team page");
        wait_for(
            black,
            "the result on the team page",
            "return document.querySelector('#team-game-result')?.textContent === 'Your team won: 0–1.'",
        )
        .await;
        first
            .goto(&format!("{base}/#/events/{id}"))
            .await
            .expect("the organiser's page");
        wait_for(
            &first,
            "the result on the organiser's page",
            &format!(
                "return document.querySelector('#current-pairings li[data-game={game:?}]')?.dataset.result === 'black'"
            ),
        )
        .await;
        standings_shown(&first, "#standings", &expected).await;
        if round == 1 {
            shoot(&first, "event-organiser-round-1.png").await;
            click(&first, "#pair-round").await;
        } else {
            shoot(&first, "event-organiser-round-2.png").await;
        }
        // The organiser's browser leaves the projector for its own page.
        previous_screen = (!std::ptr::eq(bye, &first)).then_some(bye);
    }

    // Two rounds of three teams: two wins and two byes were played, four points in all.
    let total: f64 = points.values().sum();
    assert_eq!(total, 4.0);
    let csv = reqwest::get(format!("{base}/api/events/{id}/standings.csv"))
        .await
        .expect("the CSV")
        .text()
        .await
        .expect("its text");
    assert_eq!(csv.lines().count(), 4, "a header and three teams:\n{csv}");
    for client in clients {
        no_script_errors(client).await;
    }
    for client in [first, second, third] {
        client.close().await.expect("closed");
    }
}

/// A server in discovery mode (`gmo serve --discovery`).
fn discovery(settings: &mut gmo_server::Settings) {
    settings.play.discovery = true;
}

browser_test!(
    discovery_teaches_play_and_the_lab_still_discovers,
    discovery_rules_and_lab,
    discovery
);
browser_test!(
    discovery_a_finished_game_keeps_the_opponents_pieces_secret,
    discovery_game,
    discovery
);

/// Makes the browser's log of resources long enough for a whole test (250 entries by default;
/// the page is one document throughout, its routes being address fragments).
async fn log_every_request(client: &Client) {
    client
        .execute("performance.setResourceTimingBufferSize(100000)", vec![])
        .await
        .expect("the resource log");
}

/// The URLs this page asked for that a discovery server refuses (diagrams, breeding, values):
/// read from the browser's own log of resources, which lists every fetch and image.
async fn refused_requests(client: &Client) -> Value {
    client
        .execute(
            "return performance.getEntriesByType('resource').map(e => e.name) \
             .filter(n => /diagram\\.svg|\\/api\\/genomes\\/breed|\\/value(\\/|$|\\?)/.test(n))",
            vec![],
        )
        .await
        .expect("the resource log")
}

/// Discovery (issue 25): the page asks `/api/config` and adapts. How to play teaches play — the
/// board, kings, presets, the standard pieces' DNA and how to use the lab — with no word of the
/// genome language and no diagram; the lab places custom DNA and shows its moves, saves presets,
/// and says of an invalid DNA only that it is not a valid genome (no codon named or marked); it
/// has no breeding, no value panel and no explanation; a code's page shows DNA only. Nothing is
/// ever asked of the routes the server refuses.
async fn discovery_rules_and_lab(driver: &mut Driver, base: String) {
    // The server's side, as the page relies on it.
    let config: Value = reqwest::get(format!("{base}/api/config"))
        .await
        .expect("the config")
        .json()
        .await
        .expect("JSON");
    assert_eq!(config, json!({"discovery": true}));
    let refused = reqwest::get(format!("{base}/api/genomes/rook/diagram.svg"))
        .await
        .expect("the diagram route");
    assert_eq!(refused.status(), 403);

    let client = driver.session(1280, 900).await;
    client
        .goto(&format!("{base}/#/rules"))
        .await
        .expect("the rules");
    log_every_request(&client).await;
    let sections = wait_for(
        &client,
        "the sections",
        "const all = [...document.querySelectorAll('.rules-section h2')].map(e => e.textContent); \
         return all.length ? all : null",
    )
    .await;
    assert_eq!(
        sections,
        json!([
            "The board and its edges",
            "Setting up: presets and kings",
            "Kings, and how a game is lost",
            "Promotion",
            "The clock",
            "The standard pieces and their DNA",
            "Find out the rest in the lab"
        ])
    );
    differences_at_the_top(&client).await;
    // The standard pieces' DNA, from the server, written in threes.
    wait_for(
        &client,
        "the standard DNA",
        "const q = document.querySelector('[data-standard=\"queen\"]')?.textContent; \
         return document.querySelector('[data-standard=\"rook\"]')?.textContent === 'AHH HSH HAA CHA CHA CHA HHA SAS AAA AAA AAA' \
           && q === 'AHH HSH HAA HHH CHA CHA HHA CAS SAS ASS ACS AHH HSH HSC CHA CHA CHA HHA SAS AAA AAA AAA'",
    )
    .await;
    let text = client
        .execute("return document.querySelector('#rules').innerText", vec![])
        .await
        .expect("the page's text");
    let text = text.as_str().unwrap_or_default().to_lowercase();
    for word in ["codon", "block", "debuff", "walk", "owner"] {
        assert!(
            !text.contains(word),
            "{word:?} on the discovery rules page:\n{text}"
        );
    }
    for taught in [
        "left and right edges of the board are joined",
        "mark at least one king",
        "must be promoted",
        "time budget",
        "preset",
        "during the game and after",
    ] {
        assert!(text.contains(taught), "{taught:?} missing:\n{text}");
    }
    let lab_how = text_of(&client, "#rules-lab").await;
    for step in [
        "Write DNA",
        "Place it",
        "See where it moves",
        "Save it",
        "Build a preset",
    ] {
        assert!(lab_how.contains(step), "{step:?}: {lab_how}");
    }
    let diagrams = client
        .execute(
            "return document.querySelectorAll('#rules img, #rules .diagram').length",
            vec![],
        )
        .await
        .expect("counted");
    assert_eq!(diagrams, json!(0));
    shoot(&client, "discovery-rules.png").await;

    // The lab: no explanation, no breeding, no value; typed DNA is placed and shows its moves.
    client
        .goto(&format!("{base}/#/lab?new=1"))
        .await
        .expect("the lab");
    wait_for(
        &client,
        "the lab board",
        "return !!document.querySelector('.board [data-square=\"h8\"]') && !!document.querySelector('#lab-try')",
    )
    .await;
    let absent = client
        .execute(
            "return ['#breed', '#breed-go', '#value', '#value-go', '#explanation'].filter(s => document.querySelector(s))",
            vec![],
        )
        .await
        .expect("looked");
    assert_eq!(absent, json!([]), "decoding tools in the discovery lab");
    type_into(&client, "#dna-input", CUSTOM_DNA).await;
    wait_for(
        &client,
        "the code",
        &format!("return document.querySelector('#dna-code')?.textContent === {CUSTOM_CODE:?}"),
    )
    .await;
    click(&client, "#palette-current").await;
    square(&client, "d4").await;
    wait_label(&client, "d4", &format!("white piece {CUSTOM_CODE}")).await;
    click(&client, "#side-black").await;
    square(&client, "f6").await;
    wait_label(&client, "f6", &format!("black piece {CUSTOM_CODE}")).await;
    click(&client, "#tool-move").await;
    square(&client, "d4").await;
    let targets = wait_for(
        &client,
        "highlighted moves",
        "const t = [...document.querySelectorAll('.sq.target')].map(e => e.dataset.square); return t.length ? t : null",
    )
    .await;
    let targets: Vec<String> = serde_json::from_value(targets).expect("square names");
    assert!(targets.contains(&"e5".to_owned()), "targets {targets:?}");
    assert!(targets.contains(&"c3".to_owned()), "targets {targets:?}");
    // The selected piece: its code and a way to edit its DNA, nothing explained.
    wait_for(
        &client,
        "the selected piece",
        "return !!document.querySelector('#piece-info #edit-dna')",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        client
            .execute(
                "return document.querySelectorAll('#piece-info .explanation, .lab-page .explanation').length",
                vec![]
            )
            .await
            .expect("counted"),
        json!(0)
    );
    shoot(&client, "discovery-lab.png").await;

    // A preset built in the lab: the default with the new piece on b1, saved under a code.
    click(&client, "#side-white").await;
    type_into(&client, "#lab-preset-code", "default").await;
    click(&client, "#lab-load-preset").await;
    wait_label(&client, "d1", "white king").await;
    click(&client, "#palette-current").await;
    square(&client, "b1").await;
    wait_label(&client, "b1", &format!("white piece {CUSTOM_CODE}")).await;
    click(&client, "#save-white").await;
    let saved = wait_for(
        &client,
        "the saved preset",
        "return document.querySelector('#saved-preset-code')?.textContent",
    )
    .await;
    let saved = saved.as_str().expect("a code").to_owned();
    assert!(saved.len() == 6 && saved != "emcym3", "{saved}");

    // An invalid DNA: only that it is not a valid genome — no codon named, none marked.
    type_into(&client, "#dna-input", BAD_DNA).await;
    let error = wait_for(
        &client,
        "the error",
        "return document.querySelector('#dna-error')?.textContent",
    )
    .await;
    assert_eq!(error, json!("this DNA is not a valid genome"));
    let state = text_of(&client, "#dna-state").await;
    assert!(!state.to_lowercase().contains("codon"), "{state}");
    let marked = client
        .execute(
            "return [document.querySelectorAll('[data-codon-error], .codon.error, .letter.bad, #codons .codon').length, \
               document.querySelector('#codons').hidden]",
            vec![],
        )
        .await
        .expect("looked");
    assert_eq!(marked, json!([0, true]));
    shoot(&client, "discovery-lab-invalid.png").await;

    // A code's page: the DNA, no diagram, no explanation.
    client
        .goto(&format!("{base}/#/code/{CUSTOM_CODE}"))
        .await
        .expect("the code's page");
    wait_for(
        &client,
        "the genome card",
        "return !!document.querySelector('#genome-card #genome-try')",
    )
    .await;
    let card = client
        .execute(
            "return [document.querySelectorAll('#genome-card img, #genome-card .explanation').length, document.querySelector('#genome-card pre.dna').textContent]",
            vec![],
        )
        .await
        .expect("the card");
    assert_eq!(card, json!([0, CUSTOM_DNA]));

    assert_eq!(refused_requests(&client).await, json!([]));
    // The log would have shown one: a refused request of the test's own is listed.
    let status = client
        .execute_async(
            "const done = arguments[0]; fetch('/api/genomes/rook/diagram.svg').then(r => done(r.status))",
            vec![],
        )
        .await
        .expect("the test's own request");
    assert_eq!(status, json!(403));
    let logged = wait_for(
        &client,
        "the refused request logged",
        "return performance.getEntriesByType('resource').some(e => e.name.includes('/api/genomes/rook/diagram.svg'))",
    )
    .await;
    assert_eq!(logged, json!(true));
    assert_eq!(
        refused_requests(&client).await.as_array().map(Vec::len),
        Some(1)
    );
    no_script_errors(&client).await;
    client.close().await.expect("closed");
}

/// Discovery: a friend game whose Black plays a custom piece on a8 (set up through the API),
/// over by resignation. White's page, during and after the game: the piece's panel says what is
/// known and shows no diagram, traits, details or value; Black's custom piece stays hidden on the
/// game's page and on the record's — its code nowhere in the page — while White's own queen
/// reads "It moves like a queen." with its code.
async fn discovery_game(driver: &mut Driver, base: String) {
    let http = reqwest::Client::new();
    let stored = http
        .post(format!("{base}/api/genomes"))
        .json(&json!({"dna": CUSTOM_DNA}))
        .send()
        .await
        .expect("the genome stored");
    assert!(stored.status().is_success());
    let stored: Value = stored.json().await.expect("JSON");
    assert_eq!(stored["code"], json!(CUSTOM_CODE));
    assert!(
        stored.get("explanation").is_none() && stored.get("traits").is_none(),
        "{stored}"
    );
    let preset: Value = http
        .post(format!("{base}/api/presets"))
        .json(&json!({"genomes": [CUSTOM_CODE, "knight", "bishop", "king", "queen", "bishop", "knight", "rook"]}))
        .send()
        .await
        .expect("the preset stored")
        .json()
        .await
        .expect("its code");
    let preset = preset["code"].as_str().expect("a code").to_owned();

    let white = driver.session(1280, 900).await;
    white.goto(&format!("{base}/")).await.expect("home opens");
    log_every_request(&white).await;
    click(&white, "#new-friend-game").await;
    let invite = wait_for(
        &white,
        "the invite link",
        "return document.querySelector('#invite-link')?.value ?? ''",
    )
    .await;
    let seat = |link: &str| -> (String, String) {
        let hash = link.split("#/game/").nth(1).expect("a game link");
        let (id, token) = hash.split_once("?token=").expect("a token");
        (id.to_owned(), token.to_owned())
    };
    let (game, black) = seat(invite.as_str().expect("a link"));
    let (_, white_token) = seat(white.current_url().await.expect("the address").as_ref());
    let setup = http
        .put(format!("{base}/api/games/{game}/preset"))
        .bearer_auth(&black)
        .json(&json!({"preset": preset}))
        .send()
        .await
        .expect("the preset");
    assert!(setup.status().is_success());
    api_act(&base, &game, &black, "kings/d8", Value::Null).await;
    api_act(&base, &game, &black, "ready", Value::Null).await;
    wait_status(&white, "Your move").await;
    assert!(
        hidden_code(&white, "a8").await,
        "Black's custom piece drawn by its code"
    );
    api_act(
        &base,
        &game,
        &white_token,
        "moves",
        json!({"from": "e2", "to": "e3"}),
    )
    .await;
    api_act(
        &base,
        &game,
        &black,
        "moves",
        json!({"from": "b7", "to": "b6"}),
    )
    .await;
    wait_status(&white, "Your move").await;
    api_act(&base, &game, &black, "resign", Value::Null).await;
    wait_status(&white, "White won — by resignation").await;
    wait_for(
        &white,
        "the record link",
        "return !!document.querySelector('#record-link')",
    )
    .await;
    // After the end too: Black's piece is drawn from its species, its code nowhere on the page.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(hidden_code(&white, "a8").await, "revealed after the end");
    square(&white, "a8").await;
    wait_for(
        &white,
        "the hidden piece's panel",
        "return (document.querySelector('#piece-info, .piece-info')?.textContent ?? '').includes('during the game and after')",
    )
    .await;
    let page = white
        .execute("return document.documentElement.outerHTML", vec![])
        .await
        .expect("the page");
    assert!(
        !page.as_str().unwrap_or_default().contains(CUSTOM_CODE),
        "the opponent's code on the finished game's page"
    );
    // One's own standard piece: what it is, its code; no diagram, traits, details or value.
    square(&white, "e1").await;
    wait_for(
        &white,
        "the queen's panel",
        "return document.querySelector('#piece-moves-like')?.textContent === 'It moves like a queen.'",
    )
    .await;
    assert_eq!(text_of(&white, "#piece-code").await, "1hapeh");
    let tools = white
        .execute(
            "return ['#piece-diagram', '#piece-traits', '#piece-details', '#piece-explanation', '#value-go', 'img.diagram'].filter(s => document.querySelector(s))",
            vec![],
        )
        .await
        .expect("looked");
    assert_eq!(tools, json!([]));
    shoot(&white, "discovery-game-over.png").await;

    // The record: replayed, Black's piece still hidden.
    click(&white, "#record-link").await;
    wait_for(
        &white,
        "the record page",
        "return document.querySelector('#record-where')?.textContent === 'The start position.'",
    )
    .await;
    assert!(hidden_code(&white, "a8").await, "revealed in the record");
    assert!(label_of(&white, "d8").await.contains("black king"));
    let page = white
        .execute("return document.documentElement.outerHTML", vec![])
        .await
        .expect("the page");
    assert!(
        !page.as_str().unwrap_or_default().contains(CUSTOM_CODE),
        "the opponent's code on the record's page"
    );
    // And the server's answers to this seat say the same.
    for path in ["", "/record", "/plies", "/positions"] {
        let answer = http
            .get(format!("{base}/api/games/{game}{path}"))
            .bearer_auth(&white_token)
            .send()
            .await
            .expect("the server answers");
        assert!(answer.status().is_success(), "{path}: {}", answer.status());
        let body = answer.text().await.unwrap_or_default();
        assert!(!body.contains(CUSTOM_CODE), "{path}: {body:.300}");
        // Its DNA (a prefix of the queen's, which White plays: hence the quotes).
        assert!(
            !body.contains("\"AHHHSHHAAHHHCHACHAHHACASSAS\""),
            "{path}: its DNA"
        );
    }
    assert_eq!(refused_requests(&white).await, json!([]));
    no_script_errors(&white).await;
    white.close().await.expect("closed");
}

/// Waits until the game page's board (the main board of `client`) holds what the server's view
/// of game `id` holds for `token` (a spectator's without), square by square, each piece as the
/// board keys it (colour, code or species, name, king, pawn).
async fn board_as_server(client: &Client, base: &str, id: &str, token: Option<&str>) {
    let started = Instant::now();
    loop {
        let mut request = reqwest::Client::new().get(format!("{base}/api/games/{id}"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let view: Value = request
            .send()
            .await
            .expect("the server answers")
            .json()
            .await
            .expect("a view");
        let compared = client
            .execute(
                "const view = arguments[0]; const want = {}; const got = {}; \
                 for (const p of view.board) want[p.square] = `${p.color}|${p.code || p.species}|${p.name || ''}|${p.king}|${p.pawn}`; \
                 for (const c of document.querySelectorAll('.board-wrap .board [data-square]')) if (c.dataset.piece) got[c.dataset.square] = c.dataset.piece; \
                 return [want, got]",
                vec![view],
            )
            .await
            .expect("the boards");
        if compared[0] == compared[1] {
            return;
        }
        assert!(
            started.elapsed() < WAIT,
            "the page's board is not the server's: {compared}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Every stream of game `id` the page has finished reading (resource timing lists a fetch once
/// its body has ended) was asked for with `lines=compact`; there is at least one.
async fn stream_was_compact(client: &Client, id: &str) {
    let script = format!(
        "const s = performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/api/games/{id}/stream')); \
         return s.length ? s : null"
    );
    let streams = wait_for(client, "the stream's resource entry", &script).await;
    let streams = streams.as_array().expect("a list");
    assert!(
        streams
            .iter()
            .all(|name| name.as_str().unwrap_or_default().contains("lines=compact")),
        "{streams:?}"
    );
}

/// A friend game made and set up through the API (the default preset, kings on d1 and d8, both
/// ready): its id and the seats' tokens.
async fn api_started_game(base: &str) -> (String, String, String) {
    let client = reqwest::Client::new();
    let created: Value = client
        .post(format!("{base}/api/games"))
        .json(&json!({"clock": {"initial_ms": 600_000, "increment_ms": 0}}))
        .send()
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("the game");
    let id = created["id"].as_str().expect("an id").to_owned();
    let token = |side: &str| {
        created["seats"][side]["token"]
            .as_str()
            .expect("a token")
            .to_owned()
    };
    let (white, black) = (token("white"), token("black"));
    for (seat, king) in [(&white, "d1"), (&black, "d8")] {
        let loaded = client
            .put(format!("{base}/api/games/{id}/preset"))
            .bearer_auth(seat)
            .json(&json!({"preset": "default"}))
            .send()
            .await
            .expect("the preset");
        assert!(loaded.status().is_success());
        api_act(base, &id, seat, &format!("kings/{king}"), Value::Null).await;
        api_act(base, &id, seat, "ready", Value::Null).await;
    }
    (id, white, black)
}

/// One move through the API.
async fn api_move(base: &str, id: &str, token: &str, from: &str, to: &str) {
    api_act(base, id, token, "moves", json!({"from": from, "to": to})).await;
}

browser_test!(
    a_watcher_follows_live_games_and_tv_moves_on,
    watch_and_tv,
    |settings| settings.play.first_move_time = Duration::from_secs(300)
);

/// Two players play through the API while a third browser watches: the watch list shows the live
/// game (players, a small board, whose move) and opens it as a spectator, whose board follows the
/// moves; TV shows it large, follows it to its end and then moves on to the game started
/// meanwhile; when no game is left TV says so, and picks up the next game once one starts. Every
/// stream the watcher read asked for compact lines, and the boards are the server's.
async fn watch_and_tv(driver: &mut Driver, base: String) {
    let watcher = driver.session(1280, 900).await;
    watcher
        .goto(&format!("{base}/#/watch"))
        .await
        .expect("the watch page");
    wait_text(&watcher, "no live game", "#live-state").await;
    assert!(
        text_of(&watcher, "#live-state")
            .await
            .contains("Nobody is playing")
    );
    // The header's nav leads here.
    let current = watcher
        .execute(
            "return document.querySelector('header nav a[href=\"#/watch\"]')?.hasAttribute('aria-current')",
            vec![],
        )
        .await
        .expect("the nav");
    assert_eq!(current, json!(true));

    let (first, white, black) = api_started_game(&base).await;
    // The list is read again every few seconds: the game appears, White to move.
    let listed = format!("#live-games .live-game[data-game=\"{first}\"]");
    let state = wait_text(
        &watcher,
        "the live game listed",
        &format!("{listed} .live-state"),
    )
    .await;
    assert!(state.contains("White to move"), "{state}");
    let small = watcher
        .execute(
            &format!(
                "const b = document.querySelector('{listed} .board'); \
                 return [b.querySelectorAll('[data-square]').length, b.querySelector('[data-square=\"e2\"]').getAttribute('aria-label'), b.getBoundingClientRect().width]"
            ),
            vec![],
        )
        .await
        .expect("the small board");
    assert_eq!(small[0], json!(64), "{small}");
    assert!(
        small[1].as_str().unwrap_or_default().contains("white pawn"),
        "{small}"
    );
    assert!(
        small[2].as_f64().unwrap_or(1000.0) < 400.0,
        "small: {small}"
    );
    shoot(&watcher, "watch-list.png").await;

    // Opened from the list: the spectator's game page, whose board follows the moves.
    click(&watcher, &format!("{listed} a.live-board")).await;
    wait_status(&watcher, "White to move. You are watching.").await;
    api_move(&base, &first, &white, "e2", "e3").await;
    wait_label(&watcher, "e3", "white pawn").await;
    wait_label(&watcher, "e2", "e2, empty").await;
    wait_status(&watcher, "Black to move").await;
    api_move(&base, &first, &black, "e7", "e6").await;
    wait_label(&watcher, "e6", "black pawn").await;
    wait_label(&watcher, "e7", "e7, empty").await;
    board_as_server(&watcher, &base, &first, None).await;

    // TV: the same game (the only live one), large, as a spectator.
    watcher.goto(&format!("{base}/#/tv")).await.expect("TV");
    wait_for(
        &watcher,
        "TV on the first game",
        &format!("return document.querySelector('#tv-game')?.dataset.game === '{first}' && !!document.querySelector('#tv-game #game-status')"),
    )
    .await;
    wait_status(&watcher, "White to move. You are watching.").await;
    let size = watcher
        .execute(
            "return document.querySelector('#tv-game .board').getBoundingClientRect().width",
            vec![],
        )
        .await
        .expect("the TV board");
    assert!(size.as_f64().unwrap_or(0.0) > 400.0, "large: {size}");
    api_move(&base, &first, &white, "g1", "f3").await;
    wait_label(&watcher, "f3", "white knight").await;
    wait_label(&watcher, "g1", "g1, empty").await;
    api_move(&base, &first, &black, "b8", "c6").await;
    wait_label(&watcher, "c6", "black knight").await;
    wait_label(&watcher, "b8", "b8, empty").await;
    wait_for(
        &watcher,
        "the TV move list",
        "return document.querySelectorAll('#tv-game #move-list .ply').length === 4",
    )
    .await;
    board_as_server(&watcher, &base, &first, None).await;
    shoot(&watcher, "watch-tv.png").await;

    // Another game starts meanwhile; TV stays on its game until that ends.
    let (second, second_white, _) = api_started_game(&base).await;
    api_move(&base, &second, &second_white, "d2", "d3").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let on = watcher
        .execute(
            "return document.querySelector('#tv-game').dataset.game",
            vec![],
        )
        .await
        .expect("the TV game");
    assert_eq!(on, json!(first), "TV stays on its game");
    api_act(&base, &first, &black, "resign", Value::Null).await;
    wait_status(&watcher, "White won").await;
    wait_for(
        &watcher,
        "the TV's word of the end",
        "return (document.querySelector('#tv-state')?.textContent ?? '').includes('This game is over')",
    )
    .await;
    stream_was_compact(&watcher, &first).await;
    // … then moves on to the other live game.
    wait_for(
        &watcher,
        "TV on the second game",
        &format!("return document.querySelector('#tv-game')?.dataset.game === '{second}' && !!document.querySelector('#tv-game #game-status')"),
    )
    .await;
    wait_status(&watcher, "Black to move. You are watching.").await;
    wait_label(&watcher, "d3", "white pawn").await;

    // The second game ends too: no game left, and TV says so.
    api_act(&base, &second, &second_white, "resign", Value::Null).await;
    wait_for(
        &watcher,
        "TV with no game",
        "return (document.querySelector('#tv-state')?.textContent ?? '').includes('No game is being played right now')",
    )
    .await;
    shoot(&watcher, "watch-tv-none.png").await;
    // A new game: TV finds it by itself.
    let (third, _, _) = api_started_game(&base).await;
    wait_for(
        &watcher,
        "TV on the third game",
        &format!("return document.querySelector('#tv-game')?.dataset.game === '{third}' && !!document.querySelector('#tv-game #game-status')"),
    )
    .await;
    wait_status(&watcher, "White to move. You are watching.").await;

    // The watch list: the third game only, its players anonymous (White – Black).
    watcher
        .goto(&format!("{base}/#/watch"))
        .await
        .expect("the watch page");
    wait_for(
        &watcher,
        "the list of one",
        &format!("return document.querySelector('#live-games')?.dataset.count === '1' && !!document.querySelector('#live-games .live-game[data-game=\"{third}\"]')"),
    )
    .await;
    no_script_errors(&watcher).await;
    watcher.close().await.expect("closed");
}

/// Waits until the page speaks `lang` (`<html lang>`) and the home page's friend button says
/// `friend`.
async fn wait_language(client: &Client, lang: &str, friend: &str) {
    let script = format!(
        "return document.documentElement.lang === {lang:?} \
           && document.querySelector('#new-friend-game')?.textContent === {friend:?}"
    );
    wait_for(client, &format!("the home page in {lang}"), &script).await;
}

/// The page in Slovak and English: a browser whose first language is Slovak gets Slovak on the
/// first visit, an English one English; the header's switch changes the language, `<html lang>`
/// follows, and the choice outlives a reload; no message is missing from either catalogue.
async fn slovak(driver: &mut Driver, base: String) {
    let client = driver.session_in(1280, 900, Some("sk-SK,sk,en")).await;
    client
        .goto(&format!("{base}/"))
        .await
        .expect("the home page");
    wait_language(&client, "sk", "Hrať s priateľom").await;
    assert_eq!(
        text_of(&client, "header nav a[href='#/rules']").await,
        "Ako hrať"
    );
    assert_eq!(text_of(&client, "#sign-in-link").await, "Prihlásiť sa");
    assert_eq!(text_of(&client, "#lobby h2").await, "Hraj hneď s niekým");
    let pressed = client
        .execute(
            "return [document.querySelector('#lang-sk').getAttribute('aria-pressed'), \
               document.querySelector('#language-switch').getAttribute('aria-label')]",
            vec![],
        )
        .await
        .expect("the switch");
    assert_eq!(pressed, json!(["true", "Jazyk"]));
    shoot(&client, "home-sk.png").await;

    // The switch: English, kept over the browser's Slovak after a reload.
    click(&client, "#lang-en").await;
    wait_language(&client, "en", "Play a friend").await;
    client.refresh().await.expect("a reload");
    wait_language(&client, "en", "Play a friend").await;

    // An English browser starts in English; the switch makes it Slovak, on every page.
    let english = driver.session(1280, 900).await;
    english
        .goto(&format!("{base}/#/signin"))
        .await
        .expect("sign in");
    wait_for(
        &english,
        "the sign-in page in English",
        "return document.documentElement.lang === 'en' && document.querySelector('#account-submit')?.textContent === 'Sign in'",
    )
    .await;
    click(&english, "#lang-sk").await;
    wait_for(
        &english,
        "the sign-in page in Slovak",
        "return document.documentElement.lang === 'sk' && document.querySelector('#account-submit')?.textContent === 'Prihlásiť sa' \
           && document.title.includes('Prihlásenie')",
    )
    .await;
    english.refresh().await.expect("a reload");
    wait_for(
        &english,
        "Slovak after a reload",
        "return document.documentElement.lang === 'sk' && document.querySelector('label[for=\"account-password\"]')?.textContent === 'Heslo'",
    )
    .await;
    english.goto(&format!("{base}/#/")).await.expect("home");
    wait_language(&english, "sk", "Hrať s priateľom").await;

    // A game in Slovak: against the bot, set up at once, White (this player) to move; a Slovak
    // spectator reads whose move it is.
    click(&english, "#new-bot-game").await;
    wait_status(&english, "Si na ťahu.").await;
    let game = game_of(&english).await;
    shoot(&english, "game-sk.png").await;
    click(&client, "#lang-sk").await;
    wait_language(&client, "sk", "Hrať s priateľom").await;
    client
        .goto(&format!("{base}/#/game/{game}"))
        .await
        .expect("the game as a spectator");
    wait_status(&client, "Biely je na ťahu. Sleduješ partiu.").await;
    // The page's title says it too: the spectator's is the game's, the player's whose move.
    wait_for(
        &client,
        "the spectator's title in Slovak",
        &format!("return document.title === 'Partia {game} — GMO šach'"),
    )
    .await;
    wait_for(
        &english,
        "the player's title in Slovak",
        "return document.title === '● Si na ťahu — GMO šach'",
    )
    .await;

    for one in [&client, &english] {
        let missing = one
            .execute("return window.__i18nMissing", vec![])
            .await
            .expect("the missing messages");
        assert_eq!(missing, json!([]), "messages without a catalogue entry");
        no_script_errors(one).await;
    }
    client.close().await.expect("closed");
    english.close().await.expect("closed");
}

browser_test!(the_library_publishes_finds_and_plays_an_entry, library_page);

/// The piece library: a signed-in player publishes the rook under a name from #/library and lands
/// on its page (diagram, "Open in the lab" pointing at the genome, its family tree), makes it the
/// army of their new games, stars it, finds it again by a word of its name, and sees it listed on
/// their profile.
async fn library_page(driver: &mut Driver, base: String) {
    let client = driver.session(1280, 900).await;
    sign_up(&client, &base, "designer").await;
    client
        .goto(&format!("{base}/#/library"))
        .await
        .expect("the library opens");
    wait_for(
        &client,
        "the publish form",
        "return !!document.querySelector('#publish-code')",
    )
    .await;
    type_into(&client, "#publish-code", "rook").await;
    type_into(&client, "#publish-name", "Rooky slider").await;
    type_into(&client, "#publish-description", "The plain rook, published").await;
    click(&client, "#publish-button").await;
    let name = wait_text(&client, "the entry's page", "#entry-name").await;
    assert_eq!(name, "Rooky slider");
    let rook_page = client
        .execute("return location.hash", vec![])
        .await
        .expect("the entry's address");
    let rook_page = rook_page.as_str().expect("a hash").to_owned();
    let lab = client
        .execute(
            "return document.querySelector('#entry-lab').getAttribute('href')",
            vec![],
        )
        .await
        .expect("a link");
    assert_eq!(
        lab,
        json!("#/lab?genome=3gbkd6"),
        "the lab opens the genome"
    );
    wait_for(
        &client,
        "the diagram",
        "return document.querySelector('#entry-diagram')?.complete",
    )
    .await;
    assert!(
        text_of(&client, "#family-tree")
            .await
            .contains("Rooky slider")
    );

    click(&client, "#entry-use").await;
    wait_for(
        &client,
        "the army kept",
        "return document.querySelector('#entry-notice').textContent",
    )
    .await;
    let kept = client
        .execute(
            "return JSON.parse(localStorage.getItem('gmo.setup')).preset",
            vec![],
        )
        .await
        .expect("a preset");
    let preset = kept.as_str().expect("a code").to_owned();
    let stored: Value = reqwest::get(format!("{base}/api/presets/{preset}"))
        .await
        .expect("an answer")
        .json()
        .await
        .expect("json");
    let rook = "3gbkd6";
    assert_eq!(
        stored["genomes"][1], rook,
        "the rook in place of the knights: {stored}"
    );

    click(&client, "#entry-star").await;
    wait_for(
        &client,
        "the star",
        "return document.querySelector('#entry-star')?.getAttribute('aria-pressed') === 'true'",
    )
    .await;
    assert!(text_of(&client, "#entry-numbers").await.contains("★ 1"));

    client
        .goto(&format!("{base}/#/library"))
        .await
        .expect("the library opens");
    wait_for(
        &client,
        "the search",
        "return !!document.querySelector('#library-q')",
    )
    .await;
    type_into(&client, "#library-q", "rook").await;
    click(&client, "#library-filters button[type=submit]").await;
    wait_for(
        &client,
        "a card",
        "return document.querySelectorAll('#library-cards .library-card').length === 1",
    )
    .await;
    assert!(
        text_of(&client, "#library-cards")
            .await
            .contains("Rooky slider")
    );

    client
        .goto(&format!("{base}/#/@/designer"))
        .await
        .expect("the profile opens");
    wait_for(
        &client,
        "the profile's entries",
        "return document.querySelectorAll('#profile-entries .library-card').length === 1",
    )
    .await;

    // An army: published by its code, it shows on a board of eight squares, its entry's and its
    // card's, drawn with the page's pieces (the rook on b1 and g1 in place of the knights).
    client
        .goto(&format!("{base}/#/library"))
        .await
        .expect("the library opens");
    wait_for(
        &client,
        "the publish form",
        "return !!document.querySelector('#publish-code')",
    )
    .await;
    client
        .execute(
            "document.querySelector('#publish-kind').value = 'preset'",
            vec![],
        )
        .await
        .expect("the kind chosen");
    type_into(&client, "#publish-code", &preset).await;
    type_into(&client, "#publish-name", "Rook army").await;
    click(&client, "#publish-button").await;
    wait_for(
        &client,
        "the army's board",
        "return document.querySelectorAll('#entry-army li svg.piece').length === 8",
    )
    .await;
    let squares = client
        .execute(
            "return [...document.querySelectorAll('#entry-army li')].map((li) => li.className + ':' + li.title)",
            vec![],
        )
        .await
        .expect("the squares");
    for (file, genome) in stored["genomes"]
        .as_array()
        .expect("genomes")
        .iter()
        .enumerate()
    {
        let colour = if file % 2 == 0 { "dark" } else { "light" };
        let genome = genome.as_str().expect("a code");
        assert_eq!(
            squares[file],
            json!(format!("{colour}:{genome}")),
            "{squares}"
        );
    }
    assert_eq!(squares[1], json!(format!("light:{rook}")), "{squares}");
    client
        .goto(&format!("{base}/#/library"))
        .await
        .expect("the library opens");
    wait_for(
        &client,
        "the army's card on a board",
        "return [...document.querySelectorAll('#library-cards .library-card')].some((card) => card.textContent.includes('Rook army') && card.querySelectorAll('.army-board li svg.piece').length === 8)",
    )
    .await;

    // The family tree, drawn: a child bred from the rook and the knight, published, has both
    // parents above it (the rook's entry, the knight's code), each a linked box joined to it by
    // a line; the rook's own tree has the child below it.
    let bred: Value = reqwest::Client::new()
        .post(format!("{base}/api/genomes/breed"))
        .json(&json!({"a": "rook", "b": "knight", "seed": 7, "children": 4}))
        .send()
        .await
        .expect("bred")
        .json()
        .await
        .expect("the children");
    let (a, b) = (
        bred["a"].as_str().expect("a"),
        bred["b"].as_str().expect("b"),
    );
    let child = bred["children"]
        .as_array()
        .expect("children")
        .iter()
        .map(|c| c["code"].as_str().expect("a code").to_owned())
        .find(|code| code != a && code != b)
        .expect("a child unlike its parents");
    client
        .goto(&format!("{base}/#/library"))
        .await
        .expect("the library opens");
    wait_for(
        &client,
        "the publish form",
        "return !!document.querySelector('#publish-code')",
    )
    .await;
    type_into(&client, "#publish-code", &child).await;
    type_into(&client, "#publish-name", "Rook child").await;
    click(&client, "#publish-button").await;
    let drawn = wait_for(
        &client,
        "the child's tree",
        "const svg = document.querySelector('#tree-drawing'); return svg && document.querySelector('#entry-name')?.textContent === 'Rook child' && [...svg.querySelectorAll('a.tree-node')].map((a) => a.getAttribute('class') + '|' + a.getAttribute('href') + '|' + a.textContent + '|' + svg.querySelectorAll('path.tree-line').length)",
    )
    .await;
    let child_page = client
        .execute("return location.hash", vec![])
        .await
        .expect("the child's address");
    assert_eq!(
        drawn,
        json!([
            format!("tree-node parent|{rook_page}|Rooky sliderRooky slider|2"),
            format!("tree-node parent code|#/code/{b}|{b}{b}|2"),
            format!(
                "tree-node self|{}|Rook childRook child|2",
                child_page.as_str().expect("a hash")
            ),
        ]),
        "the parents above, the entry below, two lines"
    );
    client
        .goto(&format!("{base}/{rook_page}"))
        .await
        .expect("the rook's entry");
    let drawn = wait_for(
        &client,
        "the rook's tree",
        "const svg = document.querySelector('#tree-drawing'); return svg && document.querySelector('#entry-name')?.textContent === 'Rooky slider' && [...svg.querySelectorAll('a.tree-node')].map((a) => a.getAttribute('class') + '|' + a.getAttribute('href') + '|' + a.querySelector('text').getAttribute('y') + '|' + svg.querySelectorAll('path.tree-line').length)",
    )
    .await;
    assert_eq!(
        drawn,
        json!([
            format!("tree-node self|{rook_page}|17|1"),
            format!(
                "tree-node child|{}|87|1",
                child_page.as_str().expect("a hash")
            ),
        ]),
        "the rook above (not bred here), its child below, one line"
    );

    // The author's own entry: Edit changes its name and description in place; Withdraw asks
    // first (keeping it says no), then the entry is gone (404) and the page is the search.
    let child_page = child_page.as_str().expect("a hash").to_owned();
    client
        .goto(&format!("{base}/{child_page}"))
        .await
        .expect("the child's entry");
    click(&client, "#entry-edit").await;
    type_into(&client, "#edit-name", "Rook kid").await;
    type_into(&client, "#edit-description", "Bred from the rook").await;
    click(&client, "#edit-save").await;
    wait_for(
        &client,
        "the edited entry",
        "return document.querySelector('#entry-name')?.textContent === 'Rook kid' && document.querySelector('#entry-notice')?.textContent !== ''",
    )
    .await;
    assert_eq!(
        text_of(&client, "#entry-description").await,
        "Bred from the rook"
    );
    let id = child_page.trim_start_matches("#/library/").to_owned();
    let stored: Value = reqwest::get(format!("{base}/api/library/{id}"))
        .await
        .expect("an answer")
        .json()
        .await
        .expect("json");
    assert_eq!(stored["name"], "Rook kid", "{stored}");
    assert_eq!(stored["description"], "Bred from the rook", "{stored}");
    click(&client, "#entry-withdraw").await;
    click(
        &client,
        "dialog#withdraw-confirm[open] #withdraw-confirm-no",
    )
    .await;
    wait_for(
        &client,
        "the question gone",
        "return !document.querySelector('#withdraw-confirm')",
    )
    .await;
    let kept = reqwest::get(format!("{base}/api/library/{id}"))
        .await
        .expect("an answer");
    assert_eq!(kept.status(), 200, "kept when the answer is no");
    click(&client, "#entry-withdraw").await;
    click(
        &client,
        "dialog#withdraw-confirm[open] #withdraw-confirm-yes",
    )
    .await;
    wait_for(
        &client,
        "back at the search",
        "return location.hash === '#/library' && !!document.querySelector('#library-q')",
    )
    .await;
    let gone = reqwest::get(format!("{base}/api/library/{id}"))
        .await
        .expect("an answer");
    assert_eq!(gone.status(), 404, "withdrawn");
    no_script_errors(&client).await;
}
