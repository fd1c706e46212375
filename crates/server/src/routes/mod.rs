//! The routes, one router per resource, merged here under the shared layers: tracing, metrics,
//! the body limit, and a timeout on everything but the (long-lived) game stream.

pub(crate) mod accounts;
pub(crate) mod analysis;
pub(crate) mod bots;
pub(crate) mod breed;
pub(crate) mod challenges;
pub(crate) mod config;
pub(crate) mod diagram;
pub(crate) mod draw;
pub(crate) mod event_stream;
pub(crate) mod events;
pub(crate) mod events_trf;
pub(crate) mod game_event;
pub(crate) mod games;
pub(crate) mod genomes;
pub(crate) mod lab_analysis;
pub(crate) mod labs;
pub(crate) mod library;
pub(crate) mod ops;
pub(crate) mod plies;
pub(crate) mod positions;
pub(crate) mod presets;
mod refs;
pub(crate) mod rematch;
pub(crate) mod seek_stream;
pub(crate) mod seeks;
pub(crate) mod stream;
pub(crate) mod users;
pub(crate) mod values;
pub(crate) mod watch;

use crate::error::ApiError;
use crate::metrics;
use crate::settings::BODY_LIMIT;
use crate::state::AppState;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

/// Every route (and `extra`, the OpenAPI document's) under the shared layers.
pub fn router(state: AppState, extra: Router<AppState>) -> Router {
    // In discovery, the decoding tools answer 403 (`crate::discovery`).
    let decoding = Router::new()
        .merge(breed::router())
        .merge(diagram::router())
        .merge(values::router())
        .merge(library::router())
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::discovery::refuse,
        ));
    let timed = Router::new()
        .merge(config::router())
        .merge(accounts::router())
        .merge(users::router())
        .merge(events::router())
        .merge(game_event::router())
        .merge(watch::router())
        .merge(genomes::router())
        .merge(decoding)
        .merge(presets::router())
        .merge(labs::router())
        .merge(lab_analysis::router())
        .merge(games::router())
        .merge(plies::router())
        .merge(analysis::router())
        .merge(positions::router())
        .merge(draw::router())
        .merge(rematch::router())
        .merge(seeks::router())
        .merge(challenges::router())
        .merge(bots::router())
        .merge(ops::router())
        .merge(extra)
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            state.settings.request_timeout,
        ));
    Router::new()
        .merge(timed)
        .merge(stream::router())
        .merge(seek_stream::router())
        .merge(event_stream::router())
        .merge(events::stream_router())
        .merge(
            values::stream_router().route_layer(axum::middleware::from_fn_with_state(
                state.clone(),
                crate::discovery::refuse,
            )),
        )
        // The web client: embedded pages and assets at `/`, using only the API above.
        .merge(gmo_web::router())
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(no_route)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(to_completion))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::discovery::conceal,
        ))
        .layer(axum::middleware::from_fn(crate::origin::same_origin))
        .layer(axum::middleware::from_fn_with_state(
            state.metrics.clone(),
            metrics::count,
        ))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Middleware: a request that may change something (any method but GET and HEAD) runs to its end
/// in a task of its own, even when the client goes away meanwhile. Dropped half-way, a change
/// could be committed but never announced (the streams would miss it: a move, a rematch ask); in
/// its own task it is announced whatever the client does.
async fn to_completion(request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    // In the request's span, so that its logs stay with it.
    let run = tracing::Instrument::in_current_span(next.run(request));
    match tokio::spawn(run).await {
        Ok(response) => response,
        Err(failure) => {
            ApiError::internal(format!("the request's task failed: {failure}")).into_response()
        }
    }
}

/// The longest part of an unknown path an answer repeats.
const SHOWN_PATH: usize = 100;

/// A path no route answers: 404 naming it (cut short when long).
async fn no_route(uri: axum::http::Uri) -> ApiError {
    let path = uri.path();
    let mut shown: String = path.chars().take(SHOWN_PATH).collect();
    if shown.len() < path.len() {
        shown.push('…');
    }
    ApiError::NotFound {
        what: "route",
        key: shown,
    }
}

/// A method a path does not have: the JSON error body (axum adds the `Allow` header).
async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::MethodNotAllowed(format!(
        "this path does not answer {method}; the Allow header lists the methods it does"
    ))
}

#[cfg(test)]
mod tests {
    use super::to_completion;
    use axum::Router;
    use axum::body::Body;
    use axum::http::Request;
    use axum::routing::{get, post};
    use std::sync::Arc;
    use std::time::Duration;
    use tokio::sync::{Notify, mpsc};
    use tower::ServiceExt;

    /// A handler that says it started, waits to be let go, then says it finished.
    fn app(started: mpsc::Sender<()>, go: Arc<Notify>, finished: mpsc::Sender<()>) -> Router {
        let handler = move || {
            let (started, go, finished) = (started.clone(), go.clone(), finished.clone());
            async move {
                let _ = started.send(()).await;
                go.notified().await;
                let _ = finished.send(()).await;
            }
        };
        Router::new()
            .route("/change", post(handler.clone()))
            .route("/read", get(handler))
            .layer(axum::middleware::from_fn(to_completion))
            .layer(axum::middleware::from_fn(crate::origin::same_origin))
    }

    /// Starts a request, drops it once its handler runs (the client went away), then lets the
    /// handler go on → whether it finished.
    async fn dropped_half_way(method: &str, path: &str) -> bool {
        let (started, mut running) = mpsc::channel(1);
        let (finished, mut done) = mpsc::channel(1);
        let go = Arc::new(Notify::new());
        let request = Request::builder()
            .method(method)
            .uri(path)
            .body(Body::empty())
            .expect("a request");
        let call = tokio::spawn(app(started, go.clone(), finished).oneshot(request));
        running.recv().await.expect("the handler started");
        call.abort();
        let _ = call.await;
        go.notify_one();
        // A finished handler says so; a dropped one closes the channel without a word. (The
        // bound only keeps a broken test from hanging.)
        tokio::time::timeout(Duration::from_secs(30), done.recv())
            .await
            .expect("the handler either finishes or is dropped")
            .is_some()
    }

    #[tokio::test]
    async fn a_change_runs_to_its_end_when_the_client_goes_away() {
        assert!(
            dropped_half_way("POST", "/change").await,
            "the change finished"
        );
        // A read is not worth finishing: the middleware leaves it to the connection.
        assert!(
            !dropped_half_way("GET", "/read").await,
            "the read was dropped"
        );
    }
}
