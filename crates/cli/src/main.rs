//! `gmo`: the GMO chess command line.

mod agent;
mod arena;
mod breed_cmd;
mod genome_cmd;
mod library_cmd;
mod perft;
mod serve;
mod value;
mod work;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

// See the `mimalloc` dependency in Cargo.toml for why.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Parser)]
#[command(
    name = "gmo",
    version,
    about = "GMO chess: designer tools, perft and the service"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Agent programs online: `gmo agent play --server URL --token TOKEN -- COMMAND…`.
    #[command(subcommand)]
    Agent(AgentCommand),
    /// Bots and agent programs play each other from a preset; prints wins, draws, losses per side.
    Arena(arena::ArenaArgs),
    /// Check, hash and explain genomes (DNA).
    Genome(genome_cmd::GenomeArgs),
    /// Operate the piece library: hide an entry from search and pages.
    Library(library_cmd::LibraryArgs),
    /// Count ply sequences from the default start or check a perft*.jsonl file.
    Perft(perft::PerftArgs),
    /// Run the HTTP service (SQLite in the working directory unless DATABASE_URL is set).
    Serve(serve::ServeArgs),
    /// Estimate what a genome is worth in pawns, from bot games with it in place of a piece.
    Value(value::ValueArgs),
    /// Take jobs (game analyses) from the service's database, serving nothing: another machine
    /// adds capacity.
    Work(work::WorkArgs),
}

#[derive(Debug, Subcommand)]
enum AgentCommand {
    /// Play on a server as a bot account: accept challenges, play each game with a fresh
    /// process of the agent program (docs/agents.md, "The bridge").
    Play(agent::online::PlayArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Agent(AgentCommand::Play(args)) => agent::online::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Genome(args) => genome_cmd::run(args),
        Command::Library(args) => library_cmd::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Value(args) => value::run(args),
        Command::Work(args) => work::run(args),
    }
}
