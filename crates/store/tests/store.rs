//! The store's suite: every test runs against SQLite and against PostgreSQL (see `common`).

#[macro_use]
mod common;
mod migrations;
mod players;

use common::{Db, count_rows};
use gmo_genome::standard::{DEFAULT_PRESET, STANDARD};
use gmo_genome::{Code, Genome, preset_code, preset_text, sha256};
use gmo_store::{
    BotTurn, Change, GameSettings, Joined, NewGame, Notice, Store, StoreError, token_hash,
};
use gmo_types::{ByColor, Color, GameId, GameStatus, Millis, Timestamp};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

both!(
    seeded_standard_genomes_match_gmo_genome,
    seeded_default_preset_matches_gmo_genome,
    put_genome_is_idempotent,
    forced_collision_gets_the_next_salt,
    concurrent_puts_of_one_dna_share_a_code,
    unknown_genomes_are_not_found,
    put_preset_is_idempotent,
    bad_presets_are_refused_and_store_nothing,
    games_are_created_and_loaded,
    apply_appends_plies_in_order,
    changes_of_many_games_at_once_each_commit_or_refuse_alone,
    a_ply_may_leave_the_snapshot_and_the_plies_since_rebuild_the_state,
    stale_or_unknown_writers_change_nothing,
    concurrent_writers_are_serialised,
    expired_games_are_swept_once,
    concurrent_sweepers_split_the_games,
    labs_are_saved_with_version_checks,
    issued_tokens_are_known,
    notifications_reach_listeners_on_postgres,
    the_announcer_sends_every_announcement_in_order,
    applied_changes_survive_a_reconnect,
    connections_the_database_dropped_are_replaced,
    a_store_whose_writers_keep_connections_closes,
    bot_turns_are_leased_to_one_process_at_a_time,
    concurrent_claims_split_the_bot_turns,
    live_bot_games_are_capped_across_stores,
    seats_join_once_without_a_new_version,
    a_stored_id_that_is_no_id_is_corrupt,
    a_lost_listener_connection_is_reported,
    seats_are_seen_when_they_pulse_and_never_go_back,
    accounts_are_unique_without_case_and_deleted_accounts_free_their_name,
    sessions_hold_until_they_expire_or_end,
    personal_tokens_are_found_by_hash_listed_and_revoked,
    failures_are_counted_per_key_and_forgotten,
);

// ---------------------------------------------------------------------------------------------
// Helpers

/// The `n`-th valid genome one letter away from the rook's DNA that is not a standard genome:
/// distinct for distinct `n`, and not stored at start.
fn fresh_genome(n: usize) -> Genome {
    let rook = gmo_genome::standard::ROOK;
    let standard: BTreeSet<&str> = STANDARD.iter().map(|(_, dna)| *dna).collect();
    let mut seen = BTreeSet::new();
    (0..rook.len())
        .flat_map(|at| ['S', 'A', 'C', 'H'].map(|letter| (at, letter)))
        .filter_map(|(at, letter)| {
            let mut dna = rook.to_owned();
            dna.replace_range(at..=at, &letter.to_string());
            Genome::parse(&dna).ok()
        })
        .filter(|genome| {
            let canonical = genome.to_string();
            !standard.contains(canonical.as_str()) && seen.insert(canonical)
        })
        .nth(n)
        .expect("enough one-letter variants of the rook")
}

fn standard_code(name: &str) -> Code {
    let (_, dna) = STANDARD
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a standard name");
    Genome::parse(dna).expect("standard DNA parses").code()
}

fn settings() -> GameSettings {
    GameSettings {
        width: 8,
        height: 8,
        clock_initial: ms(300_000),
        white_bot: None,
        black_bot: Some("random".into()),
    }
}

/// A game whose toy state is the list of plies applied so far.
async fn new_game(store: &Store, deadline: Option<Timestamp>) -> GameId {
    new_game_with(store, deadline, None).await
}

/// A game (Black a bot) with a clock deadline and a bot turn.
async fn new_game_with(
    store: &Store,
    deadline: Option<Timestamp>,
    bot_turn: Option<BotTurn>,
) -> GameId {
    store
        .create_game(&NewGame {
            settings: &settings(),
            white_token: Some(token_hash("white-secret")),
            black_token: None,
            status: GameStatus::InProgress,
            state: &Vec::<Value>::new(),
            deadline,
            bot_turn,
            creator_token: None,
            accounts: gmo_types::ByColor::new(None, None),
            rated: false,
            created: Timestamp::from_ms(0),
        })
        .await
        .expect("game created")
}

/// The toy engine: a ply appends itself to the state.
fn play(state: &[Value], ply: Value) -> Change<Value, Vec<Value>> {
    let mut next = state.to_vec();
    next.push(ply.clone());
    Change {
        ply: Some(ply),
        state: Some(next),
        status: GameStatus::InProgress,
        deadline: None,
        finished: false,
        bot_turn: None,
        rated: None,
    }
}

/// The change a sweep makes when a flag falls.
fn flag_fell(state: Vec<Value>) -> Change<Value, Vec<Value>> {
    Change {
        ply: None,
        state: Some(state),
        status: GameStatus::BlackWon,
        deadline: Some(Timestamp::EPOCH),
        finished: true,
        bot_turn: None,
        rated: None,
    }
}

// ---------------------------------------------------------------------------------------------
// Genomes

async fn seeded_standard_genomes_match_gmo_genome(db: Db) {
    for (name, dna) in STANDARD {
        let genome = Genome::parse(dna).expect("standard DNA parses");
        let canonical = genome.to_string();
        let by_name = db.store.genome(name).await.expect("a standard name");
        assert_eq!(by_name.code, genome.code(), "{name}");
        assert_eq!(by_name.digest, sha256(&canonical), "{name}");
        assert_eq!(by_name.dna, canonical, "{name}");
        assert_eq!(by_name.names, vec![name.to_owned()]);
        let by_code = db
            .store
            .genome(genome.code().as_str())
            .await
            .expect("its code");
        assert_eq!(by_code, by_name);
        let (code, created) = db.store.put_genome(&genome).await.expect("put");
        assert_eq!(
            (code, created),
            (genome.code(), false),
            "{name} is stored already"
        );
    }
    // The check values of rules §2.5.
    for (name, code) in [("rook", "3gbkd6"), ("pawn", "yf459m"), ("queen", "1hapeh")] {
        assert_eq!(
            db.store.genome(name).await.expect("stored").code.as_str(),
            code
        );
    }
}

