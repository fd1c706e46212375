//! What a server is started with: the HTTP edge's settings, each written once as a flag with its
//! environment variable and default, with the game service's flattened beside them. `gmo serve`
//! parses them; tests start from [`Settings::default`] (the defaults, whatever the environment).
//! Below them, the fixed limits every request lives under.

use gmo_play::{duration_between, switch};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// The largest request body accepted (JSON bodies are small: a move, a preset, some DNA).
pub const BODY_LIMIT: usize = 64 * 1024;
/// The longest DNA accepted, in letters (white space not counted).
pub const MAX_DNA_LETTERS: usize = 4_096;
/// The longest DNA text accepted, in characters, white space included (room for the spaced
/// form and line breaks).
pub const MAX_DNA_TEXT: usize = 4 * MAX_DNA_LETTERS;

/// A server's settings.
#[derive(Debug, Clone, clap::Args)]
#[group(id = "http_edge")]
pub struct Settings {
    /// Address to listen on (port 0: any free port; the line `listening on http://…` says which).
    #[arg(long, env = "BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// How long a request may take before it is answered 408 (streams are exempt).
    #[arg(long, env = "GMO_REQUEST_TIMEOUT", default_value = "10",
          value_parser = duration_between(Duration::from_millis(100), Duration::from_secs(3600)))]
    pub request_timeout: Duration,
    /// How long a connection may take to send a request's headers, and may idle between
    /// keep-alive requests, before it is closed.
    #[arg(long, env = "GMO_HEADER_TIMEOUT", default_value = "10",
          value_parser = duration_between(Duration::from_secs(1), Duration::from_secs(3600)))]
    pub header_timeout: Duration,
    /// The most connections open at once; more wait (in the kernel's backlog) until one closes.
    /// Keep it below the process's descriptor limit (`ulimit -n`) minus the database pool.
    #[arg(long, env = "GMO_MAX_CONNECTIONS", default_value_t = 768,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// Creations (games, labs, genomes, presets, seeks, evaluations, accounts, personal tokens) a
    /// minute per client address, beyond which a creation is answered 429 with Retry-After. 0
    /// turns the limit off.
    #[arg(long, env = "GMO_RATE_LIMIT", default_value_t = 600)]
    pub rate_limit: u32,
    /// Reverse proxies (comma-separated addresses) whose X-Forwarded-For names the client; from
    /// any other peer the header is ignored and the socket's address is the client's.
    #[arg(
        long = "trusted-proxy",
        env = "GMO_TRUSTED_PROXY",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<IpAddr>,
    /// The server sits behind a TLS proxy: the session cookie is marked `Secure`.
    #[arg(long, env = "GMO_BEHIND_TLS", value_parser = switch())]
    pub behind_tls: bool,
    /// The game service's settings.
    #[command(flatten)]
    pub play: gmo_play::Settings,
}

impl Default for Settings {
    /// Every setting's default, whatever the environment holds.
    fn default() -> Settings {
        gmo_play::defaults()
    }
}

impl Settings {
    /// The defaults, listening on `bind` over the database at `database_url` (tests).
    pub fn new(bind: SocketAddr, database_url: impl Into<String>) -> Settings {
        let mut settings = Settings {
            bind,
            ..Settings::default()
        };
        settings.play.database_url = database_url.into();
        settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_parse() {
        let settings = Settings::default();
        assert_eq!(settings.bind, SocketAddr::from(([127, 0, 0, 1], 8080)));
        assert_eq!(settings.request_timeout, Duration::from_secs(10));
        assert_eq!(settings.max_connections, 768);
        assert!(settings.trusted_proxies.is_empty());
        assert_eq!(settings.play.database_url, "sqlite://gmo.sqlite");
    }
}
