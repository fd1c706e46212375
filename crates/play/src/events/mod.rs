//! Events: teams play each other in rounds (docs/events.md). An organiser (an account) creates
//! the event and its teams; each team's secret join code gives whoever has it the team's token;
//! teams set their lineups; the organiser starts the event and pairs each next round once the
//! last has ended (`rounds`); a board's result is its game's status, so results and standings
//! (`view`) are current the moment a game ends, on every process; streams follow an event
//! (`follow`); and any process starts the games nobody started in time (`sweep`).

mod follow;
mod rounds;
mod sweep;
mod view;

pub use follow::{EventFollow, EventNews};
pub use view::{EventView, PairingView, RoundView, Standing, TeamView};

use crate::accounts::Caller;
use crate::bell::Bell;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::games::{Games, settings_of};
use crate::library::Library;
use crate::time::now;
use gmo_engine::{Color, Game, Square};
use gmo_store::{Event, GameBoard, NewEvent, Store, Team, TeamAdded};
use gmo_types::{EventFormat, EventId, GameId, Millis, Scope, TeamId};
use std::sync::Arc;

/// The most teams an event may have.
pub const MAX_TEAMS: u32 = 64;
/// The most rounds a Swiss event may have.
pub const MAX_SWISS_ROUNDS: u32 = 20;
/// The most events not finished one organiser may have at once.
pub const MAX_OPEN_EVENTS: u32 = 10;
/// An event's name: 1 to this many characters.
pub const MAX_EVENT_NAME: usize = 80;
/// A team's name: 1 to this many characters.
pub const MAX_TEAM_NAME: usize = 40;
/// The most streams one event may have open at once in one process (a room's projector, its
/// teams, their reloaded pages).
pub const STREAMS_PER_EVENT: usize = 256;
/// Join codes: this many characters of `CODE_ALPHABET` (60 random bits).
const CODE_LENGTH: usize = 12;
/// Lower-case letters and digits without the look-alikes (0/o, 1/l/i).
const CODE_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// What an event is created with.
#[derive(Debug, Clone)]
pub struct EventRequest {
    pub name: String,
    pub format: EventFormat,
    /// Swiss: how many rounds (1 to [`MAX_SWISS_ROUNDS`]).
    pub rounds: Option<u32>,
    /// Round robin: each pair meets twice, colours swapped.
    pub double: bool,
    /// Each side's time and the increment.
    pub clock: (Millis, Option<Millis>),
    pub discovery: bool,
}

/// A team just added, with its join code (shown once).
#[derive(Debug, Clone)]
pub struct AddedTeam {
    pub id: TeamId,
    pub name: String,
    pub code: String,
}

/// A team's game of the current round, for the team.
#[derive(Debug, Clone)]
pub struct TeamGame {
    pub game: GameId,
    pub seat: Color,
    /// The seat's token: the team's own.
    pub token: String,
}

/// The events of the service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Events {
    store: Store,
    games: Games,
    library: Library,
    bell: Arc<Bell<EventId>>,
    /// A round's games start by themselves this long after its pairing.
    start_after: Millis,
}

impl Events {
    pub fn new(games: Games, library: Library, start_after: Millis) -> Events {
        Events {
            store: games.store().clone(),
            games,
            library,
            bell: Arc::new(Bell::new(STREAMS_PER_EVENT)),
            start_after,
        }
    }

    /// The bell of this process's event streams (tests check nothing leaks).
    pub fn bell(&self) -> &Arc<Bell<EventId>> {
        &self.bell
    }

    /// Creates an event organised by `caller` → its id.
    pub async fn create(&self, caller: &Caller, request: &EventRequest) -> PlayResult<EventId> {
        organiser_may(caller)?;
        let name = checked_name(
            &request.name,
            MAX_EVENT_NAME,
            PlayCode::BadEvent,
            "an event",
        )?;
        let rounds = checked_rounds(request)?;
        // Checked as a game's clock (the first-move time is none in an event's games).
        let settings = settings_of(Some(8), Some(8), Some(request.clock), Millis::from_ms(1))?;
        let new = NewEvent {
            organiser: &caller.account,
            name: &name,
            format: request.format,
            double: request.double,
            rounds,
            discovery: request.discovery,
            initial: settings.initial_ms,
            increment: settings.increment_ms,
            now: now(),
        };
        self.store
            .create_event(&new, MAX_OPEN_EVENTS)
            .await?
            .ok_or_else(|| {
                PlayError::refused(
                    PlayCode::EventLimit,
                    format!(
                        "an organiser may have {MAX_OPEN_EVENTS} events not finished at once; \
                         finish one first"
                    ),
                )
            })
    }

