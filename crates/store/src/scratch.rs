//! Throwaway PostgreSQL databases for tests and benchmarks (feature `testing`): each run gets its
//! own database, made through an admin URL and dropped afterwards, even when the run fails. A
//! missing server is a failure that says how to start one, never a silent skip.

use crate::new_id;
use sqlx::{Connection, PgConnection};
use std::future::Future;

/// Where tests find PostgreSQL when `DATABASE_URL` is not set.
pub const DEFAULT_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

const HOW_TO_START: &str = "start one with \
    `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` \
    or point DATABASE_URL at a server where this user may CREATE DATABASE";

/// `DATABASE_URL`, or the local default.
pub fn admin_url() -> String {
    std::env::var("DATABASE_URL").unwrap_or_else(|_| DEFAULT_ADMIN_URL.into())
}

/// A fresh database on the server behind [`admin_url`].
#[derive(Debug)]
pub struct ScratchDatabase {
    admin: PgConnection,
    name: String,
    url: String,
}

impl ScratchDatabase {
    /// Creates `{prefix}_{random id}`. Panics, saying how to start PostgreSQL, when it cannot.
    pub async fn create(prefix: &str) -> ScratchDatabase {
        let admin_url = admin_url();
        let name = format!("{prefix}_{}", new_id());
        let mut admin = PgConnection::connect(&admin_url).await.unwrap_or_else(|e| {
            panic!("PostgreSQL is not reachable at {admin_url} ({e}): {HOW_TO_START}")
        });
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .unwrap_or_else(|e| panic!("cannot create a scratch database ({e}): {HOW_TO_START}"));
        let url = with_database(&admin_url, &name);
        ScratchDatabase { admin, name, url }
    }

    /// The URL of the scratch database itself.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Drops the database, closing whatever connections still use it.
    pub async fn drop_database(mut self) {
        sqlx::query(&format!("DROP DATABASE {} WITH (FORCE)", self.name))
            .execute(&mut self.admin)
            .await
            .unwrap_or_else(|e| panic!("the scratch database {} was not dropped: {e}", self.name));
    }
}

/// Runs `test` with the URL of a scratch database, and drops the database afterwards — also when
/// the test panics, whose panic is then passed on.
pub async fn with_scratch_database<F, Fut>(prefix: &str, test: F)
where
    F: FnOnce(String) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let database = ScratchDatabase::create(prefix).await;
    let outcome = tokio::spawn(test(database.url().to_owned())).await;
    database.drop_database().await;
    if let Err(failure) = outcome {
        std::panic::resume_unwind(failure.into_panic());
    }
}

/// Terminates every other connection to the database at `url` (as a restart of PostgreSQL
/// would) → how many there were.
pub async fn drop_connections(url: &str) -> u64 {
    let mut connection = PgConnection::connect(url)
        .await
        .unwrap_or_else(|e| panic!("PostgreSQL is not reachable at {url} ({e})"));
    let dropped: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .fetch_all(&mut connection)
    .await
    .unwrap_or_else(|e| panic!("the connections to {url} were not dropped: {e}"));
    dropped.into_iter().filter(|&dropped| dropped).count() as u64
}

/// `url` with its database name replaced by `name`, keeping any query string.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (url, String::new()),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let authority_end = base[authority_start..]
        .find('/')
        .map_or(base.len(), |i| authority_start + i);
    format!("{}/{name}{query}", &base[..authority_end])
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn the_database_name_is_replaced_and_the_rest_kept() {
        let cases = [
            ("postgres://u@h:5432/postgres", "postgres://u@h:5432/x"),
            (
                "postgres://u@h/db?sslmode=disable",
                "postgres://u@h/x?sslmode=disable",
            ),
            ("postgres://u@h", "postgres://u@h/x"),
        ];
        for (url, expected) in cases {
            assert_eq!(with_database(url, "x"), expected, "{url}");
        }
    }
}
