//! What every handler shares: the game service and the edge's own parts. Cheap to clone.

use crate::limits::Clients;
use crate::metrics::Metrics;
use crate::settings::Settings;
use axum::extract::FromRef;
use gmo_play::Service;
use std::sync::Arc;
use tokio::sync::watch;

/// Cloned for every request (axum's router and middleware hold their own copy), so one
/// reference count: the service alone holds dozens.
#[derive(Debug, Clone)]
pub struct AppState(Arc<Shared>);

#[derive(Debug)]
pub struct Shared {
    /// The game service.
    pub play: Service,
    pub settings: Arc<Settings>,
    /// Who clients are, and their creation budgets.
    pub clients: Arc<Clients>,
    pub metrics: Arc<Metrics>,
    /// Turns true when the server stops: open streams end so the shutdown can finish.
    pub closing: watch::Receiver<bool>,
}

impl AppState {
    pub fn new(play: Service, settings: Settings, closing: watch::Receiver<bool>) -> AppState {
        AppState(Arc::new(Shared {
            clients: Arc::new(Clients::new(
                settings.rate_limit,
                settings.trusted_proxies.clone(),
            )),
            metrics: Arc::new(Metrics::new(&play.metrics)),
            settings: Arc::new(settings),
            play,
            closing,
        }))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl FromRef<AppState> for Arc<Clients> {
    fn from_ref(state: &AppState) -> Arc<Clients> {
        state.clients.clone()
    }
}
