//! The rating update of one rated game, as lichess does it: Glicko-2 (Glickman) with τ = 0.75,
//! each game a rating period of its own in which both players are updated at once, each against
//! the other's rating from before the game. The maths is the `skillratings` crate's; this module
//! adds lichess's bounds around it (lila's `Glicko.cap` and its per-game limit):
//!
//! - the deviation stays within 45 ..= 500 ([`MIN_DEVIATION`], [`MAX_DEVIATION`]);
//! - the volatility stays at most 0.1 ([`MAX_VOLATILITY`]: past it, lichess notes, a rating
//!   might never settle again);
//! - the value stays at least 400 ([`MIN_VALUE`]), and one game moves it by at most 700
//!   ([`MAX_CHANGE`]: Glicko-2 alone would let a new player who beats a 2500 gain about 1400).
//!
//! Both ratings are brought within these bounds before the update too, as lila does, so a
//! stored rating from elsewhere cannot take the maths out of its range.
//!
//! Where this is not lila: lila rates a game with Glickman's step 6 skipped (its
//! `skipDeviationIncrease`) and grows a deviation instead with the days a player stays away
//! (0.21436 rating periods a day). The spec has no such clock: each game is a whole rating period
//! here, step 6 included (the crate's `glicko2` always applies it). A regular's deviation then
//! settles near 74 at a volatility of 0.09 rather than reaching the floor of 45 after about a
//! hundred games; a new player stops being provisional after about as many games (12 to lila's
//! 11 against a steady field). lila's colour advantage (standard chess and crazyhouse only) and
//! its per-speed inflation regulator are not applied either.

use crate::time::now;
use gmo_store::{Player, RatedEnd};
use gmo_types::{ByColor, Color, GameStatus, Rating};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// Glicko-2's τ, lichess's: how far one surprising result moves the volatility.
pub const TAU: f64 = 0.75;
/// The deviation never falls below this.
pub const MIN_DEVIATION: f64 = 45.0;
/// Nor rises above this (a new player's).
pub const MAX_DEVIATION: f64 = 500.0;
/// The volatility never rises above this.
pub const MAX_VOLATILITY: f64 = 0.1;
/// The value never falls below this.
pub const MIN_VALUE: f64 = 400.0;
/// One game moves a value by at most this, either way.
pub const MAX_CHANGE: f64 = 700.0;

/// How a rated game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    WhiteWon,
    BlackWon,
    Draw,
}

/// Both players' ratings after one rated game between them: each from this one game against
/// the other's rating before it.
pub fn rate(white: Rating, black: Rating, score: Score) -> (Rating, Rating) {
    rate_with_tau(white, black, score, TAU)
}

/// The store's [`gmo_store::Rater`]: both ratings before a rated game that `winner` won (`None`:
/// drawn) → both after.
pub fn rate_end(before: ByColor<Rating>, winner: Option<Color>) -> ByColor<Rating> {
    let score = match winner {
        Some(Color::White) => Score::WhiteWon,
        Some(Color::Black) => Score::BlackWon,
        None => Score::Draw,
    };
    let (white, black) = rate(before.white, before.black, score);
    ByColor::new(white, black)
}

/// What the change that ends a stored game (`rated` or not, with its `players`) as `game`
/// carries to be rated with it: something when the game is rated, has both players, and ended
/// otherwise than aborted.
pub fn rated_end(
    rated: bool,
    players: &ByColor<Option<Player>>,
    game: &gmo_engine::Game,
) -> Option<RatedEnd> {
    let decided = game.is_over() && game.status() != GameStatus::Aborted;
    let both = players.white.is_some() && players.black.is_some();
    (rated && decided && both).then(|| RatedEnd {
        rate: rate_end,
        at: now(),
    })
}

/// The change of a rating as players see it: the shown value after less the shown value before.
pub fn diff(before: Rating, after: Rating) -> i64 {
    after.shown() - before.shown()
}

