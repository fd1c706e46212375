//! Load benchmark of `gmo serve` (issue 5, Performance): the real binary, built with the bench
//! profile, in its own process on a fresh database; this process plays many games at once over
//! HTTP, one request at a time per game, and reports acknowledged (durable) plies per second and
//! their latency. A ply is acknowledged when the server answered 200, after its commit.
//!
//! `cargo bench -p gmo --bench load -- [--games 64] [--seconds 20] [--backend both|sqlite|postgres]
//! [--plies N] [--pgbench] [--base URL]`
//!
//! - `--plies N`: stop after N acknowledged plies in all instead of after `--seconds`.
//! - `--pgbench` (issue 11): before the PostgreSQL run, PostgreSQL's own `pgbench` runs one
//!   update and one insert a transaction with as many clients as games, for `--seconds`, and the
//!   games' rate is reported as a share of its rate. The backend defaults to `postgres` then.
//! - `--sign-ins N` (issue 23): N accounts are signed up first, then N loops sign in with them,
//!   one request at a time each, beside the games; their rate and latency are reported.
//! - `--base URL`: drive a `gmo serve` that is already running there (the callgrind script's
//!   way) instead of starting one; no database is made and no server CPU is measured.
//!
//! On PostgreSQL each run also reports WAL bytes per acknowledged ply and the share of HOT
//! updates of `games` (approximate, `wal.rs` says why), and fails below 90 % HOT. A new database is made (and dropped)
//! through `DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`). The server logs
//! as `RUST_LOG` says (its default when unset: request tracing at `info`).

mod pgbench;
mod player;
mod server;
mod signins;
mod stop;
mod wal;

use player::{Client, Tally};
use std::time::{Duration, Instant};
use stop::Stop;

/// The `gmo serve` settings the benchmark runs with: the load comes from one address, so the
/// per-client creation limit is off; the connection cap's default is far above `--games`.
const LIMITS: &[&str] = &["--rate-limit", "0"];

struct Options {
    games: u64,
    seconds: u64,
    plies: Option<u64>,
    backends: Vec<&'static str>,
    pgbench: bool,
    base: Option<String>,
    sign_ins: u64,
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .position(|arg| arg == name)
            .and_then(|at| args.get(at + 1))
    };
    let number = |name: &str| value(name).and_then(|v| v.parse().ok());
    let pgbench = args.iter().any(|arg| arg == "--pgbench");
    let backends = match value("--backend").map(String::as_str) {
        Some("sqlite") => vec!["sqlite"],
        Some("postgres") => vec!["postgres"],
        Some("both") => vec!["sqlite", "postgres"],
        _ if pgbench => vec!["postgres"],
        _ => vec!["sqlite", "postgres"],
    };
    Options {
        games: number("--games").unwrap_or(64),
        seconds: number("--seconds").unwrap_or(20),
        plies: number("--plies"),
        backends,
        pgbench,
        base: value("--base").cloned(),
        sign_ins: number("--sign-ins").unwrap_or(0),
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let options = options();
    println!(
        "machine: {} cores, {}",
        std::thread::available_parallelism().map_or(0, usize::from),
        server::cpu_model()
    );
    if let Some(base) = &options.base {
        let load_before = server::load_average();
        let run = run(base, &options).await;
        report(
            &format!("server at {base}"),
            &options,
            &run,
            None,
            &load_before,
        );
        return;
    }
    let mut failed = false;
    for backend in &options.backends {
        failed |= !bench(backend, &options).await;
    }
    if failed {
        std::process::exit(1);
    }
}

