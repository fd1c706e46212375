//! One game through the bridge: the seat set up (the challenge's preset or one as wide as the
//! board, the king marked, ready), then the game's stream followed and, on each of the seat's
//! turns, the agent asked with the server's legal moves and its answer played. A broken stream
//! is opened again (a server restart), so a game resumes where it stands.

use super::client::{Client, Failed};
use crate::agent::process::AgentProcess;
use crate::agent::protocol::{Answer, PROTOCOL, parse_answer};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// How long a game's stream may stay unreachable before the bridge gives the game up.
const RECONNECT_FOR: Duration = Duration::from_secs(120);
/// What the bridge keeps of the clock for the trip to the server and back.
const MARGIN_MS: i64 = 300;

/// A game to play: where, as which seat, with which program.
#[derive(Debug, Clone)]
pub struct Seat {
    pub id: String,
    pub color: String,
    /// The seat's client (its token).
    pub client: Client,
    pub argv: Vec<String>,
    /// The most each answer may take (less when the clock has less).
    pub answer_within: Duration,
    /// A preset to set up with, when the challenge named one.
    pub preset: Option<String>,
}

/// How a game ended for the bridge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub status: String,
    pub reason: Option<String>,
    /// The agent's fault, if it lost by one (the bridge resigned for it).
    pub fault: Option<String>,
}

/// Plays `seat`'s game to its end.
pub async fn play(seat: Seat) -> Result<Ended, String> {
    let path = format!("/api/games/{}", seat.id);
    let view = seat.client.get(&path).await.map_err(|e| e.to_string())?;
    if view["status"] == "setup" {
        set_up(&seat, &view).await?;
    }
    let mut agent = Agent::start(&seat, &view)?;
    let result = follow(&seat, &mut agent).await;
    agent.stop().await;
    result
}

/// Loads the preset, marks the king and declares ready — what is not done yet.
async fn set_up(seat: &Seat, view: &Value) -> Result<(), String> {
    let path = format!("/api/games/{}", seat.id);
    let mine = &view["seats"][&seat.color];
    if mine["ready"] == true {
        return Ok(());
    }
    let fail = |what: &str, e: Failed| format!("game {}: {what}: {e}", seat.id);
    if mine["preset"] != true {
        let preset = match &seat.preset {
            Some(preset) => preset.clone(),
            None => board_preset(&seat.client, view["width"].as_u64().unwrap_or(8)).await?,
        };
        let body = json!({ "preset": preset });
        seat.client
            .put(&format!("{path}/preset"), body)
            .await
            .map_err(|e| fail("loading the preset", e))?;
    }
    let view = seat
        .client
        .get(&path)
        .await
        .map_err(|e| fail("reading", e))?;
    if let Some(square) = king_to_mark(&view, &seat.color) {
        seat.client
            .post(&format!("{path}/kings/{square}"), json!({}))
            .await
            .map_err(|e| fail("marking the king", e))?;
    }
    seat.client
        .post(&format!("{path}/ready"), json!({}))
        .await
        .map_err(|e| fail("declaring ready", e))?;
    Ok(())
}

/// A preset as wide as the board: the standard army's middle files (the whole of it on 8 files),
/// its king among them, stored (or found) on the server.
async fn board_preset(client: &Client, width: u64) -> Result<String, String> {
    let pieces = gmo_genome::standard::DEFAULT_PRESET;
    let width = (width as usize).clamp(4, pieces.len());
    let start = (pieces.len() - width) / 2;
    let genomes = &pieces[start..start + width];
    let stored = client
        .post("/api/presets", json!({ "genomes": genomes }))
        .await
        .map_err(|e| format!("storing a preset {width} wide: {e}"))?;
    stored["code"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| "the stored preset has no code".to_string())
}

