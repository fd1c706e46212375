//! Players as others see them: a profile (rating and results), their games page by page, their
//! rating history, and the leaderboard.

use crate::error::{PlayError, PlayResult};
use crate::games::{Games, Seen};
use gmo_store::{Account, Leader, RatingPoint, Results, Store};
use gmo_types::{GameId, Rating, Username};

/// Games in one page of a player's games.
pub const GAMES_PAGE: u32 = 50;
/// Rows of the leaderboard.
pub const LEADERS: u32 = 100;
/// The most points of a rating history shown (the oldest are left out beyond it).
pub const HISTORY: u32 = 10_000;

/// A player as others see them.
#[derive(Debug, Clone)]
pub struct Profile {
    pub account: Account,
    pub results: Results,
}

impl Profile {
    pub fn rating(&self) -> Rating {
        Rating {
            value: self.account.rating,
            deviation: self.account.deviation,
            volatility: self.account.volatility,
        }
    }
}

/// The players part of the service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Users {
    store: Store,
    games: Games,
}

impl Users {
    pub fn new(store: Store, games: Games) -> Users {
        Users { store, games }
    }

    /// The live account named `username` (without regard to case), with its results.
    pub async fn profile(&self, username: &Username) -> PlayResult<Profile> {
        let account = self.named(username).await?;
        let results = self.store.results(&account.id).await?;
        Ok(Profile { account, results })
    }

    /// A page of `username`'s games, newest first, as a spectator sees them: the first page, or
    /// the one after game `before` (one of theirs).
    pub async fn games(
        &self,
        username: &Username,
        before: Option<&GameId>,
    ) -> PlayResult<Vec<Seen>> {
        let account = self.named(username).await?;
        let ids = self
            .store
            .games_of(&account.id, before, GAMES_PAGE)
            .await?
            .ok_or_else(|| {
                PlayError::not_found("game of this player", before.map_or("", GameId::as_str))
            })?;
        let mut seen = Vec::with_capacity(ids.len());
        for id in ids {
            seen.push(self.games.show(&id, None).await?);
        }
        Ok(seen)
    }

    /// `username`'s rating after each rated game, oldest first.
    pub async fn history(&self, username: &Username) -> PlayResult<Vec<RatingPoint>> {
        let account = self.named(username).await?;
        Ok(self.store.rating_history(&account.id, HISTORY).await?)
    }

    /// The best established ratings (not provisional) of people, or of `bots`, best first.
    pub async fn leaders(&self, bots: bool) -> PlayResult<Vec<Leader>> {
        Ok(self
            .store
            .leaders(Rating::PROVISIONAL_DEVIATION, LEADERS, bots)
            .await?)
    }

    async fn named(&self, username: &Username) -> PlayResult<Account> {
        self.store
            .account_named(username)
            .await?
            .filter(|account| account.deleted_at.is_none())
            .ok_or_else(|| PlayError::not_found("player", username))
    }
}
