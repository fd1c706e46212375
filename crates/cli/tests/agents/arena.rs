//! Issue 33 against the real binary: agents (docs/agents.md) play through `gmo arena --json`,
//! the starter kit's Python agents as they are shipped, and agents that misbehave lose each game
//! with the protocol's message while the arena goes on with a fresh program and finishes.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// The repository's root (the tests run in crates/cli).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `gmo arena ARGS… --json`, which must succeed: its one JSON object.
fn arena(args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_gmo"))
        .current_dir(root())
        .arg("arena")
        .args(args)
        .arg("--json")
        .output()
        .expect("gmo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "gmo arena {args:?}: {}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("one JSON object: {e}: {stdout}"))
}

/// Each side's wins, draws and losses add up to the games, and mirror the other side's.
fn check_totals(summary: &Value, games: u64) {
    assert_eq!(summary["games"], games, "{summary}");
    let count = |side: &str, what: &str| summary[side][what].as_u64().expect("a count");
    for side in ["white", "black"] {
        let total = count(side, "wins") + count(side, "draws") + count(side, "losses");
        assert_eq!(total, games, "{summary}");
    }
    assert_eq!(
        count("white", "wins"),
        count("black", "losses"),
        "{summary}"
    );
    assert_eq!(
        count("white", "draws"),
        count("black", "draws"),
        "{summary}"
    );
}

#[test]
fn the_starter_agents_play_each_other_through_the_arena() {
    let summary = arena(&[
        "--white",
        "exec:python3 agents/python/greedy_agent.py",
        "--black",
        "exec:python3 agents/python/random_agent.py",
        "--games",
        "6",
        "--size",
        "5x5",
    ]);
    check_totals(&summary, 6);
    assert_eq!(summary["errors"], serde_json::json!([]), "{summary}");
    assert_eq!(
        summary["white"]["name"],
        "exec:python3 agents/python/greedy_agent.py"
    );
    assert_eq!(
        summary["black"]["name"],
        "exec:python3 agents/python/random_agent.py"
    );
    let elo = &summary["elo"];
    for key in ["diff", "low", "high"] {
        assert!(elo[key].is_number() || elo[key].is_null(), "{summary}");
    }
    if let (Some(low), Some(diff), Some(high)) = (
        elo["low"].as_f64(),
        elo["diff"].as_f64(),
        elo["high"].as_f64(),
    ) {
        assert!(low <= diff && diff <= high, "{summary}");
    }
}

#[test]
fn the_random_starter_agent_plays_a_built_in_bot_on_the_full_board() {
    let summary = arena(&[
        "--white",
        "exec:python3 agents/python/random_agent.py",
        "--black",
        "random",
        "--games",
        "2",
    ]);
    check_totals(&summary, 2);
    assert_eq!(summary["errors"], serde_json::json!([]), "{summary}");
    assert_eq!(summary["black"]["name"], "random");
}

