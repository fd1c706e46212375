//! An event as everyone may see it: its teams, its rounds with each board's result (its game's
//! status, read with it), and the standings computed from them. An event whose last round has
//! ended is finished, whoever looks first (and it is stored so).

use super::Events;
use crate::error::PlayResult;
use gmo_events::Outcome;
use gmo_store::{Board, Event, Team};
use gmo_types::{EventId, EventStatus, GameId, GameStatus, TeamId};
use std::collections::HashMap;

/// An event as everyone may see it.
#[derive(Debug, Clone, PartialEq)]
pub struct EventView {
    pub event: Event,
    /// Where it stands (finished once every game of its last round has ended).
    pub status: EventStatus,
    pub teams: Vec<TeamView>,
    pub rounds: Vec<RoundView>,
    pub standings: Vec<Standing>,
}

/// A team as everyone may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamView {
    pub id: TeamId,
    pub name: String,
}

/// A round's boards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundView {
    pub number: u32,
    pub pairings: Vec<PairingView>,
}

/// A board of a round: `black` none is a bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingView {
    pub white: TeamId,
    pub black: Option<TeamId>,
    pub game: Option<GameId>,
    /// None while the game goes on, and for a bye.
    pub result: Option<Outcome>,
}

/// A line of the standings, best first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub team: TeamId,
    /// In half points (a win is 2, a draw 1, a bye 2).
    pub half_points: u32,
    /// Sonneborn–Berger, in quarter points.
    pub quarter_tiebreak: u32,
    /// Boards played to a result (byes not counted).
    pub played: u32,
}

impl PairingView {
    /// Whether the board needs nothing more: a bye, or a game that has ended.
    pub fn ended(&self) -> bool {
        self.black.is_none() || self.result.is_some()
    }
}

impl EventView {
    /// The current round, if any has been paired.
    pub fn current(&self) -> Option<&RoundView> {
        self.rounds.last()
    }

    /// Whether every board of the current round has ended (true before round 1).
    pub fn round_over(&self) -> bool {
        self.current()
            .is_none_or(|round| round.pairings.iter().all(PairingView::ended))
    }
}

impl Events {
    /// Event `id` as everyone may see it now.
    pub async fn view(&self, id: &EventId) -> PlayResult<EventView> {
        let event = self.event(id).await?;
        let teams = self.store.teams(id).await?;
        let boards = self.store.boards(id).await?;
        let view = build(event, &teams, &boards);
        if view.status == EventStatus::Finished && view.event.status == EventStatus::Running {
            // The last game ended: so stored, for the organiser's count of open events.
            self.store.finish_event(id, view.event.round).await?;
        }
        Ok(view)
    }
}

/// The view of `event` with `teams` and `boards`.
pub(super) fn build(event: Event, teams: &[Team], boards: &[Board]) -> EventView {
    let mut rounds: Vec<RoundView> = Vec::new();
    for board in boards {
        let pairing = PairingView {
            white: board.white.clone(),
            black: board.black.clone(),
            game: board.game.clone(),
            result: board.black.as_ref().and_then(|_| result_of(board.status)),
        };
        match rounds.last_mut() {
            Some(round) if round.number == board.round => round.pairings.push(pairing),
            _ => rounds.push(RoundView {
                number: board.round,
                pairings: vec![pairing],
            }),
        }
    }
    let standings = standings(teams, &rounds);
    let mut view = EventView {
        status: event.status,
        teams: teams
            .iter()
            .map(|team| TeamView {
                id: team.id.clone(),
                name: team.name.clone(),
            })
            .collect(),
        rounds,
        standings,
        event,
    };
    let last = view
        .event
        .rounds
        .is_some_and(|rounds| view.event.round >= rounds);
    if view.status == EventStatus::Running && last && view.round_over() {
        view.status = EventStatus::Finished;
    }
    view
}

/// A board's result from its game's status: none while it goes on. An aborted game (which an
/// event's cannot be by its seats) or a game gone counts as a draw, so that a round always ends.
pub(super) fn result_of(status: Option<GameStatus>) -> Option<Outcome> {
    match status {
        Some(GameStatus::Setup | GameStatus::InProgress) => None,
        Some(GameStatus::WhiteWon) => Some(Outcome::White),
        Some(GameStatus::BlackWon) => Some(Outcome::Black),
        Some(GameStatus::Draw | GameStatus::Aborted) | None => Some(Outcome::Draw),
    }
}

