//! Accounts: signing up and in, sessions, personal tokens, and the account's own changes
//! (password, deletion). Who plays and ratings are the games' part; this module says who a caller
//! is.
//!
//! Secrets (passwords, session ids, tokens) are never logged and never stored: passwords as
//! Argon2id hashes, session ids and tokens as their SHA-256.

mod caller;
mod password;
mod throttle;

pub use caller::{Caller, Via};
pub use password::{GivenPassword, Hasher, PASSWORD_LENGTH, Password};
pub use throttle::{MAX_FAILURES, WINDOW};

use crate::error::{PlayCode, PlayError, PlayResult};
use crate::time::now;
use gmo_store::{Account, Store, TokenInfo, new_token, token_hash};
use gmo_types::{AccountId, Millis, Scope, Timestamp, TokenId, Username};
use std::time::Duration;
use throttle::Keys;

/// How long a session holds without being used: 30 days.
pub const SESSION_LIFETIME: Millis = Millis::from_secs(30 * 24 * 3600);
/// A session used is renewed when it has held this long since it was last (so that a busy
/// session does not write on every request).
const RENEW_AFTER: Millis = Millis::from_secs(24 * 3600);
/// What a personal token starts with, telling it from a seat token.
pub const TOKEN_PREFIX: &str = "gmo_";
/// The longest description of a personal token, in characters.
pub const MAX_DESCRIPTION: usize = 100;
/// How many personal tokens one account may hold.
pub const MAX_TOKENS: usize = 50;

/// A session just opened: its id goes to the client (once), as the cookie.
#[derive(Debug, Clone)]
pub struct Opened {
    pub username: Username,
    pub session: String,
    pub expires: Timestamp,
}

/// A personal token just made: its secret is shown once.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub id: TokenId,
    pub token: String,
}

/// The accounts part of the service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Accounts {
    store: Store,
    hasher: Hasher,
}

impl Accounts {
    /// `hashes`: how many passwords may be hashed at once; `share`: how much of one core hashing
    /// may take over time (0.01 to 1).
    pub fn new(store: Store, hashes: usize, share: f64) -> Accounts {
        Accounts {
            store,
            hasher: Hasher::new(hashes, share),
        }
    }

    /// Makes an account and signs it in; `address` is who asks (failures are counted by it).
    pub async fn sign_up(
        &self,
        username: Username,
        password: Password,
        address: &str,
    ) -> PlayResult<Opened> {
        let keys = Keys::new(None, address);
        throttle::check(&self.store, &keys, now()).await?;
        if self.store.account_named(&username).await?.is_some() {
            throttle::fail(&self.store, &keys, now()).await?;
            return Err(taken(&username));
        }
        let hash = self.hasher.hash(&password).await?;
        let Some(id) = self.store.create_account(&username, &hash, now()).await? else {
            // Another sign-up took the name while this one hashed.
            throttle::fail(&self.store, &keys, now()).await?;
            return Err(taken(&username));
        };
        tracing::info!(%username, "account created");
        self.open_session(id, username).await
    }

    /// Signs in: a new session, or the same refusal for an unknown name and a wrong password
    /// (whatever its length: the rules of new passwords are not applied here).
    pub async fn sign_in(
        &self,
        username: Username,
        password: GivenPassword,
        address: &str,
    ) -> PlayResult<Opened> {
        let keys = Keys::new(Some(&username), address);
        throttle::check(&self.store, &keys, now()).await?;
        let credentials = self.store.credentials(&username).await?;
        let hash = credentials
            .as_ref()
            .map(|known| known.password_hash.as_str());
        match credentials.as_ref() {
            Some(known) if self.hasher.verify(&password, hash).await? => {
                self.open_session(known.id.clone(), known.username.clone())
                    .await
            }
            known => {
                if known.is_none() {
                    // As long as a wrong password takes, so that time tells no names.
                    self.hasher.verify(&password, None).await?;
                }
                throttle::fail(&self.store, &keys, now()).await?;
                Err(bad_credentials())
            }
        }
    }

    /// Ends the session whose id is `session` (nothing when there is none): every process
    /// refuses it from now on.
    pub async fn sign_out(&self, session: &str) -> PlayResult<()> {
        Ok(self.store.delete_session(&token_hash(session)).await?)
    }

