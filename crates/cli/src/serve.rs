//! `gmo serve`: the HTTP service. Configuration by flags with environment fallbacks; with
//! nothing set it serves on loopback from a SQLite file in the working directory.

use gmo_server::Config;
use std::net::SocketAddr;
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port; the line `listening on http://…` says which).
    #[arg(long, env = "BIND", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// `postgres://…` or `sqlite://path` (the file is created on first start).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://gmo.sqlite")]
    database_url: String,
    /// The most live games with a bot seat in the whole deployment (counted in the database);
    /// creating one more is answered 503. 0 refuses every game with a bot.
    #[arg(long, env = "GMO_MAX_BOT_GAMES", default_value_t = gmo_server::DEFAULT_MAX_BOT_GAMES)]
    max_bot_games: u32,
    /// The most genome value evaluations running at once in the whole deployment (counted in the
    /// database); each takes one core while it runs.
    #[arg(long, env = "GMO_MAX_VALUE_JOBS", default_value_t = gmo_server::DEFAULT_MAX_VALUE_JOBS)]
    max_value_jobs: u32,
    /// The most value evaluations queued or running in the deployment; one more is answered 503.
    #[arg(long, env = "GMO_MAX_VALUE_QUEUE",
          default_value_t = gmo_server::DEFAULT_MAX_VALUE_QUEUE)]
    max_value_queue: u32,
    /// Games per value evaluation.
    #[arg(long, env = "GMO_VALUE_GAMES", default_value_t = gmo_server::DEFAULT_VALUE_GAMES,
          value_parser = clap::value_parser!(u32).range(2..=100_000))]
    value_games: u32,
    /// The most open seeks one client (address) may have in the lobby at once.
    #[arg(long, env = "GMO_MAX_SEEKS_PER_CLIENT",
          default_value_t = gmo_server::DEFAULT_MAX_SEEKS_PER_CLIENT)]
    max_seeks_per_client: u32,
    /// The most open seeks in the whole lobby (counted in the database).
    #[arg(long, env = "GMO_MAX_OPEN_SEEKS", default_value_t = gmo_server::DEFAULT_MAX_OPEN_SEEKS)]
    max_open_seeks: u32,
    /// Seconds a connection may take to send a request's headers, and may idle between
    /// keep-alive requests, before it is closed.
    #[arg(long, env = "GMO_HEADER_TIMEOUT", default_value_t = gmo_server::DEFAULT_HEADER_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// The most connections open at once; more wait (in the kernel's backlog) until one closes.
    /// Keep it below the process's descriptor limit (`ulimit -n`) minus the database pool.
    #[arg(long, env = "GMO_MAX_CONNECTIONS", default_value_t = gmo_server::DEFAULT_MAX_CONNECTIONS,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: u32,
    /// Seconds after its creation a game nobody started (still in setup) is deleted; 0 keeps
    /// them. Games that started stay for good.
    #[arg(long, env = "GMO_EXPIRE_UNSTARTED_GAMES_AFTER",
          default_value_t = gmo_server::DEFAULT_UNSTARTED_GAMES.as_secs())]
    expire_unstarted_games_after: u64,
    /// Seconds after its last change a lab is deleted; 0 keeps them.
    #[arg(long, env = "GMO_EXPIRE_IDLE_LABS_AFTER",
          default_value_t = gmo_server::DEFAULT_IDLE_LABS.as_secs())]
    expire_idle_labs_after: u64,
    /// Creations (games, labs, genomes, presets) a minute per client address, beyond which a
    /// creation is answered 429 with Retry-After. 0 turns the limit off.
    #[arg(long, env = "GMO_RATE_LIMIT", default_value_t = gmo_server::DEFAULT_RATE_LIMIT)]
    rate_limit: u32,
    /// Reverse proxies (comma-separated addresses) whose X-Forwarded-For names the client; from
    /// any other peer the header is ignored and the socket's address is the client's.
    #[arg(long, env = "GMO_TRUSTED_PROXY", value_delimiter = ',')]
    trusted_proxy: Vec<std::net::IpAddr>,
    /// Connections to PostgreSQL (SQLite ignores it). Moves committing at once share a disk
    /// flush, so up to about the number of players moving at once this raises moves a second;
    /// PostgreSQL's own `max_connections` must leave room for every process's pool.
    #[arg(long, env = "GMO_DATABASE_CONNECTIONS",
          default_value_t = gmo_server::DEFAULT_POSTGRES_CONNECTIONS,
          value_parser = clap::value_parser!(u32).range(1..=1_000))]
    database_connections: u32,
}

pub fn run(args: ServeArgs) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info")),
        )
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("gmo serve: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(serve(args))
}

async fn serve(args: ServeArgs) -> ExitCode {
    let mut config = Config::new(args.bind, args.database_url);
    config.max_bot_games = args.max_bot_games;
    config.max_value_jobs = args.max_value_jobs;
    config.database_connections = args.database_connections;
    config.max_value_queue = args.max_value_queue;
    config.value_games = args.value_games;
    config.max_seeks_per_client = args.max_seeks_per_client;
    config.max_open_seeks = args.max_open_seeks;
    config.rate_limit = args.rate_limit;
    let age = |seconds: u64| (seconds > 0).then(|| std::time::Duration::from_secs(seconds));
    config.retention.unstarted_games = age(args.expire_unstarted_games_after);
    config.retention.idle_labs = age(args.expire_idle_labs_after);
    config.header_timeout = std::time::Duration::from_secs(args.header_timeout);
    config.max_connections = args.max_connections;
    config.trusted_proxies = args.trusted_proxy;
    let app = match gmo_server::spawn(config).await {
        Ok(app) => app,
        Err(error) => {
            tracing::error!(%error, "gmo serve could not start");
            return ExitCode::FAILURE;
        }
    };
    announce(app.addr());
    match app.serve_until(shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "gmo serve stopped with an error");
            ExitCode::FAILURE
        }
    }
}

/// One plain line on stdout whatever the log filter, so that scripts and tests started with
/// `--bind 127.0.0.1:0` can read the port the system picked.
fn announce(addr: SocketAddr) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // Nobody reading stdout is no reason to stop serving.
    let _ = writeln!(out, "listening on http://{addr}");
    let _ = out.flush();
}

/// Ctrl-C or SIGTERM (what a supervisor or `docker stop` sends).
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::warn!(%error, "cannot listen for ctrl-c");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
