//! `gmo work`: a process that only takes jobs (analyses and genome value evaluations) from the
//! database, so that a machine added for it adds capacity; it serves nothing.

use crate::analyses::Analyses;
use crate::settings::Settings;
use crate::values::Values;
use gmo_store::{Store, StoreError};
use std::future::Future;
use std::sync::Arc;

/// Takes and runs jobs from `settings.database_url` (within `settings.max_analyses` analyses
/// and, in the deployment, `settings.max_value_jobs` evaluations at once)
/// until `stop` resolves; then puts the jobs it held back in the queue, so that another process
/// takes them over at once rather than after their lease.
pub async fn work_until(
    settings: &Settings,
    stop: impl Future<Output = ()>,
) -> Result<(), StoreError> {
    let store = Store::connect_with(&settings.database_url, settings.database_connections).await?;
    let instance: Arc<str> =
        format!("work-{}-{}", std::process::id(), &gmo_store::new_id()[..8]).into();
    let analyses = Analyses::new(store.clone(), settings.analysis_limits(), instance.clone());
    let values = Values::new(store.clone(), settings.value_limits(), instance.clone());
    let running = [
        tokio::spawn(analyses.run(settings.sweep_interval)),
        tokio::spawn(values.run(settings.sweep_interval)),
    ];
    tracing::info!(instance = &*instance, "taking jobs");
    stop.await;
    for task in running {
        task.abort();
    }
    let released = store.release_jobs(&instance).await;
    store.close().await;
    released.map(|_| ())
}
