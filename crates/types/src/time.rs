//! Time as the service counts it: whole milliseconds. An instant ([`Timestamp`], since the Unix
//! epoch) and a duration ([`Millis`]) are different types, so that a deadline is never added to a
//! deadline or passed where a clock's length is meant. Both travel as plain integers of
//! milliseconds (JSON, the store's columns); in an OpenAPI schema a field of either is an
//! `int64` (`#[schema(value_type = i64)]`). Nothing here reads a clock: whoever needs the time
//! passes it in.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::time::Duration;

/// An instant: milliseconds since the Unix epoch (1970-01-01T00:00:00Z).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Timestamp(i64);

/// A duration, or a difference of two instants, in milliseconds (negative when the second
/// instant is the later one; a clock's time left is never negative, and says so itself).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(i64);

impl Timestamp {
    /// The epoch.
    pub const EPOCH: Timestamp = Timestamp(0);

    pub const fn from_ms(ms: i64) -> Timestamp {
        Timestamp(ms)
    }

    /// Milliseconds since the epoch.
    pub const fn ms(self) -> i64 {
        self.0
    }

    /// `self + duration`, at the ends of the range rather than past them.
    #[must_use]
    pub const fn saturating_add(self, duration: Millis) -> Timestamp {
        Timestamp(self.0.saturating_add(duration.0))
    }

    /// `self - duration`, at the ends of the range rather than past them.
    #[must_use]
    pub const fn saturating_sub(self, duration: Millis) -> Timestamp {
        Timestamp(self.0.saturating_sub(duration.0))
    }

    /// How long after `earlier` this is (negative if it is before).
    pub const fn since(self, earlier: Timestamp) -> Millis {
        Millis(self.0.saturating_sub(earlier.0))
    }

    /// How long from `self` until `later`, as a wait: zero once it has passed.
    pub fn until(self, later: Timestamp) -> Duration {
        later.since(self).to_std()
    }
}

impl Millis {
    pub const ZERO: Millis = Millis(0);

    pub const fn from_ms(ms: i64) -> Millis {
        Millis(ms)
    }

    pub const fn from_secs(seconds: i64) -> Millis {
        Millis(seconds.saturating_mul(1_000))
    }

    pub const fn ms(self) -> i64 {
        self.0
    }

    /// A standard duration: zero for a negative one, rounded down to whole milliseconds.
    pub const fn to_std(self) -> Duration {
        if self.0 <= 0 {
            Duration::ZERO
        } else {
            Duration::from_millis(self.0 as u64)
        }
    }

    /// From a standard duration, at most `i64::MAX` milliseconds.
    pub fn from_std(duration: Duration) -> Millis {
        Millis(i64::try_from(duration.as_millis()).unwrap_or(i64::MAX))
    }

    #[must_use]
    pub const fn saturating_add(self, other: Millis) -> Millis {
        Millis(self.0.saturating_add(other.0))
    }

    #[must_use]
    pub const fn saturating_sub(self, other: Millis) -> Millis {
        Millis(self.0.saturating_sub(other.0))
    }

    /// Zero for a negative duration.
    #[must_use]
    pub const fn at_least_zero(self) -> Millis {
        if self.0 < 0 { Millis(0) } else { self }
    }

    /// The `n`th part, rounded towards zero (`n` must not be zero).
    #[must_use]
    pub const fn div(self, n: i64) -> Millis {
        Millis(self.0 / n)
    }
}

impl From<Duration> for Millis {
    fn from(duration: Duration) -> Millis {
        Millis::from_std(duration)
    }
}

impl Add<Millis> for Timestamp {
    type Output = Timestamp;

    fn add(self, duration: Millis) -> Timestamp {
        self.saturating_add(duration)
    }
}

impl AddAssign<Millis> for Timestamp {
    fn add_assign(&mut self, duration: Millis) {
        *self = *self + duration;
    }
}

impl Sub<Millis> for Timestamp {
    type Output = Timestamp;

    fn sub(self, duration: Millis) -> Timestamp {
        self.saturating_sub(duration)
    }
}

impl Sub for Timestamp {
    type Output = Millis;

    fn sub(self, earlier: Timestamp) -> Millis {
        self.since(earlier)
    }
}

impl Add for Millis {
    type Output = Millis;

    fn add(self, other: Millis) -> Millis {
        self.saturating_add(other)
    }
}

impl AddAssign for Millis {
    fn add_assign(&mut self, other: Millis) {
        *self = *self + other;
    }
}

impl Sub for Millis {
    type Output = Millis;

    fn sub(self, other: Millis) -> Millis {
        self.saturating_sub(other)
    }
}

impl SubAssign for Millis {
    fn sub_assign(&mut self, other: Millis) {
        *self = *self - other;
    }
}

impl Neg for Millis {
    type Output = Millis;

    fn neg(self) -> Millis {
        Millis(self.0.saturating_neg())
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms after the epoch", self.0)
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_and_durations_combine_as_time_does() {
        let start = Timestamp::from_ms(1_000);
        let later = start + Millis::from_secs(2);
        assert_eq!(later, Timestamp::from_ms(3_000));
        assert_eq!(later - start, Millis::from_ms(2_000));
        assert_eq!(start - later, Millis::from_ms(-2_000));
        assert_eq!(later - Millis::from_ms(500), Timestamp::from_ms(2_500));
        assert_eq!(start.until(later), Duration::from_secs(2));
        assert_eq!(
            later.until(start),
            Duration::ZERO,
            "a past instant is no wait"
        );
    }

    #[test]
    fn arithmetic_saturates_instead_of_wrapping() {
        let end = Timestamp::from_ms(i64::MAX);
        assert_eq!(end + Millis::from_ms(1), end);
        assert_eq!(Millis::from_ms(i64::MIN).at_least_zero(), Millis::ZERO);
        assert_eq!(-Millis::from_ms(i64::MIN), Millis::from_ms(i64::MAX));
        assert_eq!(Millis::from_std(Duration::MAX), Millis::from_ms(i64::MAX));
        assert_eq!(Millis::from_ms(-5).to_std(), Duration::ZERO);
    }

    #[test]
    fn both_travel_as_plain_milliseconds() {
        let json = serde_json::to_string(&(Timestamp::from_ms(7), Millis::from_ms(-3)));
        assert_eq!(json.ok().as_deref(), Some("[7,-3]"));
        let back: (Timestamp, Millis) = serde_json::from_str("[7,-3]").unwrap_or_default();
        assert_eq!(back, (Timestamp::from_ms(7), Millis::from_ms(-3)));
    }
}
