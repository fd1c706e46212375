//! Rematches: after the end each seat may ask for one (a bot's seat asks at once); when both
//! have, one new game starts with the same settings and the colours swapped. The state lives in
//! the database (`gmo_store::Rematch`), so any process answers any ask, and the store creates the
//! game exactly once. Each seat's token in the new game is derived from its token in this one
//! (`gmo_store::rematch_token`): the seat's own stream can show it, nobody else can know it.

use crate::bot_seats;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::games::Games;
use crate::hub::{Happened, Update};
use crate::stored::{self, Stored, row_state};
use crate::time::now;
use gmo_engine::{Color, Game};
use gmo_store::{GameSettings, NewGame, Rematch, RematchAsk, rematch_token, token_hash};
use gmo_types::{ByColor, GameId};

/// Where a rematch stands for the seat that asked.
#[derive(Debug, Clone)]
pub struct RematchState {
    /// Which seats have asked (a bot's seat asks at once).
    pub asked: ByColor<bool>,
    /// The new game and the caller's token in it, once both asked.
    pub game: Option<(GameId, String)>,
}

/// Rematches of finished games.
#[derive(Debug, Clone)]
pub struct Rematches {
    games: Games,
}

impl Rematches {
    pub fn new(games: Games) -> Rematches {
        Rematches { games }
    }

    /// The seat holding `token` on finished game `id` asks for a rematch → where it stands.
    /// One ask at a time per game in this process; across processes the store decides.
    pub async fn ask(&self, id: &GameId, token: &str) -> PlayResult<RematchState> {
        let _turn = self.games.lock(id).await;
        let stored = self.games.load(id).await?;
        let seat = self.games.seat_of(&stored, token).await?;
        if !stored.state.is_over() {
            return Err(PlayError::refused(
                PlayCode::NotOver,
                format!(
                    "a rematch can be asked once the game is over; it is {}",
                    stored.state.status().name()
                ),
            ));
        }
        self.games.refuse_event_game(id, "rematched").await?;
        let next = token_hash(&rematch_token(token, id));
        let bots = &stored.settings;
        let ask = RematchAsk {
            white: seat == Color::White || bots.white_bot.is_some(),
            black: seat == Color::Black || bots.black_bot.is_some(),
            white_next: (seat == Color::White).then_some(next),
            black_next: (seat == Color::Black).then_some(next),
        };
        let store = self.games.store();
        let before = store.rematch(id).await?;
        let mut rematch = store.ask_rematch(id, &ask).await?;
        if rematch.game.is_none() && rematch.white && rematch.black {
            let (game, created) = self.start(&stored, &rematch).await?;
            if created {
                self.announce(id, &stored, Happened::RematchStarted(game.clone()));
            }
            rematch.game = Some(game);
        } else if !asked(&before, seat) {
            self.announce(id, &stored, Happened::RematchAsked(seat));
        }
        let game = rematch.game.map(|game| (game, rematch_token(token, id)));
        Ok(RematchState {
            asked: ByColor::new(rematch.white, rematch.black),
            game,
        })
    }

    /// Creates the new game (or finds the one another request created) → its id, and whether
    /// this call created it.
    async fn start(&self, stored: &Stored, rematch: &Rematch) -> PlayResult<(GameId, bool)> {
        // The same settings, checked when the game was made.
        let settings = stored.state.settings();
        // Colours swap: White's seat (and bot) plays Black now, and the other way round.
        let swapped = GameSettings {
            white_bot: stored.settings.black_bot.clone(),
            black_bot: stored.settings.white_bot.clone(),
            ..stored.settings.clone()
        };
        let mut game = Game::new(settings, rand::random())?;
        let bots = (swapped.white_bot.is_some(), swapped.black_bot.is_some());
        bot_seats::set_up(&mut game, bots.0, bots.1, now())?;
        let new = NewGame {
            settings: &swapped,
            white_token: rematch.black_next,
            black_token: rematch.white_next,
            status: game.status(),
            state: &row_state(&game),
            deadline: game.deadline(),
            bot_turn: None,
            creator_token: None,
            // The same players, colours swapped; rated if the game was.
            accounts: ByColor::new(
                stored
                    .players
                    .black
                    .as_ref()
                    .map(|player| player.account.clone()),
                stored
                    .players
                    .white
                    .as_ref()
                    .map(|player| player.account.clone()),
            ),
            rated: stored.rated,
            created: now(),
        };
        let max = self.games.max_bot_games();
        let (id, created) = self
            .games
            .store()
            .start_rematch(&stored.id, &new, max)
            .await?
            .ok_or_else(|| bot_seats::full(max))?;
        if created {
            self.games.counted_creation();
        }
        Ok((id, created))
    }

    /// Tells the finished game's streams, here and in other processes.
    fn announce(&self, id: &GameId, stored: &Stored, news: Happened) {
        let update = Update {
            version: stored.version,
            happened: vec![news],
            game: stored.state.clone(),
            joined: stored::joined(stored),
            rendered: Default::default(),
        };
        self.games.announce(id, update);
    }
}

fn asked(rematch: &Rematch, seat: Color) -> bool {
    match seat {
        Color::White => rematch.white,
        Color::Black => rematch.black,
    }
}