/// One backend: the yardstick when asked for, then the games on a fresh database → whether its
/// checks held (HOT updates on PostgreSQL).
async fn bench(backend: &str, options: &Options) -> bool {
    let postgres = backend == "postgres";
    let yardstick = if options.pgbench && postgres {
        Some(pgbench::transactions_per_second(options.games, options.seconds).await)
    } else {
        None
    };
    let database = server::Database::new(backend).await;
    // One client address plays every game: no per-client rate limit (docs/performance.md).
    let gmo = server::Gmo::start_with(database.url(), LIMITS);
    let wal = if postgres {
        Some(wal::Wal::start(database.url()).await)
    } else {
        None
    };
    let load_before = server::load_average();
    let cpu_before = (server::cpu_seconds(&gmo), server::cpu_seconds_of("self"));
    let machine_before = server::machine_ticks();
    let run = run(&gmo.base, options).await;
    let machine_after = server::machine_ticks();
    let cpu = Cpu {
        server: server::cpu_seconds(&gmo) - cpu_before.0,
        client: server::cpu_seconds_of("self") - cpu_before.1,
        machine_busy: (machine_after.0 - machine_before.0) as f64
            / (machine_after.1 - machine_before.1).max(1) as f64,
    };
    let cost = match wal {
        Some(wal) => Some(wal.finish(gmo).await),
        None => {
            drop(gmo);
            None
        }
    };
    report(backend, options, &run, Some(&cpu), &load_before);
    let mut held = true;
    if let Some(cost) = &cost {
        report_cost(backend, &run, cost);
        held = hot_enough(cost);
    }
    if let Some(tps) = yardstick {
        report_yardstick(backend, options, &run, tps);
    }
    database.drop().await;
    held
}

/// Where the CPU went during a run.
struct Cpu {
    /// Seconds used by `gmo serve` and by this load generator.
    server: f64,
    client: f64,
    /// The share of the whole machine's CPU time that was busy (all processes).
    machine_busy: f64,
}

struct Run {
    tally: Tally,
    took: Duration,
    sign_ins: signins::SignIns,
}

impl Run {
    fn plies_per_second(&self) -> f64 {
        self.tally.plies as f64 / self.took.as_secs_f64()
    }
}

async fn run(base: &str, options: &Options) -> Run {
    let client = Client {
        base: base.to_owned(),
        http: reqwest::Client::builder()
            .pool_max_idle_per_host(usize::try_from(options.games).unwrap_or(64))
            .timeout(Duration::from_secs(30))
            .build()
            .expect("an HTTP client"),
    };
    let accounts = signins::sign_up(&client, options.sign_ins).await;
    let started = Instant::now();
    // With a ply budget the run lasts as long as the budget takes.
    let until = options
        .plies
        .is_none()
        .then(|| started + Duration::from_secs(options.seconds));
    let stop = Stop::new(until, options.plies);
    let drivers: Vec<_> = (0..options.games)
        .map(|n| {
            tokio::spawn(player::play_until(
                client.clone(),
                0x9e37_79b9 * (n + 1),
                stop.clone(),
            ))
        })
        .collect();
    let signing: Vec<_> = accounts
        .into_iter()
        .map(|name| tokio::spawn(signins::sign_in_until(client.clone(), name, stop.clone())))
        .collect();
    let mut tally = Tally::default();
    for driver in drivers {
        let one = driver.await.expect("a driver");
        tally.plies += one.plies;
        tally.games += one.games;
        tally.refused += one.refused;
        tally.latencies_us.extend(one.latencies_us);
    }
    let took = started.elapsed();
    let mut sign_ins = signins::SignIns::default();
    for loop_ in signing {
        let one = loop_.await.expect("a sign-in loop");
        sign_ins.done += one.done;
        sign_ins.refused += one.refused;
        for (status, count) in one.statuses {
            *sign_ins.statuses.entry(status).or_default() += count;
        }
        sign_ins.latencies_us.extend(one.latencies_us);
    }
    Run {
        tally,
        took,
        sign_ins,
    }
}

/// Latency quantiles of the acknowledged plies, in milliseconds.
struct Latencies(Vec<u64>);

impl Latencies {
    fn of(run: &Run) -> Latencies {
        let mut latencies = run.tally.latencies_us.clone();
        latencies.sort_unstable();
        Latencies(latencies)
    }

