//! Who plays and ratings: seats linked to accounts, a rated game rated once in the transaction
//! that ends it (by a change or by the sweep), the public reads of an account, and rated seeks.

use crate::common::Db;
use gmo_store::{
    Accepted, Change, GameSettings, NewGame, NewSeek, Opened, Pool, RatedEnd, SeekLimits,
    SeekState, Store, token_hash,
};
use gmo_types::{
    AccountId, ByColor, Color, ColorWish, GameId, GameStatus, Millis, Rating, Timestamp, Username,
};
use serde_json::Value;

both!(
    a_seat_is_linked_once_to_one_account,
    a_rated_game_is_rated_once_when_a_change_ends_it,
    a_rated_game_is_rated_by_the_sweep_that_ends_it,
    unrated_and_aborted_games_change_no_rating,
    results_games_history_and_leaders_are_read_per_account,
    rated_seeks_pair_only_with_another_account,
);

/// A test rater that is easy to check: the winner gains 10, the loser loses 10, a draw moves
/// nothing; every deviation falls by 100 (down to 45).
fn plus_ten(before: ByColor<Rating>, winner: Option<Color>) -> ByColor<Rating> {
    before.map(|color, rating| Rating {
        value: rating.value
            + match winner {
                Some(won) if won == color => 10.0,
                Some(_) => -10.0,
                None => 0.0,
            },
        deviation: (rating.deviation - 100.0).max(45.0),
        volatility: rating.volatility,
    })
}

fn rated_end() -> RatedEnd {
    RatedEnd {
        rate: plus_ten,
        at: Timestamp::from_ms(9_000),
    }
}

async fn account(store: &Store, name: &str) -> AccountId {
    let username = Username::parse(name).expect("a username");
    store
        .create_account(&username, "hash", Timestamp::from_ms(1))
        .await
        .expect("stored")
        .expect("a new account")
}

fn settings(black_bot: Option<&str>) -> GameSettings {
    GameSettings {
        width: 8,
        height: 8,
        clock_initial: Millis::from_secs(300),
        white_bot: None,
        black_bot: black_bot.map(str::to_owned),
    }
}

/// A game in progress between `accounts` (rated or not), made at `created` ms.
async fn game(
    store: &Store,
    accounts: ByColor<Option<AccountId>>,
    rated: bool,
    created: i64,
    deadline: Option<Timestamp>,
) -> GameId {
    store
        .create_game(&NewGame {
            settings: &settings(None),
            white_token: Some(token_hash("w")),
            black_token: Some(token_hash("b")),
            status: GameStatus::InProgress,
            state: &Vec::<Value>::new(),
            deadline,
            bot_turn: None,
            creator_token: None,
            accounts,
            rated,
            created: Timestamp::from_ms(created),
        })
        .await
        .expect("a game")
}

fn ending(status: GameStatus, rated: Option<RatedEnd>) -> Change<Value, Vec<Value>> {
    Change {
        ply: None,
        state: Some(Vec::new()),
        status,
        deadline: None,
        finished: true,
        bot_turn: None,
        rated,
    }
}

async fn rating_of(store: &Store, id: &AccountId) -> (f64, f64, u32) {
    let account = store.account(id).await.expect("read").expect("found");
    (account.rating, account.deviation, account.rated_games)
}

