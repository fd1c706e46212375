//! The application: its shared state, its router, and starting and stopping it.

use crate::accept::ConnectionLimits;
use crate::clock::{Timers, sweep_forever};
use crate::config::Config;
use crate::games::{Cache, Locks};
use crate::hub::Hub;
use crate::limits::{MAX_CLIENTS, RateLimiter};
use crate::listen::Listener;
use crate::metrics::Metrics;
use crate::routes;
use gmo_store::{Store, StoreError};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// What every handler shares. Cheap to clone.
#[derive(Debug, Clone)]
pub struct AppState {
    pub store: Store,
    pub hub: Arc<Hub>,
    pub config: Arc<Config>,
    pub metrics: Arc<Metrics>,
    pub locks: Arc<Locks>,
    pub cache: Arc<Cache>,
    pub timers: Arc<Timers>,
    /// Per-client limits on creation.
    pub limits: Arc<RateLimiter>,
    pub listener: Arc<Listener>,
    /// Wakes this process's seek streams when their seek is paired.
    pub seeks: Arc<crate::lobby::Bell>,
    /// Wakes the value evaluation loop when an evaluation is asked for or ends.
    pub values: Arc<tokio::sync::Notify>,
    /// This process's name in the database, as the holder of bot turns' leases: its pid and
    /// random digits (unique across processes and hosts, and a person can tell whose it is).
    pub instance: Arc<str>,
    /// Turns true when the server stops: open streams end so the shutdown can finish.
    pub closing: watch::Receiver<bool>,
}

/// Why the server did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("the database could not be opened: {0}")]
    Store(#[from] StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

/// A server running in the background.
#[derive(Debug)]
pub struct RunningApp {
    addr: SocketAddr,
    state: AppState,
    stop: watch::Sender<bool>,
    server: JoinHandle<std::io::Result<()>>,
    sweeper: JoinHandle<()>,
    retention: JoinHandle<()>,
    relay: JoinHandle<()>,
    bots: JoinHandle<()>,
    lobby: JoinHandle<()>,
    values: JoinHandle<()>,
}

/// Opens the store (running the migrations), binds `config.bind` and serves until stopped.
pub async fn spawn(config: Config) -> Result<RunningApp, StartError> {
    let store = Store::connect_with(&config.database_url, config.database_connections).await?;
    let (stop, closing) = watch::channel(false);
    let state = AppState {
        store: store.clone(),
        hub: Arc::default(),
        limits: Arc::new(RateLimiter::new(config.rate_limit, MAX_CLIENTS)),
        config: Arc::new(config),
        metrics: Arc::default(),
        locks: Arc::default(),
        cache: Arc::default(),
        timers: Arc::default(),
        listener: Arc::new(Listener::new(store.clone())),
        seeks: Arc::default(),
        values: Arc::default(),
        instance: format!("{}-{}", std::process::id(), &gmo_store::new_id()[..8]).into(),
        closing,
    };
    let addr = state.config.bind;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| StartError::Bind { addr, source })?;
    let addr = listener
        .local_addr()
        .map_err(|source| StartError::Bind { addr, source })?;
    let router = routes::router(state.clone());
    let closed = state.closing.clone();
    let limits = ConnectionLimits {
        header_timeout: state.config.header_timeout,
        max_connections: state.config.max_connections,
    };
    let server =
        tokio::spawn(async move { crate::accept::serve(listener, router, limits, closed).await });
    let sweeper = tokio::spawn(sweep_forever(state.clone()));
    let retention = tokio::spawn(crate::retention::retain_forever(state.clone()));
    let bots = tokio::spawn(crate::bot::take_over_forever(state.clone()));
    let lobby = tokio::spawn(crate::lobby::run(state.clone()));
    let values = tokio::spawn(crate::value::run_forever(state.clone()));
    let relay = tokio::spawn(
        state
            .listener
            .clone()
            .relay(state.hub.clone(), state.timers.clone()),
    );
    tracing::info!(%addr, backend = state.store.backend_name(), "gmo serve listening");
    Ok(RunningApp {
        addr,
        state,
        stop,
        server,
        sweeper,
        retention,
        relay,
        bots,
        lobby,
        values,
    })
}

impl RunningApp {
    /// Where it listens (the real port when the config asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Stops accepting, ends open streams, lets requests in flight finish, closes the store.
    pub async fn shutdown(self) -> std::io::Result<()> {
        let _ = self.stop.send(true);
        self.sweeper.abort();
        self.retention.abort();
        self.relay.abort();
        self.bots.abort();
        self.lobby.abort();
        self.values.abort();
        let served = self.server.await;
        // Bot turns this process held go to the others (or to the next start) at once.
        if let Err(error) = self
            .state
            .store
            .release_bot_leases(&self.state.instance)
            .await
        {
            tracing::warn!(%error, "could not release this process's bot turns");
        }
        // Evaluations it ran go back to the queue, to be taken over from their last count.
        if let Err(error) = self
            .state
            .store
            .release_value_jobs(&self.state.instance)
            .await
        {
            tracing::warn!(%error, "could not release this process's value evaluations");
        }
        self.state.store.close().await;
        served.map_err(std::io::Error::other)?
    }

    /// Serves until `signal` completes, then shuts down gracefully.
    pub async fn serve_until(
        self,
        signal: impl std::future::Future<Output = ()>,
    ) -> std::io::Result<()> {
        signal.await;
        tracing::info!("shutting down");
        self.shutdown().await
    }
}
