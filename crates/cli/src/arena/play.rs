//! One game of a match: each side's bot or agent asked in turn until the game ends, an agent
//! fails, or the ply cap stops it.

use super::agent_seat::{Action, Fault, Turn};
use super::report::Failure;
use super::{Match, Outcome, derive, show};
use gmo_bots::{Bot, Budget};
use gmo_engine::{Color, Game, GameStatus, Millis, Reason, Settings, Timestamp, Viewer};
use serde_json::{Value, json};
use std::time::Instant;

/// A game being played: the live game, its simulated time, and what each side needs.
struct Board {
    i: u32,
    game: Game,
    /// Simulated time: it passes only while a side thinks on a clock.
    now: Timestamp,
    plies: u32,
    /// The index (0: `--white`) of the side playing Black; the other plays White.
    swap: bool,
    /// The built-in bot of each side that is one.
    bots: [Option<Box<dyn Bot>>; 2],
}

impl Board {
    /// The index into the match's sides of the one playing `color`.
    fn seat(&self, color: Color) -> usize {
        usize::from((color == Color::Black) != self.swap)
    }

    /// The game as `color` sees it, as an agent gets it: the engine's view with the game's id
    /// (`arena-N`), and with the arena's verdict when the arena, not the engine, ended it.
    fn view(&self, color: Color, verdict: Option<(GameStatus, Option<Reason>)>) -> Value {
        let mut view = serde_json::to_value(self.game.view(Viewer::Player(color), self.now))
            .unwrap_or(Value::Null);
        if let Value::Object(fields) = &mut view {
            fields.insert("id".into(), json!(format!("arena-{}", self.i + 1)));
            if let Some((status, reason)) = verdict {
                fields.insert("status".into(), json!(status));
                fields.insert("reason".into(), json!(reason));
                fields.insert("to_move".into(), Value::Null);
            }
        }
        view
    }
}

/// What one side did on its turn.
enum Done {
    Played,
    /// An agent failed: it loses the game.
    Fault(Fault),
}