    /// Event `id` as stored (refused when missing).
    pub(crate) async fn event(&self, id: &EventId) -> PlayResult<Event> {
        self.store
            .event(id)
            .await?
            .ok_or_else(|| PlayError::not_found("event", id))
    }

    /// Event `id`, for its organiser only.
    async fn organised(&self, caller: &Caller, id: &EventId) -> PlayResult<Event> {
        organiser_may(caller)?;
        let event = self.event(id).await?;
        if event.organiser != caller.account {
            return Err(PlayError::WrongToken {
                what: "this event: only its organiser may",
            });
        }
        Ok(event)
    }

    /// Adds a team named `name` to event `id` → the team and its join code (shown once).
    pub async fn add_team(
        &self,
        caller: &Caller,
        id: &EventId,
        name: &str,
    ) -> PlayResult<AddedTeam> {
        self.organised(caller, id).await?;
        let name = checked_name(name, MAX_TEAM_NAME, PlayCode::BadTeam, "a team")?;
        let code = join_code();
        let token = gmo_store::team_token(&code);
        let added = self
            .store
            .add_team(
                id,
                &name,
                &gmo_store::token_hash(&code),
                &gmo_store::token_hash(&token),
                MAX_TEAMS,
            )
            .await?;
        let refusal = |code: PlayCode, message: &str| Err(PlayError::refused(code, message));
        match added {
            TeamAdded::Added(team) => Ok(AddedTeam {
                id: team,
                name,
                code,
            }),
            TeamAdded::Full => refusal(
                PlayCode::EventFull,
                &format!("an event has at most {MAX_TEAMS} teams"),
            ),
            TeamAdded::NameTaken => refusal(
                PlayCode::TeamNameTaken,
                "another team of this event has this name (without regard to case)",
            ),
            TeamAdded::Closed => refusal(
                PlayCode::RegistrationClosed,
                "teams are added before the event starts",
            ),
        }
    }

    /// The team of event `id` whose join code is `code` (as people type it: see
    /// [`typed_code`]) → the team and its token.
    pub async fn join(&self, id: &EventId, code: &str) -> PlayResult<(TeamId, String)> {
        self.event(id).await?;
        let code = typed_code(code);
        let team = self
            .store
            .team_by_code(id, &gmo_store::token_hash(&code))
            .await?
            .ok_or_else(|| PlayError::Denied {
                code: PlayCode::BadCredentials,
                message: "no team of this event has this join code".into(),
            })?;
        Ok((team.id, gmo_store::team_token(&code)))
    }

    /// Event `id` and its team whose token is `token` (refused otherwise).
    async fn team(&self, id: &EventId, token: &str) -> PlayResult<(Event, Team)> {
        let event = self.event(id).await?;
        let team = self
            .store
            .team_by_token(id, &gmo_store::token_hash(token))
            .await?
            .ok_or(PlayError::WrongToken {
                what: "this event: it is not one of its teams' tokens",
            })?;
        Ok((event, team))
    }

    /// Sets the lineup of the team holding `token`: a preset (a code or name) and its king
    /// squares on White's back rank, checked by setting up a game with them → the team and the
    /// preset's code.
    pub async fn set_lineup(
        &self,
        id: &EventId,
        token: &str,
        preset: &str,
        kings: &[Square],
    ) -> PlayResult<(TeamId, String)> {
        let (_, team) = self.team(id, token).await?;
        let stored = self.library.preset(preset).await?;
        let genomes = self.library.genomes_of(&stored).await?;
        check_lineup(&genomes, kings)?;
        let kings = serde_json::to_string(kings).map_err(PlayError::internal)?;
        self.store
            .set_lineup(id, &team.id, stored.code.as_str(), &kings)
            .await?;
        Ok((team.id, stored.code.to_string()))
    }

    /// The event board game `game` is played on (none for a game of no event; an unknown game
    /// is not found): what its page names the teams and the way back by.
    pub async fn board_of_game(&self, game: &GameId) -> PlayResult<Option<GameBoard>> {
        if let Some(board) = self.store.board_of_game(game).await? {
            return Ok(Some(board));
        }
        self.games.load(game).await?;
        Ok(None)
    }

