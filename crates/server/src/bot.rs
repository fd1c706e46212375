//! Bots in the service: a seat given to `bot:<spec>` (a `gmo-bots` spec: `random`, `greedy`,
//! `search`, `search:200ms`) has no token. The server sets the seat up when the game is created
//! (the preset of the board's width, its king marked, ready) and, whenever the bot is to act,
//! lets it choose on a clone of the game, off the async runtime, then plays the chosen ply
//! through the same change path as a person's request.

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::games::{self, Acted, game_error, move_plies, promotion_plies};
use crate::time::now_ms;
use gmo_bots::{BotSpec, Budget, PRESETS, Ply};
use gmo_engine::{Color, Game};
use gmo_store::GameSettings;
use std::sync::Arc;
use std::time::Duration;

/// What a seat may name, for error messages.
const ALLOWED: &str =
    "bot:random, bot:greedy, bot:search or bot:search:<time> (e.g. bot:search:200ms)";
/// A bot waits at least this long before acting, so that a person sees one change at a time.
const THINK: Duration = Duration::from_millis(100);
/// The most a bot thinks about one ply, whatever its spec asks: a search holds a blocking thread.
const MOVE_CAP: Duration = Duration::from_millis(500);
/// A bot spends at most this fraction of its remaining clock on one ply.
const CLOCK_SHARE: i64 = 20;
/// How many times a bot whose ply was refused (the game moved on meanwhile) tries again.
const RETRIES: u32 = 3;

/// The bot a seat request names (`bot:<spec>`), in canonical form, if any; 422 otherwise.
pub fn spec_of(seat: Option<&str>, side: &str) -> ApiResult<Option<String>> {
    let Some(seat) = seat else { return Ok(None) };
    let bad = |why: String| {
        ApiError::invalid(
            "bad_seat",
            format!("`{side}` must be absent (a player) or one of {ALLOWED}; got {seat:?}{why}"),
        )
    };
    let spec: BotSpec = seat
        .strip_prefix("bot:")
        .ok_or_else(|| bad(String::new()))?
        .parse()
        .map_err(|why| bad(format!(": {why}")))?;
    // Node and depth budgets could hold a thread for any time: a served bot thinks against time.
    if !matches!(spec.budget, Budget::Time(_)) {
        return Err(bad(": a bot in the service takes a time budget".into()));
    }
    Ok(Some(spec.to_string()))
}

/// Sets up the bots' sides of a new game: the preset as wide as the board, its king, ready.
pub fn set_up(game: &mut Game, white: bool, black: bool, now: i64) -> ApiResult<()> {
    let sides = [(Color::White, white), (Color::Black, black)];
    let mut bots = sides.into_iter().filter(|&(_, bot)| bot).peekable();
    if bots.peek().is_none() {
        return Ok(());
    }
    let width = usize::from(game.position().size().width());
    let preset = PRESETS
        .into_iter()
        .find(|preset| preset.width() == width)
        .ok_or_else(|| {
            let widths: Vec<String> = PRESETS.iter().map(|p| p.width().to_string()).collect();
            ApiError::invalid(
                "bad_seat",
                format!(
                    "bots play on boards {} wide; this one is {width}",
                    widths.join(" or ")
                ),
            )
        })?;
    for (color, _) in bots {
        preset.seat(game, color, now).map_err(game_error)?;
    }
    Ok(())
}

/// Which seats of a game bots hold, and how they play.
#[derive(Debug, Clone, Default)]
pub struct Bots {
    pub white: Option<String>,
    pub black: Option<String>,
}

impl Bots {
    pub fn of(settings: &GameSettings) -> Bots {
        Bots {
            white: settings.white_bot.clone(),
            black: settings.black_bot.clone(),
        }
    }

    fn plays(&self, color: Color) -> bool {
        match color {
            Color::White => self.white.is_some(),
            Color::Black => self.black.is_some(),
        }
    }
}

/// If a bot is to act in this game, lets it act soon, in the background. Games between people
/// cost nothing here: they return before any work.
pub fn wake(state: &AppState, id: &str, game: &Arc<Game>, bots: &Bots) {
    wake_after(state, id, game, bots, 0);
}

