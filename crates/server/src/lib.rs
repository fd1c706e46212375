//! The GMO chess HTTP edge: axum routes in front of the game service (`gmo-play`), live NDJSON
//! streams, the OpenAPI document, health and metrics. Handlers are thin: they read and check the
//! request, call the service, and render its answer as typed views; `ApiError` turns the
//! service's refusals into status codes and JSON bodies.

mod accept;
mod answer;
mod app;
mod discovery;
mod error;
mod error_code;
mod extract;
mod keys;
mod language;
mod limits;
mod lines;
mod metrics;
mod openapi;
mod openapi_lab;
mod openapi_rules;
mod origin;
mod record;
mod responses;
mod routes;
mod schema;
mod settings;
mod signed;
mod state;
mod views;

pub use app::{RunningApp, StartError, spawn};
pub use error::ApiError;
pub use limits::{Clients, CreationLimit, RateLimiter};
pub use settings::{BODY_LIMIT, MAX_DNA_LETTERS, MAX_DNA_TEXT, Settings};
pub use state::AppState;
