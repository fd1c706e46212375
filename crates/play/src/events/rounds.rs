//! Pairing rounds: the start pairs round 1, the organiser each next one once the last has ended.
//! The pairing is computed from what is stored (Berger tables, or a Swiss pairing of the results
//! so far), its games are set up from the teams' lineups, and the store commits them with the
//! round in one transaction that only one of several concurrent pairings of a round wins.

use super::Events;
use super::view::EventView;
use crate::accounts::Caller;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::games::settings_of;
use crate::stored::row_state;
use crate::time::now;
use gmo_engine::{Color, Game, GameError, GameSnapshot, Square};
use gmo_events::{Pairing, berger, swiss};
use gmo_genome::Genome;
use gmo_store::{Event, GameSettings, NewBoard, NewGame, Team};
use gmo_types::{ByColor, EventFormat, EventId, EventStatus, GameId, Millis, Timestamp};
use std::collections::HashMap;

/// The lineup of a team that set none: the default preset, its king on d1 (the standard king's
/// square in it).
const DEFAULT_PRESET: &str = "default";
const DEFAULT_KING: &str = "d1";

/// A game of a round, set up and about to be stored.
struct SetUp {
    id: GameId,
    white: usize,
    black: usize,
    settings: GameSettings,
    snapshot: GameSnapshot,
}

impl Events {
    /// Closes registration and pairs round 1 → the event as it now stands. Asked twice at once,
    /// it pairs once (both see round 1).
    pub async fn start(&self, caller: &Caller, id: &EventId) -> PlayResult<EventView> {
        let event = self.organised(caller, id).await?;
        if event.status != EventStatus::Registration {
            return Err(PlayError::refused(
                PlayCode::RegistrationClosed,
                "the event has started already; pair its next round instead",
            ));
        }
        let teams = self.store.teams(id).await?;
        if teams.len() < 2 {
            return Err(PlayError::refused(
                PlayCode::TooFewTeams,
                format!(
                    "an event starts with 2 teams or more; it has {}",
                    teams.len()
                ),
            ));
        }
        self.pair(&event, &teams, &[]).await?;
        self.view(id).await
    }

    /// Pairs the next round once every game of the current one has ended → the event as it now
    /// stands. Asked twice at once, it pairs once.
    pub async fn next_round(&self, caller: &Caller, id: &EventId) -> PlayResult<EventView> {
        let event = self.organised(caller, id).await?;
        let view = self.view(id).await?;
        match view.status {
            EventStatus::Registration => Err(PlayError::refused(
                PlayCode::RoundNotOver,
                "the event has not started: start it to pair round 1",
            )),
            EventStatus::Finished => Err(PlayError::refused(
                PlayCode::EventOver,
                "the event is finished: every round has been played",
            )),
            EventStatus::Running if !view.round_over() => Err(PlayError::refused(
                PlayCode::RoundNotOver,
                format!(
                    "round {} is still being played; pair the next once all its games have ended",
                    event.round
                ),
            )),
            EventStatus::Running => {
                let boards = played(&view);
                let teams = self.store.teams(id).await?;
                self.pair(&event, &teams, &boards).await?;
                self.view(id).await
            }
        }
    }

    /// Pairs the round after `event.round` from the `boards` played so far (none: the start).
    async fn pair(
        &self,
        event: &Event,
        teams: &[Team],
        boards: &[gmo_events::Board],
    ) -> PlayResult<()> {
        let (pairings, rounds) = match event.format {
            EventFormat::RoundRobin => {
                let table = berger::rounds(teams.len(), event.double);
                let total = u32::try_from(table.len()).unwrap_or(u32::MAX);
                let round = usize::try_from(event.round).unwrap_or(usize::MAX);
                (table.get(round).cloned(), Some(total))
            }
            EventFormat::Swiss => {
                // The Dutch system's last-round exceptions need the event's length; the top
                // seed has White in round 1.
                let settings = swiss::Settings {
                    rounds: event.rounds.unwrap_or(super::MAX_SWISS_ROUNDS),
                    top_seed_white: true,
                };
                (swiss::pair(teams.len(), boards, &settings), None)
            }
        };
        let Some(pairings) = pairings else {
            // No pairing is left (a Swiss event whose teams have all met): it ends here.
            self.store.finish_event(&event.id, event.round).await?;
            self.announce(&event.id).await;
            return Ok(());
        };
        let set_up = self.set_up_games(event, teams, &pairings).await?;
        let now = now();
        let new_boards = new_boards(teams, &pairings, &set_up, now);
        let paired = self
            .store
            .pair_round(
                &event.id,
                event.round,
                rounds,
                &new_boards,
                now + self.start_after,
            )
            .await?;
        if paired {
            for _ in &set_up {
                self.games.counted_creation();
            }
            self.announce(&event.id).await;
        }
        Ok(())
    }

