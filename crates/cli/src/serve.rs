//! `gmo serve`: the HTTP service. Configuration by flags with environment fallbacks (the
//! server's `Settings`, written once); with nothing set it serves on loopback from a SQLite file
//! in the working directory.

use gmo_server::Settings;
use std::net::SocketAddr;
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

/// `gmo serve`'s flags: the server's settings, each with its environment variable and default
/// (docs/operations.md lists the same).
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    settings: Settings,
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
    // Every setting as it took, whichever of flag, variable or default gave it: what an operator
    // checks first (and what the settings test reads).
    tracing::info!("gmo serve starts with {:?}", shown(&args.settings));
    let app = match gmo_server::spawn(args.settings).await {
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

/// The settings as logged: the database URL without its password.
fn shown(settings: &Settings) -> Settings {
    let mut shown = settings.clone();
    shown.play.database_url = without_password(&settings.play.database_url);
    shown
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`, and a `password` in the
/// query likewise; a URL that does not parse is not shown at all.
fn without_password(text: &str) -> String {
    let Ok(mut url) = url::Url::parse(text) else {
        return "(not a URL)".to_owned();
    };
    if url.password().is_some() {
        // Only URLs that cannot have credentials refuse one, and this one has them.
        let _ = url.set_password(Some("***"));
    }
    if url.query_pairs().any(|(key, _)| key == "password") {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(key, value)| {
                let value = if key == "password" {
                    "***".into()
                } else {
                    value
                };
                (key.into_owned(), value.into_owned())
            })
            .collect();
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    url.to_string()
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
pub(crate) async fn shutdown_signal() {
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

#[cfg(test)]
mod tests {
    use super::{ServeArgs, without_password};
    use clap::{ArgAction, Args, Command};

    const OPERATIONS: &str = include_str!("../../../docs/operations.md");

    /// The rows of docs/operations.md's tables that name `--flag` / `VARIABLE`.
    fn row(flag: &str, variable: &str) -> Option<&'static str> {
        let head = format!("| `--{flag}` / `{variable}`");
        OPERATIONS.lines().find(|line| line.starts_with(&head))
    }

    #[test]
    fn the_operations_page_lists_every_setting_with_its_variable_and_default() {
        let command = ServeArgs::augment_args(Command::new("serve"));
        let mut listed = 0;
        for arg in command.get_arguments() {
            let Some(flag) = arg.get_long() else { continue };
            let variable = arg
                .get_env()
                .and_then(|variable| variable.to_str())
                .unwrap_or_else(|| panic!("--{flag} has no environment variable"));
            let row = row(flag, variable).unwrap_or_else(|| {
                panic!("docs/operations.md has no row `--{flag}` / `{variable}`")
            });
            let defaults: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|value| value.to_string_lossy().into_owned())
                .collect();
            let expected = if defaults.is_empty() {
                "none".to_owned()
            } else {
                defaults.join(",")
            };
            let cell = row.split(" | ").nth(1).unwrap_or_default();
            let shown = cell.replace(['`', ','], "");
            let shown = shown.split_whitespace().next().unwrap_or_default();
            assert_eq!(shown, expected, "the default of --{flag} in: {row}");
            listed += 1;
        }
        assert!(listed >= 18, "only {listed} settings were found");
    }

    /// Every on/off setting with a variable reads it as operators write it (docs/operations.md
    /// says `GMO_DISCOVERY=1`): its value parser takes each form, in any case.
    #[test]
    fn every_switch_takes_1_0_true_false_yes_no() {
        let command = ServeArgs::augment_args(Command::new("serve"));
        let mut switches = 0;
        for arg in command.get_arguments() {
            if arg.get_env().is_none() || !matches!(arg.get_action(), ArgAction::SetTrue) {
                continue;
            }
            let flag = arg.get_long().expect("a switch has a long name");
            for (text, on) in [
                ("1", true),
                ("0", false),
                ("true", true),
                ("false", false),
                ("yes", true),
                ("no", false),
                ("Yes", true),
                ("FALSE", false),
            ] {
                // The switch's own value parser, given the variable's text as a value.
                let alone = arg.clone().env(None).action(ArgAction::Set).num_args(1);
                let parsed = Command::new("t")
                    .arg(alone)
                    .try_get_matches_from(["t", &format!("--{flag}"), text])
                    .unwrap_or_else(|error| panic!("--{flag} refuses {text:?}: {error}"));
                assert_eq!(
                    parsed.get_one::<bool>(arg.get_id().as_str()),
                    Some(&on),
                    "--{flag} given {text:?}"
                );
            }
            switches += 1;
        }
        assert!(switches >= 2, "only {switches} switches were found");
    }

    #[test]
    fn the_logged_database_url_has_no_password() {
        assert_eq!(
            without_password("postgres://gmo:s3cret@db:5432/gmo"),
            "postgres://gmo:***@db:5432/gmo"
        );
        assert_eq!(
            without_password("postgres://gmo@db/gmo"),
            "postgres://gmo@db/gmo"
        );
        assert_eq!(
            without_password("postgres://gmo@db/gmo?password=s3cret&sslmode=disable"),
            "postgres://gmo@db/gmo?password=***&sslmode=disable"
        );
        assert_eq!(
            without_password("sqlite://gmo.sqlite"),
            "sqlite://gmo.sqlite"
        );
    }
}