async fn a_seat_is_linked_once_to_one_account(db: Db) {
    let store = &db.store;
    let (ada, bob) = (account(store, "ada").await, account(store, "bob").await);
    let id = game(store, ByColor::new(None, None), false, 1, None).await;
    assert!(store.link(&id, Color::White, &ada).await.expect("linked"));
    assert!(
        !store.link(&id, Color::White, &bob).await.expect("read"),
        "once"
    );
    assert!(
        !store.link(&id, Color::Black, &ada).await.expect("read"),
        "an account never holds both seats"
    );
    let head = store.game_head(&id).await.expect("a head");
    assert_eq!(head.accounts, ByColor::new(Some(ada.clone()), None));
    assert_eq!(head.deleted, ByColor::new(false, false));
    assert_eq!(head.version, 0, "no change of the game");
    let players = store.players(&id).await.expect("players");
    let white = players.white.expect("White is Ada's");
    assert_eq!((white.username.as_str(), white.rating), ("ada", 1500.0));
    assert!(players.black.is_none());
    store
        .delete_account(&ada, Timestamp::from_ms(2))
        .await
        .expect("deleted");
    let players = store.players(&id).await.expect("players");
    assert!(players.white.expect("still linked").deleted);
    let head = store.game_head(&id).await.expect("a head");
    assert_eq!(
        head.deleted,
        ByColor::new(true, false),
        "the head read tells a cached game"
    );
    assert_eq!(head.version, 0, "no change of the game");
    // A bot's seat and a finished game take no account.
    let with_bot = store
        .create_game(&NewGame {
            settings: &settings(Some("random")),
            white_token: Some(token_hash("w2")),
            black_token: None,
            status: GameStatus::InProgress,
            state: &Vec::<Value>::new(),
            deadline: None,
            bot_turn: None,
            creator_token: None,
            accounts: ByColor::new(None, None),
            rated: false,
            created: Timestamp::from_ms(3),
        })
        .await
        .expect("a game");
    assert!(
        !store
            .link(&with_bot, Color::Black, &bob)
            .await
            .expect("read")
    );
    store
        .apply(&id, 0, &ending(GameStatus::Draw, None))
        .await
        .expect("ended");
    assert!(!store.link(&id, Color::Black, &bob).await.expect("read"));
}

async fn a_rated_game_is_rated_once_when_a_change_ends_it(db: Db) {
    let store = &db.store;
    let (ada, bob) = (account(store, "ada").await, account(store, "bob").await);
    let players = ByColor::new(Some(ada.clone()), Some(bob.clone()));
    let id = game(store, players, true, 1, None).await;
    let version = store
        .apply(&id, 0, &ending(GameStatus::WhiteWon, Some(rated_end())))
        .await
        .expect("ended");
    assert_eq!(version, 1);
    assert_eq!(rating_of(store, &ada).await, (1510.0, 400.0, 1));
    assert_eq!(rating_of(store, &bob).await, (1490.0, 400.0, 1));
    let players = store.players(&id).await.expect("players");
    let diffs = players.map(|_, player| player.and_then(|player| player.rating_diff));
    assert_eq!(diffs, ByColor::new(Some(10), Some(-10)));
    assert!(store.game_head(&id).await.expect("head").rating_diffs);
    let history = store.rating_history(&ada, 10).await.expect("history");
    assert_eq!(history.len(), 1);
    assert_eq!(
        (history[0].at, history[0].value, history[0].deviation),
        (Timestamp::from_ms(9_000), 1510.0, 400.0)
    );
    // The same end again (a second process with the same version) changes nothing.
    let again = store
        .apply(&id, 0, &ending(GameStatus::WhiteWon, Some(rated_end())))
        .await;
    assert!(again.is_err(), "stale");
    assert_eq!(rating_of(store, &ada).await, (1510.0, 400.0, 1));
}

async fn a_rated_game_is_rated_by_the_sweep_that_ends_it(db: Db) {
    let store = &db.store;
    let (ada, bob) = (account(store, "ada").await, account(store, "bob").await);
    let players = ByColor::new(Some(ada.clone()), Some(bob.clone()));
    let id = game(store, players, true, 1, Some(Timestamp::from_ms(5))).await;
    let decide = |game: gmo_store::Game<Vec<Value>>, _: Vec<Value>| {
        assert!(game.rated);
        assert!(game.players.white.is_some() && game.players.black.is_some());
        Some(ending(GameStatus::BlackWon, Some(rated_end())))
    };
    let swept = store
        .sweep_expired(Timestamp::from_ms(10), 10, decide)
        .await
        .expect("swept");
    assert_eq!(swept.len(), 1);
    let never = |_: gmo_store::Game<Vec<Value>>,
                 _: Vec<Value>|
     -> Option<Change<Value, Vec<Value>>> { panic!("an ended game is swept once") };
    let again = store
        .sweep_expired(Timestamp::from_ms(20), 10, never)
        .await
        .expect("swept");
    assert!(again.is_empty());
    assert_eq!(rating_of(store, &ada).await, (1490.0, 400.0, 1));
    assert_eq!(rating_of(store, &bob).await, (1510.0, 400.0, 1));
    let loaded: gmo_store::Game<Vec<Value>> = store.load_game(&id).await.expect("loaded");
    let white = loaded.players.white.expect("Ada");
    assert_eq!(white.rating_diff, Some(-10));
}

