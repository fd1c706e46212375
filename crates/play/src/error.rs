//! The one error type of the game service: why a request of a player, a bot or an operator was
//! refused, or what failed. It says what happened in the game's terms; whoever serves the
//! service decides how to answer it (the HTTP edge maps each variant to its answer).

use gmo_engine::{GameError, LabError};
use gmo_genome::GenomeError;
use gmo_store::StoreError;
use std::fmt;

/// The service's own reasons for a refusal (the engine and the parser have their own). Each is
/// one machine-readable code; [`PlayCode::name`] is how it is spelled on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayCode {
    /// A seat names no bot the service runs, or bots on a board they cannot play.
    BadSeat,
    /// A game between two bots asks for a longer clock than such games may have.
    BadClock,
    /// Another request changed the game or lab first.
    Conflict,
    /// The record, or a rematch, opens once the game is over.
    NotOver,
    /// No bot is to move.
    NotBotTurn,
    /// The game changed while its bot thought (the bot thinks again).
    MovedOn,
    /// The lab would keep more DNA than a lab may.
    LabFull,
    /// The client has as many open seeks as it may.
    SeekLimit,
    /// The seek is paired already (by a matching seek or another accept).
    SeekPaired,
    /// The seek has as many streams open as it may.
    TooManyStreams,
    /// The victory cannot be claimed: the opponent is there, or has not been away long enough.
    OpponentPresent,
    /// Another account has this username (without regard to case).
    UsernameTaken,
    /// An unknown username or a wrong password (the same answer for both).
    BadCredentials,
    /// The route needs a signed-in account (a session or a personal token).
    SignInNeeded,
    /// A personal token's scopes: none, or one the service does not know.
    BadScopes,
    /// A personal token's description: empty, too long, or with control characters.
    BadDescription,
    /// The account holds as many personal tokens as it may.
    TokenLimit,
    /// A rated seek asks for a board other than 8 × 8.
    RatedBoard,
    /// A rated seek cannot be accepted by its own seeker's account.
    OwnSeek,
    /// The organiser has as many events not finished as one may.
    EventLimit,
    /// The event has as many teams as an event may.
    EventFull,
    /// Another team of the event has this name (without regard to case).
    TeamNameTaken,
    /// The event has started: teams are added and it starts only in registration.
    RegistrationClosed,
    /// An event starts with two teams or more.
    TooFewTeams,
    /// The next round is paired once every game of the current one has ended.
    RoundNotOver,
    /// The event is finished: no round is left to pair.
    EventOver,
    /// An event's name, format, rounds or options are not allowed.
    BadEvent,
    /// A team's name is not allowed.
    BadTeam,
    /// A lineup's preset or king squares are not allowed.
    BadLineup,
    /// An event's game is played out: it cannot be aborted, and has no rematch.
    EventGame,
    /// A library entry's name or description is not allowed (the message names the field).
    BadEntry,
    /// The author has a live library entry with this name (without regard to case).
    EntryNameTaken,
    /// The account has played rated games: it cannot become a bot.
    RatedGamesPlayed,
    /// The account has as many open challenges as it may.
    ChallengeLimit,
    /// A challenge to oneself.
    OwnChallenge,
    /// The challenge was accepted, declined, canceled or expired already.
    ChallengeClosed,
    /// A rated game between a bot and a person (their ratings are apart).
    RatedPool,
    /// A challenge's preset or a decline's reason is not allowed (the message names the field).
    BadChallenge,
    /// The account plays as many games from challenges as it may at once.
    TooManyGames,
    /// A ply number beyond the game's record.
    BadPly,
}

impl PlayCode {
    pub const ALL: [PlayCode; 40] = [
        PlayCode::BadSeat,
        PlayCode::BadClock,
        PlayCode::Conflict,
        PlayCode::NotOver,
        PlayCode::NotBotTurn,
        PlayCode::MovedOn,
        PlayCode::LabFull,
        PlayCode::SeekLimit,
        PlayCode::SeekPaired,
        PlayCode::TooManyStreams,
        PlayCode::OpponentPresent,
        PlayCode::UsernameTaken,
        PlayCode::BadCredentials,
        PlayCode::SignInNeeded,
        PlayCode::BadScopes,
        PlayCode::BadDescription,
        PlayCode::TokenLimit,
        PlayCode::RatedBoard,
        PlayCode::OwnSeek,
        PlayCode::EventLimit,
        PlayCode::EventFull,
        PlayCode::TeamNameTaken,
        PlayCode::RegistrationClosed,
        PlayCode::TooFewTeams,
        PlayCode::RoundNotOver,
        PlayCode::EventOver,
        PlayCode::BadEvent,
        PlayCode::BadTeam,
        PlayCode::BadLineup,
        PlayCode::EventGame,
        PlayCode::BadEntry,
        PlayCode::EntryNameTaken,
        PlayCode::RatedGamesPlayed,
        PlayCode::ChallengeLimit,
        PlayCode::OwnChallenge,
        PlayCode::ChallengeClosed,
        PlayCode::RatedPool,
        PlayCode::BadChallenge,
        PlayCode::TooManyGames,
        PlayCode::BadPly,
    ];

