//! Sign-ins beside the games (issue 23): `--sign-ins N` signs up N accounts before the run, then
//! N loops sign in with them one request at a time until the games stop. Each sign-in hashes a
//! password (Argon2id, 19 MiB, 2 passes), so this is what a flood of sign-ins costs the players.

use crate::player::Client;
use crate::stop::Stop;
use serde_json::json;
use std::time::Instant;

/// What the sign-in loops measured.
#[derive(Debug, Default)]
pub struct SignIns {
    /// Sign-ins answered 200.
    pub done: u64,
    /// Any other answer, or no answer.
    pub refused: u64,
    /// The refusals by status (0: no answer).
    pub statuses: std::collections::BTreeMap<u16, u64>,
    pub latencies_us: Vec<u64>,
}

const PASSWORD: &str = "load bench password";

/// Signs up `count` accounts → their names.
pub async fn sign_up(client: &Client, count: u64) -> Vec<String> {
    let mut names = Vec::new();
    for n in 0..count {
        let name = format!("load{n}");
        let body = json!({"username": name, "password": PASSWORD});
        let answer = client
            .http
            .post(format!("{}/api/account", client.base))
            .json(&body)
            .send()
            .await
            .expect("the server answers");
        assert_eq!(answer.status().as_u16(), 201, "sign-up of {name}");
        names.push(name);
    }
    names
}

/// Signs in as `name` again and again until `stop`.
pub async fn sign_in_until(client: Client, name: String, stop: Stop) -> SignIns {
    let mut tally = SignIns::default();
    let body = json!({"username": name, "password": PASSWORD});
    while stop.running() {
        let started = Instant::now();
        let answer = client
            .http
            .post(format!("{}/api/session", client.base))
            .json(&body)
            .send()
            .await;
        match answer {
            Ok(answer) if answer.status().as_u16() == 200 => {
                tally.done += 1;
                let took = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
                tally.latencies_us.push(took);
            }
            other => {
                tally.refused += 1;
                let status = other.map_or(0, |answer| answer.status().as_u16());
                *tally.statuses.entry(status).or_default() += 1;
            }
        }
    }
    tally
}
