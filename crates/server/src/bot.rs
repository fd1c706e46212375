//! Bots: a seat given to `bot:random` has no token; the server sets it up (the default preset,
//! its king marked, ready) and, whenever it is to move, plays a random legal move (promoting to
//! a queen). A bot acts through the same change path as a player.

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::games::{self, Acted, game_error, move_plies, promotion_plies};
use crate::routes::{preset_genomes, resolve_genome};
use crate::time::now_ms;
use gmo_engine::{Color, Game};
use gmo_store::GameSettings;
use rand::seq::IndexedRandom;
use std::sync::Arc;
use std::time::Duration;

/// The bots there are.
const BOTS: [&str; 1] = ["random"];
/// A bot waits this long before acting, so that a human sees one change at a time.
const THINK: Duration = Duration::from_millis(100);

/// The bot a seat request names (`bot:<name>`), if any.
pub fn name_of(seat: Option<&str>, side: &str) -> ApiResult<Option<String>> {
    let Some(seat) = seat else { return Ok(None) };
    match seat.strip_prefix("bot:") {
        Some(name) if BOTS.contains(&name) => Ok(Some(name.to_owned())),
        _ => Err(ApiError::invalid(
            "bad_seat",
            format!("`{side}` must be absent (a player) or one of: bot:random; got {seat:?}"),
        )),
    }
}

/// Sets up the bots' sides of a new game: the default preset, a king, ready.
pub async fn set_up(state: &AppState, game: &mut Game, white: bool, black: bool) -> ApiResult<()> {
    let sides = [(Color::White, white), (Color::Black, black)];
    let bots = sides
        .into_iter()
        .filter(|&(_, bot)| bot)
        .map(|(color, _)| color);
    let bots: Vec<Color> = bots.collect();
    if bots.is_empty() {
        return Ok(());
    }
    let genomes = preset_genomes(state, "default").await?;
    let king = resolve_genome(state, "king").await?;
    // The king's file in the preset, or file a when the preset has none.
    let file = genomes.iter().position(|g| *g == king).unwrap_or(0);
    let file = u8::try_from(file).unwrap_or(0);
    for color in bots {
        game.load_preset(color, &genomes).map_err(game_error)?;
        let size = game.position().size();
        let square = size
            .square(file, size.back_rank(color))
            .ok_or_else(|| ApiError::internal("the king's square is off the board"))?;
        game.toggle_king(color, square).map_err(game_error)?;
        game.ready(color, now_ms()).map_err(game_error)?;
    }
    Ok(())
}

/// Which seats of a game bots hold.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bots {
    pub white: bool,
    pub black: bool,
}

impl Bots {
    pub fn of(settings: &GameSettings) -> Bots {
        Bots {
            white: settings.white_bot.is_some(),
            black: settings.black_bot.is_some(),
        }
    }

    fn plays(self, color: Color) -> bool {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// If a bot is to act in this game, lets it act soon, in the background. Games between people
/// cost nothing here: most moves never reach the bot's change path.
pub fn wake(state: &AppState, id: &str, game: &Arc<Game>, bots: Bots) {
    if !game.to_move().is_some_and(|color| bots.plays(color)) {
        return;
    }
    let (state, id) = (state.clone(), id.to_owned());
    tokio::spawn(async move {
        tokio::time::sleep(THINK).await;
        if let Err(error) = act(&state, &id).await {
            tracing::debug!(game = id, ?error, "bot did not act");
        }
    });
}

/// One bot action on game `id`, if a bot is to move; then wakes again for the next one.
async fn act(state: &AppState, id: &str) -> ApiResult<()> {
    let queen = resolve_genome(state, "queen").await?;
    let changed = games::change_as_bot(state, id, |game, seat, now| {
        if game.promotion_due().is_some() {
            let ply = game.promote(seat, &queen, now).map_err(game_error)?;
            let kinds = end_if_over(game, "promotion");
            return Ok(Acted {
                ply: promotion_plies(game, &ply),
                kinds,
                answer: (),
            });
        }
        let moves = game.legal_moves();
        let chosen = moves
            .choose(&mut rand::rng())
            .ok_or_else(|| ApiError::conflict("no_move", "the bot has no legal move"))?;
        let ply = game
            .play(seat, chosen.from, chosen.to, now)
            .map_err(game_error)?;
        let kinds = end_if_over(game, "move");
        Ok(Acted {
            ply: move_plies(game, &ply, seat),
            kinds,
            answer: (),
        })
    })
    .await?;
    wake(state, id, &changed.game, changed.bots);
    Ok(())
}

fn end_if_over(game: &Game, kind: &'static str) -> Vec<&'static str> {
    if game.is_over() {
        vec![kind, "end"]
    } else {
        vec![kind]
    }
}