    /// The caller a session id stands for (renewing the session), if it is live.
    pub async fn by_session(&self, session: &str) -> PlayResult<Option<Caller>> {
        let hash = token_hash(session);
        let now = now();
        let Some((account, expires)) = self.store.session(&hash, now).await? else {
            return Ok(None);
        };
        let renewed = now.saturating_add(SESSION_LIFETIME);
        if renewed.since(expires) >= RENEW_AFTER {
            self.store.renew_session(&hash, renewed).await?;
        }
        self.caller(account, Via::Session(hash)).await
    }

    /// The caller a personal token stands for, if it is live.
    pub async fn by_token(&self, token: &str) -> PlayResult<Option<Caller>> {
        let Some((account, scopes)) = self.store.token(&token_hash(token)).await? else {
            return Ok(None);
        };
        let scopes = scopes
            .iter()
            .filter_map(|name| Scope::named(name))
            .collect();
        self.caller(account, Via::Token(scopes)).await
    }

    async fn caller(&self, account: AccountId, via: Via) -> PlayResult<Option<Caller>> {
        let live = self.store.account(&account).await?;
        Ok(live
            .filter(|account| account.deleted_at.is_none())
            .map(|found| Caller {
                account,
                username: found.username,
                via,
                bot: found.bot,
            }))
    }

    /// The caller's account.
    pub async fn account(&self, caller: &Caller) -> PlayResult<Account> {
        self.store
            .account(&caller.account)
            .await?
            .filter(|account| account.deleted_at.is_none())
            .ok_or_else(|| PlayError::not_found("account", &caller.username))
    }

    /// Changes the password (the current one must be given): the caller's session is replaced
    /// by a new one and every other session ends.
    pub async fn change_password(
        &self,
        caller: &Caller,
        current: GivenPassword,
        new: Password,
        address: &str,
    ) -> PlayResult<Opened> {
        needs_session(caller)?;
        self.confirm(caller, &current, address).await?;
        let hash = self.hasher.hash(&new).await?;
        if !self.store.set_password(&caller.account, &hash).await? {
            return Err(PlayError::not_found("account", &caller.username));
        }
        let opened = self
            .open_session(caller.account.clone(), caller.username.clone())
            .await?;
        let kept = token_hash(&opened.session);
        self.store
            .delete_other_sessions(&caller.account, &kept)
            .await?;
        Ok(opened)
    }

    /// Deletes the caller's account (the password must be given): its sessions and tokens end,
    /// its name is free again, its games stay (naming a deleted player).
    pub async fn delete(
        &self,
        caller: &Caller,
        password: GivenPassword,
        address: &str,
    ) -> PlayResult<()> {
        needs_session(caller)?;
        self.confirm(caller, &password, address).await?;
        self.store.delete_account(&caller.account, now()).await?;
        tracing::info!(username = %caller.username, "account deleted");
        Ok(())
    }

    /// Makes the caller's account a bot, for good (issue 33): refused once it has played a rated
    /// game, since a bot's rating is of another pool than people's. Already a bot: nothing
    /// changes.
    pub async fn become_bot(&self, caller: &Caller) -> PlayResult<()> {
        if self.store.make_bot(&caller.account).await? {
            tracing::info!(username = %caller.username, "account became a bot");
            return Ok(());
        }
        let account = self.account(caller).await?;
        if account.bot {
            return Ok(());
        }
        Err(PlayError::refused(
            PlayCode::RatedGamesPlayed,
            format!(
                "an account becomes a bot before its first rated game; this one has played {}",
                account.rated_games
            ),
        ))
    }

