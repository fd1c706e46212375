//! Rematches: which seats of a finished game asked for one, and the new game, created exactly once
//! when both have (the row's `new_game` is set in the transaction that inserts it).

use crate::backend::Dialect;
use crate::bots::{CAP_LOCK, LIVE_BOT_GAMES};
use crate::claim::parse_digest;
use crate::games::NewGame;
use crate::{Store, StoreError};
use gmo_types::GameId;
use serde::Serialize;

/// What one request asks: the seats it asks for (a seat, plus any bot seat, which always
/// agrees), and for an asking person's seat the hash of its token in the new game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RematchAsk {
    pub white: bool,
    pub black: bool,
    pub white_next: Option<[u8; 32]>,
    pub black_next: Option<[u8; 32]>,
}

/// A game's rematch as stored: who asked, their next tokens' hashes, the new game once created.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rematch {
    pub white: bool,
    pub black: bool,
    pub white_next: Option<[u8; 32]>,
    pub black_next: Option<[u8; 32]>,
    pub game: Option<GameId>,
}

type RematchRow = (bool, bool, Option<Vec<u8>>, Option<Vec<u8>>, Option<String>);

const COLUMNS: &str = "white_asked, black_asked, white_next, black_next, new_game";
const ASK: &str = "INSERT INTO rematches (game_id, white_asked, black_asked, white_next, black_next) \
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO UPDATE SET \
     white_asked = rematches.white_asked OR excluded.white_asked, \
     black_asked = rematches.black_asked OR excluded.black_asked, \
     white_next = COALESCE(rematches.white_next, excluded.white_next), \
     black_next = COALESCE(rematches.black_next, excluded.black_next) \
     RETURNING white_asked, black_asked, white_next, black_next, new_game";
const CLAIM: &str = "UPDATE rematches SET new_game = $2 \
     WHERE game_id = $1 AND new_game IS NULL AND white_asked AND black_asked";

impl Store {
    /// The rematch of game `id` (nobody asked: all false).
    pub async fn rematch(&self, id: &GameId) -> Result<Rematch, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM rematches WHERE game_id = $1");
        let row: Option<RematchRow> = reading!(self, pool => {
            sqlx::query_as(&sql).bind(id.as_str()).fetch_optional(pool).await
        })?;
        row.map_or(Ok(Rematch::default()), decode)
    }

    /// Records `ask` for game `id` (asking again changes nothing) → the rematch as it now stands.
    pub async fn ask_rematch(&self, id: &GameId, ask: &RematchAsk) -> Result<Rematch, StoreError> {
        let row: RematchRow = writing!(self, pool => {
            sqlx::query_as(ASK)
                .bind(id.as_str())
                .bind(ask.white)
                .bind(ask.black)
                .bind(ask.white_next.as_ref().map(|h| &h[..]))
                .bind(ask.black_next.as_ref().map(|h| &h[..]))
                .fetch_one(pool)
                .await
        })?;
        decode(row)
    }

    /// Creates the rematch of game `id` as `new`, unless it exists already: in one transaction
    /// that sets the rematch's `new_game` only while it is unset and both seats asked, so that
    /// exactly one game is ever created. → `Some((its id, whether this call created it))`;
    /// `None` when `new` has a bot seat and `bot_limit` live games with a bot seat exist.
    pub async fn start_rematch<S: Serialize>(
        &self,
        id: &GameId,
        new: &NewGame<'_, S>,
        bot_limit: u32,
    ) -> Result<Option<(GameId, bool)>, StoreError> {
        let new_game = GameId::from_bits(rand::random());
        let state = serde_json::to_string(new.state)?;
        let with_bot = new.settings.white_bot.is_some() || new.settings.black_bot.is_some();
        let created: Option<bool> = transaction!(self, |tx, dialect| {
            let claimed = sqlx::query(CLAIM)
                .bind(id.as_str())
                .bind(new_game.as_str())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if claimed == 0 {
                Some(false)
            } else {
                if with_bot && dialect == Dialect::Postgres {
                    sqlx::query(CAP_LOCK).execute(&mut *tx).await?;
                }
                let live: i64 = if with_bot {
                    sqlx::query_scalar(LIVE_BOT_GAMES)
                        .fetch_one(&mut *tx)
                        .await?
                } else {
                    0
                };
                if live >= i64::from(bot_limit) && with_bot {
                    // Dropping the transaction unclaims the rematch: a later ask tries again.
                    return Ok(None);
                }
                insert_game!(&mut *tx, new_game.as_str(), new, &state)?;
                Some(true)
            }
        });
        match created {
            Some(true) => Ok(Some((new_game, true))),
            _ => {
                let stored = self.rematch(id).await?;
                let game = stored.game.ok_or_else(|| {
                    StoreError::Corrupt(format!(
                        "the rematch of {id} was asked by both but not made"
                    ))
                })?;
                Ok(Some((game, false)))
            }
        }
    }
}

fn decode((white, black, white_next, black_next, game): RematchRow) -> Result<Rematch, StoreError> {
    let hash = |bytes: Option<Vec<u8>>| bytes.as_deref().map(parse_digest).transpose();
    Ok(Rematch {
        white,
        black,
        white_next: hash(white_next)?,
        black_next: hash(black_next)?,
        game: game.as_deref().map(GameId::parse).transpose()?,
    })
}
