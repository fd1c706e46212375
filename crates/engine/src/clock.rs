//! A game's two clocks (rules §5.4). Time is always passed in as milliseconds; the clock only
//! remembers when it was last settled, so that a stored game needs no timer to stay right.

use crate::square::{ByColor, Color};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Each side's time left as of `since_ms`.
    remaining: ByColor<i64>,
    running: Option<Color>,
    since_ms: i64,
}

impl Clock {
    /// Both sides with `initial_ms`, nobody's clock running.
    pub fn new(initial_ms: i64) -> Clock {
        Clock {
            remaining: ByColor::new(initial_ms, initial_ms),
            running: None,
            since_ms: 0,
        }
    }

    /// Starts `color`'s clock at `now` (the start of the game).
    pub fn start(&mut self, now: i64, color: Color) {
        self.since_ms = now;
        self.running = Some(color);
    }

    pub fn running(&self) -> Option<Color> {
        self.running
    }

    /// When the clock was last settled.
    pub fn since_ms(&self) -> i64 {
        self.since_ms
    }

    /// The time a call at `now` acts at: never before the last settlement, so that a server whose
    /// clock steps back cannot give time back.
    pub fn effective(&self, now: i64) -> i64 {
        now.max(self.since_ms)
    }

    /// A side's time left at `now`, never below zero.
    pub fn remaining_at(&self, color: Color, now: i64) -> i64 {
        let left = *self.remaining.get(color);
        if self.running == Some(color) {
            left.saturating_sub(self.effective(now) - self.since_ms)
                .max(0)
        } else {
            left.max(0)
        }
    }

    /// When the running clock reaches zero.
    pub fn deadline(&self) -> Option<i64> {
        self.running
            .map(|c| self.since_ms.saturating_add(*self.remaining.get(c)))
    }

    /// The side whose clock has reached zero by `now`, and when it did.
    pub fn fallen(&self, now: i64) -> Option<(Color, i64)> {
        let side = self.running?;
        let deadline = self.deadline()?;
        (deadline <= now).then_some((side, deadline))
    }

    /// Charges the running side for the time up to `now`, then runs `next`'s clock (or none).
    pub fn switch(&mut self, now: i64, next: Option<Color>) {
        let now = self.effective(now);
        if let Some(side) = self.running {
            let left = self.remaining.get_mut(side);
            *left = left
                .saturating_sub(now.saturating_sub(self.since_ms))
                .max(0);
        }
        self.since_ms = now;
        self.running = next;
    }

    /// Adds `delta_ms` (possibly negative) to a side's time, not below zero. Call right after
    /// [`Clock::switch`], so that the stored time is the time left now.
    pub fn adjust(&mut self, color: Color, delta_ms: i64) {
        let left = self.remaining.get_mut(color);
        *left = left.saturating_add(delta_ms).max(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_running_clock_runs() {
        let mut clock = Clock::new(1_000);
        clock.switch(100, Some(Color::White));
        assert_eq!(clock.remaining_at(Color::White, 400), 700);
        assert_eq!(clock.remaining_at(Color::Black, 400), 1_000);
        assert_eq!(clock.deadline(), Some(1_100));
        assert_eq!(clock.fallen(1_099), None);
        assert_eq!(clock.fallen(5_000), Some((Color::White, 1_100)));
        clock.switch(400, Some(Color::Black));
        assert_eq!(clock.remaining_at(Color::White, 900), 700);
        assert_eq!(clock.remaining_at(Color::Black, 900), 500);
    }

    #[test]
    fn time_never_runs_backwards() {
        let mut clock = Clock::new(1_000);
        clock.switch(500, Some(Color::White));
        assert_eq!(clock.remaining_at(Color::White, 100), 1_000);
        clock.switch(100, Some(Color::Black));
        assert_eq!(clock.since_ms(), 500);
        assert_eq!(clock.remaining_at(Color::White, 0), 1_000);
    }
}