    /// The games of `pairings`, each side set up from its team's lineup.
    async fn set_up_games(
        &self,
        event: &Event,
        teams: &[Team],
        pairings: &[Pairing],
    ) -> PlayResult<Vec<SetUp>> {
        let clock = Some((event.initial, Some(event.increment)));
        let settings = settings_of(Some(8), Some(8), clock, Millis::from_ms(1))?
            .with_first_move(None)
            .map_err(PlayError::from)?
            .with_discovery(event.discovery || self.games.discovery());
        let mut presets: HashMap<String, Vec<Genome>> = HashMap::new();
        let mut games = Vec::with_capacity(pairings.len());
        for pairing in pairings {
            let Some(black) = pairing.black else {
                continue;
            };
            let mut game = Game::new(settings, rand::random())?;
            for (color, team) in [(Color::White, pairing.white), (Color::Black, black)] {
                let (preset, kings) = lineup(&teams[team])?;
                if !presets.contains_key(&preset) {
                    let genomes = self.library.preset_genomes(&preset).await?;
                    presets.insert(preset.clone(), genomes);
                }
                let genomes = &presets[&preset];
                set_up_side(&mut game, color, genomes, &kings).map_err(|error| {
                    PlayError::refused(
                        PlayCode::BadLineup,
                        format!(
                            "team {:?}'s lineup cannot be set up: {error}",
                            teams[team].name
                        ),
                    )
                })?;
            }
            games.push(SetUp {
                id: GameId::from_bits(rand::random()),
                white: pairing.white,
                black,
                settings: GameSettings {
                    width: settings.width.into(),
                    height: settings.height.into(),
                    clock_initial: settings.initial_ms,
                    white_bot: None,
                    black_bot: None,
                },
                snapshot: row_state(&game),
            });
        }
        Ok(games)
    }

    /// Tells this process's streams of event `id`, and the other processes', that it changed.
    async fn announce(&self, id: &EventId) {
        self.bell.ring(id);
        if let Err(error) = self
            .store
            .notify_on(gmo_store::EVENT_CHANNEL, id.as_str())
            .await
        {
            tracing::warn!(event = %id, %error, "could not announce an event's change");
        }
    }
}

/// Loads `genomes` as `color`'s preset in `game` and marks its kings: `kings` as White sees
/// them, mirrored onto Black's back rank for Black.
pub(super) fn set_up_side(
    game: &mut Game,
    color: Color,
    genomes: &[Genome],
    kings: &[Square],
) -> Result<(), GameError> {
    game.load_preset(color, genomes)?;
    let size = game.position().size();
    for king in kings {
        let rank = size.back_rank(color);
        let square = size
            .square(king.x(), rank)
            .ok_or(GameError::NotOnBoard(*king))?;
        game.toggle_king(color, square)?;
    }
    Ok(())
}

/// A team's lineup: its preset and king squares, or the default one.
fn lineup(team: &Team) -> PlayResult<(String, Vec<Square>)> {
    match (&team.preset, &team.kings) {
        (Some(preset), Some(kings)) => {
            let kings: Vec<Square> = serde_json::from_str(kings).map_err(PlayError::internal)?;
            Ok((preset.clone(), kings))
        }
        _ => {
            let king: Square = DEFAULT_KING.parse().map_err(PlayError::internal)?;
            Ok((DEFAULT_PRESET.to_owned(), vec![king]))
        }
    }
}

/// The boards to store for `pairings`, with their games.
fn new_boards<'a>(
    teams: &[Team],
    pairings: &[Pairing],
    set_up: &'a [SetUp],
    now: Timestamp,
) -> Vec<NewBoard<'a, GameSnapshot>> {
    let mut games = set_up.iter();
    pairings
        .iter()
        .map(|pairing| {
            let game = pairing.black.and_then(|_| games.next()).map(|game| {
                let row = NewGame {
                    settings: &game.settings,
                    white_token: Some(teams[game.white].token_hash),
                    black_token: Some(teams[game.black].token_hash),
                    status: gmo_types::GameStatus::Setup,
                    state: &game.snapshot,
                    deadline: None,
                    bot_turn: None,
                    creator_token: None,
                    accounts: ByColor::new(None, None),
                    rated: false,
                    created: now,
                };
                (game.id.clone(), row)
            });
            NewBoard {
                white: teams[pairing.white].id.clone(),
                black: pairing.black.map(|black| teams[black].id.clone()),
                game,
            }
        })
        .collect()
}

/// Every board played so far, as the pairing crate counts them (team indices by seed).
fn played(view: &EventView) -> Vec<gmo_events::Board> {
    let ids: Vec<&gmo_types::TeamId> = view.teams.iter().map(|team| &team.id).collect();
    super::view::boards(&ids, &view.rounds)
}
