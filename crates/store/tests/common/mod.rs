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

const DEFAULT_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";
const HOW_TO_START: &str = "start one with \
    `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` \
    or point DATABASE_URL at a server where this user may CREATE DATABASE";

/// Runs a test against a new PostgreSQL database made through `DATABASE_URL`, dropped afterwards
/// even when the test fails. Fails, never skips, when no server answers.
pub async fn on_postgres<F, Fut>(test: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let admin_url = std::env::var("DATABASE_URL").unwrap_or_else(|_| DEFAULT_ADMIN_URL.into());
    let name = format!("gmo_test_{}", gmo_store::new_id());
    let mut admin = sqlx::PgConnection::connect(&admin_url)
        .await
        .unwrap_or_else(|e| {
            panic!("PostgreSQL is not reachable at {admin_url} ({e}): {HOW_TO_START}")
        });
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap_or_else(|e| panic!("cannot create a test database ({e}): {HOW_TO_START}"));
    let url = with_database(&admin_url, &name);
    let store = Store::connect(&url).await.expect("PostgreSQL store opens");
    // Spawned so that a failing test still comes back here and its database is dropped.
    let outcome = tokio::spawn(test(Db { store, url })).await;
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .expect("the test database is dropped");
    if let Err(failure) = outcome {
        std::panic::resume_unwind(failure.into_panic());
    }
}

/// `url` with its database name replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (url, String::new()),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let authority_end = base[authority_start..]
        .find('/')
        .map_or(base.len(), |i| authority_start + i);
    format!(
        "{}/{name}{query}",
        &base[..authority_start.max(authority_end)]
    )
}

/// How many rows a table has, asked directly of the database behind the store's back.
pub async fn count_rows(db: &Db, table: &str) -> i64 {
    let sql = format!("SELECT COUNT(*) FROM {table}");
    if db.url.starts_with("sqlite:") {
        let mut conn = sqlx::SqliteConnection::connect(&db.url)
            .await
            .expect("connects");
        sqlx::query_scalar(&sql)
            .fetch_one(&mut conn)
            .await
            .expect("counts")
    } else {
        let mut conn = sqlx::PgConnection::connect(&db.url)
            .await
            .expect("connects");
        sqlx::query_scalar(&sql)
            .fetch_one(&mut conn)
            .await
            .expect("counts")
    }
}