impl Match<'_> {
    /// Plays game `i`; adds each side's nodes and thinking time to the tallies. `Err` only for a
    /// built-in bot's bug; an agent's fault is its loss.
    pub(super) fn play_game(&mut self, i: u32) -> Result<Outcome, String> {
        let mut board = self.set_up(i)?;
        if self.args.show {
            println!(
                "game {} start\n{}",
                i + 1,
                show::render(board.game.position())
            );
        }
        for color in Color::BOTH {
            if let Some(agent) = self.agents[board.seat(color)].as_mut() {
                if let Err(fault) = agent.start(color, &board.view(color, None)) {
                    return Ok(self.forfeit(&board, color, fault));
                }
            }
        }
        while let Some(color) = board.game.to_move() {
            if board.plies >= self.args.max_plies {
                let outcome = Outcome {
                    winner: None,
                    why: "ply cap",
                    plies: board.plies,
                };
                self.tell_end(&board, Some((GameStatus::Draw, None)));
                return Ok(outcome);
            }
            board.now = board.game.frozen_until(board.now).unwrap_or(board.now);
            if let Done::Fault(fault) = self.one_turn(&mut board, color)? {
                return Ok(self.forfeit(&board, color, fault));
            }
        }
        self.tell_end(&board, None);
        Ok(ending(&board.game, board.plies))
    }

    /// A fresh game with both lineups in place, and fresh bots.
    fn set_up(&self, i: u32) -> Result<Board, String> {
        let args = self.args;
        let (width, height) = args.size;
        let initial = args
            .clock
            .map_or(Settings::MAX_INITIAL, |ms| Millis::from_ms(ms as i64))
            .clamp(Millis::from_ms(1), Settings::MAX_INITIAL);
        let settings = Settings::new(width, height, initial).map_err(|e| e.to_string())?;
        let game = Game::new(settings, derive(args.seed, i, 0)).map_err(|e| e.to_string())?;
        let sides = args.sides();
        let mut board = Board {
            i,
            game,
            now: Timestamp::EPOCH,
            plies: 0,
            swap: i % 2 == 1,
            bots: [0, 1].map(|k| {
                sides[k]
                    .bot()
                    .map(|spec| spec.build(derive(args.seed, i, k as u64 + 1)))
            }),
        };
        for color in Color::BOTH {
            let lineup = &self.lineups[board.seat(color)];
            lineup
                .seat(&mut board.game, color, Timestamp::EPOCH)
                .map_err(|e| format!("{}: {e}", lineup.name))?;
        }
        Ok(board)
    }

    /// The side to move, `color`, acts once.
    fn one_turn(&mut self, board: &mut Board, color: Color) -> Result<Done, String> {
        let who = board.seat(color);
        let clocked = self.args.clock.is_some();
        let started = Instant::now();
        let chosen = match board.bots[who].as_mut() {
            Some(bot) => {
                let spec = self.args.sides()[who];
                let budget = spec.bot().map_or(Budget::Depth(1), |spec| spec.budget);
                let budget = budget_for(&board.game, budget, clocked, color, board.now);
                let nodes_before = bot.nodes();
                let ply = bot.choose_for_game(&board.game, budget);
                self.tallies[who].nodes += bot.nodes() - nodes_before;
                let ply =
                    ply.ok_or_else(|| format!("{spec} found no ply in a game in progress"))?;
                Ok(Action::Play(ply))
            }
            None => self.ask_agent(board, color),
        };
        let took = started.elapsed();
        self.tallies[who].thinking += took;
        if clocked {
            board.now += Millis::from_std(took);
        }
        let action = match chosen {
            Ok(action) => action,
            Err(Fault::Late(_)) if self.ran_out_of_clock(board, color) => return Ok(Done::Played),
            Err(fault) => return Ok(Done::Fault(fault)),
        };
        let is_agent = board.bots[who].is_none();
        match self.apply(board, color, &action) {
            Ok(()) => Ok(Done::Played),
            Err(refused) if is_agent => Ok(Done::Fault(Fault::Broken(refused))),
            Err(refused) => Err(format!(
                "{} chose {action:?}, refused: {refused}",
                self.args.sides()[who]
            )),
        }
    }

    /// Asks the agent playing `color` for its action.
    fn ask_agent(&mut self, board: &Board, color: Color) -> Result<Action, Fault> {
        let who = board.seat(color);
        let left = time_left(&board.game, color, board.now);
        let answer_within = self.args.answer_within;
        let wait = if self.args.clock.is_some() {
            answer_within.min(left.at_least_zero().to_std())
        } else {
            answer_within
        };
        let view = board.view(color, None);
        let turn = Turn {
            view: &view,
            time_left_ms: left.ms(),
            answer_within,
            wait,
        };
        match self.agents[who].as_mut() {
            Some(agent) => agent.turn(&board.game, turn),
            None => Err(Fault::Broken("no agent for this side".into())),
        }
    }

    /// After an agent's late answer: if its clock, not the answer bound, ran out, the game ends on
    /// time like any game (the program, now behind, is replaced for the next game).
    fn ran_out_of_clock(&mut self, board: &mut Board, color: Color) -> bool {
        if self.args.clock.is_none() {
            return false;
        }
        if time_left(&board.game, color, board.now) > Millis::from_ms(0) {
            return false;
        }
        board.game.tick(board.now);
        if let Some(agent) = self.agents[board.seat(color)].as_mut() {
            agent.fail();
        }
        board.game.is_over()
    }

    /// Plays `action` for `color`; a flag that fell while it was chosen ends the game and is no
    /// error.
    fn apply(&mut self, board: &mut Board, color: Color, action: &Action) -> Result<(), String> {
        let done = match action {
            Action::Play(ply) => ply.play(&mut board.game, color, board.now),
            Action::Resign => board.game.resign(color, board.now),
        };
        if let Err(e) = done {
            if !board.game.is_over() {
                return Err(e.to_string());
            }
        }
        board.plies += u32::from(matches!(action, Action::Play(_)));
        if self.args.show {
            let words = match action {
                Action::Play(ply) => ply.to_string(),
                Action::Resign => "resigns".to_string(),
            };
            let (plies, position) = (board.plies, show::render(board.game.position()));
            println!("{plies}. {color} {words}\n{position}");
        }
        Ok(())
    }

    /// `color`'s agent failed: it loses, its program is killed, the other side is told.
    fn forfeit(&mut self, board: &Board, color: Color, fault: Fault) -> Outcome {
        let who = board.seat(color);
        self.failures.push(Failure {
            game: board.i + 1,
            side: if who == 0 { "white" } else { "black" },
            color,
            message: fault.message().to_string(),
        });
        if let Some(agent) = self.agents[who].as_mut() {
            agent.fail();
        }
        let winner = color.opponent();
        let status = if winner == Color::White {
            GameStatus::WhiteWon
        } else {
            GameStatus::BlackWon
        };
        self.tell_end(board, Some((status, Some(Reason::AgentError))));
        Outcome {
            winner: Some(winner),
            why: "agent_error",
            plies: board.plies,
        }
    }

    /// Tells each running agent the game is over (with the arena's verdict, if it ended it).
    fn tell_end(&mut self, board: &Board, verdict: Option<(GameStatus, Option<Reason>)>) {
        let (status, reason) = verdict.unwrap_or((board.game.status(), board.game.reason()));
        for color in Color::BOTH {
            if let Some(agent) = self.agents[board.seat(color)].as_mut() {
                agent.end(&board.view(color, verdict), status, reason);
            }
        }
    }
}

/// How long `color` has to act at `now`: its first-move timer while one runs (the clocks start
/// after both first moves, rules §5.4), else its clock.
fn time_left(game: &Game, color: Color, now: Timestamp) -> Millis {
    match game.first_move_deadline() {
        Some(deadline) => deadline.since(now),
        None => game.clock().remaining_at(color, now),
    }
}

/// The bot's budget; on a clock, a time budget is capped to a 20th of what is left.
fn budget_for(game: &Game, budget: Budget, clocked: bool, color: Color, now: Timestamp) -> Budget {
    match budget {
        Budget::Time(time) if clocked => {
            let left = game
                .clock()
                .remaining_at(color, now)
                .max(Millis::from_ms(20));
            Budget::Time(time.min(left.div(20).to_std()))
        }
        other => other,
    }
}

fn ending(game: &Game, plies: u32) -> Outcome {
    let winner = match game.status() {
        GameStatus::WhiteWon => Some(Color::White),
        GameStatus::BlackWon => Some(Color::Black),
        _ => None,
    };
    let why = match game.reason() {
        Some(Reason::KingLost) => "king lost",
        Some(Reason::KingsLost) => "both kings lost",
        Some(Reason::Time) => "time",
        Some(Reason::NoLegalMoves) => "no legal moves",
        Some(Reason::Resigned) => "resigned",
        Some(Reason::Agreement) => "draw agreed",
        Some(Reason::NoFirstMove) => "no first move",
        Some(Reason::Abandoned) => "abandoned",
        Some(Reason::AgentError) => "agent_error",
        Some(Reason::BotFailed) => "a bot failed",
        None => "aborted",
    };
    Outcome { winner, why, plies }
}
