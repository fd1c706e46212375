//! PostgreSQL's own `pgbench` as the yardstick for the PostgreSQL backend (issue 11): how many
//! small write transactions per second this server commits with as many clients as there are
//! games. Each transaction is what a move costs at least: one row updated, one row inserted,
//! one commit.

use gmo_store::scratch::ScratchDatabase;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One transaction a run: pgbench's TPC-B-like accounts table, one update and one history row.
const SCRIPT: &str = "\\set aid random(1, 100000)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :aid, :delta, CURRENT_TIMESTAMP);
END;
";

/// Transactions per second of [`SCRIPT`] with `clients` clients for `seconds`, on a scratch
/// database made and dropped for it. Panics when pgbench is missing or fails.
pub async fn transactions_per_second(clients: u64, seconds: u64) -> f64 {
    let pgbench = find();
    let database = ScratchDatabase::create("gmo_pgbench").await;
    let outcome = measure(&pgbench, database.url(), clients, seconds);
    database.drop_database().await;
    outcome.unwrap_or_else(|failure| panic!("{failure}"))
}

fn measure(pgbench: &Path, url: &str, clients: u64, seconds: u64) -> Result<f64, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary directory: {e}"))?;
    let script = dir.path().join("update_insert.sql");
    std::fs::write(&script, SCRIPT).map_err(|e| format!("the script is not written: {e}"))?;
    run(pgbench, &["-i", "-s", "1", "-q", url])?;
    let (clients, seconds) = (clients.to_string(), seconds.to_string());
    let script = script.display().to_string();
    let output = run(
        pgbench,
        &[
            "-c", &clients, "-j", "2", "-T", &seconds, "-n", "-f", &script, url,
        ],
    )?;
    tps(&output).ok_or_else(|| {
        format!(
            "no `tps = N (without initial connection time)` line in pgbench's output:\n{output}"
        )
    })
}

/// `pgbench` on the PATH, or the newest under `/usr/lib/postgresql/*/bin` (Debian keeps it there).
fn find() -> PathBuf {
    let on_path: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join("pgbench"))
                .collect()
        })
        .unwrap_or_default();
    let mut debian: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|versions| {
            versions
                .filter_map(Result::ok)
                .map(|version| version.path().join("bin/pgbench"))
                .collect()
        })
        .unwrap_or_default();
    debian.sort_by_key(|path| version_of(path));
    on_path
        .into_iter()
        .chain(debian.into_iter().rev())
        .find(|path| path.is_file())
        .unwrap_or_else(|| {
            panic!(
                "--pgbench needs PostgreSQL's pgbench, found neither on the PATH nor under \
                 /usr/lib/postgresql/*/bin: install it (Debian: the postgresql-15 or \
                 postgresql-client package) or drop --pgbench"
            )
        })
}

/// The major version in `/usr/lib/postgresql/<version>/bin/pgbench`, for picking the newest.
fn version_of(path: &Path) -> u32 {
    path.components()
        .rev()
        .nth(2)
        .and_then(|dir| dir.as_os_str().to_str()?.parse().ok())
        .unwrap_or(0)
}

/// Runs pgbench, returning its standard output and error, or both in the failure.
fn run(pgbench: &Path, args: &[&str]) -> Result<String, String> {
    let output = Command::new(pgbench)
        .args(args)
        .output()
        .map_err(|e| format!("{} does not start: {e}", pgbench.display()))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if !output.status.success() {
        return Err(format!(
            "pgbench {} failed ({}):\n{text}",
            args.join(" "),
            output.status
        ));
    }
    Ok(text)
}

/// The figure in `tps = 1234.5 (without initial connection time)`.
fn tps(output: &str) -> Option<f64> {
    output.lines().find_map(|line| {
        line.strip_prefix("tps = ")?
            .strip_suffix(" (without initial connection time)")?
            .parse()
            .ok()
    })
}
