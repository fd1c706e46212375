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
