//! What a server is started with, and the limits every request lives under.

use std::net::SocketAddr;
use std::time::Duration;

/// The largest request body accepted (JSON bodies are small: a move, a preset, some DNA).
pub const BODY_LIMIT: usize = 64 * 1024;
/// The longest DNA accepted, in letters (white space not counted).
pub const MAX_DNA_LETTERS: usize = 4_096;
/// The longest DNA text accepted, in characters, white space included (room for the spaced
/// form and line breaks).
pub const MAX_DNA_TEXT: usize = 4 * MAX_DNA_LETTERS;

/// The most DNA a lab keeps, in letters: each distinct genome on its board counted once (a
/// full 8×8 board of distinct standard-sized genomes needs a few thousand).
pub const MAX_LAB_DNA_LETTERS: usize = 32_768;

/// [`Config::max_bot_games`] unless configured.
pub const DEFAULT_MAX_BOT_GAMES: u32 = 32;

/// A server's settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen; port 0 picks a free port (tests).
    pub bind: SocketAddr,
    /// `postgres://…` or `sqlite://path`.
    pub database_url: String,
    /// How long a request may take before it is answered 408 (the stream is exempt).
    pub request_timeout: Duration,
    /// How often the expiry sweep looks for games whose clock fell (in this or a dead process),
    /// and the bot loop for bot turns nobody holds.
    pub sweep_interval: Duration,
    /// The most games with a bot seat that may be live (not over) at once in the deployment,
    /// counted in the database; a creation beyond it is answered 503.
    pub max_bot_games: u32,
}

impl Config {
    pub fn new(bind: SocketAddr, database_url: impl Into<String>) -> Config {
        Config {
            bind,
            database_url: database_url.into(),
            request_timeout: Duration::from_secs(10),
            sweep_interval: Duration::from_secs(1),
            max_bot_games: DEFAULT_MAX_BOT_GAMES,
        }
    }
}
