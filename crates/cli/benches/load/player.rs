//! One game driven by the load generator: it holds both seats, mirrors the position with the
//! engine so that it can pick a legal move without asking, and sends one move at a time (a game
//! is one conversation; the load comes from many games at once).

use crate::stop::Stop;
use gmo_engine::{Color, Debuff, Drawn, Game, Position, Settings, Square};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// A driver gives up after this many refusals in a row: the server is gone (with `--plies` and
/// no deadline it would otherwise retry for ever).
const REFUSALS_IN_A_ROW: u64 = 100;

/// What a game's driver measured.
#[derive(Debug, Default)]
pub struct Tally {
    /// Acknowledged moves and promotions (each answered 200, so committed).
    pub plies: u64,
    /// The latency of each acknowledged ply, in microseconds.
    pub latencies_us: Vec<u64>,
    pub games: u64,
    /// Answers other than 200/201, and transport errors.
    pub refused: u64,
}

#[derive(Deserialize)]
struct Answer {
    ply: PlyAnswer,
    game: GameAnswer,
}

#[derive(Deserialize)]
struct PlyAnswer {
    landed: Option<Square>,
}

#[derive(Deserialize)]
struct GameAnswer {
    status: String,
}

/// A client for the server under load.
#[derive(Debug, Clone)]
pub struct Client {
    pub base: String,
    pub http: reqwest::Client,
}

impl Client {
    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Value,
    ) -> Option<(u16, Vec<u8>)> {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.ok()?;
        let status = response.status().as_u16();
        Some((status, response.bytes().await.ok()?.to_vec()))
    }
}

/// A game in play: its id, both tokens and the mirrored position.
struct Table {
    id: String,
    tokens: [String; 2],
    position: Position,
}

/// Plays games one after another until `stop` says so, a new one whenever the last ends or
/// diverges.
pub async fn play_until(client: Client, seed: u64, stop: Stop) -> Tally {
    let mut tally = Tally::default();
    let mut rng = seed | 1;
    let mut refusals_in_a_row = 0;
    while stop.running() && refusals_in_a_row < REFUSALS_IN_A_ROW {
        let Some(mut table) = start(&client).await else {
            tally.refused += 1;
            refusals_in_a_row += 1;
            continue;
        };
        tally.games += 1;
        while stop.take() {
            let started = Instant::now();
            match step(&client, &mut table, &mut rng).await {
                Step::Acknowledged { over } => {
                    tally.plies += 1;
                    tally.latencies_us.push(micros(started.elapsed()));
                    refusals_in_a_row = 0;
                    if over {
                        break;
                    }
                }
                Step::Refused => {
                    stop.give_back();
                    tally.refused += 1;
                    refusals_in_a_row += 1;
                    break;
                }
            }
        }
    }
    tally
}

fn micros(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX)
}

/// Creates a game on a long clock, sets up both seats with the default preset and a king each.
async fn start(client: &Client) -> Option<Table> {
    let (status, body) = client
        .send(
            reqwest::Method::POST,
            "/api/games",
            None,
            json!({"clock": {"initial_ms": 3_600_000}}),
        )
        .await?;
    let created: Value = serde_json::from_slice(&body)
        .ok()
        .filter(|_| status == 201)?;
    let id = created["id"].as_str()?.to_owned();
    let token = |side: &str| created["seats"][side]["token"].as_str().map(str::to_owned);
    let tokens = [token("white")?, token("black")?];
    for (token, king) in tokens.iter().zip(["d1", "d8"]) {
        for (method, path, body) in [
            (reqwest::Method::PUT, "preset", json!({"preset": "default"})),
            (reqwest::Method::POST, &format!("kings/{king}"), json!({})),
            (reqwest::Method::POST, "ready", json!({})),
        ] {
            let path = format!("/api/games/{id}/{path}");
            let (status, _) = client.send(method, &path, Some(token), body).await?;
            (status == 200).then_some(())?;
        }
    }
    Some(Table {
        id,
        tokens,
        position: mirror()?,
    })
}

/// The position the server builds from the same set-up.
fn mirror() -> Option<Position> {
    let mut game = Game::new(Settings::default(), 0).ok()?;
    let genomes: Vec<_> = gmo_genome::standard::DEFAULT_PRESET
        .iter()
        .map(|name| gmo_genome::standard::by_name(name))
        .collect::<Option<_>>()?;
    for (color, king) in [(Color::White, "d1"), (Color::Black, "d8")] {
        game.load_preset(color, &genomes).ok()?;
        game.toggle_king(color, king.parse().ok()?).ok()?;
        game.ready(color, gmo_engine::Timestamp::EPOCH).ok()?;
    }
    Some(game.position().clone())
}

enum Step {
    Acknowledged { over: bool },
    Refused,
}

/// Sends the side to move's next ply: the due promotion, or a move (to an empty square when
/// there is one, so that games last).
async fn step(client: &Client, table: &mut Table, rng: &mut u64) -> Step {
    let side = table.position.side_to_move();
    let token = &table.tokens[usize::from(side == Color::Black)];
    let (path, body, planned) = match table.position.due_promotion() {
        Some(_) => ("promotion", json!({"genome": "queen"}), None),
        None => match pick(&table.position, side, rng) {
            Some((from, to)) => ("moves", json!({"from": from, "to": to}), Some((from, to))),
            None => return Step::Refused,
        },
    };
    let path = format!("/api/games/{}/{path}", table.id);
    let answer = client
        .send(reqwest::Method::POST, &path, Some(token), body)
        .await;
    let Some((200, body)) = answer else {
        return Step::Refused;
    };
    let Ok(answer) = serde_json::from_slice::<Answer>(&body) else {
        return Step::Refused;
    };
    let mirrored = match planned {
        Some((from, to)) => {
            let landed = answer.ply.landed.unwrap_or(to);
            let drawn = Drawn {
                landed,
                mutation: None,
            };
            table.position.replay_move(from, to, &drawn).is_ok()
        }
        None => gmo_genome::standard::by_name("queen")
            .is_some_and(|queen| table.position.promote(&queen).is_ok()),
    };
    Step::Acknowledged {
        over: answer.game.status != "in_progress" || !mirrored,
    }
}

/// A pseudo-random legal move of `side`, preferring quiet ones, never by a piece that freezes
/// the game (the next move would wait five seconds: that measures the rules, not the server).
fn pick(position: &Position, side: Color, rng: &mut u64) -> Option<(Square, Square)> {
    let freezes = |from: Square| {
        let genome = position
            .piece_at(from)
            .and_then(|p| position.genome(p.genome));
        genome.is_none_or(|g| g.has(Debuff::Freeze))
    };
    let moves: Vec<_> = position
        .moves_of_side(side)
        .into_iter()
        .filter(|m| !freezes(m.from))
        .collect();
    let quiet: Vec<_> = moves
        .iter()
        .filter(|m| position.piece_at(m.to).is_none())
        .collect();
    // xorshift64: reproducible per game driver, no dependency.
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    let index = |len: usize| usize::try_from(*rng % len.max(1) as u64).unwrap_or(0);
    if quiet.is_empty() {
        moves.get(index(moves.len())).map(|m| (m.from, m.to))
    } else {
        quiet.get(index(quiet.len())).map(|m| (m.from, m.to))
    }
}
