//! The server under load: a fresh database per run and `gmo serve` as a child process.

use gmo_store::scratch::ScratchDatabase;

// The crash test's launcher; the benchmark does not use its kill and terminate.
#[allow(dead_code)]
#[path = "../../tests/support/gmo_process.rs"]
mod gmo_process;

pub use gmo_process::Gmo;

/// User plus system CPU time `gmo` has used, in seconds (Linux; 0 elsewhere).
pub fn cpu_seconds(gmo: &Gmo) -> f64 {
    cpu_seconds_of(&gmo.pid().to_string())
}

/// A database made for one run.
pub enum Database {
    Sqlite {
        url: String,
        _dir: tempfile::TempDir,
    },
    Postgres(ScratchDatabase),
}

impl Database {
    pub async fn new(backend: &str) -> Database {
        if backend == "sqlite" {
            let dir = tempfile::tempdir().expect("a temporary directory");
            let url = format!("sqlite://{}", dir.path().join("load.db").display());
            return Database::Sqlite { url, _dir: dir };
        }
        Database::Postgres(ScratchDatabase::create("gmo_load").await)
    }

    pub fn url(&self) -> &str {
        match self {
            Database::Sqlite { url, .. } => url,
            Database::Postgres(database) => database.url(),
        }
    }

    pub async fn drop(self) {
        if let Database::Postgres(database) = self {
            database.drop_database().await;
        }
    }
}

/// User plus system CPU time of process `pid` (`self`: this one), in seconds.
pub fn cpu_seconds_of(pid: &str) -> f64 {
    {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
        let ticks = stat.ok().and_then(|stat| {
            // Fields after the command name (which may hold spaces) start with the state, field 3.
            let rest = stat.rsplit_once(')')?.1.to_owned();
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let user: u64 = fields.get(11)?.parse().ok()?;
            let system: u64 = fields.get(12)?.parse().ok()?;
            Some(user + system)
        });
        // Linux reports in clock ticks of 1/100 s.
        ticks.map_or(0.0, |ticks| ticks as f64 / 100.0)
    }
}

/// (busy, total) CPU time of the whole machine so far, in clock ticks.
pub fn machine_ticks() -> (u64, u64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let fields: Vec<u64> = stat
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .filter_map(|field| field.parse().ok())
        .collect();
    let total: u64 = fields.iter().sum();
    // idle and iowait
    let idle = fields.get(3).copied().unwrap_or(0) + fields.get(4).copied().unwrap_or(0);
    (total - idle, total)
}

pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, model)| model.trim().to_owned())
        })
        .unwrap_or_default()
}