async fn seeded_default_preset_matches_gmo_genome(db: Db) {
    let codes: Vec<Code> = DEFAULT_PRESET
        .iter()
        .map(|name| standard_code(name))
        .collect();
    let preset = db
        .store
        .preset("default")
        .await
        .expect("the default preset");
    assert_eq!(preset.genomes, codes);
    assert_eq!(preset.code, preset_code(&codes));
    assert_eq!(preset.digest, sha256(&preset_text(&codes)));
    assert_eq!(preset.names, vec!["default".to_owned()]);
    assert_eq!(preset.code.as_str(), "emcym3", "rules §2.5 check value");
    let by_code = db
        .store
        .preset(preset.code.as_str())
        .await
        .expect("by code");
    assert_eq!(by_code, preset);
}

async fn put_genome_is_idempotent(db: Db) {
    let genome = fresh_genome(0);
    let (code, created) = db.store.put_genome(&genome).await.expect("put");
    assert_eq!((code, created), (genome.code(), true));
    let again = db.store.put_genome(&genome).await.expect("put again");
    assert_eq!(again, (code, false));
    // The same DNA written another way (spaced, lower case) is the same genome.
    let spaced = Genome::parse(&genome.to_string().to_lowercase()).expect("lower case parses");
    assert_eq!(
        db.store.put_genome(&spaced).await.expect("put"),
        (code, false)
    );
    let stored = db
        .store
        .genome(&code.as_str().to_uppercase())
        .await
        .expect("upper case");
    assert_eq!(stored.dna, genome.to_string());
    assert!(stored.names.is_empty());
    assert_eq!(count_rows(&db, "genomes").await, STANDARD.len() as i64 + 1);
}

async fn forced_collision_gets_the_next_salt(db: Db) {
    let genome = fresh_genome(1);
    let canonical = genome.to_string();
    // Another DNA squats the genome's code, and another its first salted code.
    assert!(
        db.store
            .force_genome_row(Code::of(&canonical), "SQUATTER")
            .await
            .expect("forced")
    );
    let (salted, created) = db.store.put_genome(&genome).await.expect("put");
    assert_eq!((salted, created), (Code::salted(&canonical, 1), true));
    assert_eq!(
        db.store.put_genome(&genome).await.expect("again"),
        (salted, false)
    );
    assert_eq!(
        db.store.genome(salted.as_str()).await.expect("salted").dna,
        canonical
    );
    assert_eq!(
        db.store
            .genome(Code::of(&canonical).as_str())
            .await
            .expect("squatter")
            .dna,
        "SQUATTER"
    );

    let second = fresh_genome(2);
    let canonical = second.to_string();
    for (salt, squatter) in [(0, "ONE"), (1, "TWO")] {
        let code = Code::salted(&canonical, salt);
        assert!(
            db.store
                .force_genome_row(code, squatter)
                .await
                .expect("forced")
        );
    }
    let (code, _) = db.store.put_genome(&second).await.expect("put");
    assert_eq!(code, Code::salted(&canonical, 2));
}

async fn concurrent_puts_of_one_dna_share_a_code(db: Db) {
    let genome = fresh_genome(3);
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let (store, genome) = (db.store.clone(), genome.clone());
            tokio::spawn(async move { store.put_genome(&genome).await.expect("put") })
        })
        .collect();
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.expect("task"));
    }
    assert!(results.iter().all(|(code, _)| *code == genome.code()));
    assert_eq!(results.iter().filter(|(_, created)| *created).count(), 1);
}