async fn unrated_and_aborted_games_change_no_rating(db: Db) {
    let store = &db.store;
    let (ada, bob) = (account(store, "ada").await, account(store, "bob").await);
    let players = ByColor::new(Some(ada.clone()), Some(bob.clone()));
    let casual = game(store, players.clone(), false, 1, None).await;
    store
        .apply(&casual, 0, &ending(GameStatus::WhiteWon, Some(rated_end())))
        .await
        .expect("ended");
    let aborted = game(store, players, true, 2, None).await;
    store
        .apply(&aborted, 0, &ending(GameStatus::Aborted, Some(rated_end())))
        .await
        .expect("aborted");
    assert_eq!(rating_of(store, &ada).await, (1500.0, 500.0, 0));
    assert_eq!(rating_of(store, &bob).await, (1500.0, 500.0, 0));
    assert!(
        store
            .rating_history(&ada, 10)
            .await
            .expect("read")
            .is_empty()
    );
}

async fn results_games_history_and_leaders_are_read_per_account(db: Db) {
    let store = &db.store;
    let (ada, bob) = (account(store, "ada").await, account(store, "bob").await);
    let mut ids = Vec::new();
    for (n, status) in [
        GameStatus::WhiteWon,
        GameStatus::BlackWon,
        GameStatus::Draw,
        GameStatus::WhiteWon,
        GameStatus::Aborted,
    ]
    .into_iter()
    .enumerate()
    {
        let players = ByColor::new(Some(ada.clone()), Some(bob.clone()));
        let id = game(store, players, true, 100 + n as i64, None).await;
        let at = RatedEnd {
            at: Timestamp::from_ms(9_000 + n as i64),
            ..rated_end()
        };
        store
            .apply(&id, 0, &ending(status, Some(at)))
            .await
            .expect("ended");
        ids.push(id);
    }
    let live = game(
        store,
        ByColor::new(None, Some(ada.clone())),
        false,
        200,
        None,
    )
    .await;
    let results = store.results(&ada).await.expect("results");
    assert_eq!(
        (results.games, results.wins, results.draws, results.losses),
        (4, 2, 1, 1)
    );
    let bob_results = store.results(&bob).await.expect("results");
    assert_eq!((bob_results.wins, bob_results.losses), (1, 2));
    // Newest first, two a page, paged by the last id.
    let first = store
        .games_of(&ada, None, 2)
        .await
        .expect("read")
        .expect("a page");
    assert_eq!(first, vec![live.clone(), ids[4].clone()]);
    let second = store
        .games_of(&ada, Some(&ids[4]), 2)
        .await
        .expect("read")
        .expect("a page");
    assert_eq!(second, vec![ids[3].clone(), ids[2].clone()]);
    let not_hers = game(store, ByColor::new(None, None), false, 300, None).await;
    assert_eq!(
        store
            .games_of(&ada, Some(&not_hers), 2)
            .await
            .expect("read"),
        None
    );
    let history = store.rating_history(&ada, 100).await.expect("history");
    assert_eq!(
        history.len(),
        4,
        "one point per rated game that was not aborted"
    );
    let values: Vec<f64> = history.iter().map(|point| point.value).collect();
    assert_eq!(values, vec![1510.0, 1500.0, 1500.0, 1510.0]);
    // Deviations fell 500 → 400 → 300 → 200 → 100: established below 110.
    let leaders = store.leaders(110.0, 10, false).await.expect("leaders");
    let names: Vec<&str> = leaders.iter().map(|row| row.username.as_str()).collect();
    assert_eq!(names, vec!["ada", "bob"], "best first");
    assert_eq!(leaders[0].rated_games, 4);
    assert!(
        store
            .leaders(100.0, 10, false)
            .await
            .expect("read")
            .is_empty()
    );
    // Bots are rated apart and listed apart: two bots' games put them on the bots' board only.
    let (botty, bitty) = (account(store, "botty").await, account(store, "bitty").await);
    for bot in [&botty, &bitty] {
        assert!(store.make_bot(bot).await.expect("made a bot"));
    }
    assert!(
        store
            .leaders(110.0, 10, true)
            .await
            .expect("read")
            .is_empty()
    );
    for (n, status) in [
        GameStatus::BlackWon,
        GameStatus::WhiteWon,
        GameStatus::BlackWon,
        GameStatus::Draw,
    ]
    .into_iter()
    .enumerate()
    {
        let players = ByColor::new(Some(botty.clone()), Some(bitty.clone()));
        let id = game(store, players, true, 300 + n as i64, None).await;
        store
            .apply(&id, 0, &ending(status, Some(rated_end())))
            .await
            .expect("ended");
    }
    let bots = store.leaders(110.0, 10, true).await.expect("bots");
    let names: Vec<&str> = bots.iter().map(|row| row.username.as_str()).collect();
    assert_eq!(names, vec!["bitty", "botty"], "best first");
    let people = store.leaders(110.0, 10, false).await.expect("people");
    let names: Vec<&str> = people.iter().map(|row| row.username.as_str()).collect();
    assert_eq!(names, vec!["ada", "bob"], "no bot among people");
}

