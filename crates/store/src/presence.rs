//! When each seat's holder last had its game open (migration 0012): a seat's stream pulses while
//! it is open, and whoever wants to know whether a player is there reads when it was last seen.
//! A pulse of a game that does not exist is refused by the foreign key and changes nothing.

use crate::{Store, StoreError};
use gmo_types::{ByColor, Color, GameId, Timestamp};

const PULSE_POSTGRES: &str = "INSERT INTO seat_presence (game_id, color, seen_ms) \
     VALUES ($1, $2, $3) \
     ON CONFLICT (game_id, color) DO UPDATE SET seen_ms = GREATEST(seat_presence.seen_ms, $3)";
const PULSE_SQLITE: &str = "INSERT INTO seat_presence (game_id, color, seen_ms) \
     VALUES ($1, $2, $3) \
     ON CONFLICT (game_id, color) DO UPDATE SET seen_ms = MAX(seat_presence.seen_ms, $3)";
const SEEN: &str = "SELECT color, seen_ms FROM seat_presence WHERE game_id = $1";

impl Store {
    /// Notes that `color`'s holder has game `id` open at `now` (a later pulse never goes back).
    pub async fn pulse_seat(
        &self,
        id: &GameId,
        color: Color,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        let postgres = self.backend_name() == "postgres";
        let sql = if postgres {
            PULSE_POSTGRES
        } else {
            PULSE_SQLITE
        };
        writing!(self, pool => {
            sqlx::query(sql)
                .bind(id.as_str())
                .bind(color.name())
                .bind(now.ms())
                .execute(pool)
                .await
                .map(drop)
        })?;
        Ok(())
    }

    /// When each seat of game `id` was last seen with the game open (none: never, or not
    /// since pulses began).
    pub async fn seats_seen(&self, id: &GameId) -> Result<ByColor<Option<Timestamp>>, StoreError> {
        let rows: Vec<(String, i64)> = reading!(self, pool => {
            sqlx::query_as(SEEN).bind(id.as_str()).fetch_all(pool).await
        })?;
        let mut seen = ByColor::default();
        for (color, ms) in rows {
            let color: Color = color.parse().map_err(StoreError::Corrupt)?;
            *seen.get_mut(color) = Some(Timestamp::from_ms(ms));
        }
        Ok(seen)
    }
}