async fn unknown_genomes_are_not_found(db: Db) {
    for reference in ["zzzzzz", "dragon", ""] {
        match db.store.genome(reference).await {
            Err(StoreError::NotFound {
                what: "genome",
                key,
            }) => assert_eq!(key, reference),
            other => panic!("{reference:?}: {other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Presets

async fn put_preset_is_idempotent(db: Db) {
    let (default, created) = db.store.put_preset(&DEFAULT_PRESET, 8).await.expect("put");
    assert!(!created);
    assert_eq!(default.names, vec!["default".to_owned()]);

    let (fresh, _) = db.store.put_genome(&fresh_genome(0)).await.expect("genome");
    let refs = ["rook", "knight", fresh.as_str(), "KING", "queen", "2zef2n"];
    let codes: Vec<Code> = ["rook", "knight"]
        .iter()
        .map(|n| standard_code(n))
        .chain([
            fresh,
            standard_code("king"),
            standard_code("queen"),
            standard_code("bishop"),
        ])
        .collect();
    let (preset, created) = db.store.put_preset(&refs, 6).await.expect("put");
    assert!(created);
    assert_eq!(preset.code, preset_code(&codes));
    assert_eq!(preset.genomes, codes);
    let (again, created) = db.store.put_preset(&refs, 6).await.expect("again");
    assert_eq!((again, created), (preset.clone(), false));
    assert_eq!(
        db.store
            .preset(preset.code.as_str())
            .await
            .expect("by code"),
        preset
    );
}

async fn bad_presets_are_refused_and_store_nothing(db: Db) {
    let before = count_rows(&db, "presets").await;
    let seven = &DEFAULT_PRESET[..7];
    match db.store.put_preset(seven, 8).await {
        Err(StoreError::WrongPresetLength {
            expected: 8,
            got: 7,
        }) => {}
        other => panic!("{other:?}"),
    }
    let mut unknown = DEFAULT_PRESET.to_vec();
    unknown[3] = "zzzzzz";
    match db.store.put_preset(&unknown, 8).await {
        Err(StoreError::UnknownGenome(reference)) => assert_eq!(reference, "zzzzzz"),
        other => panic!("{other:?}"),
    }
    assert_eq!(count_rows(&db, "presets").await, before);
    match db.store.preset("nothing").await {
        Err(StoreError::NotFound { what: "preset", .. }) => {}
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Games

async fn games_are_created_and_loaded(db: Db) {
    let id = new_game(&db.store, Some(Timestamp::from_ms(1234))).await;
    let game = db.store.load_game::<Vec<Value>>(&id).await.expect("load");
    assert_eq!(game.id, id);
    assert_eq!((game.version, game.plies, game.finished), (0, 0, false));
    assert_eq!(game.status, GameStatus::InProgress);
    assert_eq!(game.settings, settings());
    assert_eq!(game.state, Vec::<Value>::new());
    assert_eq!(game.deadline, Some(Timestamp::from_ms(1234)));
    assert_eq!(game.white_token, Some(token_hash("white-secret")));
    assert_eq!(game.black_token, None);
    assert_eq!(game.seat_of("white-secret"), Some(Color::White));
    assert_eq!(game.seat_of("guess"), None);
    let other = new_game(&db.store, None).await;
    assert_ne!(other, id, "ids are random");
    assert_eq!(
        db.store.record::<Value>(&id).await.expect("record"),
        Vec::<Value>::new()
    );
}

async fn apply_appends_plies_in_order(db: Db) {
    let id = new_game(&db.store, None).await;
    let mut state = Vec::new();
    for (version, ply) in [
        json!({"from": "e2", "to": "e4"}),
        json!({"from": "e7", "to": "e5"}),
    ]
    .into_iter()
    .enumerate()
    {
        let change = play(&state, ply);
        let next = db
            .store
            .apply(&id, version as i64, &change)
            .await
            .expect("apply");
        assert_eq!(next, version as i64 + 1);
        state = change.state.expect("a state");
    }
    // A change without a ply (setup, a clock update) moves the version, not the record.
    let setup = Change::<Value, _> {
        ply: None,
        state: Some(state.clone()),
        status: GameStatus::InProgress,
        deadline: Some(Timestamp::from_ms(99)),
        finished: false,
        bot_turn: None,
        rated: None,
    };
    assert_eq!(db.store.apply(&id, 2, &setup).await.expect("apply"), 3);
    let game = db.store.load_game::<Vec<Value>>(&id).await.expect("load");
    assert_eq!(
        (game.version, game.plies, game.deadline),
        (3, 2, Some(Timestamp::from_ms(99)))
    );
    assert_eq!(game.state, state);
    let record: Vec<Value> = db.store.record(&id).await.expect("record");
    assert_eq!(record, state);
}

/// Changes sent at once (on PostgreSQL they are committed together in batches): each good one
/// commits, each stale or unknown one changes nothing and says so, whatever else is in its batch.
async fn changes_of_many_games_at_once_each_commit_or_refuse_alone(db: Db) {
    const GAMES: usize = 48;
    let mut ids = Vec::new();
    for _ in 0..GAMES {
        ids.push(new_game(&db.store, None).await);
    }
    let sent: Vec<_> = ids
        .iter()
        .enumerate()
        .flat_map(|(n, id)| {
            let good = (db.store.clone(), id.clone(), 0, json!(format!("good {n}")));
            let stale = (db.store.clone(), id.clone(), 5, json!(format!("stale {n}")));
            let unknown = (db.store.clone(), new_id_unknown(), 0, json!("unknown"));
            [good, stale, unknown]
        })
        .map(|(store, id, version, ply)| {
            tokio::spawn(async move { store.apply(&id, version, &play(&[], ply)).await })
        })
        .collect();
    let mut answers = Vec::new();
    for task in sent {
        answers.push(task.await.expect("a writer"));
    }
    for (n, answer) in answers.chunks(3).enumerate() {
        assert!(matches!(answer[0], Ok(1)), "game {n}: {:?}", answer[0]);
        assert!(
            // Found at 0 or 1: the good change may commit before or after it.
            matches!(
                answer[1],
                Err(StoreError::Stale {
                    expected: 5,
                    found: 0 | 1
                })
            ),
            "game {n}: {:?}",
            answer[1]
        );
        assert!(
            matches!(answer[2], Err(StoreError::NotFound { what: "game", .. })),
            "game {n}: {:?}",
            answer[2]
        );
    }
    for (n, id) in ids.iter().enumerate() {
        let record: Vec<Value> = db.store.record(id).await.expect("record");
        assert_eq!(record, vec![json!(format!("good {n}"))]);
        let game = db.store.load_game::<Vec<Value>>(id).await.expect("load");
        assert_eq!((game.version, game.plies), (1, 1));
    }
}

async fn a_ply_may_leave_the_snapshot_and_the_plies_since_rebuild_the_state(db: Db) {
    let id = new_game(&db.store, Some(NOW - ms(1))).await;
    let running = |mut change: Change<Value, Vec<Value>>| {
        change.deadline = Some(NOW - ms(1));
        change
    };
    let first = running(play(&[], json!("first")));
    db.store.apply(&id, 0, &first).await.expect("apply");
    // Two plies that keep the snapshot.
    let mut state = first.state.clone().expect("a state");
    for (version, ply) in [(1, json!("second")), (2, json!("third"))] {
        let mut change = running(play(&state, ply));
        let next = change.state.take().expect("a state");
        state = next;
        db.store.apply(&id, version, &change).await.expect("apply");
    }
    let game = db.store.load_game::<Vec<Value>>(&id).await.expect("load");
    assert_eq!((game.version, game.plies, game.state_plies), (3, 3, 1));
    assert_eq!(game.state, vec![json!("first")]);
    let record: Vec<Value> = db.store.record(&id).await.expect("record");
    assert_eq!(
        record,
        vec![json!("first"), json!("second"), json!("third")]
    );
    let since: Vec<Value> = db
        .store
        .record_since(&id, game.state_plies)
        .await
        .expect("since");
    assert_eq!(since, vec![json!("second"), json!("third")]);
    // The sweep hands over the snapshot with the plies since.
    let swept = db
        .store
        .sweep_expired(
            NOW,
            10,
            |game: gmo_store::Game<Vec<Value>>, since: Vec<Value>| {
                let mut state = game.state;
                state.extend(since);
                Some(flag_fell(state))
            },
        )
        .await
        .expect("sweep");
    assert_eq!(swept.len(), 1);
    let game = db.store.load_game::<Vec<Value>>(&id).await.expect("load");
    assert_eq!((game.version, game.plies, game.state_plies), (4, 3, 3));
    assert_eq!(game.state, state);
    // A change that is not a ply must write the state.
    let bare = Change::<Value, Vec<Value>> {
        ply: None,
        state: None,
        status: GameStatus::InProgress,
        deadline: None,
        finished: false,
        bot_turn: None,
        rated: None,
    };
    assert!(matches!(
        db.store.apply(&id, 4, &bare).await,
        Err(StoreError::Corrupt(_))
    ));
    let unchanged = db.store.load_game::<Vec<Value>>(&id).await.expect("load");
    assert_eq!(unchanged.version, 4);
}

async fn stale_or_unknown_writers_change_nothing(db: Db) {
    let id = new_game(&db.store, None).await;
    let first = play(&[], json!("first"));
    db.store.apply(&id, 0, &first).await.expect("apply");
    let before = db.store.load_game::<Vec<Value>>(&id).await.expect("load");

    match db.store.apply(&id, 0, &play(&[], json!("stale"))).await {
        Err(StoreError::Stale {
            expected: 0,
            found: 1,
        }) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(
        db.store.load_game::<Vec<Value>>(&id).await.expect("load"),
        before
    );
    assert_eq!(
        db.store.record::<Value>(&id).await.expect("record"),
        vec![json!("first")]
    );
    assert_eq!(count_rows(&db, "plies").await, 1);

    match db.store.apply(&new_id_unknown(), 0, &first).await {
        Err(StoreError::NotFound { what: "game", .. }) => {}
        other => panic!("{other:?}"),
    }
    match db.store.load_game::<Value>(&new_id_unknown()).await {
        Err(StoreError::NotFound { what: "game", .. }) => {}
        other => panic!("{other:?}"),
    }
    match db.store.record::<Value>(&new_id_unknown()).await {
        Err(StoreError::NotFound { what: "game", .. }) => {}
        other => panic!("{other:?}"),
    }
}

/// A well-formed id (a game's, a lab's) that nothing has.
/// Ids are checked where they enter, stored rows included: a game whose id is no id (written
/// behind the store's back) is reported corrupt, not handed on.
async fn a_stored_id_that_is_no_id_is_corrupt(db: Db) {
    let turn = BotTurn {
        due: NOW - ms(10),
        holder: "a".into(),
        lease_until: NOW - ms(1),
    };
    let id = new_game_with(&db.store, Some(NOW - ms(1)), Some(turn)).await;
    let broken = format!("UPDATE games SET id = 'not-an-id' WHERE id = '{id}'");
    common::execute(&db, &broken).await;
    let corrupt = |what: &str, error: Result<usize, StoreError>| match error {
        Err(StoreError::Corrupt(why)) => assert!(why.contains("\"not-an-id\""), "{what}: {why}"),
        other => panic!("{what}: {other:?}"),
    };
    // The claim first: it is one statement, done when it answers. The sweep's failed
    // transaction rolls back when its connection goes back to the pool, a moment after it
    // answers; until then a claim (`SKIP LOCKED`) would pass the locked row over.
    let claimed = db
        .store
        .claim_bot_turns("b", NOW, NOW + ms(2_000), 10)
        .await;
    corrupt("a claim", claimed.map(|claimed| claimed.len()));
    let swept = db
        .store
        .sweep_expired(NOW, 10, |game, _| Some(flag_fell(game.state)))
        .await;
    corrupt("the sweep", swept.map(|swept| swept.len()));
}

fn new_id_unknown<I: std::str::FromStr<Err = gmo_types::BadId>>() -> I {
    gmo_store::new_id()
        .parse()
        .expect("a random id is well formed")
}

const WRITERS: usize = 16;
const PLIES_EACH: usize = 4;

async fn concurrent_writers_are_serialised(db: Db) {
    let id = new_game(&db.store, None).await;
    let tasks: Vec<_> = (0..WRITERS)
        .map(|writer| {
            let (store, id) = (db.store.clone(), id.clone());
            tokio::spawn(async move {
                for n in 0..PLIES_EACH {
                    write_with_retry(&store, &id, json!({"writer": writer, "n": n})).await;
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("writer");
    }
    let record: Vec<Value> = db.store.record(&id).await.expect("record");
    assert_eq!(record.len(), WRITERS * PLIES_EACH);
    let mut seen: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for ply in &record {
        let writer = ply["writer"].as_u64().expect("writer");
        seen.entry(writer)
            .or_default()
            .push(ply["n"].as_u64().expect("n"));
    }
    let in_order: Vec<u64> = (0..PLIES_EACH as u64).collect();
    assert_eq!(seen.len(), WRITERS);
    assert!(
        seen.values().all(|ns| *ns == in_order),
        "each writer's plies once, in order"
    );
    // The final state is the replay of the record.
    let replayed = record.iter().fold(Vec::new(), |state, ply| {
        play(&state, ply.clone()).state.expect("a state")
    });
    let game = db.store.load_game::<Vec<Value>>(&id).await.expect("load");
    assert_eq!(game.state, replayed);
    assert_eq!(game.version, record.len() as i64);
}

/// Loads, plays and applies until no other writer got in between.
async fn write_with_retry(store: &Store, id: &GameId, ply: Value) {
    loop {
        let game = store.load_game::<Vec<Value>>(id).await.expect("load");
        match store
            .apply(id, game.version, &play(&game.state, ply.clone()))
            .await
        {
            Ok(_) => return,
            Err(StoreError::Stale { .. }) => tokio::task::yield_now().await,
            Err(other) => panic!("{other}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Expiry

const NOW: Timestamp = Timestamp::from_ms(1_700_000_000_000);

fn ms(ms: i64) -> Millis {
    Millis::from_ms(ms)
}

async fn expired_games_are_swept_once(db: Db) {
    let mut expired = BTreeSet::new();
    for late in [1, 500, 60_000] {
        expired.insert(new_game(&db.store, Some(NOW - ms(late))).await);
    }
    expired.insert(new_game(&db.store, Some(NOW)).await);
    let running = new_game(&db.store, Some(NOW + ms(1))).await;
    let idle = new_game(&db.store, None).await;

    let swept = db
        .store
        .sweep_expired(NOW, 100, |game, _| Some(flag_fell(game.state)))
        .await
        .expect("sweep");
    let ids: BTreeSet<GameId> = swept.iter().map(|s| s.id.clone()).collect();
    assert_eq!(ids, expired);
    assert_eq!(swept.len(), expired.len());
    for id in &expired {
        let game = db.store.load_game::<Vec<Value>>(id).await.expect("load");
        assert_eq!(
            (game.version, game.finished, game.deadline),
            (1, true, None)
        );
        assert_eq!(game.status, GameStatus::BlackWon);
    }
    for id in [&running, &idle] {
        let game = db.store.load_game::<Vec<Value>>(id).await.expect("load");
        assert_eq!((game.version, game.finished), (0, false));
    }
    let again = db
        .store
        .sweep_expired(NOW, 100, |game, _| Some(flag_fell(game.state)))
        .await;
    assert_eq!(
        again.expect("sweep").len(),
        0,
        "a swept game is not swept again"
    );

    // A sweep leaves a game alone when asked to, and honours its limit, oldest first.
    let late = new_game(&db.store, Some(NOW - ms(10))).await;
    let later = new_game(&db.store, Some(NOW - ms(5))).await;
    let none = db
        .store
        .sweep_expired::<Value, Vec<Value>, _>(NOW, 100, |_, _| None)
        .await;
    assert_eq!(none.expect("sweep").len(), 0);
    let one = db
        .store
        .sweep_expired(NOW, 1, |game, _| Some(flag_fell(game.state)))
        .await;
    assert_eq!(
        one.expect("sweep")
            .iter()
            .map(|s| &s.id)
            .collect::<Vec<_>>(),
        vec![&late]
    );
    let game = db
        .store
        .load_game::<Vec<Value>>(&later)
        .await
        .expect("load");
    assert_eq!(game.version, 0);
}

const EXPIRED_GAMES: usize = 12;

async fn concurrent_sweepers_split_the_games(db: Db) {
    let mut expired = BTreeSet::new();
    for n in 0..EXPIRED_GAMES {
        expired.insert(new_game(&db.store, Some(NOW - ms(n as i64))).await);
    }
    let sweepers: Vec<_> = (0..2)
        .map(|_| {
            let store = db.store.clone();
            tokio::spawn(async move {
                let mut claimed = Vec::new();
                loop {
                    let swept = store
                        .sweep_expired(NOW, 3, |game, _| {
                            // Hold the locks a while so the two sweeps overlap.
                            std::thread::sleep(std::time::Duration::from_millis(20));
                            Some(flag_fell(game.state))
                        })
                        .await
                        .expect("sweep");
                    if swept.is_empty() {
                        return claimed;
                    }
                    claimed.extend(swept.into_iter().map(|s| s.id));
                }
            })
        })
        .collect();
    let mut claimed = Vec::new();
    for sweeper in sweepers {
        claimed.extend(sweeper.await.expect("sweeper"));
    }
    claimed.sort();
    let unique: BTreeSet<GameId> = claimed.iter().cloned().collect();
    assert_eq!(claimed.len(), unique.len(), "no game claimed twice");
    assert_eq!(unique, expired);
    for id in &expired {
        assert_eq!(
            db.store
                .load_game::<Vec<Value>>(id)
                .await
                .expect("load")
                .version,
            1
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Labs

async fn labs_are_saved_with_version_checks(db: Db) {
    let board = json!([{"square": "a1", "code": "3gbkd6"}]);
    let id = db
        .store
        .create_lab(&token_hash("lab-secret"), 8, 6, &board)
        .await
        .expect("create");
    let lab = db.store.load_lab::<Value>(&id).await.expect("load");
    assert_eq!((lab.version, lab.width, lab.height), (0, 8, 6));
    assert_eq!(lab.board, board);
    assert!(lab.opens("lab-secret") && !lab.opens("lab-secret!"));

    let moved = json!([{"square": "a2", "code": "3gbkd6"}]);
    assert_eq!(db.store.save_lab(&id, 0, &moved).await.expect("save"), 1);
    match db.store.save_lab(&id, 0, &board).await {
        Err(StoreError::Stale {
            expected: 0,
            found: 1,
        }) => {}
        other => panic!("{other:?}"),
    }
    let lab = db.store.load_lab::<Value>(&id).await.expect("load");
    assert_eq!((lab.version, lab.board), (1, moved));
    match db.store.save_lab(&new_id_unknown(), 0, &board).await {
        Err(StoreError::NotFound { what: "lab", .. }) => {}
        other => panic!("{other:?}"),
    }
    match db.store.load_lab::<Value>(&new_id_unknown()).await {
        Err(StoreError::NotFound { what: "lab", .. }) => {}
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Durability

async fn applied_changes_survive_a_reconnect(db: Db) {
    let id = new_game(&db.store, None).await;
    let change = play(&[], json!("kept"));
    db.store.apply(&id, 0, &change).await.expect("apply");
    let (genome, _) = db.store.put_genome(&fresh_genome(0)).await.expect("genome");
    // A second store, as after a restart, sees everything the first one acknowledged.
    let reopened = Store::connect(&db.url).await.expect("reopens");
    assert_eq!(
        reopened.record::<Value>(&id).await.expect("record"),
        vec![json!("kept")]
    );
    let game = reopened.load_game::<Vec<Value>>(&id).await.expect("load");
    assert_eq!(
        (game.version, game.state),
        (1, change.state.clone().expect("a state"))
    );
    assert!(reopened.genome(genome.as_str()).await.is_ok());
    reopened.close().await;
}

/// The database drops every connection (as in a restart): after a pause, the next change (its
/// batch writer keeps a connection), announcement (so does the announcer) and read each get a
/// live connection and succeed; what was committed before is still there.
async fn connections_the_database_dropped_are_replaced(db: Db) {
    let store = &db.store;
    let id = new_game(store, None).await;
    let announcer = store.announcer();
    let listening = store.listen().await.expect("listens");
    let first = play(&[], json!("before"));
    assert_eq!(store.apply(&id, 0, &first).await.expect("apply"), 1);
    assert_eq!(announcer.announce("before".into()), listening.is_some());
    let dropped = common::drop_connections(&db).await;
    assert_eq!(
        dropped > 0,
        listening.is_some(),
        "PostgreSQL had connections"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1_200)).await;
    let state = first.state.expect("a state");
    let second = play(&state, json!("after"));
    assert_eq!(store.apply(&id, 1, &second).await.expect("apply"), 2);
    assert_eq!(
        store.record::<Value>(&id).await.expect("record"),
        vec![json!("before"), json!("after")]
    );
    if let Some(mut notifications) = listening {
        // The listener reconnects by itself, when it is next read; what is sent before it has
        // listened again is lost. So the announcement is repeated until one arrives: what this
        // checks is that the announcer sends again and the listener hears again.
        let repeating = async {
            loop {
                assert!(announcer.announce("after".into()), "queued");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        };
        let heard = async {
            while !matches!(
                notifications.next().await,
                Ok(Notice::Payload(payload)) if payload == "after"
            ) {}
        };
        tokio::time::timeout(std::time::Duration::from_secs(10), async {
            tokio::select! {
                () = heard => {}
                () = repeating => {}
            }
        })
        .await
        .expect("an announcement after the drop arrives");
    }
}

/// The batch writers and the announcer keep a connection while they wait for work; closing the
/// store stops them, so it does not wait for those connections for ever.
async fn a_store_whose_writers_keep_connections_closes(db: Db) {
    let store = &db.store;
    let id = new_game(store, None).await;
    let announcer = store.announcer();
    assert_eq!(
        store
            .apply(&id, 0, &play(&[], json!("e4")))
            .await
            .expect("apply"),
        1
    );
    announcer.announce("changed".into());
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    tokio::time::timeout(std::time::Duration::from_secs(10), store.close())
        .await
        .expect("the store closes");
}

// ---------------------------------------------------------------------------------------------
// Connecting

#[tokio::test]
async fn unknown_urls_are_refused() {
    for url in ["mysql://localhost/gmo", "gmo.db", ""] {
        match Store::connect(url).await {
            Err(StoreError::InvalidUrl(_)) => {}
            other => panic!("{url:?}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_missing_sqlite_file_is_created() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("new.db");
    let store = Store::connect(&format!("sqlite://{}", path.display()))
        .await
        .expect("opens");
    assert!(path.exists());
    assert_eq!(store.backend_name(), "sqlite");
    store.ping().await.expect("answers");
    store.close().await;
}

async fn issued_tokens_are_known(db: Db) {
    let store = &db.store;
    assert!(!store.knows_token("white-secret").await.expect("asks"));
    new_game(store, None).await;
    store
        .create_lab(&token_hash("lab-secret"), 8, 8, &json!([]))
        .await
        .expect("creates");
    for token in ["white-secret", "lab-secret"] {
        assert!(store.knows_token(token).await.expect("asks"), "{token}");
    }
    assert!(!store.knows_token("never-issued").await.expect("asks"));
}

async fn notifications_reach_listeners_on_postgres(db: Db) {
    let store = &db.store;
    let listening = store.listen().await.expect("listens");
    store.notify("game 1 changed").await.expect("notifies");
    match listening {
        None => assert_eq!(
            store.backend_name(),
            "sqlite",
            "only SQLite has no listener"
        ),
        Some(mut notifications) => {
            let payload =
                tokio::time::timeout(std::time::Duration::from_secs(5), notifications.next())
                    .await
                    .expect("in time")
                    .expect("a notice");
            assert_eq!(payload, Notice::Payload("game 1 changed".into()));
        }
    }
}

/// The announcer sends what it is handed, in order, across batches; on SQLite it has nobody to
/// send to.
async fn the_announcer_sends_every_announcement_in_order(db: Db) {
    let store = &db.store;
    let listening = store.listen().await.expect("listens");
    let announcer = store.announcer();
    const SENT: usize = 600;
    let queued = (0..SENT)
        .filter(|n| announcer.announce(format!("change {n}")))
        .count();
    let Some(mut notifications) = listening else {
        assert_eq!((store.backend_name(), queued), ("sqlite", 0));
        return;
    };
    assert_eq!(queued, SENT);
    for n in 0..SENT {
        let payload = tokio::time::timeout(std::time::Duration::from_secs(5), notifications.next())
            .await
            .expect("in time")
            .expect("a notice");
        assert_eq!(payload, Notice::Payload(format!("change {n}")));
    }
}

/// The database drops the listener's connection (as in a restart): the next read says so
/// (`Notice::Lost`, after which a caller reads what it follows again) rather than hiding the gap,
/// and what is announced afterwards is heard. Twice: read at once, sqlx's own reconnection takes
/// a pooled connection that was dropped too and fails, and the listener listens on a new one;
/// read after a pause, the pool has replaced its connections and the very next read is the loss.
async fn a_lost_listener_connection_is_reported(db: Db) {
    let store = &db.store;
    let Some(mut notifications) = store.listen().await.expect("listens") else {
        assert_eq!(
            store.backend_name(),
            "sqlite",
            "only SQLite has no listener"
        );
        return;
    };
    let in_time = std::time::Duration::from_secs(10);
    store.notify("before").await.expect("notifies");
    let heard = tokio::time::timeout(in_time, notifications.next()).await;
    assert_eq!(
        heard.expect("in time").expect("a notice"),
        Notice::Payload("before".into())
    );
    let announcer = store.announcer();

    assert!(
        common::drop_connections(&db).await > 0,
        "connections dropped"
    );
    let lost = async {
        loop {
            match notifications.next().await {
                Ok(Notice::Lost) => return,
                Ok(Notice::Payload(payload)) => panic!("{payload:?} heard, not the loss"),
                // The failed reconnection: the loss is reported after it all the same.
                Err(StoreError::Database(_)) => {}
                Err(other) => panic!("{other:?}"),
            }
        }
    };
    tokio::time::timeout(in_time, lost)
        .await
        .expect("the lost connection is reported");
    hear_repeated(&announcer, &mut notifications, "after the first loss").await;

    assert!(
        common::drop_connections(&db).await > 0,
        "connections dropped"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1_200)).await;
    let next = tokio::time::timeout(in_time, notifications.next()).await;
    assert_eq!(next.expect("in time").expect("a notice"), Notice::Lost);
    hear_repeated(&announcer, &mut notifications, "after the second loss").await;
}

/// Announces `payload` every 100 ms until `notifications` hear it (announcements may be lost while
/// the announcer's kept connection is found dead); panics after 10 s.
async fn hear_repeated(
    announcer: &gmo_store::Announcer,
    notifications: &mut gmo_store::Notifications,
    payload: &str,
) {
    let repeating = async {
        loop {
            assert!(announcer.announce(payload.to_owned()), "queued");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    };
    let heard = async {
        while !matches!(
            notifications.next().await,
            Ok(Notice::Payload(heard)) if heard == payload
        ) {}
    };
    tokio::time::timeout(std::time::Duration::from_secs(10), async {
        tokio::select! {
            () = heard => {}
            () = repeating => {}
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{payload:?} is heard"));
}

/// A seat joins once: the first call says so, later ones do not; the game's version stays, so a
/// writer that read the game before the join still commits; the flags are read with the game
/// and its version, and by a second store on the same database.
async fn seats_join_once_without_a_new_version(db: Db) {
    let store = &db.store;
    let id = new_game(store, None).await;
    let head = store.game_head(&id).await.expect("the head");
    assert_eq!(head.version, 0);
    assert_eq!(head.joined, Joined::default());
    assert!(store.join(&id, Color::Black).await.expect("joined"));
    assert!(!store.join(&id, Color::Black).await.expect("joined again"));
    let version = store
        .apply(&id, 0, &play(&[], json!("after the join")))
        .await
        .expect("the join made nothing stale");
    let head = store.game_head(&id).await.expect("the head");
    assert_eq!(head.version, version);
    let black_only = Joined {
        white: false,
        black: true,
    };
    assert_eq!(head.joined, black_only);
    assert!(*head.joined.get(Color::Black) && !*head.joined.get(Color::White));
    let other = Store::connect(&db.url).await.expect("a second store opens");
    assert!(other.join(&id, Color::White).await.expect("joined"));
    let game = store.load_game::<Vec<Value>>(&id).await.expect("the game");
    assert_eq!(
        game.joined,
        Joined {
            white: true,
            black: true
        }
    );
    assert_eq!(game.version, version, "joining is no change of the game");
    match store.join(&new_id_unknown(), Color::White).await {
        Err(StoreError::NotFound { what: "game", .. }) => {}
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Bots

/// A game (Black a bot) whose bot is due at `due`, leased to `holder` until `lease_until`.
async fn bot_game(store: &Store, due: Timestamp, holder: &str, lease_until: Timestamp) -> GameId {
    let turn = BotTurn {
        due,
        holder: holder.into(),
        lease_until,
    };
    new_game_with(store, None, Some(turn)).await
}

async fn bot_turns_are_leased_to_one_process_at_a_time(db: Db) {
    let store = &db.store;
    let held = bot_game(store, NOW, "a", NOW + ms(2_000)).await;
    let lapsed = bot_game(store, NOW - ms(10), "a", NOW - ms(1)).await;
    let later = bot_game(store, NOW + ms(5_000), "a", NOW - ms(1)).await;
    // Only the due turn whose lease ran out is taken over.
    let claimed = store.claim_bot_turns("b", NOW, NOW + ms(2_000), 10).await;
    assert_eq!(claimed.expect("claim"), std::slice::from_ref(&lapsed));
    assert!(
        !store
            .renew_bot_lease(&lapsed, "a", NOW + ms(9_000))
            .await
            .expect("renew")
    );
    assert!(
        store
            .renew_bot_lease(&lapsed, "b", NOW + ms(3_000))
            .await
            .expect("renew")
    );
    let lease = store
        .bot_lease(&lapsed)
        .await
        .expect("read")
        .expect("a turn");
    assert_eq!(
        (lease.holder.as_deref(), lease.lease_until),
        (Some("b"), Some(NOW + ms(3_000)))
    );
    assert_eq!(
        store
            .bot_lease(&held)
            .await
            .expect("read")
            .expect("a turn")
            .due,
        NOW
    );
    assert_eq!(
        store
            .bot_lease(&later)
            .await
            .expect("read")
            .expect("a turn")
            .due,
        NOW + ms(5_000)
    );
    // A change that leaves no bot to move ends the turn, and with it the lease.
    let moved = play(&[], json!(1));
    assert_eq!(store.apply(&lapsed, 0, &moved).await.expect("apply"), 1);
    assert_eq!(store.bot_lease(&lapsed).await.expect("read"), None);
    assert!(
        !store
            .renew_bot_lease(&lapsed, "b", NOW + ms(4_000))
            .await
            .expect("renew")
    );
    // A stopping process lets its leases go: the held turn is taken at once.
    assert_eq!(store.release_bot_leases("a").await.expect("release"), 2);
    let claimed = store.claim_bot_turns("b", NOW, NOW + ms(2_000), 10).await;
    assert_eq!(claimed.expect("claim"), [held]);
}

async fn concurrent_claims_split_the_bot_turns(db: Db) {
    let mut due = BTreeSet::new();
    for n in 0..EXPIRED_GAMES {
        due.insert(bot_game(&db.store, NOW - ms(n as i64), "dead", NOW - ms(1)).await);
    }
    let takers: Vec<_> = ["b", "c"]
        .into_iter()
        .map(|holder| {
            let store = db.store.clone();
            tokio::spawn(async move {
                let mut claimed = Vec::new();
                loop {
                    let ids = store.claim_bot_turns(holder, NOW, NOW + ms(2_000), 3).await;
                    let ids = ids.expect("claim");
                    if ids.is_empty() {
                        return claimed;
                    }
                    claimed.extend(ids);
                }
            })
        })
        .collect();
    let mut claimed = Vec::new();
    for taker in takers {
        claimed.extend(taker.await.expect("taker"));
    }
    let unique: BTreeSet<GameId> = claimed.iter().cloned().collect();
    assert_eq!(claimed.len(), unique.len(), "no turn claimed twice");
    assert_eq!(unique, due);
}

async fn live_bot_games_are_capped_across_stores(db: Db) {
    const CAP: u32 = 4;
    let other = Store::connect(&db.url).await.expect("a second store");
    let new = |bot: bool| GameSettings {
        black_bot: bot.then(|| "random".into()),
        ..settings()
    };
    let create = |store: Store, bot: bool| async move {
        let settings = new(bot);
        store
            .create_game_within(
                &NewGame {
                    settings: &settings,
                    white_token: Some(token_hash("w")),
                    black_token: None,
                    status: GameStatus::Setup,
                    state: &Vec::<Value>::new(),
                    deadline: None,
                    bot_turn: None,
                    creator_token: None,
                    accounts: gmo_types::ByColor::new(None, None),
                    rated: false,
                    created: Timestamp::from_ms(0),
                },
                CAP,
            )
            .await
            .expect("create")
    };
    // Twice the cap at once, from two stores: exactly the cap is created.
    let tries: Vec<_> = (0..2 * CAP)
        .map(|n| {
            let store = if n % 2 == 0 {
                db.store.clone()
            } else {
                other.clone()
            };
            tokio::spawn(create(store, true))
        })
        .collect();
    let mut created = Vec::new();
    for attempt in tries {
        created.extend(attempt.await.expect("a creation"));
    }
    assert_eq!(created.len(), CAP as usize);
    assert_eq!(
        db.store.live_bot_games().await.expect("count"),
        i64::from(CAP)
    );
    assert!(
        create(db.store.clone(), false).await.is_some(),
        "games between people are not capped"
    );
    // A finished game frees its place.
    let over = flag_fell(Vec::new());
    db.store.apply(&created[0], 0, &over).await.expect("apply");
    assert!(create(other.clone(), true).await.is_some());
    assert!(create(other.clone(), true).await.is_none());
    other.close().await;
}

async fn seats_are_seen_when_they_pulse_and_never_go_back(db: Db) {
    let store = &db.store;
    let id = new_game(store, None).await;
    assert_eq!(
        store.seats_seen(&id).await.expect("seen"),
        ByColor::default()
    );
    let at = Timestamp::from_ms;
    store
        .pulse_seat(&id, Color::White, at(5_000))
        .await
        .expect("a pulse");
    store
        .pulse_seat(&id, Color::White, at(4_000))
        .await
        .expect("a late pulse");
    store
        .pulse_seat(&id, Color::Black, at(7_000))
        .await
        .expect("a pulse");
    let seen = store.seats_seen(&id).await.expect("seen");
    assert_eq!(
        seen,
        ByColor::new(Some(at(5_000)), Some(at(7_000))),
        "never back in time"
    );
    store
        .pulse_seat(&id, Color::White, at(9_000))
        .await
        .expect("a pulse");
    assert_eq!(
        store.seats_seen(&id).await.expect("seen").white,
        Some(at(9_000))
    );
    let unknown = GameId::from_bits(42);
    assert!(
        store
            .pulse_seat(&unknown, Color::White, at(1))
            .await
            .is_err(),
        "no such game"
    );
    assert_eq!(
        store.seats_seen(&unknown).await.expect("seen"),
        ByColor::default()
    );
}

fn name(raw: &str) -> gmo_types::Username {
    gmo_types::Username::parse(raw).expect("a username")
}

async fn accounts_are_unique_without_case_and_deleted_accounts_free_their_name(db: Db) {
    let store = &db.store;
    let at = Timestamp::from_ms;
    let id = store
        .create_account(&name("Alice"), "hash-1", at(1_000))
        .await
        .expect("stored")
        .expect("a new account");
    let taken = store
        .create_account(&name("aLiCe"), "hash-2", at(2_000))
        .await;
    assert_eq!(
        taken.expect("no error"),
        None,
        "taken without regard to case"
    );
    let account = store
        .account_named(&name("ALICE"))
        .await
        .expect("read")
        .expect("found");
    assert_eq!(
        (account.id.clone(), account.username.as_str()),
        (id.clone(), "Alice")
    );
    assert_eq!(
        (account.rating, account.deviation, account.rated_games),
        (1500.0, 500.0, 0)
    );
    let credentials = store
        .credentials(&name("alice"))
        .await
        .expect("read")
        .expect("found");
    assert_eq!(credentials.password_hash, "hash-1");
    assert!(store.set_password(&id, "hash-3").await.expect("set"));
    let credentials = store
        .credentials(&name("alice"))
        .await
        .expect("read")
        .expect("found");
    assert_eq!(credentials.password_hash, "hash-3");
    assert!(store.delete_account(&id, at(3_000)).await.expect("deleted"));
    assert!(!store.delete_account(&id, at(4_000)).await.expect("once"));
    assert!(
        store
            .credentials(&name("alice"))
            .await
            .expect("read")
            .is_none()
    );
    assert!(
        store
            .account_named(&name("alice"))
            .await
            .expect("read")
            .is_none()
    );
    let gone = store
        .account(&id)
        .await
        .expect("read")
        .expect("the row stays");
    assert_eq!(gone.deleted_at, Some(at(3_000)));
    let again = store
        .create_account(&name("alice"), "hash-4", at(5_000))
        .await;
    assert!(again.expect("no error").is_some(), "the name is free again");
}

async fn sessions_hold_until_they_expire_or_end(db: Db) {
    let store = &db.store;
    let at = Timestamp::from_ms;
    let id = store
        .create_account(&name("bob"), "h", at(0))
        .await
        .expect("stored")
        .expect("new");
    let (one, two) = (token_hash("session-one"), token_hash("session-two"));
    store
        .create_session(&one, &id, at(10_000))
        .await
        .expect("a session");
    store
        .create_session(&two, &id, at(10_000))
        .await
        .expect("another");
    assert_eq!(
        store.session(&one, at(5_000)).await.expect("read"),
        Some((id.clone(), at(10_000)))
    );
    assert_eq!(
        store.session(&one, at(10_000)).await.expect("read"),
        None,
        "expired"
    );
    store
        .renew_session(&one, at(20_000))
        .await
        .expect("renewed");
    assert!(
        store
            .session(&one, at(15_000))
            .await
            .expect("read")
            .is_some()
    );
    store
        .delete_other_sessions(&id, &one)
        .await
        .expect("others ended");
    assert!(
        store
            .session(&two, at(5_000))
            .await
            .expect("read")
            .is_none()
    );
    store.delete_session(&one).await.expect("signed out");
    assert!(
        store
            .session(&one, at(5_000))
            .await
            .expect("read")
            .is_none()
    );
    store
        .create_session(&two, &id, at(30_000))
        .await
        .expect("a session");
    assert!(store.delete_account(&id, at(6_000)).await.expect("deleted"));
    assert!(
        store
            .session(&two, at(7_000))
            .await
            .expect("read")
            .is_none(),
        "ended with its account"
    );
}

async fn personal_tokens_are_found_by_hash_listed_and_revoked(db: Db) {
    let store = &db.store;
    let at = Timestamp::from_ms;
    let id = store
        .create_account(&name("carol"), "h", at(0))
        .await
        .expect("stored")
        .expect("new");
    let secret = token_hash("gmo_secret");
    let token = store
        .create_token(&id, &secret, "my bot", &["play", "events"], at(1_000))
        .await
        .expect("a token");
    let found = store.token(&secret).await.expect("read");
    assert_eq!(
        found,
        Some((id.clone(), vec!["play".to_owned(), "events".to_owned()]))
    );
    let listed = store.tokens_of(&id).await.expect("listed");
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].id.clone(), listed[0].description.as_str()),
        (token.clone(), "my bot")
    );
    let other = store
        .create_account(&name("dave"), "h", at(0))
        .await
        .expect("stored")
        .expect("new");
    assert!(
        !store
            .revoke_token(&token, &other)
            .await
            .expect("not theirs")
    );
    assert!(store.revoke_token(&token, &id).await.expect("revoked"));
    assert_eq!(store.token(&secret).await.expect("read"), None);
}

async fn failures_are_counted_per_key_and_forgotten(db: Db) {
    let store = &db.store;
    let at = Timestamp::from_ms;
    let keys = ["user:eve".to_owned(), "addr:192.0.2.1".to_owned()];
    for n in 0..3 {
        store
            .record_failure(&keys, at(1_000 + n))
            .await
            .expect("noted");
    }
    assert_eq!(
        store.failures("user:eve", at(0)).await.expect("read"),
        (3, Some(at(1_000)))
    );
    assert_eq!(
        store.failures("user:eve", at(1_000)).await.expect("read"),
        (2, Some(at(1_001)))
    );
    assert_eq!(
        store.failures("user:nobody", at(0)).await.expect("read"),
        (0, None)
    );
    let forgotten = store
        .forget_stale_sign_ins(at(1_001), at(0))
        .await
        .expect("forgotten");
    assert_eq!(forgotten, 4, "two of each key");
    assert_eq!(
        store
            .failures("addr:192.0.2.1", at(0))
            .await
            .expect("read")
            .0,
        1
    );
}
