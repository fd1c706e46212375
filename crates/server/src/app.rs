//! Starting and stopping the server: the game service, then the HTTP edge in front of it. This
//! file only wires the two together.

use crate::accept::ConnectionLimits;
use crate::routes;
use crate::settings::Settings;
use crate::state::AppState;
use gmo_play::{Running, Service};
use gmo_store::StoreError;
use std::net::SocketAddr;
use tokio::sync::watch;
use tokio::task::JoinHandle;

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
    play: Running,
}

/// Starts the game service (opening the store and running its migrations), binds
/// `settings.bind` and serves until stopped.
pub async fn spawn(settings: Settings) -> Result<RunningApp, StartError> {
    let play = Service::start(&settings.play).await?;
    let addr = settings.bind;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| StartError::Bind { addr, source })?;
    let addr = listener
        .local_addr()
        .map_err(|source| StartError::Bind { addr, source })?;
    let limits = ConnectionLimits {
        header_timeout: settings.header_timeout,
        max_connections: settings.max_connections,
    };
    let (stop, closing) = watch::channel(false);
    let state = AppState::new(play.service().clone(), settings, closing.clone());
    let router = routes::router(state.clone(), crate::openapi::router());
    let server =
        tokio::spawn(async move { crate::accept::serve(listener, router, limits, closing).await });
    tracing::info!(%addr, backend = play.service().store().backend_name(), "gmo serve listening");
    Ok(RunningApp {
        addr,
        state,
        stop,
        server,
        play,
    })
}

impl RunningApp {
    /// Where it listens (the real port when the settings asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Stops accepting, ends open streams and the service's workers, lets requests in flight
    /// finish, then closes the service.
    pub async fn shutdown(self) -> std::io::Result<()> {
        let _ = self.stop.send(true);
        self.play.stop_workers();
        let served = self.server.await;
        self.play.close().await;
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
