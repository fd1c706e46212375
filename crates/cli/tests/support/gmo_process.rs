//! `gmo serve` as a child process on a free port, for the crash test and the load benchmark:
//! started against a database URL, found by its `listening on` line, killed when dropped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long a starting server may take to print where it listens (migrations included).
const STARTUP: Duration = Duration::from_secs(60);

pub struct Gmo {
    child: Child,
    pub base: String,
}

impl Gmo {
    pub fn start(url: &str) -> Gmo {
        Gmo::start_with(url, &[])
    }

    /// [`Gmo::start`] with more `gmo serve` flags (limits, timeouts).
    pub fn start_with(url: &str, flags: &[&str]) -> Gmo {
        Gmo::start_with_env(url, flags, &[])
    }

    /// [`Gmo::start_with`] and environment variables (`RUST_LOG`, say).
    pub fn start_with_env(url: &str, flags: &[&str], env: &[(&str, &str)]) -> Gmo {
        Gmo::start_bound(url, "127.0.0.1:0", flags, env)
    }

    /// [`Gmo::start`] on a given address (a server restarted where its clients expect it).
    pub fn start_at(url: &str, bind: &str) -> Gmo {
        Gmo::start_bound(url, bind, &[], &[])
    }

    fn start_bound(url: &str, bind: &str, flags: &[&str], env: &[(&str, &str)]) -> Gmo {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gmo"))
            .args(["serve", "--bind", bind, "--database-url", url])
            .args(flags)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .spawn()
            .expect("gmo serve starts");
        let stdout = child.stdout.take().expect("its stdout");
        let (found, address) = mpsc::channel();
        // Reads (and drains, so that logging never blocks) the server's output.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(base) = line.strip_prefix("listening on ") {
                    let _ = found.send(base.trim().to_owned());
                }
            }
        });
        let Ok(base) = address.recv_timeout(STARTUP) else {
            let _ = child.kill();
            panic!("gmo serve printed no `listening on` line");
        };
        Gmo { child, base }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill_9(mut self) {
        self.child.kill().expect("SIGKILL is sent");
        self.child.wait().expect("the process is reaped");
    }

    /// SIGTERM: the server drains and exits with success.
    pub fn terminate(mut self) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        for _ in 0..600 {
            if let Some(status) = self.child.try_wait().expect("a status") {
                assert!(
                    status.success(),
                    "gmo serve exits cleanly on SIGTERM: {status}"
                );
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("gmo serve did not stop within 30 s of SIGTERM");
    }
}

impl Drop for Gmo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