/// An agent misbehaving as `mode` (tests/agents/misbehave.py) against `random`, two games, each
/// answer bounded by `within`: it loses both with `message`, the second game with a fresh
/// program, and the arena finishes. (A program's start counts toward its first answer: the bound
/// is generous where the test is not about time, as the machine may be loaded.)
fn misbehaves(mode: &str, within: &str, message: &str) {
    let command = format!("exec:python3 crates/cli/tests/agents/misbehave.py {mode}");
    let started = Instant::now();
    let summary = arena(&[
        "--white",
        &command,
        "--black",
        "random",
        "--games",
        "2",
        "--size",
        "5x5",
        "--answer-within",
        within,
    ]);
    // The sleeping agent would sleep 30 s per game: the arena must not wait for it.
    assert!(started.elapsed() < Duration::from_secs(25), "{summary}");
    check_totals(&summary, 2);
    assert_eq!(summary["white"]["losses"], 2, "{summary}");
    let errors = summary["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 2, "{summary}");
    for (game, error) in (1..).zip(errors) {
        assert_eq!(error["game"], game, "{summary}");
        assert_eq!(error["side"], "white", "{summary}");
        assert_eq!(error["message"], message, "{summary}");
    }
    assert_eq!(errors[0]["color"], "white", "{summary}");
    assert_eq!(errors[1]["color"], "black", "{summary}");
}

#[test]
fn an_agent_answering_garbage_loses_with_agent_error() {
    misbehaves("garbage", "10s", "not an answer in JSON: `hello`");
}

#[test]
fn an_agent_naming_an_illegal_move_loses_with_agent_error() {
    misbehaves("illegal", "10s", "not a legal move: e2e5");
}

#[test]
fn an_agent_answering_too_late_loses_with_agent_error() {
    misbehaves("sleep", "1s", "no answer within 1000 ms");
}

#[test]
fn an_agent_that_exits_loses_with_agent_error() {
    misbehaves(
        "exit",
        "10s",
        "exited with status 1; last line of its log: something broke",
    );
}

/// `gmo arena` with the misbehaving agent in `mode` as --white against `random`, two games.
fn against_random(mode: &str, more: &[&str]) -> Value {
    let command = format!("exec:python3 crates/cli/tests/agents/misbehave.py {mode}");
    let mut args = vec![
        "--white", &command, "--black", "random", "--games", "2", "--size", "5x5",
    ];
    args.extend_from_slice(more);
    arena(&args)
}

#[test]
fn an_agent_that_resigns_loses_without_an_error() {
    let summary = against_random("resign", &[]);
    check_totals(&summary, 2);
    assert_eq!(summary["white"]["losses"], 2, "{summary}");
    assert_eq!(summary["errors"], serde_json::json!([]), "{summary}");
}

#[test]
fn an_agent_whose_clock_runs_out_first_loses_on_time_not_by_error() {
    // 6 s on the clock (more than a freeze, which may cost a mover 5 s), 20 s per answer: the
    // clock, which runs once both sides have made their first move, falls first, as for anyone.
    let started = Instant::now();
    let summary = against_random(
        "sleep-later",
        &["--clock", "6000", "--answer-within", "20s"],
    );
    assert!(started.elapsed() < Duration::from_secs(25), "{summary}");
    check_totals(&summary, 2);
    assert_eq!(summary["white"]["losses"], 2, "{summary}");
    assert_eq!(summary["errors"], serde_json::json!([]), "{summary}");
}

#[test]
fn a_command_that_cannot_start_stops_the_arena_before_its_first_game() {
    let output = Command::new(env!("CARGO_BIN_EXE_gmo"))
        .args([
            "arena",
            "--white",
            "exec:/nonexistent/agent",
            "--games",
            "1",
        ])
        .output()
        .expect("gmo runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--white: cannot start `/nonexistent/agent`"),
        "{stderr}"
    );
}

#[test]
fn an_agent_promotes_its_pawn_by_name_when_the_turn_offers_choices() {
    // 4 × 4, pawns one rank from each other: the pawn-pushing agent (White in game 1) reaches
    // the last rank and answers the turn's `promotion` with a queen.
    let output = Command::new(env!("CARGO_BIN_EXE_gmo"))
        .current_dir(root())
        .args([
            "arena",
            "--white",
            "exec:python3 crates/cli/tests/agents/misbehave.py promote",
        ])
        .args([
            "--black", "random", "--games", "1", "--size", "4x4", "--show",
        ])
        .args(["--white-preset", "rook,king*,rook,rook"])
        .args(["--black-preset", "rook,king*,rook,rook"])
        .output()
        .expect("gmo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let promoted = stdout.lines().any(|line| {
        let ply = line.split_once(". white ").map(|(_, ply)| ply);
        ply.is_some_and(|ply| ply.ends_with("=queen"))
    });
    assert!(promoted, "White promoted to a queen:\n{stdout}");
    assert!(!stdout.contains("agent error"), "{stdout}");
}
