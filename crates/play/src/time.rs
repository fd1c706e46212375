//! The service's clock. The engine never reads one: every change is given the time it happens
//! at, read here once.

use gmo_types::Timestamp;
use std::time::{SystemTime, UNIX_EPOCH};

/// Now, to the millisecond (the epoch if the system clock is set before it).
pub fn now() -> Timestamp {
    let since_epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX)
        });
    Timestamp::from_ms(since_epoch)
}