    /// The game of the current round of the team holding `token` (not found with a bye).
    pub async fn team_game(&self, id: &EventId, token: &str) -> PlayResult<TeamGame> {
        let (event, team) = self.team(id, token).await?;
        let boards = self.store.boards(id).await?;
        boards
            .iter()
            .filter(|board| board.round == event.round)
            .find_map(|board| {
                let seat = if board.white == team.id {
                    Color::White
                } else if board.black.as_ref() == Some(&team.id) {
                    Color::Black
                } else {
                    return None;
                };
                Some(TeamGame {
                    game: board.game.clone()?,
                    seat,
                    token: token.to_owned(),
                })
            })
            .ok_or_else(|| {
                PlayError::not_found(
                    "game of this team (a bye, or no round yet) in round",
                    event.round,
                )
            })
    }
}

/// Only a signed-in caller allowed to run events (a session, or a token with `events`).
fn organiser_may(caller: &Caller) -> PlayResult<()> {
    if caller.may(Scope::Events) {
        Ok(())
    } else {
        Err(PlayError::WrongToken {
            what: "events: the personal token lacks the `events` scope",
        })
    }
}

/// `raw` trimmed, when it is 1 to `max` characters with no control character.
fn checked_name(raw: &str, max: usize, code: PlayCode, what: &str) -> PlayResult<String> {
    let name = raw.trim();
    let length = name.chars().count();
    if length == 0 || length > max || name.chars().any(char::is_control) {
        return Err(PlayError::invalid(
            code,
            format!(
                "{what}'s name is 1 to {max} characters without control characters; got {length}"
            ),
        ));
    }
    Ok(name.to_owned())
}

/// A Swiss event's rounds (1 to [`MAX_SWISS_ROUNDS`], required); none for a round robin, and
/// `double` only for one.
fn checked_rounds(request: &EventRequest) -> PlayResult<Option<u32>> {
    match (request.format, request.rounds) {
        (EventFormat::Swiss, Some(rounds)) if (1..=MAX_SWISS_ROUNDS).contains(&rounds) => {
            if request.double {
                return Err(PlayError::invalid(
                    PlayCode::BadEvent,
                    "`double` is for a round robin; a Swiss event never pairs two teams twice",
                ));
            }
            Ok(Some(rounds))
        }
        (EventFormat::Swiss, _) => Err(PlayError::invalid(
            PlayCode::BadEvent,
            format!("a Swiss event needs `rounds`, 1 to {MAX_SWISS_ROUNDS}"),
        )),
        (EventFormat::RoundRobin, None) => Ok(None),
        (EventFormat::RoundRobin, Some(_)) => Err(PlayError::invalid(
            PlayCode::BadEvent,
            "a round robin's rounds follow from its teams; leave `rounds` out",
        )),
    }
}

/// Whether `genomes` (8 of them) with kings on `kings` make a side that may start a game.
fn check_lineup(genomes: &[gmo_genome::Genome], kings: &[Square]) -> PlayResult<()> {
    let bad = |message: String| Err(PlayError::invalid(PlayCode::BadLineup, message));
    if kings.is_empty() || kings.len() > 8 {
        return bad(format!("a lineup has 1 to 8 kings; got {}", kings.len()));
    }
    let mut seen = kings.to_vec();
    seen.sort_unstable_by_key(|square| square.index());
    seen.dedup();
    if seen.len() != kings.len() {
        return bad("a lineup names each king square once".into());
    }
    if let Some(square) = kings.iter().find(|square| square.y() != 0) {
        return bad(format!(
            "a king stands on the back rank as White sees it (rank 1); {square} is not on it"
        ));
    }
    rounds::set_up_side(&mut lineup_game()?, Color::White, genomes, kings)
        .map_err(|error| PlayError::invalid(PlayCode::BadLineup, error.to_string()))
}

fn lineup_game() -> PlayResult<Game> {
    let settings = settings_of(Some(8), Some(8), None, Millis::from_ms(1))?;
    Ok(Game::new(settings, 0)?)
}

/// A join code as people type it, made the code it was: codes are lower case, and a code read
/// aloud or copied from a projector comes in capitals or in groups ("ABCD-EFGH JKMN"), so case,
/// white space and dashes do not count. Anything else is kept (and matches no code).
pub fn typed_code(code: &str) -> String {
    code.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A fresh join code: [`CODE_LENGTH`] characters of [`CODE_ALPHABET`].
fn join_code() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..CODE_LENGTH)
        .map(|_| char::from(CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_as_people_type_them() {
        let code = join_code();
        assert_eq!(typed_code(&code), code, "a code as handed out stays itself");
        assert_eq!(typed_code(" ABCD-efgh jkmn\t"), "abcdefghjkmn");
        assert_eq!(typed_code("ab_c!"), "ab_c!", "other characters are kept");
    }
}
