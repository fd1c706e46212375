//! Issue 33, the Bots page: a bot account put online by the real bridge (`gmo agent play`, the
//! `gmo` binary this workspace builds) running the starter kit's greedy agent (it never takes its own king). A person finds it
//! on the page, sees a challenge on a board its rules refuse declined with the reason, challenges
//! it again, and plays: the page opens the game and the bot answers the person's move.

use super::*;

/// The `gmo` binary of this target directory (built by `cargo test --workspace` for the `gmo`
/// crate's own tests; `cargo build -p gmo` builds it for a run of this crate alone).
fn gmo_binary() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let binary = tmp.parent().unwrap_or(tmp).join("debug").join("gmo");
    assert!(
        binary.exists(),
        "{} is missing: `cargo build -p gmo` builds it (cargo test --workspace does)",
        binary.display()
    );
    binary
}

/// A running bridge, stopped when the test ends however it ends.
struct Bridge(std::process::Child);

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Makes `name` a bot account with a `bot` token and puts it online through the bridge.
async fn bot_online(base: &str, name: &str, log: &Path) -> Bridge {
    let cookie = api_sign_up(base, name).await;
    api_send(
        base,
        reqwest::Method::POST,
        "/api/account/bot",
        ("cookie", &cookie),
        None,
    )
    .await;
    let body = json!({"description": "bridge", "scopes": ["bot"]});
    let made = api_send(
        base,
        reqwest::Method::POST,
        "/api/account/tokens",
        ("cookie", &cookie),
        Some(body),
    )
    .await;
    let token = made["token"].as_str().expect("a bot token");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let child = std::process::Command::new(gmo_binary())
        .current_dir(root)
        .args(["agent", "play", "--server", base, "--token", token])
        .args([
            "--accept",
            "size=8x8",
            "--",
            "python3",
            "agents/python/greedy_agent.py",
        ])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).expect("a log file"))
        .spawn()
        .expect("gmo agent play starts");
    Bridge(child)
}

async fn a_person_challenges_a_bot_on_the_bots_page_and_plays_it(
    driver: &mut Driver,
    base: String,
) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = dir.path().join("bridge.log");
    let _bridge = bot_online(&base, "randombot", &log).await;
    let read_log = || std::fs::read_to_string(&log).unwrap_or_default();
    let client = driver.session(1280, 900).await;
    sign_up(&client, &base, "ada").await;

    // The bot is listed once its event stream is open (the page is read again until then).
    let started = Instant::now();
    loop {
        client
            .goto(&format!("{base}/#/bots"))
            .await
            .expect("the bots page");
        let listed = wait_for(
            &client,
            "the bots page's list",
            "return document.querySelector('#bots-table, #bots-empty')?.id",
        )
        .await;
        if listed == "bots-table" {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the bot never came online: {}",
            read_log()
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    // Its leaderboard has no one yet: nobody's rating is established.
    wait_for(
        &client,
        "the bots' leaderboard",
        "return !!document.querySelector('#bots-leaders-empty')",
    )
    .await;
    let row = text_of(&client, "#bots-table tr[data-bot=\"randombot\"]").await;
    assert!(
        row.contains("randombot") && row.contains("BOT") && row.contains("1500"),
        "{row}"
    );

    // A 5×5 board: its rules decline it, and the page says why.
    click(
        &client,
        "#bots-table tr[data-bot=\"randombot\"] .challenge-bot",
    )
    .await;
    let name = client
        .execute(
            "return document.querySelector('#challenge-name').value",
            vec![],
        )
        .await
        .expect("the name");
    assert_eq!(name, json!("randombot"));
    client
        .execute(
            "document.querySelector('#challenge-size').value = '1'",
            vec![],
        )
        .await
        .expect("5×5 chosen");
    click(&client, "#challenge-send").await;
    wait_for(
        &client,
        "the decline",
        "return (document.querySelector('#challenge-status')?.textContent ?? '').includes('not this board size')",
    )
    .await;

    // 8×8, White: accepted, and the page opens the game, set up by itself.
    client
        .execute(
            "document.querySelector('#challenge-size').value = '0'; \
             document.querySelector('#challenge-color').value = 'white';",
            vec![],
        )
        .await
        .expect("8×8 and White chosen");
    click(&client, "#challenge-send").await;
    wait_for(
        &client,
        "the game page",
        "return document.body.dataset.page === 'game'",
    )
    .await;
    wait_status(&client, "Your move").await;
    square(&client, "d2").await;
    wait_for(
        &client,
        "d2's moves",
        "return !!document.querySelector('.sq.target[data-square=\"d3\"]')",
    )
    .await;
    square(&client, "d3").await;
    // The bot's agent answers: a black ply is listed, and the turn is the person's again.
    wait_for(
        &client,
        "the bot's answer",
        "return !!document.querySelector('button.ply.black')",
    )
    .await;
    wait_status(&client, "Your move").await;
    let log_text = read_log();
    assert!(log_text.contains("declined challenge"), "{log_text}");
    assert!(log_text.contains("accepted challenge"), "{log_text}");
    no_script_errors(&client).await;
}

browser_test!(
    a_person_challenges_a_bot_driven_by_the_bridge_and_plays_it,
    a_person_challenges_a_bot_on_the_bots_page_and_plays_it
);
