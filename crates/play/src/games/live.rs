//! Games to watch: the live ones, a page at a time, and the one on TV.

use super::{Games, Seen};
use crate::error::PlayResult;
use gmo_types::GameId;

/// Live games a page.
pub const LIVE_PAGE: u32 = 50;
/// The most pages of live games listed.
pub const LIVE_PAGES: u32 = 20;

impl Games {
    /// Page `page` (from 1) of the games in progress as a spectator sees them, the most recently
    /// changed first. A game that ended between the list and its read is left out.
    pub async fn live(&self, page: u32) -> PlayResult<Vec<Seen>> {
        let skip = page.saturating_sub(1).saturating_mul(LIVE_PAGE);
        let ids = self.store.live_games(LIVE_PAGE, skip).await?;
        let mut seen = Vec::with_capacity(ids.len());
        for id in ids {
            let shown = self.show(&id, None).await?;
            if !shown.game.is_over() {
                seen.push(shown);
            }
        }
        Ok(seen)
    }

    /// The live game most worth watching (rated games first, then the most recently changed).
    pub async fn tv(&self) -> PlayResult<Option<GameId>> {
        Ok(self.store.tv_game().await?)
    }
}
