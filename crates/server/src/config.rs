//! What a server is started with, and the limits every request lives under.

use std::net::{IpAddr, SocketAddr};
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

/// [`Config::max_value_jobs`] unless configured: one evaluation at a time, one core.
pub const DEFAULT_MAX_VALUE_JOBS: u32 = 1;
/// [`Config::max_value_queue`] unless configured.
pub const DEFAULT_MAX_VALUE_QUEUE: u32 = 16;
/// [`Config::value_games`] unless configured (as `gmo value`).
pub const DEFAULT_VALUE_GAMES: u32 = gmo_bots::value::DEFAULT_GAMES;

/// [`Config::max_seeks_per_client`] unless configured.
pub const DEFAULT_MAX_SEEKS_PER_CLIENT: u32 = 3;
/// [`Config::max_open_seeks`] unless configured.
pub const DEFAULT_MAX_OPEN_SEEKS: u32 = 1_000;
/// [`Config::header_timeout`] unless configured.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// [`Config::max_connections`] unless configured: far above what the load benchmark opens, and
/// with the database pool and the process's own files well below the usual 1024 descriptors.
pub const DEFAULT_MAX_CONNECTIONS: u32 = 768;

/// [`Retention::unstarted_games`] unless configured: a day.
pub const DEFAULT_UNSTARTED_GAMES: Duration = Duration::from_secs(24 * 60 * 60);
/// [`Retention::idle_labs`] unless configured: 30 days.
pub const DEFAULT_IDLE_LABS: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// What is deleted when nobody came back to it (`None`: kept for good).
#[derive(Debug, Clone, Copy)]
pub struct Retention {
    /// Games still in setup this long after their creation.
    pub unstarted_games: Option<Duration>,
    /// Labs not changed for this long.
    pub idle_labs: Option<Duration>,
    /// How often a process looks (each look deletes in batches until none is left).
    pub every: Duration,
}

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
    /// The most genome value evaluations running at once in the deployment (each plays its games
    /// on one blocking thread), counted in the database; more wait in the queue.
    pub max_value_jobs: u32,
    /// The most value evaluations queued or running in the deployment; asking for one more is
    /// answered 503.
    pub max_value_queue: u32,
    /// Games per value evaluation (docs/workbench.md); tests use a handful.
    pub value_games: u32,
    /// The most open seeks one client (one address) may have in the lobby at once, counted in
    /// the database; one more is answered 409 `seek_limit`.
    pub max_seeks_per_client: u32,
    /// The most open seeks in the whole lobby; one more is answered 503 `lobby_full`.
    pub max_open_seeks: u32,
    /// How long a connection may take to send a request's headers, and may idle between
    /// keep-alive requests, before it is closed.
    pub header_timeout: Duration,
    /// The most connections open at once; more wait in the kernel's backlog until one closes.
    pub max_connections: u32,
    /// What the sweep deletes.
    pub retention: Retention,
    /// Creations (games, labs, genomes, presets) a minute per client address; 0: no limit.
    pub rate_limit: u32,
    /// Peers whose `X-Forwarded-For` names the client (reverse proxies); no others are believed.
    pub trusted_proxies: Vec<IpAddr>,
    /// The PostgreSQL pool's size (SQLite ignores it).
    pub database_connections: u32,
}

impl Config {
    pub fn new(bind: SocketAddr, database_url: impl Into<String>) -> Config {
        Config {
            bind,
            database_url: database_url.into(),
            request_timeout: Duration::from_secs(10),
            sweep_interval: Duration::from_secs(1),
            max_bot_games: DEFAULT_MAX_BOT_GAMES,
            max_value_jobs: DEFAULT_MAX_VALUE_JOBS,
            max_value_queue: DEFAULT_MAX_VALUE_QUEUE,
            value_games: DEFAULT_VALUE_GAMES,
            max_seeks_per_client: DEFAULT_MAX_SEEKS_PER_CLIENT,
            max_open_seeks: DEFAULT_MAX_OPEN_SEEKS,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            retention: Retention {
                unstarted_games: Some(DEFAULT_UNSTARTED_GAMES),
                idle_labs: Some(DEFAULT_IDLE_LABS),
                every: Duration::from_secs(60),
            },
            rate_limit: crate::limits::DEFAULT_RATE_LIMIT,
            trusted_proxies: Vec::new(),
            database_connections: gmo_store::DEFAULT_POSTGRES_CONNECTIONS,
        }
    }
}
