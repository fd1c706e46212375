//! The routes, one router per resource, merged here under the shared layers: tracing, metrics,
//! the body limit, and a timeout on everything but the (long-lived) game stream.

mod diagram;
pub mod doc;
mod draw;
mod games;
mod genomes;
mod labs;
mod ops;
mod plies;
mod positions;
mod presets;
mod refs;
mod rematch;
mod seek_stream;
mod seeks;
mod stream;

use crate::app::AppState;
use crate::config::BODY_LIMIT;
use crate::error::ApiError;
use crate::metrics;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, StatusCode};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

pub use refs::{genome_of_dna, preset_genomes, resolve_genome, square};

pub fn router(state: AppState) -> Router {
    let timed = Router::new()
        .merge(genomes::router())
        .merge(presets::router())
        .merge(labs::router())
        .merge(games::router())
        .merge(plies::router())
        .merge(positions::router())
        .merge(draw::router())
        .merge(diagram::router())
        .merge(rematch::router())
        .merge(seeks::router())
        .merge(ops::router())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            state.config.request_timeout,
        ));
    Router::new()
        .merge(timed)
        .merge(stream::router())
        .merge(seek_stream::router())
        // The web client: embedded pages and assets at `/`, using only the API above.
        .merge(gmo_web::router())
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(|| async {
            ApiError::NotFound {
                what: "route",
                key: "this path".into(),
            }
        })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            state.metrics.clone(),
            metrics::count,
        ))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// A method a path does not have: the JSON error body (axum adds the `Allow` header).
async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::MethodNotAllowed(format!(
        "this path does not answer {method}; the Allow header lists the methods it does"
    ))
}
