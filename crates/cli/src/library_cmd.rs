//! `gmo library hide ID`: an operator hides a piece library entry (docs/library.md): it leaves
//! search and pages on every process at once (they read the database), while the genome or
//! preset it named keeps its code, working everywhere. Hiding is for what should not be shown
//! (an offensive name); the author's own withdrawal is `DELETE /api/library/{id}`.

use clap::{Args, Subcommand};
use gmo_store::Store;
use gmo_types::EntryId;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct LibraryArgs {
    #[command(subcommand)]
    command: LibraryCommand,
}

#[derive(Debug, Subcommand)]
enum LibraryCommand {
    /// Hide an entry from search and pages (its code keeps working).
    Hide {
        /// The entry's id (32 hex digits, as `GET /api/library` shows it).
        id: String,
        /// The service's database: the same as `gmo serve`'s.
        #[arg(long, env = "DATABASE_URL", default_value = "sqlite://gmo.sqlite")]
        database_url: String,
    },
}

pub fn run(args: LibraryArgs) -> ExitCode {
    let LibraryCommand::Hide { id, database_url } = args.command;
    let id = match EntryId::parse(&id) {
        Ok(id) => id,
        Err(error) => {
            eprintln!("gmo library hide: {error}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("gmo library hide: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(hide(&id, &database_url))
}

async fn hide(id: &EntryId, url: &str) -> ExitCode {
    let store = match Store::connect_with(url, 1).await {
        Ok(store) => store,
        Err(error) => {
            eprintln!("gmo library hide: the database could not be opened: {error}");
            return ExitCode::FAILURE;
        }
    };
    let hidden = store.hide_entry(id).await;
    store.close().await;
    match hidden {
        Ok(true) => {
            println!("hidden: entry {id} no longer shows in search or pages; its code still works");
            ExitCode::SUCCESS
        }
        Ok(false) => {
            eprintln!("gmo library hide: no library entry {id}");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("gmo library hide: {error}");
            ExitCode::FAILURE
        }
    }
}
