//! Migrations that move data: run on rows written the way the version before them wrote them.

use crate::common::Db;
use gmo_types::{EvaluationState, Timestamp};
use sqlx::{Connection, Executor};

both!(value_evaluations_move_to_the_jobs_table_as_they_were,);

/// Runs a migration file's statements behind the store's back.
async fn run_script(db: &Db, sql: &str) {
    if db.url.starts_with("sqlite:") {
        let mut conn = sqlx::SqliteConnection::connect(&db.url)
            .await
            .expect("connects");
        conn.execute(sql).await.expect("runs");
    } else {
        let mut conn = sqlx::PgConnection::connect(&db.url)
            .await
            .expect("connects");
        conn.execute(sql).await.expect("runs");
    }
}

/// Migration 0021: a `genome_values` row of 0009 (a running evaluation, 6 of 200 games counted
/// under another process's lease, and a finished one) becomes a `value` job the store reads back
/// field by field; the old table is gone.
async fn value_evaluations_move_to_the_jobs_table_as_they_were(db: Db) {
    let sqlite = db.url.starts_with("sqlite:");
    let (old, moved) = if sqlite {
        (
            include_str!("../../../../migrations/sqlite/0009_genome_values.sql"),
            include_str!("../../../../migrations/sqlite/0021_values_as_jobs.sql"),
        )
    } else {
        (
            include_str!("../../../../migrations/postgres/0009_genome_values.sql"),
            include_str!("../../../../migrations/postgres/0021_values_as_jobs.sql"),
        )
    };
    let [rook, queen] = ["rook", "queen"].map(|name| {
        gmo_genome::standard::by_name(name)
            .expect(name)
            .code()
            .to_string()
    });
    run_script(&db, old).await;
    let rows = format!(
        "INSERT INTO genome_values (code, replaced, bot, seed, games, wins, draws, losses, state, \
         error, holder, lease_ms, queued_ms, finished_ms) VALUES \
         ('{rook}', 'knight', 'search:300n', -5, 200, 3, 1, 2, 'running', NULL, 'old-7', 9000, \
          1000, NULL), \
         ('{queen}', 'knight', 'search:300n', 1, 4, 2, 1, 1, 'done', NULL, NULL, NULL, 2000, 3000);"
    );
    run_script(&db, &rows).await;
    run_script(&db, moved).await;

    let running = db
        .store
        .value_job(&rook)
        .await
        .expect("read")
        .expect("moved");
    assert_eq!(running.code, rook);
    assert_eq!(
        (
            running.replaced.as_str(),
            running.bot.as_str(),
            running.seed
        ),
        ("knight", "search:300n", (-5i64) as u64)
    );
    assert_eq!(
        (running.games, running.wins, running.draws, running.losses),
        (200, 3, 1, 2)
    );
    assert_eq!(running.state, EvaluationState::Running);
    assert_eq!(running.holder.as_deref(), Some("old-7"));
    assert_eq!(running.lease_until, Some(Timestamp::from_ms(9_000)));
    assert_eq!(running.queued_at, Timestamp::from_ms(1_000));
    let done = db
        .store
        .value_job(&queen)
        .await
        .expect("read")
        .expect("moved");
    assert_eq!(
        (done.state, done.played(), done.games),
        (EvaluationState::Done, 4, 4)
    );
    assert_eq!(done.finished_at, Some(Timestamp::from_ms(3_000)));
    // The lapsed lease is taken over by the jobs' own claim, from the count it had.
    let later = Timestamp::from_ms(10_000);
    let taken = db
        .store
        .claim_value_job("new", later, Timestamp::from_ms(15_000), 1)
        .await
        .expect("claim")
        .expect("the moved evaluation");
    assert_eq!((taken.code.as_str(), taken.played()), (rook.as_str(), 6));
    let old_table = if sqlite {
        "SELECT COUNT(*) FROM sqlite_master WHERE name = 'genome_values'"
    } else {
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'genome_values'"
    };
    assert_eq!(crate::common::scalar(&db, old_table).await, 0);
}