    /// The code as the wire spells it.
    pub const fn name(self) -> &'static str {
        match self {
            PlayCode::BadSeat => "bad_seat",
            PlayCode::BadClock => "bad_clock",
            PlayCode::Conflict => "conflict",
            PlayCode::NotOver => "not_over",
            PlayCode::NotBotTurn => "not_bot_turn",
            PlayCode::MovedOn => "moved_on",
            PlayCode::LabFull => "lab_full",
            PlayCode::SeekLimit => "seek_limit",
            PlayCode::SeekPaired => "seek_paired",
            PlayCode::TooManyStreams => "too_many_streams",
            PlayCode::OpponentPresent => "opponent_present",
            PlayCode::UsernameTaken => "username_taken",
            PlayCode::BadCredentials => "bad_credentials",
            PlayCode::SignInNeeded => "sign_in_needed",
            PlayCode::BadScopes => "bad_scopes",
            PlayCode::BadDescription => "bad_description",
            PlayCode::TokenLimit => "token_limit",
            PlayCode::RatedBoard => "rated_board",
            PlayCode::OwnSeek => "own_seek",
            PlayCode::EventLimit => "event_limit",
            PlayCode::EventFull => "event_full",
            PlayCode::TeamNameTaken => "team_name_taken",
            PlayCode::RegistrationClosed => "registration_closed",
            PlayCode::TooFewTeams => "too_few_teams",
            PlayCode::RoundNotOver => "round_not_over",
            PlayCode::EventOver => "event_over",
            PlayCode::BadEvent => "bad_event",
            PlayCode::BadTeam => "bad_team",
            PlayCode::BadLineup => "bad_lineup",
            PlayCode::EventGame => "event_game",
            PlayCode::BadEntry => "bad_entry",
            PlayCode::EntryNameTaken => "entry_name_taken",
            PlayCode::RatedGamesPlayed => "rated_games_played",
            PlayCode::ChallengeLimit => "challenge_limit",
            PlayCode::OwnChallenge => "own_challenge",
            PlayCode::ChallengeClosed => "challenge_closed",
            PlayCode::RatedPool => "rated_pool",
            PlayCode::BadChallenge => "bad_challenge",
            PlayCode::TooManyGames => "too_many_games",
            PlayCode::BadPly => "bad_ply",
        }
    }
}

impl fmt::Display for PlayCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why the service refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The rules refused (a size out of range, not your turn, an illegal move, …).
    #[error("{0}")]
    Game(#[from] GameError),
    /// The lab's rules refused.
    #[error("{0}")]
    Lab(#[from] LabError),
    /// DNA that is not a genome.
    #[error("invalid DNA: {0}")]
    Genome(#[from] GenomeError),
    /// Input that can never be right, for the service's own reason.
    #[error("{message}")]
    Invalid { code: PlayCode, message: String },
    /// Not possible now, for the service's own reason (a lost race, not over yet, …).
    #[error("{message}")]
    Refused { code: PlayCode, message: String },
    /// A token this service never issued.
    #[error("unknown token")]
    UnknownToken,
    /// Who the caller is could not be established (no account, wrong credentials).
    #[error("{message}")]
    Denied { code: PlayCode, message: String },
    /// Too many failed attempts: try again in `retry_after` seconds.
    #[error("{message}")]
    Throttled { message: String, retry_after: u64 },
    /// A real token, issued for something else (`what`: "this game", "this lab", …).
    #[error("this token does not open {what}")]
    WrongToken { what: &'static str },
    /// No such thing (`what`: "game", "seek", "value evaluation", …).
    #[error("no {what} {key:?}")]
    NotFound { what: &'static str, key: String },
    /// The game keeps its genomes secret (discovery): what was asked would show them.
    #[error("{0}")]
    Discovery(String),
    /// A deployment-wide cap is reached (bot games, the lobby, the evaluation queue): try later.
    #[error("{0}")]
    Full(String),
    /// The store failed or refused (its own `NotFound` and `Stale` included).
    #[error("{0}")]
    Store(#[from] StoreError),
    /// A bug or a broken invariant: logged by whoever answers, never shown.
    #[error("{0}")]
    Internal(String),
}

impl PlayError {
    pub fn invalid(code: PlayCode, message: impl Into<String>) -> PlayError {
        PlayError::Invalid {
            code,
            message: message.into(),
        }
    }

    pub fn refused(code: PlayCode, message: impl Into<String>) -> PlayError {
        PlayError::Refused {
            code,
            message: message.into(),
        }
    }

    /// The refusal of a route that needs a signed-in account, to a caller without one.
    pub fn sign_in_needed(what: &str) -> PlayError {
        PlayError::Denied {
            code: PlayCode::SignInNeeded,
            message: format!(
                "{what} needs a signed-in account: the session cookie or \
                 `Authorization: Bearer gmo_…` (a personal token)"
            ),
        }
    }

    pub fn internal(cause: impl fmt::Display) -> PlayError {
        PlayError::Internal(cause.to_string())
    }

    pub fn not_found(what: &'static str, key: impl fmt::Display) -> PlayError {
        PlayError::NotFound {
            what,
            key: key.to_string(),
        }
    }

    /// Whether the database could not be reached (or could not serve the statement now): worth
    /// retrying shortly, and nothing the caller did wrong.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, PlayError::Store(error) if error.is_unavailable())
    }

    /// The refusal of a change that lost a race with another request.
    pub fn lost_race() -> PlayError {
        PlayError::refused(
            PlayCode::Conflict,
            "another request changed this first; reload and try again",
        )
    }
}

pub type PlayResult<T> = Result<T, PlayError>;

#[cfg(test)]
mod tests {
    use super::PlayCode;

    #[test]
    fn codes_are_distinct_snake_case_names() {
        let mut names: Vec<&str> = PlayCode::ALL.iter().map(|code| code.name()).collect();
        assert!(names.iter().all(|name| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        }));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PlayCode::ALL.len());
    }
}
