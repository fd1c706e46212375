//! What the service counts: moves, and games created, started and ended. Counted here, where
//! they happen; whoever serves metrics registers them (`Metrics::register`) beside its own.

use prometheus_client::metrics::counter::Counter;
use prometheus_client::registry::Registry;

/// The service's counters. Cloning shares them.
#[derive(Debug, Clone, Default)]
pub struct Metrics {
    pub moves: Counter,
    pub games_created: Counter,
    pub games_started: Counter,
    pub games_ended: Counter,
}

impl Metrics {
    /// Adds the counters to `registry` (as `gmo_moves_total`, `gmo_games_created_total`, …).
    pub fn register(&self, registry: &mut Registry) {
        let counters = [
            ("gmo_moves", "Moves played", &self.moves),
            ("gmo_games_created", "Games created", &self.games_created),
            ("gmo_games_started", "Games started", &self.games_started),
            ("gmo_games_ended", "Games ended", &self.games_ended),
        ];
        for (name, help, counter) in counters {
            registry.register(name, help, counter.clone());
        }
    }
}
