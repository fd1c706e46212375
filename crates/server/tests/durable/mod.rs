//! Issue 10, what must not leak, stall or lie: per-game structures that go with their games,
//! bounded labs, bounded and stoppable bot games, mutants stored before their move commits, and
//! stream labels that say what the stream shows.

mod bots;
mod labels;
mod labs;
mod leaks;
mod mutants;
mod snapshots;

use std::time::{Duration, Instant};

/// Waits until `holds()` is true, polling; false if it was still false after `within`.
pub async fn eventually(within: Duration, mut holds: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + within;
    loop {
        if holds() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until `holds().await` is true, polling; false if it was still false after `within`.
pub async fn eventually_async<F, Fut>(within: Duration, mut holds: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let until = Instant::now() + within;
    loop {
        if holds().await {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