/// The standings of `teams` after `rounds` (`gmo_events` counts them).
fn standings(teams: &[Team], rounds: &[RoundView]) -> Vec<Standing> {
    let ids: Vec<&TeamId> = teams.iter().map(|team| &team.id).collect();
    gmo_events::standings::standings(teams.len(), &boards(&ids, rounds))
        .into_iter()
        .filter_map(|line| {
            Some(Standing {
                team: teams.get(line.team)?.id.clone(),
                half_points: line.points,
                quarter_tiebreak: line.tiebreak,
                played: line.played,
            })
        })
        .collect()
}

/// Every board of `rounds` as `gmo_events` counts them: teams by their place in `teams` (their
/// seed).
pub(super) fn boards(teams: &[&TeamId], rounds: &[RoundView]) -> Vec<gmo_events::Board> {
    let seed: HashMap<&TeamId, usize> = teams
        .iter()
        .enumerate()
        .map(|(index, team)| (*team, index))
        .collect();
    rounds
        .iter()
        .flat_map(|round| &round.pairings)
        .filter_map(|pairing| {
            Some(gmo_events::Board {
                white: *seed.get(&pairing.white)?,
                black: match &pairing.black {
                    Some(black) => Some(*seed.get(black)?),
                    None => None,
                },
                outcome: pairing.result,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gmo_types::{AccountId, EventFormat, Millis, Timestamp};

    fn team(seq: u32) -> Team {
        Team {
            id: TeamId::from_bits(u128::from(seq) + 1),
            seq,
            name: format!("team {seq}"),
            preset: None,
            kings: None,
            token_hash: [0; 32],
        }
    }

    fn event(rounds: Option<u32>, round: u32) -> Event {
        Event {
            id: EventId::from_bits(1),
            organiser: AccountId::from_bits(2),
            organiser_name: "ada".into(),
            name: "camp".into(),
            format: EventFormat::RoundRobin,
            double: false,
            rounds,
            round,
            status: EventStatus::Running,
            discovery: false,
            initial: Millis::from_ms(60_000),
            increment: Millis::ZERO,
            created_at: Timestamp::from_ms(0),
        }
    }

    fn board(round: u32, white: &Team, black: Option<&Team>, status: GameStatus) -> Board {
        Board {
            round,
            board: 0,
            white: white.id.clone(),
            black: black.map(|team| team.id.clone()),
            game: black.map(|_| GameId::from_bits(u128::from(round) * 100)),
            status: black.map(|_| status),
        }
    }

    #[test]
    fn results_come_from_the_games_and_the_last_round_ending_finishes_the_event() {
        let teams: Vec<Team> = (0..3).map(team).collect();
        let boards = vec![
            board(1, &teams[0], Some(&teams[1]), GameStatus::WhiteWon),
            board(1, &teams[2], None, GameStatus::Setup),
            board(2, &teams[1], Some(&teams[2]), GameStatus::InProgress),
        ];
        let running = build(event(Some(2), 2), &teams, &boards);
        assert_eq!(running.status, EventStatus::Running);
        assert!(!running.round_over());
        assert_eq!(running.rounds[0].pairings[0].result, Some(Outcome::White));
        assert_eq!(
            running.rounds[0].pairings[1].result, None,
            "a bye has no result"
        );
        let leaders: Vec<_> = running.standings.iter().map(|s| s.half_points).collect();
        assert_eq!(
            leaders,
            vec![2, 2, 0],
            "the winner and the bye have a point each"
        );
        let mut ended = boards.clone();
        ended[2].status = Some(GameStatus::Draw);
        let finished = build(event(Some(2), 2), &teams, &ended);
        assert_eq!(finished.status, EventStatus::Finished);
        let not_last = build(event(Some(3), 2), &teams, &ended);
        assert_eq!(not_last.status, EventStatus::Running, "a round is left");
    }

    #[test]
    fn a_game_that_goes_on_has_no_result_and_one_gone_counts_as_a_draw() {
        assert_eq!(result_of(Some(GameStatus::Setup)), None);
        assert_eq!(result_of(Some(GameStatus::InProgress)), None);
        assert_eq!(result_of(Some(GameStatus::BlackWon)), Some(Outcome::Black));
        assert_eq!(result_of(None), Some(Outcome::Draw));
    }
}
