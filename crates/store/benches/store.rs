//! Store throughput on each backend: genome inserts per second, and committed move transactions
//! per second on 1 game and on 32 games at once. A plain timing harness (`harness = false`):
//! every figure is a committed, durable transaction, so criterion's micro-sampling adds nothing.
//!
//! `cargo bench -p gmo-store --bench store` — PostgreSQL through `DATABASE_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`), where a scratch database is made and dropped.

use gmo_genome::{Genome, mutate, standard::QUEEN};
use gmo_store::{Change, GameSettings, NewGame, Store, token_hash};
use gmo_types::{GameId, GameStatus, Millis, Timestamp};
use serde_json::{Value, json};
use sqlx::Connection;
use std::collections::BTreeSet;
use std::time::Instant;

const GENOMES: usize = 1000;
const MOVES: usize = 2000;
const GAMES: usize = 32;

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(run());
}

async fn run() {
    let genomes = distinct_genomes(GENOMES);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let store = Store::connect(&url).await.expect("SQLite opens");
    measure("sqlite", &store, &genomes).await;
    store.close().await;

    let admin_url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let Ok(mut admin) = sqlx::PgConnection::connect(&admin_url).await else {
        println!("postgres: not reachable at {admin_url}, not measured");
        return;
    };
    let name = format!("gmo_bench_{}", gmo_store::new_id());
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("a scratch database");
    let url = format!(
        "{}/{name}",
        admin_url.rsplit_once('/').expect("a URL with a path").0
    );
    let store = Store::connect(&url).await.expect("PostgreSQL opens");
    measure("postgres", &store, &genomes).await;
    store.close().await;
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .expect("the scratch database is dropped");
}

async fn measure(backend: &str, store: &Store, genomes: &[Genome]) {
    let start = Instant::now();
    for genome in genomes {
        store.put_genome(genome).await.expect("put");
    }
    report(backend, "genome inserts", genomes.len(), start);

    let id = new_game(store).await;
    let start = Instant::now();
    play(store, &id, MOVES).await;
    report(backend, "moves, 1 game", MOVES, start);

    let mut ids = Vec::new();
    for _ in 0..GAMES {
        ids.push(new_game(store).await);
    }
    let start = Instant::now();
    let tasks: Vec<_> = ids
        .into_iter()
        .map(|id| {
            let store = store.clone();
            tokio::spawn(async move { play(&store, &id, MOVES / GAMES).await })
        })
        .collect();
    for task in tasks {
        task.await.expect("a player");
    }
    report(
        backend,
        "moves, 32 games at once",
        MOVES / GAMES * GAMES,
        start,
    );
}

fn report(backend: &str, what: &str, count: usize, start: Instant) {
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{backend:>8}  {what:<24} {count:>5} in {seconds:>6.2} s  = {:>7.0}/s",
        count as f64 / seconds
    );
}

/// A random walk of mutations from the queen, `n` distinct genomes long.
fn distinct_genomes(n: usize) -> Vec<Genome> {
    let mut rng = rand::rng();
    let mut genome = Genome::parse(QUEEN).expect("the queen parses");
    let mut seen = BTreeSet::new();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        genome = mutate(&genome, &mut rng);
        if seen.insert(genome.to_string()) {
            out.push(genome.clone());
        }
    }
    out
}

/// A game whose state is about the size of a real one: 32 pieces and a move counter.
async fn new_game(store: &Store) -> GameId {
    let settings = GameSettings {
        width: 8,
        height: 8,
        clock_initial: Millis::from_secs(300),
        white_bot: None,
        black_bot: None,
    };
    store
        .create_game(&NewGame {
            settings: &settings,
            white_token: Some(token_hash("w")),
            black_token: Some(token_hash("b")),
            status: GameStatus::InProgress,
            state: &state(0),
            deadline: Some(Timestamp::from_ms(i64::MAX)),
            bot_turn: None,
            creator_token: None,
            accounts: gmo_types::ByColor::new(None, None),
            rated: false,
            created: Timestamp::from_ms(0),
        })
        .await
        .expect("a game")
}

fn state(moves: usize) -> Value {
    let board: Vec<Value> = (0..32)
        .map(|i| json!({"square": format!("{}{}", (b'a' + i % 8) as char, i / 8 + 1), "color": "white", "pawn": false, "king": false, "code": "3gbkd6"}))
        .collect();
    json!({"moves": moves, "board": board})
}

/// `moves` committed changes in a row, each over the version the last one returned.
async fn play(store: &Store, id: &GameId, moves: usize) {
    let mut version = 0;
    for n in 0..moves {
        let change = Change {
            ply: Some(json!({"from": "e2", "to": "e4", "landed": "e4", "n": n})),
            state: Some(state(n + 1)),
            status: GameStatus::InProgress,
            deadline: Some(Timestamp::from_ms(i64::MAX)),
            finished: false,
            bot_turn: None,
            rated: None,
        };
        version = store.apply(id, version, &change).await.expect("a move");
    }
}
