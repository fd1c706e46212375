//! The bridge's side of the HTTP API: JSON requests with a bearer token, and NDJSON streams read
//! line by line (a line is bounded, as the agent's are).

use serde_json::Value;
use std::time::Duration;

/// The longest stream line kept; the server's game views are far smaller.
const MAX_LINE: usize = 4 * 1024 * 1024;
/// How long a request (not a stream) may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The server and a token to call it with.
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
}

/// A refused or failed request: its status (0 when the server was not reached) and what it said.
#[derive(Debug, Clone)]
pub struct Failed {
    pub status: u16,
    pub message: String,
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.status {
            0 => write!(f, "{}", self.message),
            status => write!(f, "{status}: {}", self.message),
        }
    }
}

impl Client {
    pub fn new(base: &str, token: &str) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
        }
    }

    /// The same server with another token (a game's seat).
    pub fn with_token(&self, token: &str) -> Client {
        Client {
            token: token.to_string(),
            ..self.clone()
        }
    }

    pub async fn get(&self, path: &str) -> Result<Value, Failed> {
        self.send(self.http.get(self.url(path))).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Result<Value, Failed> {
        self.send(self.http.post(self.url(path)).json(&body)).await
    }

    pub async fn put(&self, path: &str, body: Value) -> Result<Value, Failed> {
        self.send(self.http.put(self.url(path)).json(&body)).await
    }

    /// Opens an NDJSON stream.
    pub async fn stream(&self, path: &str) -> Result<Lines, Failed> {
        let response = self
            .http
            .get(self.url(path))
            .bearer_auth(&self.token)
            .send()
            .await
            .map_err(unreached)?;
        let response = refused(response).await?;
        Ok(Lines {
            response,
            buffer: Vec::new(),
        })
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<Value, Failed> {
        let response = request
            .bearer_auth(&self.token)
            .timeout(REQUEST_TIMEOUT)
            .send()
            .await
            .map_err(unreached)?;
        let response = refused(response).await?;
        let text = response.text().await.map_err(unreached)?;
        if text.trim().is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_str(&text).map_err(|e| Failed {
            status: 0,
            message: format!("the server's answer is not JSON: {e}"),
        })
    }
}

fn unreached(error: reqwest::Error) -> Failed {
    Failed {
        status: 0,
        message: format!("the server could not be reached: {error}"),
    }
}

/// A response that is not a success, as the server's own error message.
async fn refused(response: reqwest::Response) -> Result<reqwest::Response, Failed> {
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let body: Value = response.json().await.unwrap_or(Value::Null);
    let message = body["error"]["message"]
        .as_str()
        .unwrap_or("no message")
        .to_string();
    Err(Failed {
        status: status.as_u16(),
        message,
    })
}

/// The lines of an open NDJSON stream.
#[derive(Debug)]
pub struct Lines {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl Lines {
    /// The next line as JSON; `None` when the stream ended or broke (blank and unreadable lines
    /// are skipped).
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(at) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=at).collect();
                match serde_json::from_slice(&line) {
                    Ok(value) => return Some(value),
                    Err(_) => continue,
                }
            }
            let chunk = self.response.chunk().await.ok()??;
            if self.buffer.len() + chunk.len() > MAX_LINE {
                return None;
            }
            self.buffer.extend_from_slice(&chunk);
        }
    }
}
