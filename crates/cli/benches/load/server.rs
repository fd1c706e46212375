//! The server under load: a fresh database per run and `gmo serve` as a child process.

use gmo_store::scratch::ScratchDatabase;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

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

/// `gmo serve` on a free port; killed when dropped.
pub struct Gmo {
    child: Child,
    pub base: String,
}

impl Gmo {
    pub fn start(url: &str) -> Gmo {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gmo"))
            .args(["serve", "--bind", "127.0.0.1:0", "--database-url", url])
            .stdout(Stdio::piped())
            .spawn()
            .expect("gmo serve starts");
        let stdout = child.stdout.take().expect("its stdout");
        let (found, address) = mpsc::channel();
        // Drains the server's log so that it never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(base) = line.strip_prefix("listening on ") {
                    let _ = found.send(base.trim().to_owned());
                }
            }
        });
        let base = address
            .recv_timeout(Duration::from_secs(60))
            .expect("gmo serve says where it listens");
        Gmo { child, base }
    }

    /// User plus system CPU time the server has used, in seconds (Linux; 0 elsewhere).
    pub fn cpu_seconds(&self) -> f64 {
        cpu_seconds_of(&self.child.id().to_string())
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

impl Drop for Gmo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
