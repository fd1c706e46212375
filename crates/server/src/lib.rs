//! The GMO chess HTTP service: axum routes over the engine and the store, live game streams,
//! server-kept clocks. Handlers are thin: they parse, authorise, call the engine and the store,
//! and render the engine's views.

mod accept;
mod answer;
mod app;
mod bot;
mod clock;
mod config;
mod error;
mod error_code;
mod extract;
mod games;
mod hub;
mod keys;
mod limits;
mod listen;
mod lobby;
mod metrics;
mod openapi;
mod record;
mod rematch;
mod retention;
mod rewind;
mod routes;
mod schema;
mod time;
mod value;
mod views;

pub use app::{AppState, RunningApp, StartError, spawn};
pub use config::{
    BODY_LIMIT, Config, DEFAULT_HEADER_TIMEOUT, DEFAULT_IDLE_LABS, DEFAULT_MAX_BOT_GAMES,
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_OPEN_SEEKS, DEFAULT_MAX_SEEKS_PER_CLIENT,
    DEFAULT_MAX_VALUE_JOBS, DEFAULT_MAX_VALUE_QUEUE, DEFAULT_UNSTARTED_GAMES, DEFAULT_VALUE_GAMES,
    MAX_DNA_LETTERS, MAX_DNA_TEXT, MAX_LAB_DNA_LETTERS, Retention,
};
pub use error::ApiError;
/// The PostgreSQL pool's default size (`Config::database_connections`).
pub use gmo_store::DEFAULT_POSTGRES_CONNECTIONS;
pub use limits::{CreationLimit, DEFAULT_RATE_LIMIT, RateLimiter};
