//! GMO chess persistence. All SQL of the project lives here.
//!
//! One [`Store`] API over two backends chosen by URL at run time: PostgreSQL for production and
//! an embedded SQLite file by default. The engine's values (game states, plies, lab boards) are
//! stored as opaque JSON: every call that takes or returns one is generic over
//! `Serialize`/`DeserializeOwned`, so the store never depends on the engine's types.
//! `docs/architecture.md` describes the schema and the transactions.

#[macro_use]
mod macros;

mod accounts;
mod backend;
mod batch;

mod claim;
mod connect;
mod error;
#[macro_use]
mod games;
#[macro_use]
mod players;
mod bots;
mod challenges;
mod event_streams;
mod events;
mod expiry;
mod genomes;
mod held;
mod jobs;
mod labs;
mod library;
#[cfg(feature = "testing")]
mod library_seed;
mod live;
mod notify;
mod presence;
mod presets;
mod rematch;
mod retention;
#[cfg(feature = "testing")]
pub mod scratch;
mod secret;
mod seeks;
mod tokens;
mod users;
mod values;

pub use accounts::{Account, Credentials, TokenInfo};
pub use bots::BotLease;
pub use challenges::{
    ACCOUNT_CHANNEL, AcceptedChallenge, Challenge, ChallengeState, NewChallenge, Party,
};
pub use connect::{DEFAULT_POSTGRES_CONNECTIONS, Store};
pub use error::StoreError;
pub use events::{Board, EVENT_CHANNEL, Event, GameBoard, NewBoard, NewEvent, Team, TeamAdded};
pub use expiry::Swept;
pub use games::{BotTurn, Change, Game, GameSettings, Head, Joined, NewGame};
pub use genomes::StoredGenome;
pub use jobs::{Job, JobAsked, JobBounds, NewJob};
pub use labs::{EncodedBoard, Lab};
pub use library::{
    DAY_MS, EntryEdit, EntrySearch, EntrySort, Fielded, FinishedGame, LibraryEntry, NewEntry,
    Published, is_unique_violation,
};
#[cfg(feature = "testing")]
pub use library_seed::seed_library;
pub use notify::{Announcer, CHANNEL, Notice, Notifications};
pub use players::{Player, RatedEnd, Rater};
pub use presets::StoredPreset;
pub use rematch::{Rematch, RematchAsk};
pub use secret::{
    challenge_seat_token, new_id, new_token, rematch_token, team_token, token_hash, token_matches,
};
pub use seeks::{Accepted, NewSeek, Opened, Pool, SEEK_CHANNEL, Seek, SeekLimits, SeekState};
pub use users::{Leader, RatingPoint, Results};
pub use values::{Asked, NewValueJob, VALUE_KIND, ValueGames, ValueJob};
