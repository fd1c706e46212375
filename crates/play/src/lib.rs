//! The live GMO chess service over the engine and the store, knowing no HTTP: games changed and
//! committed (`games`), flags that fall (`games::flag_falls`), the hub of streams and the relay
//! between processes, bots, the lobby, rematches, value evaluations, labs, the library of
//! designs, retention, and the rating update of a rated game (`ratings`), and events where teams play rounds (`events`). A change says what happened ([`Happened`], decided in one place,
//! `progress`); whoever serves the service renders it.
//!
//! `Service::start` opens the store and starts the background workers; its parts are the API.

pub mod accounts;
pub mod analyses;
mod bell;
mod bot_seats;
mod bots;
mod cache;
pub mod challenges;
mod error;
pub mod events;
pub mod games;
mod hub;
mod lab_from_game;
pub mod lab_lines;
mod labs;
pub mod library;
pub mod lobby;
mod locks;
mod metrics;
mod progress;
pub mod ratings;
mod relay;
mod rematch;
mod retention;
mod rewind;
mod service;
mod settings;
mod stored;
mod time;
mod timers;
pub mod users;
pub mod values;
pub mod worker;

pub use analyses::Analyses;
pub use bot_seats::BOT_GAME_MAX_CLOCK;
pub use bots::MAX_TRIES as MAX_BOT_TRIES;
pub use challenges::Challenges;
pub use error::{PlayCode, PlayError, PlayResult};
pub use games::{
    Absence, Changed, Created, Games, Legal, NewGameRequest, Presence, Seen, Watch, flag_falls,
};
/// A seat's token in the rematch of a game, derived from its token there.
pub use gmo_store::rematch_token;
pub use hub::{Happened, Hub, Missed, PlyViews, Rendered, Subscription, Update};
pub use labs::{LabSearches, Labs, MAX_LAB_DNA_LETTERS, NewLab};
pub use library::Library;
pub use lobby::Lobby;
pub use metrics::Metrics;
pub use progress::Act;
pub use rematch::{RematchState, Rematches};
pub use retention::{Retention, retain_once};
pub use service::{Running, Service};
pub use settings::{Settings, defaults, duration_between, switch};
pub use stored::Stored;
pub use time::now;
pub use timers::Timers;
pub use values::Values;