fn wake_after(state: &AppState, id: &str, game: &Arc<Game>, bots: &Bots, retries: u32) {
    if !game.to_move().is_some_and(|color| bots.plays(color)) || retries > RETRIES {
        return;
    }
    // A freeze after a move keeps everyone still until it ends; the bot waits it out.
    let frozen = game
        .frozen_until(now_ms())
        .map_or(0, |until| until.saturating_sub(now_ms()));
    let wait = THINK.max(Duration::from_millis(u64::try_from(frozen).unwrap_or(0)));
    let (state, id) = (state.clone(), id.to_owned());
    tokio::spawn(async move {
        tokio::time::sleep(wait).await;
        if let Err(error) = act(&state, &id, retries).await {
            tracing::debug!(game = id, ?error, "bot did not act");
        }
    });
}

/// One bot action on game `id`, if a bot is to act; then wakes again for the next one.
async fn act(state: &AppState, id: &str, retries: u32) -> ApiResult<()> {
    let stored = games::load(state, id).await?;
    let Some(color) = stored.state.to_move() else {
        return Ok(());
    };
    let spec = match color {
        Color::White => stored.settings.white_bot.as_deref(),
        Color::Black => stored.settings.black_bot.as_deref(),
    };
    let Some(spec) = spec else { return Ok(()) };
    let spec: BotSpec = spec.parse().map_err(ApiError::internal)?;
    let budget = budget(spec, &stored.state, color, now_ms());
    // The bot reads its own clone, on a blocking thread: a search must not stall the runtime.
    let snapshot = Game::clone(&stored.state);
    let chosen = tokio::task::spawn_blocking(move || {
        spec.build(rand::random())
            .choose_for_game(&snapshot, budget)
    })
    .await
    .map_err(ApiError::internal)?;
    let Some(chosen) = chosen else { return Ok(()) };
    let changed =
        games::change_as_bot(state, id, |game, seat, now| play(game, seat, &chosen, now)).await;
    let changed = match changed {
        Ok(changed) => changed,
        Err(refusal) => {
            // The game moved on while the bot thought (another process, a flag): think again.
            if let Ok(stored) = games::load(state, id).await {
                let bots = Bots::of(&stored.settings);
                wake_after(state, id, &stored.state, &bots, retries + 1);
            }
            return Err(refusal);
        }
    };
    wake(state, id, &changed.game, &changed.bots);
    Ok(())
}

/// The time a bot may think now: what its spec asks, within [`MOVE_CAP`] and its clock's share.
fn budget(spec: BotSpec, game: &Game, color: Color, now: i64) -> Budget {
    let share = game.clock().remaining_at(color, now).max(0) / CLOCK_SHARE;
    let share = Duration::from_millis(u64::try_from(share).unwrap_or(0));
    let cap = MOVE_CAP.min(share).max(Duration::from_millis(1));
    match spec.budget {
        Budget::Time(asked) => Budget::Time(asked.min(cap)),
        Budget::Nodes(_) | Budget::Depth(_) => Budget::Time(cap),
    }
}

/// Plays the bot's ply for `seat` (the change path stores any genome it brings onto the board).
fn play(game: &mut Game, seat: Color, chosen: &Ply, now: i64) -> ApiResult<Acted<()>> {
    match chosen {
        Ply::Move { from, to } => {
            let ply = game.play(seat, *from, *to, now).map_err(game_error)?;
            let mut kinds = vec!["move"];
            if ply.froze && !game.is_over() {
                kinds.push("clock");
            }
            Ok(Acted {
                ply: move_plies(game, &ply, seat),
                kinds: with_end(game, kinds),
                answer: (),
            })
        }
        Ply::Promotion { genome, .. } => {
            let ply = game.promote(seat, genome, now).map_err(game_error)?;
            Ok(Acted {
                ply: promotion_plies(game, &ply),
                kinds: with_end(game, vec!["promotion"]),
                answer: (),
            })
        }
    }
}

fn with_end(game: &Game, mut kinds: Vec<&'static str>) -> Vec<&'static str> {
    if game.is_over() {
        kinds.push("end");
    }
    kinds
}
