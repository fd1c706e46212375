//! The test harness: each test is an async fn taking a [`Server`] (the real app, spawned on port
//! 0 over a fresh database), run once on SQLite and once on PostgreSQL by [`both!`].

use futures_util::StreamExt;
use gmo_server::{AppState, RunningApp, Settings};
use gmo_store::scratch::with_scratch_database;
use reqwest::Method;
use serde_json::Value;
use std::future::Future;
use std::time::Duration;

/// A running server and a client for it.
#[derive(Debug)]
pub struct Server {
    pub base: String,
    pub client: reqwest::Client,
    /// The app's shared state, for what only a test looks at (the sizes of its maps).
    pub app: AppState,
    /// Its database.
    pub url: String,
}

/// Generates, for each named test fn, one `#[tokio::test]` per backend.
macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    crate::common::on_sqlite(super::$name).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    crate::common::on_postgres(super::$name).await
                }
            )*
        }
    };
}

/// [`both!`] on servers whose config `$configure` (a `fn(&mut Settings)`) changed first.
macro_rules! both_with {
    ($configure:path; $($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    crate::common::on_sqlite_with($configure, super::$name).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    crate::common::on_postgres_with($configure, super::$name).await
                }
            )*
        }
    };
}

fn settings(url: &str) -> Settings {
    let mut settings = Settings::new(([127, 0, 0, 1], 0).into(), url);
    settings.play.sweep_interval = Duration::from_millis(250);
    // Tests sign up and in dozens of times in a row; the hashing budget has its own test.
    settings.play.password_hash_share = 100;
    // An event's games start by themselves a second after their pairing, not a minute.
    settings.play.event_start_after = Duration::from_secs(1);
    settings
}

async fn run<F, Fut>(url: &str, test: F)
where
    F: FnOnce(Server) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    run_with(url, |_| {}, test).await;
}

async fn run_with<F, Fut>(url: &str, configure: fn(&mut Settings), test: F)
where
    F: FnOnce(Server) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mut settings = settings(url);
    configure(&mut settings);
    let app: RunningApp = gmo_server::spawn(settings)
        .await
        .expect("the server starts");
    let server = Server {
        base: format!("http://{}", app.addr()),
        client: reqwest::Client::new(),
        app: app.state().clone(),
        url: url.to_owned(),
    };
    // Spawned so that a failing test still comes back here and the server is stopped.
    let outcome = tokio::spawn(test(server)).await;
    app.shutdown().await.expect("the server stops cleanly");
    if let Err(failure) = outcome {
        std::panic::resume_unwind(failure.into_panic());
    }
}

/// Runs a test against a server on a new SQLite file in a temporary directory.
pub async fn on_sqlite<F, Fut>(test: F)
where
    F: FnOnce(Server) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    run(&url, test).await;
}

/// Runs a test against a server on a new PostgreSQL database made through `DATABASE_URL`,
/// dropped afterwards even when the test fails. Fails, never skips, when no server answers.
pub async fn on_postgres<F, Fut>(test: F)
where
    F: FnOnce(Server) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    with_scratch_database(
        "gmo_server_test",
        |url| async move { run(&url, test).await },
    )
    .await;
}

/// [`on_sqlite`] with a changed config.
pub async fn on_sqlite_with<F, Fut>(configure: fn(&mut Settings), test: F)
where
    F: FnOnce(Server) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    run_with(&url, configure, test).await;
}

/// [`on_postgres`] with a changed config.
pub async fn on_postgres_with<F, Fut>(configure: fn(&mut Settings), test: F)
where
    F: FnOnce(Server) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    with_scratch_database("gmo_server_test", move |url| async move {
        run_with(&url, configure, test).await
    })
    .await;
}

/// Runs a test against two servers (two "processes") sharing one new PostgreSQL database.
pub async fn two_on_postgres<F, Fut>(test: F)
where
    F: FnOnce(Server, Server) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    with_scratch_database("gmo_server_test", |url| async move {
        let (second, other) = another_server(&url).await;
        run(&url, move |server| test(server, second)).await;
        other.shutdown().await.expect("the second server stops");
    })
    .await;
}

/// Another server (another "process") on the database at `url`, and its handle to stop it.
pub async fn another_server(url: &str) -> (Server, RunningApp) {
    let other = gmo_server::spawn(settings(url))
        .await
        .expect("another server starts");
    let server = Server {
        base: format!("http://{}", other.addr()),
        client: reqwest::Client::new(),
        app: other.state().clone(),
        url: url.to_owned(),
    };
    (server, other)
}

/// An answer: status and JSON body (`Null` when the body is not JSON), plus the raw text.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub text: String,
}

impl Server {
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Answer { status, body, text }
    }

    /// Sends a raw body with a JSON content type.
    pub async fn raw(&self, method: Method, path: &str, token: Option<&str>, body: &str) -> Answer {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body.to_owned());
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Answer { status, body, text }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        self.call(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        self.call(Method::POST, path, token, Some(body)).await
    }

    pub async fn put(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        self.call(Method::PUT, path, token, Some(body)).await
    }

    pub async fn delete(&self, path: &str, token: Option<&str>) -> Answer {
        self.call(Method::DELETE, path, token, None).await
    }

    /// Opens a game's NDJSON stream.
    pub async fn stream(&self, game: &str, token: Option<&str>) -> Lines {
        self.stream_at(&format!("/api/games/{game}/stream"), token)
            .await
    }

    /// Opens the NDJSON stream at `path` (which must answer 200).
    pub async fn stream_at(&self, path: &str, token: Option<&str>) -> Lines {
        let mut request = self.client.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("the stream opens");
        assert_eq!(response.status().as_u16(), 200, "the stream opens");
        let kind = response.headers()["content-type"]
            .to_str()
            .expect("ascii")
            .to_owned();
        assert_eq!(kind, "application/x-ndjson");
        Lines {
            bytes: Box::pin(response.bytes_stream()),
            buffer: Vec::new(),
        }
    }
}

type ByteStream =
    std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>;

/// The lines of an NDJSON stream.
pub struct Lines {
    bytes: ByteStream,
    buffer: Vec<u8>,
}

impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Lines")
    }
}

impl Lines {
    /// The next line as JSON with its raw text, or `None` when the stream ended; panics after
    /// `within` without one.
    pub async fn next_within(&mut self, within: Duration) -> Option<(Value, String)> {
        tokio::time::timeout(within, self.next_line())
            .await
            .expect("a stream line in time")
    }

    pub async fn next(&mut self) -> Option<(Value, String)> {
        self.next_within(Duration::from_secs(10)).await
    }

    async fn next_line(&mut self) -> Option<(Value, String)> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let text = String::from_utf8(line).expect("UTF-8");
                let value = serde_json::from_str(text.trim()).expect("a JSON line");
                return Some((value, text));
            }
            match self.bytes.next().await {
                Some(chunk) => self.buffer.extend_from_slice(&chunk.expect("stream bytes")),
                None => return None,
            }
        }
    }
}
