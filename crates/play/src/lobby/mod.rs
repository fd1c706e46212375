//! The lobby: open a seek (paired at once with the oldest matching open seek, if any), list the
//! open seeks, accept one, withdraw one's own, and follow one's seek until it is paired. Pairing
//! is the store's one transaction (docs/architecture.md, "Lobby"). Besides: the bell that wakes a
//! seek's followers when it is paired (rung in this process directly, and from the others'
//! `NOTIFY` on PostgreSQL), the sweep that withdraws quiet seeks (any process, state in the
//! database), and the seat token a seeker gets (derived from the seek's token, so the store
//! never holds it).

mod follow;

/// The bell of this process's seek streams.
pub type Bell = crate::bell::Bell<SeekId>;
/// A seek stream's hold on its seek's bell.
pub type Ringer = crate::bell::Ringer<SeekId>;
pub use follow::{Follow, Looked, Woke};

use crate::error::{PlayCode, PlayError, PlayResult};
use crate::games::{Games, NewSetUp, settings_of};
use crate::time::now;
use gmo_engine::Color;
use gmo_store::{
    Accepted, NewSeek, Notice, Opened, Pool, SEEK_CHANNEL, Seek, SeekLimits, SeekState,
};
use gmo_types::{AccountId, ColorWish, GameId, Millis, SeekId, Timestamp};
use std::sync::Arc;
use std::time::Duration;

/// A seek whose stream has been gone this long is withdrawn (issue 13: more than 10 s).
pub const QUIET: Millis = Millis::from_ms(10_000);
/// How often a waiting stream shows its seek alive, looks for a match again and says `waiting`.
pub const TICK: Duration = Duration::from_secs(2);
/// The longest a seek stays open (and its stream waits): then it is withdrawn.
pub const MAX_OPEN: Millis = Millis::from_ms(30 * 60_000);
/// How long a paired seek is kept for its seeker's stream to pick the game up.
pub const KEEP_PAIRED: Millis = Millis::from_ms(10 * 60_000);
/// The most open seeks [`Lobby::list`] lists.
pub const LIST_LIMIT: u32 = 100;
/// The most streams one seek may have open at once in one process (a reloaded page overlaps).
pub const STREAMS_PER_SEEK: usize = 2;

/// The oldest pulse an open seek may have and still count as alive.
pub fn alive_since(now: Timestamp) -> Timestamp {
    now - QUIET
}

