//! The engine's lines from a lab's position (`GET /api/labs/{id}/analysis`, docs/analysis.md).
//! A search takes a core for a moment, so it runs on a blocking thread (never on the async
//! workers), at most `LabSearches::running` at once in this process: one more waits a few
//! seconds for a place, then is refused as unavailable.

use crate::error::{PlayError, PlayResult};
use crate::labs::Labs;
use gmo_bots::lines::lines;
pub use gmo_bots::lines::{Line, LineMove, Lines, MAX_LINES, NoLines};
use gmo_types::LabId;
use std::time::Duration;

/// How long an ask waits for a place before it is refused.
const WAIT: Duration = Duration::from_secs(5);

impl Labs {
    /// Search nodes per line.
    pub fn nodes_per_line(&self) -> u64 {
        self.searches.nodes
    }

    /// Up to `count` best lines from lab `id`'s position for the side to move.
    pub async fn lines(&self, id: &LabId, token: &str, count: usize) -> PlayResult<Lines> {
        let lab = self.open(id, token).await?;
        let place = tokio::time::timeout(WAIT, self.slots.clone().acquire_owned()).await;
        let Ok(Ok(place)) = place else {
            return Err(PlayError::Full(format!(
                "this server searches at most {} lab positions at once and all places stayed \
                 taken for {} s; try again in a moment",
                self.searches.running,
                WAIT.as_secs()
            )));
        };
        let nodes = self.searches.nodes;
        // The place is held until the search ends, even when the caller is gone meanwhile.
        tokio::task::spawn_blocking(move || {
            let found = lines(lab.position(), count, nodes);
            drop(place);
            found
        })
        .await
        .map_err(PlayError::internal)
    }
}
