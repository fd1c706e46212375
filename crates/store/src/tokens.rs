//! Whether a token was ever issued: the API answers 403 to a real token used on the wrong game or
//! lab, and 401 to one it never issued. Each token column has an index (migrations 0003, 0005, 0007), and the
//! query is one branch per column so that each branch is a single index probe on both backends.

use crate::{Store, StoreError, token_hash};

const KNOWN: &str = "SELECT 1 FROM games WHERE white_token = $1 \
     UNION ALL SELECT 1 FROM games WHERE black_token = $1 \
     UNION ALL SELECT 1 FROM games WHERE creator_token = $1 \
     UNION ALL SELECT 1 FROM labs WHERE token = $1 \
     UNION ALL SELECT 1 FROM seeks WHERE token = $1 LIMIT 1";

impl Store {
    /// Whether `token` opens some seat, lab or seek.
    pub async fn knows_token(&self, token: &str) -> Result<bool, StoreError> {
        let hash = token_hash(token);
        let found: Option<i32> = reading!(self, pool => {
            sqlx::query_scalar(KNOWN).bind(&hash[..]).fetch_optional(pool).await
        })?;
        Ok(found.is_some())
    }
}
