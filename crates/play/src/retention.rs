//! Retention: every process, every [`Retention::every`], deletes games never started and labs
//! left alone for longer than configured, in batches (the SQL is the store's).

use gmo_store::{Store, StoreError};
use std::time::Duration;

/// Rows deleted per statement: short transactions, however much has piled up.
pub const BATCH: u32 = 200;

/// What is deleted when nobody came back to it (`None`: kept for good).
#[derive(Debug, Clone, Copy)]
pub struct Retention {
    /// Games still in setup this long after their creation.
    pub unstarted_games: Option<Duration>,
    /// Labs not changed for this long.
    pub idle_labs: Option<Duration>,
    /// How often a process looks (each look deletes in batches until none is left).
    pub every: Duration,
}

/// Looks every [`Retention::every`] until the server stops.
pub async fn retain_forever(store: Store, retention: Retention) {
    let mut ticks = tokio::time::interval(retention.every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match retain_once(&store, &retention).await {
            Ok((0, 0)) => {}
            Ok((games, labs)) => tracing::info!(games, labs, "expired what nobody came back to"),
            Err(error) => tracing::warn!(%error, "retention sweep failed; it will retry"),
        }
    }
}

/// Deletes everything due now, a batch at a time → (games, labs) deleted.
pub async fn retain_once(store: &Store, retention: &Retention) -> Result<(u64, u64), StoreError> {
    let mut games = 0;
    if let Some(age) = retention.unstarted_games {
        loop {
            let deleted = store.expire_unstarted_games(age, BATCH).await?;
            games += deleted;
            if deleted < u64::from(BATCH) {
                break;
            }
        }
    }
    let mut labs = 0;
    if let Some(age) = retention.idle_labs {
        loop {
            let deleted = store.expire_idle_labs(age, BATCH).await?;
            labs += deleted;
            if deleted < u64::from(BATCH) {
                break;
            }
        }
    }
    Ok((games, labs))
}
