//! Metrics: the requests this edge answered, beside the game service's own counters, in one
//! `prometheus-client` registry served as OpenMetrics text at `/metrics`.

use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;
use std::sync::Arc;

/// The labels of an answered request: method, route template and status, all chosen by the
/// server, so that clients cannot grow the label set.
#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: String,
    status: u16,
}

/// The registry and the edge's counters. Shared through the app state.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
}

impl Metrics {
    /// The edge's counters and the game service's, in one registry.
    pub fn new(play: &gmo_play::Metrics) -> Metrics {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "gmo_http_requests",
            "HTTP requests answered",
            requests.clone(),
        );
        play.register(&mut registry);
        Metrics { registry, requests }
    }

    /// The OpenMetrics text of every counter.
    pub fn render(&self) -> String {
        let mut text = String::new();
        if let Err(error) = prometheus_client::encoding::text::encode(&mut text, &self.registry) {
            tracing::error!(%error, "metrics could not be written");
        }
        text
    }
}

/// Middleware: counts every answered request under its route template (not its raw path, so
/// ids do not blow up the label set; a path no route matches is `unmatched`).
pub async fn count(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let method = method_label(request.method());
    let response = next.run(request).await;
    let labels = RequestLabels {
        method,
        route,
        status: response.status().as_u16(),
    };
    metrics.requests.get_or_create(&labels).inc();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_written_in_the_openmetrics_text_format() {
        let play = gmo_play::Metrics::default();
        let metrics = Metrics::new(&play);
        play.moves.inc();
        let labels = RequestLabels {
            method: "GET",
            route: "/healthz".into(),
            status: 200,
        };
        metrics.requests.get_or_create(&labels).inc_by(2);
        let text = metrics.render();
        assert!(text.contains("# TYPE gmo_moves counter"), "{text}");
        assert!(text.contains("\ngmo_moves_total 1\n"), "{text}");
        assert!(
            text.contains(
                r#"gmo_http_requests_total{method="GET",route="/healthz",status="200"} 2"#
            ),
            "{text}"
        );
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
