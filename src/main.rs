//! The `ome-top` binary: parses the command line and runs a command. The only place (with
//! `run.rs` later) that reads the wall clock.

use clap::Parser;

use ome_top::cli::{run_analyze, run_completions, run_history, Cli, Command};

fn main() {
    let cli = Cli::parse();
    let code = match &cli.command {
        Command::Analyze(args) => {
            #[allow(clippy::disallowed_methods)] // The one clock read, passed into the engine.
            let now = chrono::Utc::now();
            run_analyze(args, now, &mut std::io::stdout(), &mut std::io::stderr())
        }
        Command::History(args) => {
            #[allow(clippy::disallowed_methods)] // The one clock read (names a corrupt file).
            let now = chrono::Utc::now();
            run_history(args, now, &mut std::io::stdout(), &mut std::io::stderr())
        }
        Command::Completions { shell } => run_completions(*shell, &mut std::io::stdout()),
    };
    std::process::exit(code);
}