/// The square of the seat's standard king, unless a king is marked already.
fn king_to_mark(view: &Value, color: &str) -> Option<String> {
    let king = gmo_genome::standard::by_name("king")?.code().to_string();
    let own: Vec<&Value> = view["board"]
        .as_array()?
        .iter()
        .filter(|piece| piece["color"] == color)
        .collect();
    if own.iter().any(|piece| piece["king"] == true) {
        return None;
    }
    own.iter()
        .find(|piece| piece["code"] == king.as_str())
        .or_else(|| own.iter().find(|piece| piece["pawn"] != true))
        .and_then(|piece| piece["square"].as_str().map(str::to_string))
}

/// Follows the game's stream to the end, acting on each of the seat's turns.
async fn follow(seat: &Seat, agent: &mut Agent) -> Result<Ended, String> {
    let stream = format!("/api/games/{}/stream", seat.id);
    let mut acted: Option<(u64, Value)>;
    let mut lost_since: Option<Instant> = None;
    loop {
        let mut lines = match seat.client.stream(&stream).await {
            Ok(lines) => lines,
            Err(error) if away(&error) => {
                let since = *lost_since.get_or_insert_with(Instant::now);
                if since.elapsed() > RECONNECT_FOR {
                    return Err(format!("game {}: the server is away: {error}", seat.id));
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
            Err(error) => return Err(format!("game {}: its stream: {error}", seat.id)),
        };
        lost_since = None;
        // A connection's first line is the game as it stands: whatever was tried before, a turn
        // it shows is still to be taken.
        acted = None;
        eprintln!("game {}: following", seat.id);
        while let Some(line) = lines.next().await {
            let view = if line["game"].is_object() {
                &line["game"]
            } else {
                &line
            };
            if let Some(ended) = agent.ended(view) {
                return Ok(ended);
            }
            if !our_turn(view, &seat.color) {
                continue;
            }
            // One action per position: the stream repeats the view on clock lines.
            let here = (
                view["moves_played"].as_u64().unwrap_or(0),
                view["promotion_due"].clone(),
            );
            if acted.as_ref() == Some(&here) {
                continue;
            }
            acted = Some(here);
            match act(seat, agent, view).await? {
                Acted::Ended(ended) => return Ok(ended),
                Acted::Played => {}
                // The server went away mid-turn: the stream, opened again, shows the position.
                Acted::Again => break,
            }
        }
        eprintln!(
            "game {}: its stream closed before the end; opening it again",
            seat.id
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// The server could not be reached, or could not answer for now: worth asking again.
fn away(error: &Failed) -> bool {
    error.status == 0 || error.status >= 500
}

/// What a turn came to.
enum Acted {
    Played,
    Ended(Ended),
    /// Nothing was played: the server was away; the turn is to be taken again.
    Again,
}

fn our_turn(view: &Value, color: &str) -> bool {
    view["status"] == "in_progress" && view["to_move"] == color
}

/// Asks the agent for the seat's ply and plays it; an agent's fault resigns the game for it.
async fn act(seat: &Seat, agent: &mut Agent, view: &Value) -> Result<Acted, String> {
    let path = format!("/api/games/{}", seat.id);
    let legal = match seat.client.get(&format!("{path}/legal")).await {
        Ok(legal) => legal,
        Err(error) if away(&error) => return Ok(Acted::Again),
        // Not our turn after all (the line was old): the next line tells.
        Err(error) if error.status == 409 => return Ok(Acted::Played),
        Err(error) => return Err(format!("game {}: legal moves: {error}", seat.id)),
    };
    let time_left = view["clocks"][format!("{}_ms", seat.color)]
        .as_i64()
        .unwrap_or(i64::MAX);
    let within = seat
        .answer_within
        .min(Duration::from_millis((time_left - MARGIN_MS).max(1) as u64));
    let turn = json!({
        "type": "turn", "game": view, "legal": legal["legal"], "promotion": legal["promotion"],
        "time_left_ms": time_left, "answer_within_ms": within.as_millis() as u64,
    });
    let answer = agent
        .ask(turn.to_string(), within)
        .await
        .and_then(|line| parse_answer(&line));
    let request = match answer {
        Ok(Answer::Move { from, to }) => {
            (format!("{path}/moves"), json!({ "from": from, "to": to }))
        }
        Ok(Answer::Promote(genome)) => (format!("{path}/promotion"), json!({ "genome": genome })),
        Ok(Answer::Resign) => (format!("{path}/resign"), json!({})),
        Err(fault) => return resign_for(seat, agent, fault).await.map(Acted::Ended),
    };
    match seat.client.post(&request.0, request.1.clone()).await {
        Ok(_) => Ok(Acted::Played),
        Err(error) if away(&error) => Ok(Acted::Again),
        // The move was refused: the agent named something not legal.
        Err(error) if error.status == 422 || error.status == 400 => {
            let fault = format!("not a legal move: {} ({error})", request.1);
            resign_for(seat, agent, fault).await.map(Acted::Ended)
        }
        // Not now: the game is frozen for a moment (a debuff, or a restart's grace), or a change
        // came first (a clock that ran out). The game as it stands, read again, tells.
        Err(error) if error.status == 409 => {
            eprintln!("game {}: {error}; looking again", seat.id);
            tokio::time::sleep(Duration::from_millis(500)).await;
            Ok(Acted::Again)
        }
        Err(error) => Err(format!("game {}: playing: {error}", seat.id)),
    }
}

/// The agent failed: the bridge resigns its game (online nobody else can end it) and says why.
async fn resign_for(seat: &Seat, agent: &mut Agent, fault: String) -> Result<Ended, String> {
    eprintln!("game {}: the agent failed: {fault}; resigning", seat.id);
    agent.kill().await;
    let path = format!("/api/games/{}/resign", seat.id);
    let view = seat
        .client
        .post(&path, json!({}))
        .await
        .map_err(|e| e.to_string())?;
    let view = if view["game"].is_object() {
        &view["game"]
    } else {
        &view
    };
    Ok(Ended {
        status: view["status"].as_str().unwrap_or("").to_string(),
        reason: view["reason"].as_str().map(str::to_string),
        fault: Some(fault),
    })
}

/// The agent's program for one game, driven from async code (its calls block on threads).
struct Agent {
    process: Option<AgentProcess>,
}

impl Agent {
    fn start(seat: &Seat, view: &Value) -> Result<Agent, String> {
        let mut process = AgentProcess::spawn(&seat.argv, Some(format!("[{}] ", seat.id)))?;
        let start =
            json!({"type": "start", "protocol": PROTOCOL, "color": seat.color, "game": view});
        process.send(start.to_string());
        Ok(Agent {
            process: Some(process),
        })
    }

    /// Sends `line` and waits for the answer on a blocking thread.
    async fn ask(&mut self, line: String, within: Duration) -> Result<String, String> {
        let mut process = self.process.take().ok_or("the agent is gone")?;
        let (process, answer) = tokio::task::spawn_blocking(move || {
            process.send(line);
            let answer = process.answer(within);
            (process, answer)
        })
        .await
        .map_err(|e| format!("the agent's thread failed: {e}"))?;
        self.process = Some(process);
        answer
    }

    /// Tells the agent the game ended, if `view` is an end.
    fn ended(&mut self, view: &Value) -> Option<Ended> {
        let status = view["status"].as_str()?;
        if status == "setup" || status == "in_progress" {
            return None;
        }
        let end = json!({"type": "end", "game": view, "status": status, "reason": view["reason"]});
        if let Some(process) = &mut self.process {
            process.send(end.to_string());
        }
        Some(Ended {
            status: status.to_string(),
            reason: view["reason"].as_str().map(str::to_string),
            fault: None,
        })
    }

    async fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = tokio::task::spawn_blocking(move || process.kill()).await;
        }
    }

    /// Closes the program's input and lets it exit (killed after a moment).
    async fn stop(&mut self) {
        if let Some(process) = self.process.take() {
            let _ = tokio::task::spawn_blocking(move || process.finish()).await;
        }
    }
}
