//! Events (migration 0015): an organiser's event, its teams with their hashed join codes and
//! tokens and their lineups, and each round's boards with their games. Pairing a round inserts
//! its games and boards and moves the event's round on in one transaction, from the round it was
//! computed on: a second pairing of the same round finds the round moved and changes nothing.
//! A board's result is its game's status, read with the board, so it is current the moment the
//! game's ending commits, on every process.

use crate::games::NewGame;
use crate::{Store, StoreError};
use gmo_types::{
    AccountId, EventFormat, EventId, EventStatus, GameId, GameStatus, Millis, TeamId, Timestamp,
};
use serde::Serialize;

/// The channel on which a process announces that it paired a round of an event (the event's id).
pub const EVENT_CHANNEL: &str = "gmo_events";

/// What an event is created with.
#[derive(Debug, Clone)]
pub struct NewEvent<'a> {
    pub organiser: &'a AccountId,
    pub name: &'a str,
    pub format: EventFormat,
    pub double: bool,
    /// A Swiss event's rounds (a round robin's are known at its start).
    pub rounds: Option<u32>,
    pub discovery: bool,
    pub initial: Millis,
    pub increment: Millis,
    pub now: Timestamp,
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub id: EventId,
    pub organiser: AccountId,
    /// The organiser's username (as it is now).
    pub organiser_name: String,
    pub name: String,
    pub format: EventFormat,
    pub double: bool,
    /// How many rounds it has (Swiss: as asked, or fewer once no pairing was left; round robin:
    /// set at the start).
    pub rounds: Option<u32>,
    /// The last round paired (0 before the start).
    pub round: u32,
    pub status: EventStatus,
    pub discovery: bool,
    pub initial: Millis,
    pub increment: Millis,
    pub created_at: Timestamp,
}

/// A team as stored (never its code or its token, only the token's hash, which its games' seats
/// are opened with).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    pub id: TeamId,
    /// Its place in the order teams were added, from 0: its seed.
    pub seq: u32,
    pub name: String,
    /// Its lineup: a preset's code and its king squares as White sees them (JSON).
    pub preset: Option<String>,
    pub kings: Option<String>,
    pub token_hash: [u8; 32],
}

/// A board of a round as stored, with its game's status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub round: u32,
    pub board: u32,
    pub white: TeamId,
    /// `None`: a bye for White.
    pub black: Option<TeamId>,
    pub game: Option<GameId>,
    /// The game's status (none for a bye, or a game removed).
    pub status: Option<GameStatus>,
}

/// The board an event's game is played on, with the names a page shows it by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameBoard {
    pub event: EventId,
    pub event_name: String,
    pub round: u32,
    pub board: u32,
    pub white: (TeamId, String),
    pub black: (TeamId, String),
}

#[derive(sqlx::FromRow)]
struct GameBoardRow {
    event_id: String,
    event_name: String,
    round: i64,
    board: i64,
    white: String,
    white_name: String,
    black: String,
    black_name: String,
}

/// A board of a round about to be paired: its game's id and row, none for a bye.
#[derive(Debug)]
pub struct NewBoard<'a, S> {
    pub white: TeamId,
    pub black: Option<TeamId>,
    pub game: Option<(GameId, NewGame<'a, S>)>,
}

/// What adding a team came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamAdded {
    Added(TeamId),
    /// The event has its most teams.
    Full,
    /// Another team of the event has that name (without regard to case).
    NameTaken,
    /// Registration is over.
    Closed,
}

#[derive(sqlx::FromRow)]
struct EventRow {
    id: String,
    organiser: String,
    organiser_name: String,
    name: String,
    format: String,
    double_round: bool,
    rounds: Option<i64>,
    round: i64,
    status: String,
    discovery: bool,
    clock_initial_ms: i64,
    clock_increment_ms: i64,
    created_ms: i64,
}

