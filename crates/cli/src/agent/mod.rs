//! Agents: programs that play through the local protocol (docs/agents.md; the spec's api.md,
//! "Agents: programs that play"). `protocol` holds the messages, `process` runs a program and
//! reads its answers without ever waiting past a deadline, `online` is the bridge
//! (`gmo agent play`) that lets an agent play on the server.

pub mod online;
pub mod process;
pub mod protocol;
