//! Accounts, their sessions and personal tokens, and the failed attempts the sign-in throttle
//! counts (migration 0013). Secrets are stored only as hashes: a password as its Argon2id PHC
//! string (made by the caller), a session id and a personal token as their SHA-256.

use crate::{Store, StoreError};
use gmo_types::{AccountId, Timestamp, TokenId, Username};

/// An account as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Account {
    pub id: AccountId,
    pub username: Username,
    pub created_at: Timestamp,
    /// Set once the account is deleted (its games keep naming it).
    pub deleted_at: Option<Timestamp>,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played.
    pub rated_games: u32,
    /// A bot account (issue 33): set once, never unset.
    pub bot: bool,
}

/// What a sign-in checks: the account and its password's hash.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub id: AccountId,
    pub username: Username,
    pub password_hash: String,
}

/// A personal token as listed (never its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    pub id: TokenId,
    pub description: String,
    pub scopes: Vec<String>,
    pub created_at: Timestamp,
}

#[derive(sqlx::FromRow)]
struct AccountRow {
    id: String,
    username: String,
    created_ms: i64,
    deleted_ms: Option<i64>,
    rating: f64,
    deviation: f64,
    volatility: f64,
    rated_games: i64,
    bot: bool,
}

const ACCOUNT_COLUMNS: &str =
    "id, username, created_ms, deleted_ms, rating, deviation, volatility, rated_games, bot";
const MAKE_BOT: &str = "UPDATE accounts SET bot = TRUE WHERE id = $1 AND deleted_ms IS NULL \
     AND rated_games = 0 AND NOT bot";
const CREATE: &str = "INSERT INTO accounts (id, username, username_key, password_hash, created_ms) \
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (username_key) DO NOTHING";
const CREDENTIALS: &str = "SELECT id, username, password_hash FROM accounts \
     WHERE username_key = $1 AND password_hash IS NOT NULL";
const SET_PASSWORD: &str =
    "UPDATE accounts SET password_hash = $2 WHERE id = $1 AND deleted_ms IS NULL";
const DELETE: &str = "UPDATE accounts SET deleted_ms = $2, username_key = NULL, \
     password_hash = NULL WHERE id = $1 AND deleted_ms IS NULL";
const CREATE_SESSION: &str =
    "INSERT INTO sessions (id_hash, account_id, expires_ms) VALUES ($1, $2, $3)";
const SESSION: &str = "SELECT s.account_id, s.expires_ms FROM sessions s \
     JOIN accounts a ON a.id = s.account_id \
     WHERE s.id_hash = $1 AND s.expires_ms > $2 AND a.deleted_ms IS NULL";
const RENEW_SESSION: &str = "UPDATE sessions SET expires_ms = $2 WHERE id_hash = $1";
const DELETE_SESSION: &str = "DELETE FROM sessions WHERE id_hash = $1";
const DELETE_OTHER_SESSIONS: &str = "DELETE FROM sessions WHERE account_id = $1 AND id_hash <> $2";
const DELETE_ALL_SESSIONS: &str = "DELETE FROM sessions WHERE account_id = $1";
const DELETE_EXPIRED_SESSIONS: &str = "DELETE FROM sessions WHERE expires_ms <= $1";
const CREATE_TOKEN: &str = "INSERT INTO personal_tokens \
     (id, account_id, token_hash, description, scopes, created_ms) \
     VALUES ($1, $2, $3, $4, $5, $6)";
const TOKENS_OF: &str = "SELECT id, description, scopes, created_ms FROM personal_tokens \
     WHERE account_id = $1 ORDER BY created_ms, id";
const TOKEN: &str = "SELECT t.account_id, t.scopes FROM personal_tokens t \
     JOIN accounts a ON a.id = t.account_id \
     WHERE t.token_hash = $1 AND a.deleted_ms IS NULL";
const REVOKE_TOKEN: &str = "DELETE FROM personal_tokens WHERE id = $1 AND account_id = $2";
const DELETE_ALL_TOKENS: &str = "DELETE FROM personal_tokens WHERE account_id = $1";
const RECORD_FAILURE: &str = "INSERT INTO auth_failures (key, at_ms) VALUES ($1, $2)";
const FAILURES: &str =
    "SELECT COUNT(*), MIN(at_ms) FROM auth_failures WHERE key = $1 AND at_ms > $2";
const FORGET_FAILURES: &str = "DELETE FROM auth_failures WHERE at_ms <= $1";