type TeamRow = (String, i64, String, Option<String>, Option<String>, Vec<u8>);
type BoardRow = (
    i64,
    i64,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

const EVENT_COLUMNS: &str = "e.id, e.organiser, a.username AS organiser_name, e.name, e.format, \
     e.double_round, e.rounds, e.round, e.status, e.discovery, e.clock_initial_ms, \
     e.clock_increment_ms, e.created_ms";
const CREATE: &str = "INSERT INTO events (id, organiser, name, format, double_round, rounds, \
     round, status, discovery, clock_initial_ms, clock_increment_ms, created_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, 0, 'registration', $7, $8, $9, $10)";
const OPEN_OF: &str = "SELECT COUNT(*) FROM events WHERE organiser = $1 AND status <> 'finished'";
const TEAM_COLUMNS: &str = "id, seq, name, preset, kings, token_hash";
const TEAM_COUNT: &str = "SELECT COUNT(*) FROM event_teams WHERE event_id = $1";
const NAME_USED: &str = "SELECT COUNT(*) FROM event_teams WHERE event_id = $1 AND name_key = $2";
const ADD_TEAM: &str = "INSERT INTO event_teams (id, event_id, seq, name, name_key, code_hash, \
     token_hash) VALUES ($1, $2, $3, $4, $5, $6, $7)";
const STATUS_OF: &str = "SELECT status FROM events WHERE id = $1";
const LINEUP: &str =
    "UPDATE event_teams SET preset = $3, kings = $4 WHERE event_id = $1 AND id = $2";
const BOARDS: &str = "SELECT b.round, b.board, b.white, b.black, b.game_id, g.status \
     FROM event_boards b LEFT JOIN games g ON g.id = b.game_id \
     WHERE b.event_id = $1 ORDER BY b.round, b.board";
const MOVE_ROUND: &str = "UPDATE events SET round = $3, status = 'running', \
     rounds = COALESCE($4, rounds) WHERE id = $1 AND round = $2 AND status <> 'finished'";
const ADD_BOARD: &str = "INSERT INTO event_boards (event_id, round, board, white, black, game_id, \
     start_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)";
const FINISH: &str = "UPDATE events SET status = 'finished', rounds = $2 \
     WHERE id = $1 AND status = 'running' AND round = $2";
const DUE_STARTS: &str = "SELECT b.game_id FROM event_boards b JOIN games g ON g.id = b.game_id \
     WHERE b.start_ms IS NOT NULL AND b.start_ms <= $1 ORDER BY b.start_ms LIMIT $2";
const STARTED: &str = "UPDATE event_boards SET start_ms = NULL WHERE game_id = $1";
const EVENT_OF_GAME: &str = "SELECT event_id FROM event_boards WHERE game_id = $1";
const BOARD_OF_GAME: &str = "SELECT b.event_id, e.name AS event_name, b.round, b.board, \
    b.white, w.name AS white_name, b.black, k.name AS black_name FROM event_boards b \
    JOIN events e ON e.id = b.event_id JOIN event_teams w ON w.id = b.white \
    JOIN event_teams k ON k.id = b.black WHERE b.game_id = $1";

impl Store {
    /// Stores a new event → its id, or `None` when its organiser has `max_open` events not
    /// finished already.
    pub async fn create_event(
        &self,
        new: &NewEvent<'_>,
        max_open: u32,
    ) -> Result<Option<EventId>, StoreError> {
        let id = EventId::from_bits(rand::random());
        let created = transaction!(self, |tx, _dialect| {
            let open: i64 = sqlx::query_scalar(OPEN_OF)
                .bind(new.organiser.as_str())
                .fetch_one(&mut *tx)
                .await?;
            if open >= i64::from(max_open) {
                false
            } else {
                sqlx::query(CREATE)
                    .bind(id.as_str())
                    .bind(new.organiser.as_str())
                    .bind(new.name)
                    .bind(new.format.name())
                    .bind(new.double)
                    .bind(new.rounds.map(i64::from))
                    .bind(new.discovery)
                    .bind(new.initial.ms())
                    .bind(new.increment.ms())
                    .bind(new.now.ms())
                    .execute(&mut *tx)
                    .await?;
                true
            }
        });
        Ok(created.then_some(id))
    }

    /// Event `id`, if any.
    pub async fn event(&self, id: &EventId) -> Result<Option<Event>, StoreError> {
        let sql = format!(
            "SELECT {EVENT_COLUMNS} FROM events e JOIN accounts a ON a.id = e.organiser \
             WHERE e.id = $1"
        );
        let row: Option<EventRow> = reading!(self, pool => {
            sqlx::query_as(&sql).bind(id.as_str()).fetch_optional(pool).await
        })?;
        row.map(event).transpose()
    }

    /// Adds a team to event `event` (in registration, with fewer than `max_teams` teams), its
    /// join code and token stored as the hashes given.
    pub async fn add_team(
        &self,
        event: &EventId,
        name: &str,
        code_hash: &[u8; 32],
        token_hash: &[u8; 32],
        max_teams: u32,
    ) -> Result<TeamAdded, StoreError> {
        let id = TeamId::from_bits(rand::random());
        let key = name.to_lowercase();
        let added = transaction!(self, |tx, _dialect| {
            let status: Option<String> = sqlx::query_scalar(STATUS_OF)
                .bind(event.as_str())
                .fetch_optional(&mut *tx)
                .await?;
            let count: i64 = sqlx::query_scalar(TEAM_COUNT)
                .bind(event.as_str())
                .fetch_one(&mut *tx)
                .await?;
            let used: i64 = sqlx::query_scalar(NAME_USED)
                .bind(event.as_str())
                .bind(&key)
                .fetch_one(&mut *tx)
                .await?;
            if status.as_deref() != Some(EventStatus::Registration.name()) {
                TeamAdded::Closed
            } else if count >= i64::from(max_teams) {
                TeamAdded::Full
            } else if used > 0 {
                TeamAdded::NameTaken
            } else {
                sqlx::query(ADD_TEAM)
                    .bind(id.as_str())
                    .bind(event.as_str())
                    .bind(count)
                    .bind(name)
                    .bind(&key)
                    .bind(&code_hash[..])
                    .bind(&token_hash[..])
                    .execute(&mut *tx)
                    .await?;
                TeamAdded::Added(id)
            }
        });
        Ok(added)
    }

    /// Event `event`'s teams, in the order they were added.
    pub async fn teams(&self, event: &EventId) -> Result<Vec<Team>, StoreError> {
        let sql =
            format!("SELECT {TEAM_COLUMNS} FROM event_teams WHERE event_id = $1 ORDER BY seq");
        let rows: Vec<TeamRow> = reading!(self, pool => {
            sqlx::query_as(&sql).bind(event.as_str()).fetch_all(pool).await
        })?;
        rows.into_iter().map(team).collect()
    }

    /// The team of event `event` whose join code or token (`column`: which) hashes to `hash`.
    async fn team_by(
        &self,
        event: &EventId,
        column: &str,
        hash: &[u8; 32],
    ) -> Result<Option<Team>, StoreError> {
        let sql =
            format!("SELECT {TEAM_COLUMNS} FROM event_teams WHERE event_id = $1 AND {column} = $2");
        let row: Option<TeamRow> = reading!(self, pool => {
            sqlx::query_as(&sql)
                .bind(event.as_str())
                .bind(&hash[..])
                .fetch_optional(pool)
                .await
        })?;
        row.map(team).transpose()
    }

    /// The team of event `event` whose join code hashes to `code_hash`.
    pub async fn team_by_code(
        &self,
        event: &EventId,
        code_hash: &[u8; 32],
    ) -> Result<Option<Team>, StoreError> {
        self.team_by(event, "code_hash", code_hash).await
    }

    /// The team of event `event` whose token hashes to `token_hash`.
    pub async fn team_by_token(
        &self,
        event: &EventId,
        token_hash: &[u8; 32],
    ) -> Result<Option<Team>, StoreError> {
        self.team_by(event, "token_hash", token_hash).await
    }

    /// Sets team `team`'s lineup (a preset's code, the king squares as JSON).
    pub async fn set_lineup(
        &self,
        event: &EventId,
        team: &TeamId,
        preset: &str,
        kings: &str,
    ) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(LINEUP)
                .bind(event.as_str())
                .bind(team.as_str())
                .bind(preset)
                .bind(kings)
                .execute(pool)
                .await
                .map(drop)
        })?;
        Ok(())
    }

    /// Every board of event `event`, round by round, with its game's status.
    pub async fn boards(&self, event: &EventId) -> Result<Vec<Board>, StoreError> {
        let rows: Vec<BoardRow> = reading!(self, pool => {
            sqlx::query_as(BOARDS).bind(event.as_str()).fetch_all(pool).await
        })?;
        rows.into_iter().map(board).collect()
    }

    /// Pairs round `round + 1` of event `event` with `boards` (their games inserted with them;
    /// each game starts by itself at `start`), unless the event's round is no longer `round`:
    /// → whether this call paired it. `rounds`: the event's number of rounds, when it is set now
    /// (a round robin's start).
    pub async fn pair_round<S: Serialize>(
        &self,
        event: &EventId,
        round: u32,
        rounds: Option<u32>,
        boards: &[NewBoard<'_, S>],
        start: Timestamp,
    ) -> Result<bool, StoreError> {
        let mut states = Vec::with_capacity(boards.len());
        for board in boards {
            states.push(match &board.game {
                Some((_, game)) => Some(serde_json::to_string(game.state)?),
                None => None,
            });
        }
        let next = i64::from(round) + 1;
        let paired = transaction!(self, |tx, _dialect| {
            let moved = sqlx::query(MOVE_ROUND)
                .bind(event.as_str())
                .bind(i64::from(round))
                .bind(next)
                .bind(rounds.map(i64::from))
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if moved == 0 {
                return Ok(false);
            }
            for (number, (board, state)) in boards.iter().zip(&states).enumerate() {
                if let (Some((id, game)), Some(state)) = (&board.game, state) {
                    insert_game!(&mut *tx, id.as_str(), game, state)?;
                }
                sqlx::query(ADD_BOARD)
                    .bind(event.as_str())
                    .bind(next)
                    .bind(i64::try_from(number).unwrap_or(i64::MAX))
                    .bind(board.white.as_str())
                    .bind(board.black.as_ref().map(TeamId::as_str))
                    .bind(board.game.as_ref().map(|(id, _)| id.as_str()))
                    .bind(board.game.as_ref().map(|_| start.ms()))
                    .execute(&mut *tx)
                    .await?;
            }
            true
        });
        Ok(paired)
    }

    /// Marks event `event` finished after its round `round` (which is then its last) → whether
    /// this call did.
    pub async fn finish_event(&self, event: &EventId, round: u32) -> Result<bool, StoreError> {
        let done = writing!(self, pool => {
            sqlx::query(FINISH)
                .bind(event.as_str())
                .bind(i64::from(round))
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(done == 1)
    }

    /// Up to `limit` events' games due to start by themselves at `now` (or before), oldest due
    /// first; each stays due until [`Store::started_by_itself`] says it has started.
    pub async fn due_starts(&self, now: Timestamp, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let ids: Vec<String> = reading!(self, pool => {
            sqlx::query_scalar(DUE_STARTS)
                .bind(now.ms())
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await
        })?;
        ids.iter()
            .map(|id| GameId::parse(id).map_err(StoreError::from))
            .collect()
    }

    /// Game `game` of an event has started (or is past starting): it is no longer due.
    pub async fn started_by_itself(&self, game: &GameId) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(STARTED).bind(game.as_str()).execute(pool).await.map(drop)
        })?;
        Ok(())
    }

    /// The event game `game` is played in, if any.
    pub async fn event_of_game(&self, game: &GameId) -> Result<Option<EventId>, StoreError> {
        let id: Option<String> = reading!(self, pool => {
            sqlx::query_scalar(EVENT_OF_GAME)
                .bind(game.as_str())
                .fetch_optional(pool)
                .await
        })?;
        Ok(id.as_deref().map(EventId::parse).transpose()?)
    }

    /// The event, round, board and teams of game `game`, if it is an event's.
    pub async fn board_of_game(&self, game: &GameId) -> Result<Option<GameBoard>, StoreError> {
        let row: Option<GameBoardRow> = reading!(self, pool => {
            sqlx::query_as(BOARD_OF_GAME)
                .bind(game.as_str())
                .fetch_optional(pool)
                .await
        })?;
        row.map(game_board).transpose()
    }
}