fn seek<'a>(token: &str, client: &'a str, account: Option<AccountId>, rated: bool) -> NewSeek<'a> {
    NewSeek {
        token: token_hash(token),
        seat_token: token_hash(&format!("seat-{token}")),
        client,
        pool: Pool {
            width: 8,
            height: 8,
            initial: Millis::from_secs(180),
            increment: Millis::ZERO,
            rated,
        },
        wish: ColorWish::Random,
        now: Timestamp::from_ms(1_000),
        account,
    }
}

async fn rated_seeks_pair_only_with_another_account(db: Db) {
    let store = &db.store;
    let (ada, bob) = (account(store, "ada").await, account(store, "bob").await);
    let limits = SeekLimits {
        per_client: 10,
        overall: 100,
    };
    let open = |new: NewSeek<'static>| async move {
        match store.open_seek(&new, limits).await.expect("opened") {
            Opened::Open(id) => id,
            other => panic!("not opened: {other:?}"),
        }
    };
    let template_settings = settings(None);
    let template = NewGame {
        settings: &template_settings,
        white_token: None,
        black_token: None,
        status: GameStatus::Setup,
        state: &Vec::<Value>::new(),
        deadline: None,
        bot_turn: None,
        creator_token: None,
        accounts: ByColor::new(None, None),
        rated: true,
        created: Timestamp::from_ms(1_000),
    };
    let alive = Timestamp::from_ms(0);
    let first = open(seek("a", "client-a", Some(ada.clone()), true)).await;
    let (state, _) = store
        .pair_seek(&first, alive, &template)
        .await
        .expect("tried");
    assert_eq!(state, SeekState::Open, "nothing to pair with");
    // The same account's second rated seek, and an anonymous unrated one, do not pair with it.
    let own = open(seek("a2", "client-a2", Some(ada.clone()), true)).await;
    let (state, _) = store
        .pair_seek(&own, alive, &template)
        .await
        .expect("tried");
    assert_eq!(state, SeekState::Open);
    let casual = open(seek("c", "client-c", None, false)).await;
    let unrated = NewGame {
        rated: false,
        ..template.clone()
    };
    let (state, _) = store
        .pair_seek(&casual, alive, &unrated)
        .await
        .expect("tried");
    assert_eq!(state, SeekState::Open);
    // Accepting it anonymously or as Ada is refused; Bob takes it.
    let taker = token_hash("taker");
    for who in [None, Some(&ada)] {
        let refused = store
            .accept_seek(&first, alive, &template, taker, who)
            .await
            .expect("tried");
        assert_eq!(refused, Accepted::NotForYou);
    }
    let Accepted::Paired { game, seat } = store
        .accept_seek(&first, alive, &template, taker, Some(&bob))
        .await
        .expect("tried")
    else {
        panic!("Bob takes Ada's rated seek");
    };
    let head = store.game_head(&game).await.expect("the game");
    assert_eq!(head.accounts.get(seat), &Some(bob.clone()));
    assert_eq!(head.accounts.get(seat.opponent()), &Some(ada.clone()));
    let loaded: gmo_store::Game<Vec<Value>> = store.load_game(&game).await.expect("loaded");
    assert!(loaded.rated);
    // Bob's rated seek pairs with Ada's other one at once.
    let bobs = open(seek("b", "client-b", Some(bob.clone()), true)).await;
    let (state, partner) = store
        .pair_seek(&bobs, alive, &template)
        .await
        .expect("tried");
    assert!(matches!(state, SeekState::Paired { .. }), "{state:?}");
    assert_eq!(partner, Some(own));
}