impl Store {
    /// Stores a new account → its id, or `None` when the username is taken (without regard to
    /// case).
    pub async fn create_account(
        &self,
        username: &Username,
        password_hash: &str,
        now: Timestamp,
    ) -> Result<Option<AccountId>, StoreError> {
        let id = AccountId::from_bits(rand::random());
        let created = writing!(self, pool => {
            sqlx::query(CREATE)
                .bind(id.as_str())
                .bind(username.as_str())
                .bind(username.key())
                .bind(password_hash)
                .bind(now.ms())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok((created == 1).then_some(id))
    }

    /// The account `id`, deleted or not.
    pub async fn account(&self, id: &AccountId) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1");
        let row: Option<AccountRow> = reading!(self, pool => {
            sqlx::query_as(&sql).bind(id.as_str()).fetch_optional(pool).await
        })?;
        row.map(account).transpose()
    }

    /// The live account named `username` (without regard to case).
    pub async fn account_named(&self, username: &Username) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = $1");
        let row: Option<AccountRow> = reading!(self, pool => {
            sqlx::query_as(&sql).bind(username.key()).fetch_optional(pool).await
        })?;
        row.map(account).transpose()
    }

    /// Makes live account `id` a bot if it has played no rated game and is none yet → whether
    /// it did. One statement: a rated game ending meanwhile either counts first (and this
    /// changes nothing) or comes after (the game was not rated as a bot's, and stays so).
    pub async fn make_bot(&self, id: &AccountId) -> Result<bool, StoreError> {
        let changed = writing!(self, pool => {
            sqlx::query(MAKE_BOT)
                .bind(id.as_str())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(changed == 1)
    }

    /// What a sign-in as `username` checks, if such a live account exists.
    pub async fn credentials(
        &self,
        username: &Username,
    ) -> Result<Option<Credentials>, StoreError> {
        let row: Option<(String, String, String)> = reading!(self, pool => {
            sqlx::query_as(CREDENTIALS).bind(username.key()).fetch_optional(pool).await
        })?;
        row.map(|(id, username, password_hash)| {
            Ok(Credentials {
                id: id.parse()?,
                username: Username::parse(&username).map_err(StoreError::Corrupt)?,
                password_hash,
            })
        })
        .transpose()
    }

    /// Replaces a live account's password hash → whether it was.
    pub async fn set_password(
        &self,
        id: &AccountId,
        password_hash: &str,
    ) -> Result<bool, StoreError> {
        let changed = writing!(self, pool => {
            sqlx::query(SET_PASSWORD)
                .bind(id.as_str())
                .bind(password_hash)
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(changed == 1)
    }

    /// Deletes an account: its password, sessions and tokens go and its name is free again; the
    /// row stays for the games that name it → whether it was live.
    pub async fn delete_account(&self, id: &AccountId, now: Timestamp) -> Result<bool, StoreError> {
        let deleted = transaction!(self, |tx, _dialect| {
            let deleted = sqlx::query(DELETE)
                .bind(id.as_str())
                .bind(now.ms())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            for sql in [DELETE_ALL_SESSIONS, DELETE_ALL_TOKENS] {
                sqlx::query(sql).bind(id.as_str()).execute(&mut *tx).await?;
            }
            deleted
        });
        Ok(deleted == 1)
    }

    /// Stores a session (the SHA-256 of its id) of account `id` until `expires`.
    pub async fn create_session(
        &self,
        id_hash: &[u8; 32],
        account: &AccountId,
        expires: Timestamp,
    ) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(CREATE_SESSION)
                .bind(&id_hash[..])
                .bind(account.as_str())
                .bind(expires.ms())
                .execute(pool)
                .await
                .map(drop)
        })?;
        Ok(())
    }

    /// The live account of an unexpired session, and until when the session holds.
    pub async fn session(
        &self,
        id_hash: &[u8; 32],
        now: Timestamp,
    ) -> Result<Option<(AccountId, Timestamp)>, StoreError> {
        let row: Option<(String, i64)> = reading!(self, pool => {
            sqlx::query_as(SESSION)
                .bind(&id_hash[..])
                .bind(now.ms())
                .fetch_optional(pool)
                .await
        })?;
        row.map(|(account, expires)| Ok((account.parse()?, Timestamp::from_ms(expires))))
            .transpose()
    }

    /// Makes a session hold until `expires`.
    pub async fn renew_session(
        &self,
        id_hash: &[u8; 32],
        expires: Timestamp,
    ) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(RENEW_SESSION)
                .bind(&id_hash[..])
                .bind(expires.ms())
                .execute(pool)
                .await
                .map(drop)
        })?;
        Ok(())
    }

    /// Ends a session (signing out): every process refuses it from now on.
    pub async fn delete_session(&self, id_hash: &[u8; 32]) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(DELETE_SESSION).bind(&id_hash[..]).execute(pool).await.map(drop)
        })?;
        Ok(())
    }

    /// Ends every session of `account` but `kept` (after a change of password).
    pub async fn delete_other_sessions(
        &self,
        account: &AccountId,
        kept: &[u8; 32],
    ) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(DELETE_OTHER_SESSIONS)
                .bind(account.as_str())
                .bind(&kept[..])
                .execute(pool)
                .await
                .map(drop)
        })?;
        Ok(())
    }

    /// Stores a personal token (its SHA-256) of `account` → its id.
    pub async fn create_token(
        &self,
        account: &AccountId,
        token_hash: &[u8; 32],
        description: &str,
        scopes: &[&str],
        now: Timestamp,
    ) -> Result<TokenId, StoreError> {
        let id = TokenId::from_bits(rand::random());
        writing!(self, pool => {
            sqlx::query(CREATE_TOKEN)
                .bind(id.as_str())
                .bind(account.as_str())
                .bind(&token_hash[..])
                .bind(description)
                .bind(scopes.join(" "))
                .bind(now.ms())
                .execute(pool)
                .await
                .map(drop)
        })?;
        Ok(id)
    }

    /// The personal tokens of `account`, oldest first, without their secrets.
    pub async fn tokens_of(&self, account: &AccountId) -> Result<Vec<TokenInfo>, StoreError> {
        let rows: Vec<(String, String, String, i64)> = reading!(self, pool => {
            sqlx::query_as(TOKENS_OF).bind(account.as_str()).fetch_all(pool).await
        })?;
        rows.into_iter()
            .map(|(id, description, scopes, created)| {
                Ok(TokenInfo {
                    id: id.parse()?,
                    description,
                    scopes: scopes.split_whitespace().map(str::to_owned).collect(),
                    created_at: Timestamp::from_ms(created),
                })
            })
            .collect()
    }

    /// The live account a personal token (its SHA-256) acts for, and the token's scopes.
    pub async fn token(
        &self,
        token_hash: &[u8; 32],
    ) -> Result<Option<(AccountId, Vec<String>)>, StoreError> {
        let row: Option<(String, String)> = reading!(self, pool => {
            sqlx::query_as(TOKEN).bind(&token_hash[..]).fetch_optional(pool).await
        })?;
        row.map(|(account, scopes)| {
            let scopes = scopes.split_whitespace().map(str::to_owned).collect();
            Ok((account.parse()?, scopes))
        })
        .transpose()
    }

    /// Revokes `account`'s token `id` → whether it had one.
    pub async fn revoke_token(
        &self,
        id: &TokenId,
        account: &AccountId,
    ) -> Result<bool, StoreError> {
        let revoked = writing!(self, pool => {
            sqlx::query(REVOKE_TOKEN)
                .bind(id.as_str())
                .bind(account.as_str())
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(revoked == 1)
    }

    /// Notes a failed sign-in or sign-up under each of `keys` (a username, an address).
    pub async fn record_failure(&self, keys: &[String], now: Timestamp) -> Result<(), StoreError> {
        transaction!(self, |tx, _dialect| {
            for key in keys {
                sqlx::query(RECORD_FAILURE)
                    .bind(key)
                    .bind(now.ms())
                    .execute(&mut *tx)
                    .await?;
            }
        });
        Ok(())
    }

    /// How many failures `key` has had after `since`, and when the oldest of them was.
    pub async fn failures(
        &self,
        key: &str,
        since: Timestamp,
    ) -> Result<(u32, Option<Timestamp>), StoreError> {
        let (count, oldest): (i64, Option<i64>) = reading!(self, pool => {
            sqlx::query_as(FAILURES).bind(key).bind(since.ms()).fetch_one(pool).await
        })?;
        let count = u32::try_from(count).unwrap_or(u32::MAX);
        Ok((count, oldest.map(Timestamp::from_ms)))
    }

    /// Forgets failures at or before `failures_before`, and sessions expired by `now` → rows
    /// deleted.
    pub async fn forget_stale_sign_ins(
        &self,
        failures_before: Timestamp,
        now: Timestamp,
    ) -> Result<u64, StoreError> {
        let mut deleted = 0;
        for (sql, at) in [
            (FORGET_FAILURES, failures_before),
            (DELETE_EXPIRED_SESSIONS, now),
        ] {
            deleted += writing!(self, pool => {
                sqlx::query(sql)
                    .bind(at.ms())
                    .execute(pool)
                    .await
                    .map(|done| done.rows_affected())
            })?;
        }
        Ok(deleted)
    }
}

fn account(row: AccountRow) -> Result<Account, StoreError> {
    Ok(Account {
        id: row.id.parse()?,
        username: Username::parse(&row.username).map_err(StoreError::Corrupt)?,
        created_at: Timestamp::from_ms(row.created_ms),
        deleted_at: row.deleted_ms.map(Timestamp::from_ms),
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
        rated_games: u32::try_from(row.rated_games).unwrap_or(u32::MAX),
        bot: row.bot,
    })
}