fn game_board(row: GameBoardRow) -> Result<GameBoard, StoreError> {
    let count = |value: i64| u32::try_from(value).map_err(|_| corrupt("a board number", value));
    Ok(GameBoard {
        event: EventId::parse(&row.event_id)?,
        event_name: row.event_name,
        round: count(row.round)?,
        board: count(row.board)?,
        white: (TeamId::parse(&row.white)?, row.white_name),
        black: (TeamId::parse(&row.black)?, row.black_name),
    })
}

fn event(row: EventRow) -> Result<Event, StoreError> {
    let count = |value: i64| u32::try_from(value).map_err(|_| corrupt("a round number", value));
    Ok(Event {
        id: EventId::parse(&row.id)?,
        organiser: AccountId::parse(&row.organiser)?,
        organiser_name: row.organiser_name,
        name: row.name,
        format: row.format.parse()?,
        double: row.double_round,
        rounds: row.rounds.map(count).transpose()?,
        round: count(row.round)?,
        status: row.status.parse()?,
        discovery: row.discovery,
        initial: Millis::from_ms(row.clock_initial_ms),
        increment: Millis::from_ms(row.clock_increment_ms),
        created_at: Timestamp::from_ms(row.created_ms),
    })
}

fn team((id, seq, name, preset, kings, token_hash): TeamRow) -> Result<Team, StoreError> {
    Ok(Team {
        id: TeamId::parse(&id)?,
        seq: u32::try_from(seq).map_err(|_| corrupt("a team's seed", seq))?,
        name,
        preset,
        kings,
        token_hash: crate::claim::parse_digest(&token_hash)?,
    })
}

fn board((round, number, white, black, game, status): BoardRow) -> Result<Board, StoreError> {
    Ok(Board {
        round: u32::try_from(round).map_err(|_| corrupt("a round number", round))?,
        board: u32::try_from(number).map_err(|_| corrupt("a board number", number))?,
        white: TeamId::parse(&white)?,
        black: black.as_deref().map(TeamId::parse).transpose()?,
        game: game.as_deref().map(GameId::parse).transpose()?,
        status: status.as_deref().map(str::parse).transpose()?,
    })
}

fn corrupt(what: &str, value: i64) -> StoreError {
    StoreError::Corrupt(format!("{what} of {value}"))
}
