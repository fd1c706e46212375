//! Bots in the service: a seat given to `bot:<spec>` (a `gmo-bots` spec: `random`, `greedy`,
//! `search`, `search:200ms`) has no token. The server sets the seat up when the game is created
//! (the preset of the board's width, its king marked, ready) and, whenever the bot is to act,
//! lets it choose on a clone of the game, off the async runtime, then plays the chosen ply
//! through the same change path as a person's request.
//!
//! Bot turns are durable: a change after which a bot is to act stores the turn, leased to the
//! process that made it, which wakes its bot at once and renews the lease while it thinks. If
//! that process dies (or its bot fails), the lease runs out and any process's takeover loop
//! takes the turn: the bot moves within a few seconds of a restart or of a crash.

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::games::{self, Acted, game_error, move_kinds, move_plies, promotion_plies, with_end};
use crate::hub::LineType;
use crate::time::now_ms;
use gmo_bots::{BotSpec, Budget, PRESETS, Ply};
use gmo_engine::{Color, Game};
use gmo_store::{BotTurn, GameSettings};
use std::time::Duration;

/// What a seat may name, for error messages.
const ALLOWED: &str =
    "bot:random, bot:greedy, bot:search or bot:search:<time> (e.g. bot:search:200ms)";
/// A bot waits at least this long before acting, so that a person sees one change at a time.
const THINK: Duration = Duration::from_millis(100);
/// How long a bot turn's lease holds unrenewed: after it, any process takes the turn over.
pub const LEASE: Duration = Duration::from_secs(2);
/// How often a thinking bot renews its lease.
const RENEW_EVERY: Duration = Duration::from_millis(500);
/// How many turns one look for lapsed leases takes over.
const TAKE_OVER_BATCH: u32 = 16;
/// The longest clock a game between two bots may have (each side): such a game holds a share of
/// the server's CPU until it ends, and nobody may be watching it.
pub const BOT_GAME_MAX_CLOCK_MS: i64 = 600_000;
/// The most a bot thinks about one ply, whatever its spec asks: a search holds a blocking thread.
const MOVE_CAP: Duration = Duration::from_millis(500);
/// A bot spends at most this fraction of its remaining clock on one ply.
const CLOCK_SHARE: i64 = 20;

/// The bot a seat request names (`bot:<spec>`), in canonical form, if any; 422 otherwise.
pub fn spec_of(seat: Option<&str>, side: &str) -> ApiResult<Option<String>> {
    let Some(seat) = seat else { return Ok(None) };
    let bad = |why: String| {
        ApiError::invalid(
            ServiceCode::BadSeat,
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
                ServiceCode::BadSeat,
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

/// Refuses a clock longer than [`BOT_GAME_MAX_CLOCK_MS`] for a game between two bots (422).
pub fn check_clock(initial_ms: i64) -> ApiResult<()> {
    if initial_ms <= BOT_GAME_MAX_CLOCK_MS {
        return Ok(());
    }
    Err(ApiError::invalid(
        ServiceCode::BadClock,
        format!(
            "`clock.initial_ms` may be at most {BOT_GAME_MAX_CLOCK_MS} (10 minutes a side) in a \
             game between two bots; got {initial_ms}"
        ),
    ))
}

/// The answer to a game with a bot seat beyond the deployment's cap (503).
pub fn full(max_bot_games: u32) -> ApiError {
    ApiError::Unavailable(format!(
        "this server plays at most {max_bot_games} live games with a bot seat at once, and all \
         are taken; try again when one has ended"
    ))
}

/// Whether a bot holds `color`'s seat.
fn plays(settings: &GameSettings, color: Color) -> bool {
    match color {
        Color::White => settings.white_bot.is_some(),
        Color::Black => settings.black_bot.is_some(),
    }
}

/// The bot turn a game in this state leaves, if a bot is to act: due once it has waited
/// [`THINK`] (or a freeze out), and leased to this process, which wakes its bot at once.
pub fn turn(state: &AppState, settings: &GameSettings, game: &Game, now: i64) -> Option<BotTurn> {
    let color = game.to_move()?;
    if !plays(settings, color) {
        return None;
    }
    let think = i64::try_from(THINK.as_millis()).unwrap_or(0);
    let due_ms = (now + think).max(game.frozen_until(now).unwrap_or(0));
    Some(BotTurn {
        due_ms,
        holder: state.instance.to_string(),
        lease_ms: due_ms + lease_ms(),
    })
}

fn lease_ms() -> i64 {
    i64::try_from(LEASE.as_millis()).unwrap_or(i64::MAX)
}

/// Lets this process's bot act on game `id` once `turn` is due (the fast path: the process that
/// made the change holds the turn's lease).
pub fn wake(state: &AppState, id: &str, turn: &BotTurn) {
    let wait = u64::try_from(turn.due_ms.saturating_sub(now_ms())).unwrap_or(0);
    let (state, id) = (state.clone(), id.to_owned());
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(wait)).await;
        act_logged(&state, &id).await;
    });
}

