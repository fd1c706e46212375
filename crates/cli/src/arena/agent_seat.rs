//! An agent in the arena: its program, started when a game needs it and again after it failed,
//! told of each game's start and end, and asked for each of its plies.

use crate::agent::process::AgentProcess;
use crate::agent::protocol::{Answer, HostMessage, PROTOCOL, parse_answer, quote};
use gmo_bots::{Ply, genome_ref};
use gmo_engine::{Color, Game, GameStatus, MoveView, Reason};
use serde_json::Value;
use std::time::Duration;

/// What an agent chose to do on its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Play(Ply),
    Resign,
}

/// Why an agent's turn gave no action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// No answer within the time it was given.
    Late(String),
    /// Anything else: the answer, or the program, was wrong.
    Broken(String),
}

impl Fault {
    pub fn message(&self) -> &str {
        match self {
            Fault::Late(message) | Fault::Broken(message) => message,
        }
    }
}

#[derive(Debug)]
pub struct AgentSeat {
    argv: Vec<String>,
    /// The prefix its log lines are copied with to our standard error (`--show`), if copied.
    echo: Option<String>,
    process: Option<AgentProcess>,
}

impl AgentSeat {
    pub fn new(argv: Vec<String>, echo: Option<String>) -> AgentSeat {
        AgentSeat {
            argv,
            echo,
            process: None,
        }
    }

    /// Starts its program now, if none runs: a command that cannot start is caught before the
    /// first game.
    pub fn ready(&mut self) -> Result<&mut AgentProcess, String> {
        if self.process.is_none() {
            self.process = Some(AgentProcess::spawn(&self.argv, self.echo.clone())?);
        }
        self.process
            .as_mut()
            .ok_or_else(|| "no agent process".to_string())
    }

    /// A game begins: the agent plays `color`.
    pub fn start(&mut self, color: Color, game: &Value) -> Result<(), Fault> {
        let process = self.ready().map_err(Fault::Broken)?;
        process.send(
            HostMessage::Start {
                protocol: PROTOCOL,
                color,
                game,
            }
            .line(),
        );
        Ok(())
    }

    /// Asks for its ply in `game`, where it plays the side to move, and checks the answer.
    pub fn turn(&mut self, game: &Game, turn: Turn<'_>) -> Result<Action, Fault> {
        let legal = game.legal_move_views();
        let promotion = game.promotion_choices();
        let process = self.ready().map_err(Fault::Broken)?;
        process.send(
            HostMessage::Turn {
                game: turn.view,
                legal: &legal,
                promotion,
                time_left_ms: turn.time_left_ms,
                answer_within_ms: turn.answer_within.as_millis() as u64,
            }
            .line(),
        );
        let line = process.answer(turn.wait).map_err(|message| {
            if message.starts_with("no answer") {
                Fault::Late(message)
            } else {
                Fault::Broken(message)
            }
        })?;
        let answer = parse_answer(&line).map_err(Fault::Broken)?;
        action(game, &legal, answer).map_err(Fault::Broken)
    }

    /// The game is over: tells a running agent so.
    pub fn end(&mut self, game: &Value, status: GameStatus, reason: Option<Reason>) {
        if let Some(process) = self.process.as_mut() {
            process.send(
                HostMessage::End {
                    game,
                    status,
                    reason,
                }
                .line(),
            );
        }
    }

    /// After a fault: the program is killed, and the next game starts a fresh one.
    pub fn fail(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    /// After the match: the program's input closes and it may exit on its own.
    pub fn close(&mut self) {
        if let Some(process) = self.process.take() {
            process.finish();
        }
    }
}

/// What a turn message carries beside the legal moves.
#[derive(Debug, Clone, Copy)]
pub struct Turn<'a> {
    pub view: &'a Value,
    pub time_left_ms: i64,
    /// The bound every answer has (`--answer-within`), as the message states it.
    pub answer_within: Duration,
    /// How long the host waits: the bound, or less when the clock has less left.
    pub wait: Duration,
}

/// The ply an answer names, if it is one the agent may make now.
fn action(game: &Game, legal: &[MoveView], answer: Answer) -> Result<Action, String> {
    match answer {
        Answer::Move { from, to } => legal
            .iter()
            .find(|mv| mv.from.to_string() == from && mv.to.to_string() == to)
            .map(|mv| {
                Action::Play(Ply::Move {
                    from: mv.from,
                    to: mv.to,
                })
            })
            .ok_or_else(|| format!("not a legal move: {}{}", quote(&from), quote(&to))),
        Answer::Promote(name) => {
            let at = game.promotion_due().ok_or_else(|| {
                format!("no promotion is due: `promote` answers a turn with `promotion` ({name})")
            })?;
            let genome =
                genome_ref(&name).map_err(|e| format!("not a genome to promote to: {e}"))?;
            Ok(Action::Play(Ply::Promotion { at, genome }))
        }
        Answer::Resign => Ok(Action::Resign),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gmo_bots::{Lineup, preset_by_name};
    use gmo_engine::{Settings, Timestamp};

    fn five_wide() -> Game {
        let settings = Settings::new(5, 5, Settings::MAX_INITIAL).expect("settings");
        let mut game = Game::new(settings, 1).expect("a game");
        let lineup = Lineup::from(preset_by_name("five").expect("the five preset"));
        for color in Color::BOTH {
            lineup
                .seat(&mut game, color, Timestamp::EPOCH)
                .expect("seated");
        }
        game
    }

    #[test]
    fn an_answer_becomes_a_ply_only_if_it_is_one_the_agent_may_make() {
        let game = five_wide();
        let legal = game.legal_move_views();
        let first = legal[0];
        let named = Answer::Move {
            from: first.from.to_string(),
            to: first.to.to_string(),
        };
        assert_eq!(
            action(&game, &legal, named),
            Ok(Action::Play(Ply::Move {
                from: first.from,
                to: first.to
            }))
        );
        let illegal = Answer::Move {
            from: "e2".into(),
            to: "e5".into(),
        };
        assert_eq!(
            action(&game, &legal, illegal),
            Err("not a legal move: e2e5".to_string())
        );
        let early = action(&game, &legal, Answer::Promote("queen".into())).expect_err("no pawn");
        assert!(early.starts_with("no promotion is due"), "{early}");
        assert_eq!(action(&game, &legal, Answer::Resign), Ok(Action::Resign));
    }
}
