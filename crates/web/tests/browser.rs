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
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::process::{Child, Command};
use tokio::sync::Mutex;

/// Chromium is heavy on a small machine: the tests take turns.
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

const WAIT: Duration = Duration::from_secs(20);

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

/// The real server, and the address the browser opens (the same, once the server mounts
/// `gmo_web::router()`; until then a small front that serves the page and passes `/api` on).
struct Site {
    app: Option<gmo_server::RunningApp>,
    front: Option<tokio::task::JoinHandle<()>>,
    base: String,
    _db: tempfile::TempDir,
}

impl Site {
    async fn start() -> Site {
        let db = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", db.path().join("gmo.db").display());
        let mut config = gmo_server::Config::new(([127, 0, 0, 1], 0).into(), url);
        config.sweep_interval = Duration::from_millis(250);
        let app = gmo_server::spawn(config).await.expect("the server starts");
        let api = format!("http://{}", app.addr());
        let page = reqwest::get(format!("{api}/"))
            .await
            .expect("the server answers");
        let html = page
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|kind| kind.starts_with("text/html"));
        let (base, front) = if html {
            (api, None)
        } else {
            let (addr, task) = front(api).await;
            (format!("http://{addr}"), Some(task))
        };
        Site {
            app: Some(app),
            front,
            base,
            _db: db,
        }
    }

    async fn stop(mut self) {
        if let Some(front) = self.front.take() {
            front.abort();
        }
        if let Some(app) = self.app.take() {
            app.shutdown().await.expect("the server stops cleanly");
        }
    }
}

/// Serves `gmo_web::router()` and forwards everything else to the API server, streaming the
/// answers (the game stream included).
async fn front(api: String) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    use axum::body::Body;
    use axum::extract::{Request, State};
    use axum::response::Response;

    async fn forward(State(api): State<(String, reqwest::Client)>, request: Request) -> Response {
        let (parts, body) = request.into_parts();
        let bytes = axum::body::to_bytes(body, 1 << 20)
            .await
            .unwrap_or_default();
        let path = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
        let mut outgoing = api.1.request(parts.method, format!("{}{path}", api.0));
        for (name, value) in &parts.headers {
            if name != "host" {
                outgoing = outgoing.header(name, value);
            }
        }
        match outgoing.body(bytes).send().await {
            Ok(answer) => {
                let mut response = Response::builder().status(answer.status());
                for (name, value) in answer.headers() {
                    response = response.header(name, value);
                }
                response
                    .body(Body::from_stream(answer.bytes_stream()))
                    .unwrap_or_default()
            }
            Err(error) => Response::builder()
                .status(502)
                .body(Body::from(error.to_string()))
                .unwrap_or_default(),
        }
    }

    let router = gmo_web::router()
        .fallback(forward)
        .with_state((api, reqwest::Client::new()));
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("a port for the front");
    let addr = listener.local_addr().expect("its address");
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    (addr, task)
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
        let profile = tempfile::tempdir().expect("a browser profile");
        let args = vec![
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
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), json!("chrome"));
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({"binary": self.chromium, "args": args}),
        );
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
    // Wait until it exists and is enabled: pages redraw after every answer.
    let ready =
        format!("const e = document.querySelector({selector:?}); return !!e && !e.disabled");
    wait_for(client, selector, &ready).await;
    client
        .find(Locator::Css(selector))
        .await
        .expect("the element")
        .click()
        .await
        .unwrap_or_else(|error| panic!("clicking {selector}: {error}"));
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

/// Runs a browser test body with a fresh server and driver, stopping both whatever happens.
macro_rules! browser_test {
    ($name:ident, $body:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let Some(tools) = tools() else { return };
            let _turn = ONE_AT_A_TIME.lock().await;
            let site = Site::start().await;
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

browser_test!(the_lab_explains_places_and_shows_moves, lab);
browser_test!(two_players_play_a_game_to_a_result, game);
browser_test!(pages_are_served_and_look_up_codes, pages);

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

    type_into(&client, "#dna-input", CUSTOM_DNA).await;
    wait_for(
        &client,
        "the code",
        &format!("return document.querySelector('#dna-code')?.textContent === {CUSTOM_CODE:?}"),
    )
    .await;
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
    click(&client, "#place-pawn").await;
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
    assert!(text_of(&client, "#dna-state").await.contains("codon 9"));
    assert_eq!(
        text_of(&client, "#dna-code").await,
        CUSTOM_CODE,
        "the last valid code stays"
    );
    shoot(&client, "lab-error.png").await;

    // A bad letter: the letter itself is marked.
    type_into(&client, "#dna-input", "AHH HSH HAA HHH CHA CHA HHX CAS").await;
    wait_for(&client, "the bad letter", "return document.querySelector('.codon.error')?.dataset.codon === '6' && document.querySelector('.letter.bad')?.textContent === 'X'").await;
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
        "return document.querySelector('#setup .hint')?.textContent.includes(', ready')",
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
    // White's pieces are hidden from Black: species, not codes.
    assert!(
        label_of(&black, "e2")
            .await
            .contains("white piece of species sp-")
    );
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

    // White resigns (two clicks, no dialog).
    click(&white, "#resign").await;
    click(&white, "#resign").await;
    wait_status(&white, "Black won — by resignation").await;
    wait_status(&black, "Black won — by resignation").await;
    let moves = wait_for(
        &black,
        "the move list",
        "const m = [...document.querySelectorAll('#move-list li')].map(e => e.textContent); return m.length === 4 ? m : null",
    )
    .await;
    assert_eq!(moves, json!(["e2–e3", "e7–e6", "g1–f3", "b8–c6"]));
    // After the end every genome is open: Black now sees White's pawns as pawns.
    wait_label(&black, "d2", "white pawn").await;
    shoot(&black, "game-over.png").await;

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
    shoot(&client, "lookup-genome.png").await;
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

    // A bot game, if this server has bots; a refusal must be shown, not thrown.
    client.goto(&format!("{base}/#/")).await.expect("home");
    click(&client, "#new-bot-game").await;
    wait_for(
        &client,
        "a bot game or a refusal",
        "return location.hash.startsWith('#/game/') || (document.querySelector('.notice')?.textContent ?? '').length > 0",
    )
    .await;
    if client
        .current_url()
        .await
        .is_ok_and(|url| url.fragment().is_some_and(|f| f.starts_with("/game/")))
    {
        // The bot set up its side already; ours is still to do.
        wait_status(&client, "Setting up").await;
        click(&client, "#load-preset").await;
        shoot(&client, "game-bot.png").await;
    }
    // No script errors on any page: the console stays clean.
    let errors = client
        .execute("return window.__errors ?? []", vec![])
        .await
        .unwrap_or_default();
    assert_eq!(errors, json!([]));
    client.close().await.expect("closed");
}