    fn at(&self, q: f64) -> f64 {
        let index = ((self.0.len() as f64 - 1.0) * q).round() as usize;
        self.0.get(index).map_or(0.0, |us| *us as f64 / 1000.0)
    }
}

fn report(label: &str, options: &Options, run: &Run, cpu: Option<&Cpu>, load_before: &str) {
    let latencies = Latencies::of(run);
    let seconds = run.took.as_secs_f64();
    let cpu = match cpu {
        Some(cpu) => format!(
            "server {:.0}%, load generator {:.0}% of one core, machine {:.0}% busy",
            100.0 * cpu.server / seconds,
            100.0 * cpu.client / seconds,
            100.0 * cpu.machine_busy,
        ),
        None => "not measured".to_owned(),
    };
    println!(
        "{label}: {} concurrent games for {seconds:.1} s: {} acknowledged plies = {:.0}/s; \
         latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {} games played, {} refused; \
         CPU: {cpu}; load average before {load_before}, after {}",
        options.games,
        run.tally.plies,
        run.plies_per_second(),
        latencies.at(0.5),
        latencies.at(0.99),
        latencies.at(1.0),
        run.tally.games,
        run.tally.refused,
        server::load_average(),
    );
    if options.sign_ins > 0 {
        let mut latencies = run.sign_ins.latencies_us.clone();
        latencies.sort_unstable();
        let latencies = Latencies(latencies);
        println!(
            "{label}: {} sign-in loops beside the games: {} sign-ins = {:.1}/s, {} refused \
             (by status, 0 for no answer: {:?}); latency p50 {:.1} ms, p99 {:.1} ms",
            options.sign_ins,
            run.sign_ins.done,
            run.sign_ins.done as f64 / seconds,
            run.sign_ins.refused,
            run.sign_ins.statuses,
            latencies.at(0.5),
            latencies.at(0.99),
        );
    }
}

/// WAL and HOT updates per acknowledged ply (game set-ups included: they are few).
fn report_cost(backend: &str, run: &Run, cost: &wal::Cost) {
    let plies = run.tally.plies.max(1) as f64;
    println!(
        "{backend}: {:.0} WAL bytes per acknowledged ply ({} bytes in all, whole server); \
         games: {} updates ({:.2} per ply), {:.0}% of them HOT (statistics, approximate)",
        cost.wal_bytes as f64 / plies,
        cost.wal_bytes,
        cost.updates,
        cost.updates as f64 / plies,
        100.0 * cost.hot_updates as f64 / cost.updates.max(1) as f64,
    );
}

/// The least share of HOT updates of `games` a PostgreSQL run may have: every move updates its
/// game's row, and an index on a column a move changes (migration 0016's on `updated_at`, undone
/// by 0017) makes none of them HOT, which nearly doubled the WAL a ply.
const MIN_HOT: f64 = 0.9;

/// Whether enough updates of `games` were HOT (said when not: the run then fails).
fn hot_enough(cost: &wal::Cost) -> bool {
    let hot = cost.hot_updates as f64 / cost.updates.max(1) as f64;
    let enough = cost.updates == 0 || hot >= MIN_HOT;
    if !enough {
        eprintln!(
            "FAILED: {:.0}% of the updates of games were HOT, below {:.0}%: an index covers a \
             column that every move changes",
            100.0 * hot,
            100.0 * MIN_HOT
        );
    }
    enough
}

fn report_yardstick(backend: &str, options: &Options, run: &Run, tps: f64) {
    println!(
        "{backend}: pgbench update+insert {} clients: {tps:.0} tx/s; gmo: {:.0} acknowledged \
         moves/s = {:.2} of pgbench; p99 {:.1} ms",
        options.games,
        run.plies_per_second(),
        run.plies_per_second() / tps,
        Latencies::of(run).at(0.99),
    );
}
