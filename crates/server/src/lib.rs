//! The GMO chess HTTP service: axum routes over the engine and the store, live game streams,
//! server-kept clocks. Handlers are thin: they parse, authorise, call the engine and the store,
//! and render the engine's views.

mod app;
mod bot;
mod clock;
mod config;
mod error;
mod error_code;
mod extract;
mod games;
mod hub;
mod listen;
mod metrics;
mod openapi;
mod record;
mod routes;
mod schema;
mod time;
mod views;

pub use app::{AppState, RunningApp, StartError, spawn};
pub use config::{
    BODY_LIMIT, Config, DEFAULT_MAX_BOT_GAMES, MAX_DNA_LETTERS, MAX_DNA_TEXT, MAX_LAB_DNA_LETTERS,
};
pub use error::ApiError;
