//! Sign-in and sign-up failures, counted in the store (so every process sees them) per username
//! and per address: after [`MAX_FAILURES`] in [`WINDOW`], one more try waits until the oldest of
//! them is out of the window.

use crate::error::{PlayError, PlayResult};
use gmo_store::Store;
use gmo_types::{Millis, Timestamp, Username};

/// How many failures one username or one address may have in [`WINDOW`].
pub const MAX_FAILURES: u32 = 10;
/// The window failures are counted in: 10 minutes.
pub const WINDOW: Millis = Millis::from_secs(600);

/// The keys a failure is counted under.
#[derive(Debug, Clone)]
pub struct Keys(Vec<String>);

impl Keys {
    /// A failure of `username` (when there is one) from `address`.
    pub fn new(username: Option<&Username>, address: &str) -> Keys {
        let mut keys = vec![format!("addr:{address}")];
        keys.extend(username.map(|name| format!("user:{}", name.key())));
        Keys(keys)
    }
}

/// Refuses with [`PlayError::Throttled`] when any key has had its fill of failures.
pub async fn check(store: &Store, keys: &Keys, now: Timestamp) -> PlayResult<()> {
    let since = now.saturating_sub(WINDOW);
    for key in &keys.0 {
        let (count, oldest) = store.failures(key, since).await?;
        if count >= MAX_FAILURES {
            let free_at = oldest.unwrap_or(now).saturating_add(WINDOW);
            let wait = free_at.since(now).ms().max(1_000);
            return Err(PlayError::Throttled {
                message: format!(
                    "too many failed attempts: at most {MAX_FAILURES} in {} minutes for one \
                     username or one address; try again in {} s",
                    WINDOW.ms() / 60_000,
                    seconds(wait)
                ),
                retry_after: seconds(wait),
            });
        }
    }
    Ok(())
}

/// Counts one failure under every key.
pub async fn fail(store: &Store, keys: &Keys, now: Timestamp) -> PlayResult<()> {
    Ok(store.record_failure(&keys.0, now).await?)
}

fn seconds(ms: i64) -> u64 {
    u64::try_from((ms + 999) / 1_000).unwrap_or(1).max(1)
}