fn rate_with_tau(white: Rating, black: Rating, score: Score, tau: f64) -> (Rating, Rating) {
    let (white, black) = (capped(white), capped(black));
    let outcome = match score {
        Score::WhiteWon => Outcomes::WIN,
        Score::BlackWon => Outcomes::LOSS,
        Score::Draw => Outcomes::DRAW,
    };
    let config = Glicko2Config {
        tau,
        ..Glicko2Config::new()
    };
    let (new_white, new_black) = glicko2(&glicko(white), &glicko(black), &outcome, &config);
    (after(white, new_white), after(black, new_black))
}

/// lila's `Glicko.cap`.
fn capped(rating: Rating) -> Rating {
    Rating {
        value: rating.value.max(MIN_VALUE),
        deviation: rating.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
        volatility: rating.volatility.min(MAX_VOLATILITY),
    }
}

fn glicko(rating: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: rating.value,
        deviation: rating.deviation,
        volatility: rating.volatility,
    }
}

/// The crate's new rating, its change limited to [`MAX_CHANGE`], then capped.
fn after(before: Rating, new: Glicko2Rating) -> Rating {
    capped(Rating {
        value: new
            .rating
            .clamp(before.value - MAX_CHANGE, before.value + MAX_CHANGE),
        deviation: new.deviation,
        volatility: new.volatility,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn rating(value: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            value,
            deviation,
            volatility,
        }
    }

    fn close(actual: f64, expected: f64, within: f64) -> bool {
        (actual - expected).abs() <= within
    }

    #[test]
    fn glickman_s_worked_example_through_the_crate() {
        // glicko2.pdf: 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300 in one
        // rating period, τ = 0.5 → 1464.06, 151.52, 0.05999.
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let new = glicko2_rating_period(&player, &results, &config);
        assert!(close(new.rating, 1464.06, 0.01), "{new:?}");
        assert!(close(new.deviation, 151.52, 0.01), "{new:?}");
        assert!(close(new.volatility, 0.05999, 0.00001), "{new:?}");
    }

    #[test]
    fn a_draw_between_equals_changes_neither_value() {
        for equal in [
            Rating::NEW,
            rating(1500.0, 60.0, 0.06),
            rating(2210.4, 80.0, 0.07),
        ] {
            let (white, black) = rate(equal, equal, Score::Draw);
            assert_eq!(white, black);
            assert!(close(white.value, equal.value, 1e-9), "{white:?}");
            assert_eq!(diff(equal, white), 0);
        }
    }

    #[test]
    fn a_game_moves_the_two_players_alike_and_opposite() {
        let (white, black) = rate(Rating::NEW, Rating::NEW, Score::WhiteWon);
        assert!(close(white.value - 1500.0, 1500.0 - black.value, 1e-9));
        assert!(close(white.deviation, black.deviation, 1e-9));
        assert!(white.value > 1500.0);
        assert_eq!(
            rate(Rating::NEW, Rating::NEW, Score::BlackWon),
            (black, white)
        );
    }

    #[test]
    fn the_deviation_never_falls_below_45() {
        // One game: uncapped, this draw would leave both at 44.93.
        let low = rating(1500.0, 45.0, 0.03);
        let (white, black) = rate(low, low, Score::Draw);
        assert_eq!(white.deviation, MIN_DEVIATION);
        assert_eq!(black.deviation, MIN_DEVIATION);
        // A stored deviation under the floor counts as 45.
        let under = rating(1500.0, 20.0, 0.03);
        assert_eq!(rate(under, under, Score::Draw), rate(low, low, Score::Draw));
        // Many games between steady players.
        let (mut white, mut black) = (rating(1500.0, 300.0, 0.01), rating(1500.0, 300.0, 0.01));
        for _ in 0..300 {
            (white, black) = rate(white, black, Score::Draw);
            assert!(white.deviation >= MIN_DEVIATION && black.deviation >= MIN_DEVIATION);
        }
        assert_eq!(white.deviation, MIN_DEVIATION);
    }

    #[test]
    fn the_deviation_never_rises_above_500() {
        let wild = rating(1500.0, 900.0, 0.09);
        let (white, black) = rate(wild, Rating::NEW, Score::WhiteWon);
        assert!(white.deviation <= MAX_DEVIATION);
        assert_eq!(
            (white, black),
            rate(Rating::NEW, Rating::NEW, Score::WhiteWon)
        );
    }

    #[test]
    fn a_new_player_s_first_win_moves_more_than_an_established_player_s() {
        let opponent = rating(1500.0, 60.0, 0.06);
        let established = rating(1500.0, 60.0, 0.06);
        let (new_after, _) = rate(Rating::NEW, opponent, Score::WhiteWon);
        let (established_after, _) = rate(established, opponent, Score::WhiteWon);
        // Glickman's steps computed apart from the crate: 1735.81 and 1510.18.
        assert!(close(new_after.value, 1735.81, 0.01), "{new_after:?}");
        assert!(
            close(established_after.value, 1510.18, 0.01),
            "{established_after:?}"
        );
        assert!(diff(Rating::NEW, new_after) > 10 * diff(established, established_after));
        assert!(new_after.provisional() && !established_after.provisional());
    }

    #[test]
    fn tau_is_lichess_s_0_75() {
        // A 2000 loses to a 1000, both 45 / 0.06. Glickman's steps computed apart from the crate
        // give the loser's volatility 0.0600295 with τ = 0.75, and 0.0600131 with τ = 0.5.
        let strong = rating(2000.0, 45.0, 0.06);
        let weak = rating(1000.0, 45.0, 0.06);
        let (loser, winner) = rate(strong, weak, Score::BlackWon);
        assert!(close(loser.volatility, 0.060_029_49, 1e-7), "{loser:?}");
        assert!(close(winner.volatility, 0.060_029_49, 1e-7), "{winner:?}");
        let (loser_half, _) = rate_with_tau(strong, weak, Score::BlackWon, 0.5);
        assert!(
            close(loser_half.volatility, 0.060_013_10, 1e-7),
            "{loser_half:?}"
        );
        assert!(!close(loser.volatility, loser_half.volatility, 1e-5));
    }

    #[test]
    fn one_game_moves_a_value_by_at_most_700() {
        // Uncapped, a new player who beats a 2500 would gain 1384, and lose 949 to a 1000.
        let (new_after, _) = rate(Rating::NEW, rating(2500.0, 45.0, 0.06), Score::WhiteWon);
        assert_eq!(new_after.value, 1500.0 + MAX_CHANGE);
        assert_eq!(diff(Rating::NEW, new_after), 700);
        let (new_after, _) = rate(Rating::NEW, rating(1000.0, 45.0, 0.06), Score::BlackWon);
        assert_eq!(new_after.value, 1500.0 - MAX_CHANGE);
    }

    #[test]
    fn the_value_never_falls_below_400_nor_the_volatility_above_0_1() {
        // Uncapped, this loss would take the 420 down to about 272.
        let (low, _) = rate(
            rating(420.0, 300.0, 0.09),
            rating(420.0, 60.0, 0.06),
            Score::BlackWon,
        );
        assert_eq!(low.value, MIN_VALUE);
        let erratic = rating(1500.0, 200.0, 0.5);
        let (white, _) = rate(erratic, Rating::NEW, Score::BlackWon);
        assert!(white.volatility <= MAX_VOLATILITY, "{white:?}");
    }

    #[test]
    fn diff_is_the_change_of_the_shown_values() {
        let before = rating(1500.4, 60.0, 0.06);
        assert_eq!(diff(before, rating(1507.6, 60.0, 0.06)), 8);
        assert_eq!(diff(before, rating(1492.5, 60.0, 0.06)), -7);
        assert_eq!(diff(before, before), 0);
    }
}
