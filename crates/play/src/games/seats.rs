//! Who a bearer token is on a game: a seat, or (for reading) a spectator. A token this service
//! issued for something else is [`PlayError::WrongToken`]; one it never issued
//! [`PlayError::UnknownToken`].

use super::Games;
use crate::error::{PlayError, PlayResult};
use crate::hub::{Happened, Update};
use crate::stored::{self, Stored};
use gmo_engine::{Color, Viewer};

impl Games {
    /// The seat `token` holds on this game. The first time a seat's token is used, the seat is
    /// noted as joined.
    pub(crate) async fn seat_of(&self, stored: &Stored, token: &str) -> PlayResult<Color> {
        let Some(seat) = stored.seat_of(token) else {
            return Err(self.wrong_token(token, "this game").await);
        };
        if !*stored.joined.get(seat) {
            self.join(stored, seat).await;
        }
        Ok(seat)
    }

    /// The viewer a request is: no token is a spectator, a token must be one of this game's
    /// seats.
    pub(crate) async fn viewer_of_token(
        &self,
        stored: &Stored,
        token: Option<&str>,
    ) -> PlayResult<Viewer> {
        match token {
            None => Ok(Viewer::Spectator),
            Some(token) => Ok(Viewer::Player(self.seat_of(stored, token).await?)),
        }
    }

    /// The refusal of a token that opens nothing here: issued for something else, or never.
    pub async fn wrong_token(&self, token: &str, what: &'static str) -> PlayError {
        match self.store.knows_token(token).await {
            Ok(true) => PlayError::WrongToken { what },
            Ok(false) => PlayError::UnknownToken,
            Err(error) => error.into(),
        }
    }

    /// Notes that `seat`'s holder has opened the game and, when this was the first time, tells
    /// the game's streams here and in other processes. It runs in a task of its own, so that a
    /// client gone meanwhile (a read is not run to completion otherwise) cannot leave the note
    /// written but unannounced. A failure to note it costs nothing but the note: the next
    /// request with the token tries again.
    async fn join(&self, stored: &Stored, seat: Color) {
        let (games, stored) = (self.clone(), stored.clone());
        let joining = tokio::spawn(async move { games.note_join(&stored, seat).await });
        if let Err(failure) = joining.await {
            tracing::warn!(%failure, "noting a seat joining failed");
        }
    }

    async fn note_join(&self, stored: &Stored, seat: Color) {
        let id = &stored.id;
        match self.store.join(id, seat).await {
            Ok(true) => {
                self.cache.join(id, seat);
                let mut joined = stored::joined(stored);
                *joined.get_mut(seat) = true;
                let update = Update {
                    version: stored.version,
                    happened: vec![Happened::Joined(seat)],
                    game: stored.state.clone(),
                    joined,
                    rendered: Default::default(),
                };
                self.announce(id, update);
            }
            Ok(false) => self.cache.join(id, seat),
            Err(error) => tracing::warn!(game = %id, %error, "could not note a seat joining"),
        }
    }
}
