//! Prometheus metrics, hand-rolled: a few counters rendered as the text exposition format.

use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The service's counters. Shared by every request through the app state.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Requests by (method, route template, status).
    requests: Mutex<BTreeMap<(String, String, u16), u64>>,
    pub moves: AtomicU64,
    pub games_created: AtomicU64,
    pub games_started: AtomicU64,
    pub games_ended: AtomicU64,
}

impl Metrics {
    fn count_request(&self, method: &str, route: &str, status: u16) {
        // A poisoned lock only means a panic mid-increment elsewhere: the map is still usable.
        let mut requests = self
            .requests
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *requests
            .entry((method.to_owned(), route.to_owned(), status))
            .or_default() += 1;
    }

    pub fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// The text exposition format (version 0.0.4).
    pub fn render(&self) -> String {
        let mut text = String::new();
        text.push_str("# HELP gmo_http_requests_total HTTP requests answered.\n");
        text.push_str("# TYPE gmo_http_requests_total counter\n");
        let requests = self
            .requests
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for ((method, route, status), count) in requests.iter() {
            let _ = writeln!(
                text,
                "gmo_http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {count}"
            );
        }
        drop(requests);
        for (name, help, counter) in [
            ("gmo_moves_total", "Moves played.", &self.moves),
            (
                "gmo_games_created_total",
                "Games created.",
                &self.games_created,
            ),
            (
                "gmo_games_started_total",
                "Games started.",
                &self.games_started,
            ),
            ("gmo_games_ended_total", "Games ended.", &self.games_ended),
        ] {
            let _ = writeln!(text, "# HELP {name} {help}\n# TYPE {name} counter");
            let _ = writeln!(text, "{name} {}", counter.load(Ordering::Relaxed));
        }
        text
    }
}

/// Middleware: counts every answered request under its route template (not its raw path, so
/// ids do not blow up the label set; a path no route matches is `unmatched`).
pub async fn count(
    State(metrics): State<std::sync::Arc<Metrics>>,
    request: Request,
    next: Next,
) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let method = method_label(request.method());
    let response = next.run(request).await;
    metrics.count_request(method, &route, response.status().as_u16());
    response
}

/// The method as a label: one of the standard methods, else `other`, so that a client cannot
/// add label sets by inventing methods.
fn method_label(method: &Method) -> &'static str {
    static KNOWN: [Method; 9] = [
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
        Method::OPTIONS,
        Method::CONNECT,
        Method::TRACE,
    ];
    KNOWN
        .iter()
        .find(|known| *known == method)
        .map_or("other", Method::as_str)
}