    /// Makes a personal token (only with the session: a token cannot make another).
    pub async fn create_token(
        &self,
        caller: &Caller,
        description: &str,
        scopes: &[Scope],
    ) -> PlayResult<NewToken> {
        needs_session(caller)?;
        let description = checked_description(description)?;
        let mut scopes = scopes.to_vec();
        scopes.sort_unstable();
        scopes.dedup();
        if scopes.is_empty() {
            return Err(PlayError::invalid(
                PlayCode::BadScopes,
                "`scopes`: name at least one of \"play\", \"events\" and \"bot\"",
            ));
        }
        if scopes.contains(&Scope::Bot) != caller.bot {
            return Err(PlayError::invalid(
                PlayCode::BadScopes,
                "`scopes`: a bot account's tokens have the scope \"bot\", and only theirs \
                 (POST /api/account/bot makes the account a bot)",
            ));
        }
        if self.store.tokens_of(&caller.account).await?.len() >= MAX_TOKENS {
            return Err(PlayError::refused(
                PlayCode::TokenLimit,
                format!("an account holds at most {MAX_TOKENS} personal tokens; revoke one"),
            ));
        }
        let token = format!("{TOKEN_PREFIX}{}", new_token());
        let names: Vec<&str> = scopes.iter().map(|scope| scope.name()).collect();
        let id = self
            .store
            .create_token(
                &caller.account,
                &token_hash(&token),
                description,
                &names,
                now(),
            )
            .await?;
        Ok(NewToken { id, token })
    }

    /// The caller's personal tokens, without their secrets.
    pub async fn tokens(&self, caller: &Caller) -> PlayResult<Vec<TokenInfo>> {
        needs_session(caller)?;
        Ok(self.store.tokens_of(&caller.account).await?)
    }

    /// Revokes one of the caller's personal tokens.
    pub async fn revoke_token(&self, caller: &Caller, id: &TokenId) -> PlayResult<()> {
        needs_session(caller)?;
        if self.store.revoke_token(id, &caller.account).await? {
            Ok(())
        } else {
            Err(PlayError::not_found("token", id))
        }
    }

    /// Forgets failures older than the window and expired sessions, every `every`, for ever.
    pub async fn sweep_forever(self, every: Duration) {
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            let now = now();
            if let Err(error) = self
                .store
                .forget_stale_sign_ins(now.saturating_sub(WINDOW), now)
                .await
            {
                tracing::warn!(%error, "could not forget stale sign-ins");
            }
        }
    }

    /// Checks the caller's password again before a change that needs it.
    async fn confirm(
        &self,
        caller: &Caller,
        password: &GivenPassword,
        address: &str,
    ) -> PlayResult<()> {
        let keys = Keys::new(Some(&caller.username), address);
        throttle::check(&self.store, &keys, now()).await?;
        let credentials = self.store.credentials(&caller.username).await?;
        let hash = credentials
            .as_ref()
            .filter(|known| known.id == caller.account)
            .map(|known| known.password_hash.as_str());
        if self.hasher.verify(password, hash).await? {
            return Ok(());
        }
        throttle::fail(&self.store, &keys, now()).await?;
        Err(bad_credentials())
    }

    async fn open_session(&self, account: AccountId, username: Username) -> PlayResult<Opened> {
        let session = new_token();
        let expires = now().saturating_add(SESSION_LIFETIME);
        self.store
            .create_session(&token_hash(&session), &account, expires)
            .await?;
        Ok(Opened {
            username,
            session,
            expires,
        })
    }
}

fn needs_session(caller: &Caller) -> PlayResult<&[u8; 32]> {
    caller.session().ok_or_else(|| PlayError::WrongToken {
        what: "this: it needs the signed-in session, not a personal token",
    })
}

fn taken(username: &Username) -> PlayError {
    PlayError::refused(
        PlayCode::UsernameTaken,
        format!(
            "the username {:?} is taken (without regard to case); choose another",
            username.as_str()
        ),
    )
}

fn bad_credentials() -> PlayError {
    PlayError::Denied {
        code: PlayCode::BadCredentials,
        message: "unknown username or wrong password".into(),
    }
}

/// A token's description: 1 to [`MAX_DESCRIPTION`] characters, no control characters.
fn checked_description(raw: &str) -> PlayResult<&str> {
    let length = raw.chars().count();
    if (1..=MAX_DESCRIPTION).contains(&length) && !raw.chars().any(char::is_control) {
        return Ok(raw);
    }
    Err(PlayError::invalid(
        PlayCode::BadDescription,
        format!(
            "`description`: 1 to {MAX_DESCRIPTION} characters without control characters; got \
             {length} characters"
        ),
    ))
}
