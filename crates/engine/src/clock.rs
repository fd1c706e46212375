//! A game's two clocks (rules §5.4). Time is always passed in ([`Timestamp`]); the clock only
//! remembers when it was last settled, so that a stored game needs no timer to stay right.

use crate::square::{ByColor, Color};
use gmo_types::{Millis, Timestamp};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Each side's time left as of `since`.
    remaining: ByColor<Millis>,
    running: Option<Color>,
    #[serde(rename = "since_ms")]
    since: Timestamp,
}

impl Clock {
    /// Both sides with `initial`, nobody's clock running.
    pub fn new(initial: Millis) -> Clock {
        Clock {
            remaining: ByColor::new(initial, initial),
            running: None,
            since: Timestamp::EPOCH,
        }
    }

    /// Starts `color`'s clock at `now` (the start of the game).
    pub fn start(&mut self, now: Timestamp, color: Color) {
        self.since = now;
        self.running = Some(color);
    }

    pub fn running(&self) -> Option<Color> {
        self.running
    }

    /// When the clock was last settled.
    pub fn since(&self) -> Timestamp {
        self.since
    }

    /// The time a call at `now` acts at: never before the last settlement, so that a server whose
    /// clock steps back cannot give time back.
    pub fn effective(&self, now: Timestamp) -> Timestamp {
        now.max(self.since)
    }

    /// A side's time left at `now`, never below zero.
    pub fn remaining_at(&self, color: Color, now: Timestamp) -> Millis {
        let left = *self.remaining.get(color);
        if self.running == Some(color) {
            left.saturating_sub(self.effective(now).since(self.since))
                .at_least_zero()
        } else {
            left.at_least_zero()
        }
    }

    /// When the running clock reaches zero.
    pub fn deadline(&self) -> Option<Timestamp> {
        self.running
            .map(|c| self.since.saturating_add(*self.remaining.get(c)))
    }

    /// The side whose clock has reached zero by `now`, and when it did.
    pub fn fallen(&self, now: Timestamp) -> Option<(Color, Timestamp)> {
        let side = self.running?;
        let deadline = self.deadline()?;
        (deadline <= now).then_some((side, deadline))
    }

    /// Charges the running side for the time up to `now`, then runs `next`'s clock (or none).
    pub fn switch(&mut self, now: Timestamp, next: Option<Color>) {
        let now = self.effective(now);
        if let Some(side) = self.running {
            let left = self.remaining.get_mut(side);
            *left = left.saturating_sub(now.since(self.since)).at_least_zero();
        }
        self.since = now;
        self.running = next;
    }

    /// Adds `delta` (possibly negative) to a side's time, not below zero. Call right after
    /// [`Clock::switch`], so that the stored time is the time left now.
    pub fn adjust(&mut self, color: Color, delta: Millis) {
        let left = self.remaining.get_mut(color);
        *left = left.saturating_add(delta).at_least_zero();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_tests::{at, ms};

    #[test]
    fn only_the_running_clock_runs() {
        let mut clock = Clock::new(ms(1_000));
        clock.switch(at(100), Some(Color::White));
        assert_eq!(clock.remaining_at(Color::White, at(400)), ms(700));
        assert_eq!(clock.remaining_at(Color::Black, at(400)), ms(1_000));
        assert_eq!(clock.deadline(), Some(at(1_100)));
        assert_eq!(clock.fallen(at(1_099)), None);
        assert_eq!(clock.fallen(at(5_000)), Some((Color::White, at(1_100))));
        clock.switch(at(400), Some(Color::Black));
        assert_eq!(clock.remaining_at(Color::White, at(900)), ms(700));
        assert_eq!(clock.remaining_at(Color::Black, at(900)), ms(500));
    }

    #[test]
    fn time_never_runs_backwards() {
        let mut clock = Clock::new(ms(1_000));
        clock.switch(at(500), Some(Color::White));
        assert_eq!(clock.remaining_at(Color::White, at(100)), ms(1_000));
        clock.switch(at(100), Some(Color::Black));
        assert_eq!(clock.since(), at(500));
        assert_eq!(clock.remaining_at(Color::White, at(0)), ms(1_000));
    }

    #[test]
    fn stores_as_plain_milliseconds() {
        let mut clock = Clock::new(ms(1_000));
        clock.switch(at(100), Some(Color::White));
        let json = serde_json::to_string(&clock).expect("json");
        assert_eq!(
            json,
            r#"{"remaining":{"white":1000,"black":1000},"running":"white","since_ms":100}"#
        );
        let back: Clock = serde_json::from_str(&json).expect("back");
        assert_eq!(back, clock);
    }
}