/// The seat token a seeker gets on pairing: 128 bits of SHA-256 over its seek's token, so that
/// only the seek's holder can compute it and the store keeps nothing but its hash.
pub fn seat_token_of(seek_token: &str) -> String {
    let digest = gmo_genome::sha256(&format!("gmo-seat:{seek_token}"));
    digest[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// What a seek asks for.
#[derive(Debug, Clone, Copy)]
pub struct SeekRequest {
    pub width: Option<u8>,
    pub height: Option<u8>,
    pub initial: Millis,
    pub increment: Option<Millis>,
    pub wish: ColorWish,
    /// A rated game: the seeker must be signed in (`account`), and the board 8 × 8.
    pub rated: bool,
}

/// A game made from an accepted seek, for the one who accepted it.
#[derive(Debug, Clone)]
pub struct Taken {
    pub game: GameId,
    pub seat: Color,
    /// The taker's seat token (shown once).
    pub token: String,
}

/// The lobby of the service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Lobby {
    games: Games,
    bell: Arc<Bell>,
    limits: SeekLimits,
}

impl Lobby {
    pub fn new(games: Games, limits: SeekLimits) -> Lobby {
        Lobby {
            games,
            bell: Arc::new(Bell::new(STREAMS_PER_SEEK)),
            limits,
        }
    }

    /// The bell of this process's seek streams (tests check nothing leaks).
    pub fn bell(&self) -> &Arc<Bell> {
        &self.bell
    }

    /// Opens a seek for `client` → its id and token (shown once); a matching open seek (same
    /// clock and board, compatible colours) is paired with it at once, the oldest first.
    /// `account`: the seeker's, if signed in (its seat will be the account's).
    pub async fn open(
        &self,
        client: &str,
        request: SeekRequest,
        account: Option<&AccountId>,
    ) -> PlayResult<(SeekId, String)> {
        let clock = (request.initial, request.increment);
        let first_move = self.games.first_move();
        let settings = settings_of(request.width, request.height, Some(clock), first_move)?;
        if request.rated {
            rated_seek_allowed(&settings, account)?;
        }
        let pool = Pool {
            width: settings.width.into(),
            height: settings.height.into(),
            initial: settings.initial_ms,
            increment: settings.increment_ms,
            rated: request.rated,
        };
        let token = gmo_store::new_token();
        let new = NewSeek {
            token: gmo_store::token_hash(&token),
            seat_token: gmo_store::token_hash(&seat_token_of(&token)),
            client,
            pool,
            wish: request.wish,
            now: now(),
            account: account.cloned(),
        };
        let id = match self.games.store().open_seek(&new, self.limits).await? {
            Opened::Open(id) => id,
            Opened::ClientFull => {
                return Err(PlayError::refused(
                    PlayCode::SeekLimit,
                    format!(
                        "a client may have at most {} open seeks; withdraw one first",
                        self.limits.per_client
                    ),
                ));
            }
            Opened::LobbyFull => {
                return Err(PlayError::Full(format!(
                    "the lobby holds at most {} open seeks and is full; try again shortly",
                    self.limits.overall
                )));
            }
        };
        self.pair(&id, pool).await?;
        Ok((id, token))
    }

    /// Pairs open seek `id` of `pool` if a match is open → where it stands. The seeks' streams
    /// in this process are woken here; the store announces the pairing to the other processes.
    async fn pair(&self, id: &SeekId, pool: Pool) -> PlayResult<SeekState> {
        let new = set_up(pool, &self.games)?;
        let mut row = new.row(None, None, None, None);
        row.rated = pool.rated;
        let alive = alive_since(now());
        let (seek, partner) = self.games.store().pair_seek(id, alive, &row).await?;
        if let (SeekState::Paired { game, .. }, Some(partner)) = (&seek, partner) {
            self.games.created(game, &new, None);
            self.bell.ring(id);
            self.bell.ring(&partner);
        }
        Ok(seek)
    }

    /// The open seeks, newest first (at most [`LIST_LIMIT`]).
    pub async fn list(&self) -> PlayResult<Vec<Seek>> {
        let alive = alive_since(now());
        Ok(self.games.store().open_seeks(alive, LIST_LIMIT).await?)
    }

    /// Seek `id` for the holder of `token`.
    pub async fn owned(&self, id: &SeekId, token: &str) -> PlayResult<Seek> {
        let seek = self.games.store().seek(id).await?.ok_or_else(|| gone(id))?;
        if !gmo_store::token_matches(token, &seek.token) {
            return Err(self.games.wrong_token(token, "this seek").await);
        }
        Ok(seek)
    }

    /// Withdraws the open seek `token` holds; a paired seek stays paired.
    pub async fn withdraw(&self, id: &SeekId, token: &str) -> PlayResult<()> {
        self.owned(id, token).await?;
        match self.games.store().withdraw_seek(id).await? {
            SeekState::Open => {
                self.bell.ring(id);
                Ok(())
            }
            SeekState::Paired { game, .. } => Err(paired_already(&game)),
            SeekState::Gone => Err(gone(id)),
        }
    }

    /// Takes an open seek: a game is made between its seeker and the caller (the seeker's
    /// streams are told). `account`: the caller's, if signed in (a rated seek needs another
    /// account than the seeker's).
    pub async fn accept(&self, id: &SeekId, account: Option<&AccountId>) -> PlayResult<Taken> {
        let store = self.games.store();
        let seek = store.seek(id).await?.ok_or_else(|| gone(id))?;
        if let Some((game, _)) = &seek.paired {
            return Err(paired_already(game));
        }
        if seek.pool.rated && account.is_none() {
            return Err(PlayError::sign_in_needed("accepting a rated seek"));
        }
        let new = set_up(seek.pool, &self.games)?;
        let token = gmo_store::new_token();
        let mut row = new.row(None, None, None, None);
        row.rated = seek.pool.rated;
        let alive = alive_since(now());
        let hash = gmo_store::token_hash(&token);
        match store.accept_seek(id, alive, &row, hash, account).await? {
            Accepted::Paired { game, seat } => {
                self.games.created(&game, &new, None);
                self.bell.ring(id);
                Ok(Taken { game, seat, token })
            }
            Accepted::Taken => Err(PlayError::refused(
                PlayCode::SeekPaired,
                "the seek was paired with someone else first",
            )),
            Accepted::Gone => Err(gone(id)),
            Accepted::NotForYou => Err(PlayError::refused(
                PlayCode::OwnSeek,
                "a rated seek is accepted by another account than its seeker's",
            )),
        }
    }

    /// Starts following the seek `token` holds: at most [`STREAMS_PER_SEEK`] at once here.
    pub async fn follow(&self, id: &SeekId, token: &str) -> PlayResult<Follow> {
        let seek = self.owned(id, token).await?;
        let ringer = self.bell.hold(id).ok_or_else(|| {
            PlayError::refused(
                PlayCode::TooManyStreams,
                "this seek has as many streams open as it may; close one",
            )
        })?;
        Ok(Follow {
            lobby: self.clone(),
            id: id.clone(),
            seat_token: seat_token_of(token),
            pool: seek.pool,
            created: seek.created_at,
            ringer,
        })
    }

    /// The lobby's background work until the server stops: relaying other processes' pairings
    /// to this process's streams, and sweeping quiet seeks every `every`.
    pub async fn run(self, every: Duration) {
        tokio::join!(self.clone().relay(), self.sweep_forever(every));
    }

    async fn relay(self) {
        loop {
            let mut notifications = match self.games.store().listen_on(SEEK_CHANNEL).await {
                Ok(Some(notifications)) => notifications,
                Ok(None) => return,
                Err(error) => {
                    tracing::warn!(%error, "cannot listen for pairings; retrying");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            };
            loop {
                match notifications.next().await {
                    Ok(Notice::Payload(id)) => {
                        if let Ok(id) = SeekId::parse(&id) {
                            self.bell.ring(&id);
                        }
                    }
                    // A pairing announced meanwhile is missed: every follower looks again.
                    Ok(Notice::Lost) => self.bell.ring_all(),
                    Err(error) => {
                        tracing::warn!(%error, "listening for pairings failed; retrying");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        }
    }

    async fn sweep_forever(self, every: Duration) {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let now = now();
            let swept = self
                .games
                .store()
                .sweep_seeks(alive_since(now), now - MAX_OPEN, now - KEEP_PAIRED)
                .await;
            if let Err(error) = swept {
                tracing::warn!(%error, "seek sweep failed");
            }
        }
    }
}

/// The game a seek of `pool` is paired into (or a challenge accepted into): made as a creation
/// makes one, no bots.
pub(crate) fn set_up(pool: Pool, games: &Games) -> PlayResult<NewSetUp> {
    let size = |n: u16| u8::try_from(n).ok();
    let clock = (pool.initial, Some(pool.increment));
    let (width, height) = (size(pool.width), size(pool.height));
    let settings = settings_of(width, height, Some(clock), games.first_move())?
        .with_discovery(games.discovery());
    NewSetUp::new(settings, None, None)
}

/// A rated seek (or challenge) is an account's, on an 8 × 8 board.
pub(crate) fn rated_seek_allowed(
    settings: &gmo_engine::Settings,
    account: Option<&AccountId>,
) -> PlayResult<()> {
    if account.is_none() {
        return Err(PlayError::sign_in_needed("a rated seek"));
    }
    if (settings.width, settings.height) != (8, 8) {
        return Err(PlayError::invalid(
            PlayCode::RatedBoard,
            format!(
                "rated games are 8 × 8; this seek asks for {} × {}",
                settings.width, settings.height
            ),
        ));
    }
    Ok(())
}

fn gone(id: &SeekId) -> PlayError {
    PlayError::not_found("seek", id)
}

fn paired_already(game: &GameId) -> PlayError {
    PlayError::refused(
        PlayCode::SeekPaired,
        format!("the seek is paired already, into game {game}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_tokens_are_hex_tokens_and_differ_from_the_seek_token() {
        let seek = gmo_store::new_token();
        let seat = seat_token_of(&seek);
        assert_eq!(seat.len(), 32);
        assert!(
            seat.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        assert_ne!(seat, seek);
        assert_eq!(seat, seat_token_of(&seek));
        assert_ne!(seat, seat_token_of(&gmo_store::new_token()));
    }
}
