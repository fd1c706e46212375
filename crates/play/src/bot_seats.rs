//! Seats played by bots: a seat given to `bot:<spec>` (a `gmo-bots` spec: `random`, `greedy`,
//! `search`, `search:200ms`) has no token. Its side is set up when the game is made (the preset
//! of the board's width, its king marked, ready), and every change after which it is to act
//! leaves a [`BotTurn`] for `crate::bots` to take.

use crate::error::{PlayCode, PlayError, PlayResult};
use gmo_bots::{BotSpec, Budget, PRESETS};
use gmo_engine::{Color, Game};
use gmo_store::{BotTurn, GameSettings};
use gmo_types::{Millis, Timestamp};
use std::time::Duration;

/// What a seat may name, for error messages.
const ALLOWED: &str =
    "bot:random, bot:greedy, bot:search or bot:search:<time> (e.g. bot:search:200ms, at most 60s)";
/// The longest time a ply a served bot's spec may ask (it thinks at most 500 ms whatever it asks,
/// `crate::bots`): beyond it, a seat is refused naming its field.
pub const MAX_SERVED_TIME: Duration = Duration::from_secs(60);
/// A bot waits at least this long before acting, so that a person sees one change at a time.
const THINK: Duration = Duration::from_millis(100);
/// How long a bot turn's lease holds unrenewed: after it, any process takes the turn over.
pub const LEASE: Duration = Duration::from_secs(2);
/// The longest clock a game between two bots may have (each side): such a game holds a share of
/// the server's CPU until it ends, and nobody may be watching it.
pub const BOT_GAME_MAX_CLOCK: Millis = Millis::from_ms(600_000);

/// The bot a seat request names (`bot:<spec>`), in canonical form, if any.
pub fn spec_of(seat: Option<&str>, side: &str) -> PlayResult<Option<String>> {
    let Some(seat) = seat else { return Ok(None) };
    let bad = |why: String| {
        PlayError::invalid(
            PlayCode::BadSeat,
            format!("`{side}` must be absent (a player) or one of {ALLOWED}; got {seat:?}{why}"),
        )
    };
    let spec: BotSpec = seat
        .strip_prefix("bot:")
        .ok_or_else(|| bad(String::new()))?
        .parse()
        .map_err(|why| bad(format!(": {why}")))?;
    match spec.budget {
        Budget::Time(time) if time <= MAX_SERVED_TIME => Ok(Some(spec.to_string())),
        Budget::Time(_) => Err(bad(format!(
            ": a bot in the service is given at most {}s a ply",
            MAX_SERVED_TIME.as_secs()
        ))),
        // Node and depth budgets could hold a thread for any time: a served bot thinks against
        // time.
        Budget::Nodes(_) | Budget::Depth(_) => {
            Err(bad(": a bot in the service takes a time budget".into()))
        }
    }
}

/// Sets up the bots' sides of a new game: the preset as wide as the board, its king, ready.
pub fn set_up(game: &mut Game, white: bool, black: bool, now: Timestamp) -> PlayResult<()> {
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
            PlayError::invalid(
                PlayCode::BadSeat,
                format!(
                    "bots play on boards {} wide; this one is {width}",
                    widths.join(" or ")
                ),
            )
        })?;
    for (color, _) in bots {
        preset.seat(game, color, now)?;
    }
    Ok(())
}

/// Refuses a clock longer than [`BOT_GAME_MAX_CLOCK`] for a game between two bots.
pub fn check_clock(initial: Millis) -> PlayResult<()> {
    if initial <= BOT_GAME_MAX_CLOCK {
        return Ok(());
    }
    Err(PlayError::invalid(
        PlayCode::BadClock,
        format!(
            "`clock.initial_ms` may be at most {} (10 minutes a side) in a game between two \
             bots; got {}",
            BOT_GAME_MAX_CLOCK.ms(),
            initial.ms()
        ),
    ))
}

/// The refusal of a game with a bot seat beyond the deployment's cap.
pub fn full(max_bot_games: u32) -> PlayError {
    PlayError::Full(format!(
        "this server plays at most {max_bot_games} live games with a bot seat at once, and all \
         are taken; try again when one has ended"
    ))
}

/// The bot spec of `color`'s seat, if a bot holds it.
pub fn bot_of(settings: &GameSettings, color: Color) -> Option<&str> {
    match color {
        Color::White => settings.white_bot.as_deref(),
        Color::Black => settings.black_bot.as_deref(),
    }
}

/// The bot turn a game in this state leaves, if a bot is to act: due once it has waited
/// [`THINK`] (or a freeze out), and leased to `holder`, the process that made the change, which
/// wakes its bot at once.
pub fn turn(settings: &GameSettings, game: &Game, now: Timestamp, holder: &str) -> Option<BotTurn> {
    let color = game.to_move()?;
    bot_of(settings, color)?;
    let frozen_until = game.frozen_until(now).unwrap_or(Timestamp::EPOCH);
    let due = (now + Millis::from_std(THINK)).max(frozen_until);
    Some(BotTurn {
        due,
        holder: holder.to_owned(),
        lease_until: due + Millis::from_std(LEASE),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_served_bot_is_given_at_most_a_minute_a_ply() {
        for (seat, stored) in [
            ("bot:search:60s", "search:60000ms"),
            ("bot:search:60000ms", "search:60000ms"),
            ("bot:search", "search:100ms"),
            ("bot:greedy", "greedy"),
        ] {
            assert_eq!(
                spec_of(Some(seat), "black").ok().flatten().as_deref(),
                Some(stored),
                "{seat}"
            );
        }
        for (seat, says) in [
            ("bot:search:61s", "at most 60s a ply"),
            ("bot:search:60001ms", "at most 60s a ply"),
            ("bot:search:320957358956892230s", "at most 3600s"),
            ("bot:search:5000n", "takes a time budget"),
        ] {
            let Err(PlayError::Invalid { code, message }) = spec_of(Some(seat), "black") else {
                panic!("{seat} is refused");
            };
            assert_eq!(code, PlayCode::BadSeat);
            assert!(
                message.starts_with("`black`") && message.contains(says),
                "{seat}: {message}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// Whatever a seat names, what is stored for it reads back as the same spec, and a seat
        /// naming the stored form is taken and stored the same: a bot's turn never meets a spec
        /// it cannot read.
        #[test]
        fn every_stored_spec_reads_back_as_itself(
            seat in "bot:(random|greedy|search)(:[0-9]{0,24}(ms|s|n|d)?)?|.{0,12}"
        ) {
            if let Ok(Some(stored)) = spec_of(Some(&seat), "white") {
                let read: Result<BotSpec, _> = stored.parse();
                prop_assert!(read.is_ok(), "{} stored as {}, unreadable", seat, stored);
                prop_assert_eq!(read.map(|spec| spec.to_string()), Ok(stored.clone()));
                let again = spec_of(Some(&format!("bot:{stored}")), "white").ok().flatten();
                prop_assert_eq!(again, Some(stored));
            }
        }
    }
}