/// Every `interval` until the server stops: takes over the due bot turns whose lease ran out (a
/// dead or stopped process's, or one whose bot failed) and lets this process's bot act on them.
pub async fn take_over_forever(state: AppState) {
    let mut ticks = tokio::time::interval(state.config.sweep_interval);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let now = now_ms();
        let claimed = state
            .store
            .claim_bot_turns(&state.instance, now, now + lease_ms(), TAKE_OVER_BATCH)
            .await;
        match claimed {
            Ok(ids) => {
                for id in ids {
                    tracing::info!(game = id, "taking over a bot's turn");
                    let state = state.clone();
                    tokio::spawn(async move { act_logged(&state, &id).await });
                }
            }
            Err(error) => tracing::warn!(%error, "could not look for bot turns to take over"),
        }
    }
}

/// [`act`], its failure logged. The lease is left to run out, so that any process (this one
/// too) takes the turn over and tries again.
async fn act_logged(state: &AppState, id: &str) {
    match act(state, id).await {
        Ok(()) => {}
        // The game moved on while the bot thought (a resignation, a flag, another process that
        // took the turn over): nothing to retry.
        Err(ApiError::Conflict { code, message }) => {
            tracing::debug!(game = id, %code, message, "a bot's ply was overtaken");
        }
        Err(error) => tracing::warn!(game = id, ?error, "a bot failed to act; it will retry"),
    }
}

/// One bot action on game `id`, if a bot is to act and this process holds the turn; the commit
/// leases the next bot turn (if any) to this process and wakes it.
async fn act(state: &AppState, id: &str) -> ApiResult<()> {
    let lease = now_ms() + lease_ms();
    if !state
        .store
        .renew_bot_lease(id, &state.instance, lease)
        .await?
    {
        return Ok(());
    }
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
    // Meanwhile the lease is renewed, so that no other process takes the turn over.
    let snapshot = Game::clone(&stored.state);
    let renewing = AbortOnDrop(tokio::spawn(renew_while_thinking(
        state.clone(),
        id.to_owned(),
    )));
    let chosen = tokio::task::spawn_blocking(move || {
        spec.build(rand::random())
            .choose_for_game(&snapshot, budget)
    })
    .await
    .map_err(ApiError::internal)?;
    drop(renewing);
    let Some(chosen) = chosen else {
        return Err(ApiError::internal("the bot found no ply to play"));
    };
    games::change_as_bot(state, id, stored.version, |game, seat, now| {
        play(game, seat, &chosen, now)
    })
    .await?;
    Ok(())
}

async fn renew_while_thinking(state: AppState, id: String) {
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        let lease = now_ms() + lease_ms();
        if let Err(error) = state
            .store
            .renew_bot_lease(&id, &state.instance, lease)
            .await
        {
            tracing::warn!(game = id, %error, "could not renew a bot's lease");
        }
    }
}

/// Aborts a task when dropped.
pub(crate) struct AbortOnDrop(pub(crate) tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
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
            let offer = game.draw_offer();
            let ply = game.play(seat, *from, *to, now).map_err(game_error)?;
            Ok(Acted {
                ply: move_plies(game, &ply, seat),
                kinds: move_kinds(game, &ply, offer),
                answer: (),
            })
        }
        Ply::Promotion { genome, .. } => {
            let ply = game.promote(seat, genome, now).map_err(game_error)?;
            Ok(Acted {
                ply: promotion_plies(game, &ply),
                kinds: with_end(game, vec![LineType::Promotion]),
                answer: (),
            })
        }
    }
}
