//! Retention: every process, every [`Retention::every`], deletes games never started and labs
//! left alone for longer than configured, in batches (the SQL is the store's).

use crate::app::AppState;
use crate::config::Retention;
use gmo_store::StoreError;

/// Rows deleted per statement: short transactions, however much has piled up.
pub const BATCH: u32 = 200;

pub async fn retain_forever(state: AppState) {
    let retention = state.config.retention;
    let mut ticks = tokio::time::interval(retention.every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match retain_once(&state, &retention).await {
            Ok((0, 0)) => {}
            Ok((games, labs)) => tracing::info!(games, labs, "expired what nobody came back to"),
            Err(error) => tracing::warn!(%error, "retention sweep failed; it will retry"),
        }
    }
}

/// Deletes everything due now, a batch at a time → (games, labs) deleted.
pub async fn retain_once(
    state: &AppState,
    retention: &Retention,
) -> Result<(u64, u64), StoreError> {
    let mut games = 0;
    if let Some(age) = retention.unstarted_games {
        loop {
            let deleted = state.store.expire_unstarted_games(age, BATCH).await?;
            games += deleted;
            if deleted < u64::from(BATCH) {
                break;
            }
        }
    }
    let mut labs = 0;
    if let Some(age) = retention.idle_labs {
        loop {
            let deleted = state.store.expire_idle_labs(age, BATCH).await?;
            labs += deleted;
            if deleted < u64::from(BATCH) {
                break;
            }
        }
    }
    Ok((games, labs))
}
