//! The game service as one value: its parts wired together over one store, and its background
//! workers started and stopped (as lila's `Env` does). Whoever serves it (the HTTP edge, a test)
//! holds a [`Service`] and calls its parts.

use crate::accounts::Accounts;
use crate::analyses::Analyses;
use crate::bots;
use crate::challenges::Challenges;
use crate::error::PlayResult;
use crate::events::Events;
use crate::games::{Absence, Games, Parts};
use crate::hub::Hub;
use crate::labs::Labs;
use crate::library::Library;
use crate::library::entries::Entries;
use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::relay::Relay;
use crate::rematch::Rematches;
use crate::retention;
use crate::settings::Settings;
use crate::timers::Timers;
use crate::users::Users;
use crate::values::Values;
use gmo_store::{Store, StoreError};
use gmo_types::Millis;
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// How many bot turns may wait for this process's bot worker; beyond it a turn waits for the
/// takeover loop (its lease runs out first).
const BOT_WAKES: usize = 1_024;

/// The game service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Service {
    pub accounts: Accounts,
    pub users: Users,
    pub games: Games,
    pub events: Events,
    pub lobby: Lobby,
    /// Challenges and the event streams of accounts (issue 33).
    pub challenges: Challenges,
    pub rematches: Rematches,
    pub values: Values,
    pub analyses: Analyses,
    pub labs: Labs,
    pub library: Library,
    /// The piece library: published entries (docs/library.md).
    pub entries: Entries,
    pub metrics: Metrics,
    store: Store,
}

/// The service with its workers running.
#[derive(Debug)]
pub struct Running {
    service: Service,
    workers: Vec<JoinHandle<()>>,
}

impl Service {
    /// Opens the store (running the migrations) and starts the background workers: the clock
    /// sweep, bots, the lobby's relay and sweep, evaluations, retention, and the relay of other
    /// processes' changes.
    pub async fn start(settings: &Settings) -> Result<Running, StoreError> {
        let store =
            Store::connect_with(&settings.database_url, settings.database_connections).await?;
        let instance: Arc<str> =
            format!("{}-{}", std::process::id(), &gmo_store::new_id()[..8]).into();
        let hub = Arc::new(Hub::default());
        let timers = Arc::new(Timers::default());
        let relay = Arc::new(Relay::new(store.clone()));
        let metrics = Metrics::default();
        let (wakes, woken) = mpsc::channel(BOT_WAKES);
        let games = Games::new(Parts {
            store: store.clone(),
            hub: hub.clone(),
            relay: relay.clone(),
            timers: timers.clone(),
            metrics: metrics.clone(),
            instance: instance.clone(),
            wakes,
            max_bot_games: settings.max_bot_games,
            first_move: Millis::from_std(settings.first_move_time),
            discovery: settings.discovery,
            absence: Absence {
                away_after: Millis::from_std(settings.away_after),
                claim_after: Millis::from_std(settings.claim_after),
            },
        });
        let library = Library::new(store.clone());
        let values = Values::new(store.clone(), settings.value_limits(), instance.clone());
        let service = Service {
            accounts: Accounts::new(
                store.clone(),
                settings.password_hashes as usize,
                f64::from(settings.password_hash_share) / 100.0,
            ),
            users: Users::new(store.clone(), games.clone()),
            events: Events::new(
                games.clone(),
                library.clone(),
                Millis::from_std(settings.event_start_after),
            ),
            lobby: Lobby::new(games.clone(), settings.seek_limits()),
            challenges: Challenges::new(games.clone(), Millis::from_std(settings.challenge_expiry)),
            rematches: Rematches::new(games.clone()),
            entries: Entries::new(store.clone(), library.clone(), values.clone()),
            values,
            analyses: Analyses::new(store.clone(), settings.analysis_limits(), instance),
            labs: Labs::new(store.clone(), library.clone(), settings.lab_searches()),
            library,
            metrics,
            store: store.clone(),
            games,
        };
        let every = settings.sweep_interval;
        let workers = vec![
            tokio::spawn(service.games.clone().sweep_forever(every)),
            tokio::spawn(bots::run(service.games.clone(), woken, every)),
            tokio::spawn(service.lobby.clone().run(every)),
            tokio::spawn(service.values.clone().run(every)),
            tokio::spawn(service.entries.clone().value_forever(every)),
            tokio::spawn(service.analyses.clone().run(every)),
            tokio::spawn(retention::retain_forever(store, settings.retention())),
            tokio::spawn(
                service
                    .accounts
                    .clone()
                    .sweep_forever(settings.retention_interval),
            ),
            tokio::spawn(service.events.clone().sweep_forever(every)),
            tokio::spawn(service.events.clone().listen_forever()),
            tokio::spawn(service.challenges.clone().listen_forever()),
            tokio::spawn(relay.run(hub, timers)),
        ];
        Ok(Running { service, workers })
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> PlayResult<()> {
        Ok(self.store.ping().await?)
    }
}

impl Running {
    pub fn service(&self) -> &Service {
        &self.service
    }

    /// Stops the background workers (requests in flight go on).
    pub fn stop_workers(&self) {
        for worker in &self.workers {
            worker.abort();
        }
    }

    /// Stops the workers, hands this process's bot turns and evaluations to the others (or to
    /// the next start) at once, and closes the store.
    pub async fn close(self) {
        self.stop_workers();
        let store = &self.service.store;
        let instance = self.service.games.instance();
        if let Err(error) = store.release_bot_leases(instance).await {
            tracing::warn!(%error, "could not release this process's bot turns");
        }
        // Jobs it ran (analyses, value evaluations) go back to the queue, to be taken over from
        // their last saved progress.
        if let Err(error) = store.release_jobs(instance).await {
            tracing::warn!(%error, "could not release this process's jobs");
        }
        store.close().await;
    }
}
