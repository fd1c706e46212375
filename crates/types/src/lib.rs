//! The words every GMO chess crate shares, each defined once: a side ([`Color`], one value per
//! side in [`ByColor`]), a game's [`GameStatus`], the colour a seeker wishes for
//! ([`ColorWish`]), where a genome's evaluation stands ([`EvaluationState`]), the ids the service
//! hands out ([`GameId`], [`SeekId`], [`LabId`], [`EventId`], [`TeamId`]), an event's
//! [`EventFormat`] and [`EventStatus`], a player's Glicko-2 [`Rating`], and time as
//! instants ([`Timestamp`]) and durations ([`Millis`]), which are different types.
//!
//! Pure: no I/O and no clock. The engine, the store, the game service and the HTTP edge all use
//! these, so a value crosses from one to the next without a mirror type or a hand-written map.

mod color;
mod evaluation;
mod event;
mod id;
mod rating;
mod scope;
mod status;
mod time;
mod username;
mod wish;

pub use color::{ByColor, Color};
pub use evaluation::EvaluationState;
pub use event::{EventFormat, EventStatus};
pub use id::{
    AccountId, BadId, ChallengeId, EntryId, EventId, GameId, LabId, SeekId, TeamId, TokenId,
};
pub use rating::Rating;
pub use scope::Scope;
pub use status::{GameStatus, UnknownName};
pub use time::{Millis, Timestamp};
pub use username::{USERNAME_LENGTH, Username};
pub use wish::ColorWish;
