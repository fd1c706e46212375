//! The test harness: each test is written once, as an async fn taking a [`Db`], and run against a
//! fresh SQLite file and a fresh PostgreSQL database by [`both!`].

use gmo_store::Store;
use sqlx::Connection;
use std::future::Future;

/// A fresh, migrated database and the URL it was opened with (to open it again).
#[derive(Debug)]
pub struct Db {
    pub store: Store,
    pub url: String,
}

/// Generates, for each named test fn, one `#[tokio::test]` per backend.
macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    crate::common::on_sqlite(super::$name).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    crate::common::on_postgres(super::$name).await
                }
            )*
        }
    };
}

/// Runs a test against a new SQLite file in a temporary directory.
pub async fn on_sqlite<F, Fut>(test: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    let store = Store::connect(&url).await.expect("SQLite store opens");
    test(Db { store, url }).await;
}

/// Runs a test against a new PostgreSQL database made through `DATABASE_URL`, dropped afterwards
/// even when the test fails. Fails, never skips, when no server answers.
pub async fn on_postgres<F, Fut>(test: F)
where
    F: FnOnce(Db) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    gmo_store::scratch::with_scratch_database("gmo_test", |url| async move {
        let store = Store::connect(&url).await.expect("PostgreSQL store opens");
        test(Db { store, url }).await;
    })
    .await;
}

/// How many rows a table has, asked directly of the database behind the store's back.
pub async fn count_rows(db: &Db, table: &str) -> i64 {
    scalar(db, &format!("SELECT COUNT(*) FROM {table}")).await
}

/// The one number `sql` answers, asked directly of the database behind the store's back.
pub async fn scalar(db: &Db, sql: &str) -> i64 {
    if db.url.starts_with("sqlite:") {
        let mut conn = sqlx::SqliteConnection::connect(&db.url)
            .await
            .expect("connects");
        sqlx::query_scalar(sql)
            .fetch_one(&mut conn)
            .await
            .expect("counts")
    } else {
        let mut conn = sqlx::PgConnection::connect(&db.url)
            .await
            .expect("connects");
        sqlx::query_scalar(sql)
            .fetch_one(&mut conn)
            .await
            .expect("counts")
    }
}

/// Runs `sql` directly on the database behind the store's back (to break what the store keeps).
pub async fn execute(db: &Db, sql: &str) {
    if db.url.starts_with("sqlite:") {
        let mut conn = sqlx::SqliteConnection::connect(&db.url)
            .await
            .expect("connects");
        sqlx::query(sql).execute(&mut conn).await.expect("runs");
    } else {
        let mut conn = sqlx::PgConnection::connect(&db.url)
            .await
            .expect("connects");
        sqlx::query(sql).execute(&mut conn).await.expect("runs");
    }
}

/// Makes PostgreSQL drop every connection to the test's database but the asking one (as a
/// restart would) → how many it dropped; 0 on SQLite, which has no server.
pub async fn drop_connections(db: &Db) -> u64 {
    if db.url.starts_with("sqlite:") {
        return 0;
    }
    let mut conn = sqlx::PgConnection::connect(&db.url)
        .await
        .expect("connects");
    let dropped: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .fetch_all(&mut conn)
    .await
    .expect("drops connections");
    dropped.into_iter().filter(|&d| d).count() as u64
}
