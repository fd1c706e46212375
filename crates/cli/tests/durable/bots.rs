//! Finding 7 against the real binary: a bot's turn is leased in the database, so it survives the
//! process thinking for it. Two processes on one PostgreSQL: the one holding the lease is killed
//! with SIGKILL and the other moves the bot within 5 s. One process restarted (killed, then
//! stopped with SIGTERM), on SQLite and on PostgreSQL: after the restart the bot moves.

use crate::support::gmo_process::Gmo;
use crate::{Api, Seats, quiet_move};
use gmo_store::Store;
use serde_json::json;
use std::time::{Duration, Instant};

/// The most a bot's turn may wait after its process died or came back.
const TAKE_OVER: Duration = Duration::from_secs(5);
/// Slow bots: a search asks for 2 s (the service caps a ply at 500 ms), so a process is caught
/// thinking most of the time.
const SLOW_BOT: &str = "bot:search:2s";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_the_other_process_moves_the_bot_of_a_killed_one() {
    gmo_store::scratch::with_scratch_database("gmo_crash_bots", |url| async move {
        let one = Gmo::start(&url);
        let two = Gmo::start(&url);
        let store = Store::connect(&url).await.expect("the store opens");
        let body = json!({"white": SLOW_BOT, "black": SLOW_BOT, "clock": {"initial_ms": 600_000}});
        let (status, created) = Api::new(&one.base)
            .call("POST", "/api/games", None, Some(body))
            .await;
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().expect("an id").to_owned();
        wait_for_version(&store, &id, 3).await;
        wait_until_thinking(&store, &id).await;
        let holder = lease_holder(&store, &id).await;
        let (victim, survivor) = if holder == one.pid() {
            (one, two)
        } else {
            (two, one)
        };
        assert_eq!(victim.pid(), holder, "one of the two holds the bot's turn");
        victim.kill_9();
        let killed = Instant::now();
        let version = store
            .game_version(&id.parse().expect("a game id"))
            .await
            .expect("the game");
        // A freeze may keep the bot still a while: its turn counts from when it is due.
        let due = due_at(&store, &id).await.max(killed);
        wait_for_version(&store, &id, version + 1).await;
        let took = due.elapsed();
        assert!(
            took <= TAKE_OVER,
            "the bot moved {took:?} after its process was killed (or its turn was due)"
        );
        assert_eq!(lease_holder(&store, &id).await, survivor.pid());
        let token = created["creator_token"].as_str().expect("a creator token");
        let (status, stopped) = Api::new(&survivor.base)
            .call("POST", &format!("/api/games/{id}/abort"), Some(token), None)
            .await;
        assert_eq!(status, 200, "{stopped}");
        store.close().await;
        survivor.terminate();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_the_bot_moves_after_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    restart_while_the_bot_is_to_move(url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_the_bot_moves_after_a_restart() {
    gmo_store::scratch::with_scratch_database("gmo_crash_bots", restart_while_the_bot_is_to_move)
        .await;
}

/// A person (White) against a slow bot: White moves and the process is stopped at once, first
/// with SIGKILL, then with SIGTERM; each time a new process must let the bot move.
async fn restart_while_the_bot_is_to_move(url: String) {
    let mut server = Gmo::start(&url);
    let store = Store::connect(&url).await.expect("the store opens");
    let game = against_the_bot(&Api::new(&server.base)).await;
    for kill in [true, false] {
        server = stopped_while_the_bot_is_to_move(server, &url, &store, &game, kill).await;
        let started = Instant::now();
        let version = store
            .game_version(&game.id.parse().expect("a game id"))
            .await
            .expect("the game");
        wait_for_version(&store, &game.id, version + 1).await;
        let took = started.elapsed();
        assert!(
            took <= TAKE_OVER,
            "the bot moved {took:?} after the restart"
        );
        let view = game.view(&Api::new(&server.base)).await;
        assert_eq!(view["to_move"], "white", "the bot moved: {view}");
    }
    store.close().await;
    server.terminate();
}

/// Makes White's move and stops the server (SIGKILL or SIGTERM) before the bot answers, tried
/// again if the bot was quicker; then starts a new server.
async fn stopped_while_the_bot_is_to_move(
    mut server: Gmo,
    url: &str,
    store: &Store,
    game: &Seats,
    kill: bool,
) -> Gmo {
    for _ in 0..5 {
        let api = Api::new(&server.base);
        let own = game.view(&api).await;
        let mv = quiet_move(&api, game, &own).await.expect("a move");
        let (status, moved) = api
            .call("POST", &game.path("/moves"), Some(&game.white), Some(mv))
            .await;
        assert_eq!(status, 200, "{moved}");
        if kill {
            server.kill_9();
        } else {
            server.terminate();
        }
        let pending = store
            .bot_lease(&game.id.parse().expect("a game id"))
            .await
            .expect("the lease");
        server = Gmo::start(url);
        if pending.is_some() {
            return server;
        }
        // The bot moved before the server stopped: wait for the new one to be White's turn.
        assert_eq!(game.view(&Api::new(&server.base)).await["to_move"], "white");
    }
    panic!("the bot always moved before its server stopped");
}

/// A started game between White (a person) and the slow bot.
async fn against_the_bot(api: &Api) -> Seats {
    let body = json!({"black": SLOW_BOT, "clock": {"initial_ms": 600_000}});
    let game = Seats::new_game(api, body).await;
    game.set_up(api, &game.white, "d1").await;
    game
}

/// Waits until the bot of game `id` is thinking: its turn due a moment ago and not played yet.
async fn wait_until_thinking(store: &Store, id: &str) {
    let game = id.parse().expect("a game id");
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(
            Instant::now() < until,
            "the bot of game {id} was never caught thinking"
        );
        let version = store.game_version(&game).await.expect("the game");
        let lease = store.bot_lease(&game).await.expect("the lease");
        let thinking = lease.is_some_and(|lease| lease.due.ms() + 50 <= epoch_ms());
        if thinking && store.game_version(&game).await.expect("the game") == version {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn epoch_ms() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    i64::try_from(since.expect("after 1970").as_millis()).expect("ms fit")
}

/// When the bot's turn of game `id` is due, as an instant of this clock.
async fn due_at(store: &Store, id: &str) -> Instant {
    let game = id.parse().expect("a game id");
    let lease = store.bot_lease(&game).await.expect("the lease");
    let due_ms = lease.expect("a bot turn").due.ms();
    let ahead = u64::try_from(due_ms - epoch_ms()).unwrap_or(0);
    Instant::now() + Duration::from_millis(ahead)
}

/// Waits until game `id` is at `version` or later (a bot moved); panics after a while.
async fn wait_for_version(store: &Store, id: &str, version: i64) {
    let game = id.parse().expect("a game id");
    let until = Instant::now() + Duration::from_secs(30);
    while store.game_version(&game).await.expect("the game") < version {
        assert!(
            Instant::now() < until,
            "game {id} never reached version {version}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The pid of the process holding the bot's turn of game `id` (its holder name starts with it).
async fn lease_holder(store: &Store, id: &str) -> u32 {
    let game = id.parse().expect("a game id");
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let lease = store.bot_lease(&game).await.expect("the lease");
        if let Some(holder) = lease.and_then(|lease| lease.holder) {
            let pid = holder.split('-').next().and_then(|pid| pid.parse().ok());
            return pid.expect("the holder starts with a pid");
        }
        assert!(Instant::now() < until, "nobody holds the bot's turn");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
