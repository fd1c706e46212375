//! `gmo work`: a process that only takes jobs (game analyses, genome value evaluations) from the
//! service's database, so that another machine adds capacity (docs/service.md, "Jobs"). It
//! serves no HTTP.

use crate::serve::shutdown_signal;
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

/// `gmo work`'s flags: the game service's settings (`--database-url`, `--max-analyses`,
/// `--analysis-nodes`, `--max-value-jobs`, `--value-games`, `--sweep-interval` are the ones it
/// reads).
#[derive(Debug, clap::Args)]
pub struct WorkArgs {
    #[command(flatten)]
    settings: gmo_play::Settings,
}

pub fn run(args: WorkArgs) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")),
        )
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("gmo work: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(gmo_play::worker::work_until(
        &args.settings,
        shutdown_signal(),
    )) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "gmo work stopped with an error");
            ExitCode::FAILURE
        }
    }
}
