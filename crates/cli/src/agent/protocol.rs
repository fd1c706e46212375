//! The messages of the local agent protocol, version 1: one JSON object a line, the host's on the
//! agent's standard input, the agent's answers on its standard output.
//!
//! The game view is passed as JSON so that every host sends the view it has: `gmo arena` the
//! engine's view of a local game, the online bridge the server's.

use gmo_engine::{Color, GameStatus, MoveView, Reason};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version stated in `start`.
pub const PROTOCOL: u32 = 1;

/// How much of an answer an error message quotes.
const QUOTED: usize = 80;

/// A message from the host to the agent.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMessage<'a> {
    /// A game begins; `color` is the agent's side.
    Start {
        protocol: u32,
        color: Color,
        game: &'a Value,
    },
    /// The agent must act: every legal move of its side (none while a promotion is due), or the
    /// genomes it may promote the due pawn to.
    Turn {
        game: &'a Value,
        legal: &'a [MoveView],
        promotion: Option<&'a [&'a str]>,
        time_left_ms: i64,
        answer_within_ms: u64,
    },
    /// The game is over.
    End {
        game: &'a Value,
        status: GameStatus,
        reason: Option<Reason>,
    },
}

impl HostMessage<'_> {
    /// The message as one line of JSON, without the newline.
    pub fn line(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// What an agent may answer to a `turn`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Play the move between these squares, as the agent named them.
    Move {
        from: String,
        to: String,
    },
    /// Promote the due pawn to this genome (a name or a code).
    Promote(String),
    Resign,
}

#[derive(Debug, Deserialize)]
struct Raw {
    #[serde(rename = "move")]
    mv: Option<RawMove>,
    promote: Option<String>,
    resign: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct RawMove {
    from: String,
    to: String,
}

/// Reads one answer line; the error says what was wrong with it, quoting it.
pub fn parse_answer(line: &str) -> Result<Answer, String> {
    let raw: Raw = serde_json::from_str(line)
        .map_err(|_| format!("not an answer in JSON: `{}`", quote(line)))?;
    match (raw.mv, raw.promote, raw.resign) {
        (Some(mv), None, None) => Ok(Answer::Move {
            from: mv.from,
            to: mv.to,
        }),
        (None, Some(genome), None) => Ok(Answer::Promote(genome)),
        (None, None, Some(true)) => Ok(Answer::Resign),
        _ => Err(format!(
            "expected exactly one of {{\"move\": {{\"from\", \"to\"}}}}, {{\"promote\": name}} or \
             {{\"resign\": true}}: `{}`",
            quote(line)
        )),
    }
}

/// The start of `text`, at most [`QUOTED`] characters, with `…` if cut.
pub fn quote(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(QUOTED) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_and_anything_else_is_named() {
        assert_eq!(
            parse_answer(r#"{"move": {"from": "e2", "to": "e4"}}"#),
            Ok(Answer::Move {
                from: "e2".into(),
                to: "e4".into()
            })
        );
        assert_eq!(
            parse_answer(r#"{"promote": "queen"}"#),
            Ok(Answer::Promote("queen".into()))
        );
        assert_eq!(parse_answer(r#"{"resign": true}"#), Ok(Answer::Resign));
        let garbage = parse_answer("e2e4").expect_err("not JSON");
        assert!(
            garbage.starts_with("not an answer in JSON: `e2e4`"),
            "{garbage}"
        );
        let both = parse_answer(r#"{"resign": true, "promote": "queen"}"#).expect_err("two");
        assert!(both.starts_with("expected exactly one of"), "{both}");
        let no = parse_answer(r#"{"resign": false}"#).expect_err("not resigning");
        assert!(no.starts_with("expected exactly one of"), "{no}");
        let long = "x".repeat(500);
        let quoted = parse_answer(&long).expect_err("long");
        assert!(quoted.len() < 150 && quoted.ends_with("…`"), "{quoted}");
    }

    #[test]
    fn host_messages_carry_their_type() {
        let game = serde_json::json!({"id": "arena-1"});
        let start = HostMessage::Start {
            protocol: PROTOCOL,
            color: Color::Black,
            game: &game,
        };
        let value: Value = serde_json::from_str(&start.line()).expect("JSON");
        assert_eq!(value["type"], "start");
        assert_eq!(value["protocol"], 1);
        assert_eq!(value["color"], "black");
        let turn = HostMessage::Turn {
            game: &game,
            legal: &[],
            promotion: Some(&["queen"]),
            time_left_ms: 5,
            answer_within_ms: 2000,
        };
        let value: Value = serde_json::from_str(&turn.line()).expect("JSON");
        assert_eq!(value["type"], "turn");
        assert_eq!(value["promotion"][0], "queen");
        assert_eq!(value["answer_within_ms"], 2000);
        assert!(!turn.line().contains('\n'));
    }
}
