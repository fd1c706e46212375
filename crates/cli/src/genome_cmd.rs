//! `gmo genome check|code|explain`: the designer's tools.

use clap::{Args, Subcommand};
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct GenomeArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Print the canonical DNA.
    Check { file: Option<String> },
}

pub fn run(_args: GenomeArgs) -> ExitCode {
    ExitCode::SUCCESS
}
