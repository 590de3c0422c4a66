//! The `ome-top` binary: parses the command line and runs a command. The only place (with
//! `run.rs` later) that reads the wall clock.

use clap::Parser;

use ome_top::cli::{run_analyze, run_completions, run_history, Cli, Command};
use ome_top::cli_live::{run_analyze_live, run_dump};

/// The wall clock: the one clock read, passed into everything else as a value or a function.
#[allow(clippy::disallowed_methods)]
fn wall_clock() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
}

fn main() {
    let cli = Cli::parse();
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    let code = match &cli.command {
        Command::Analyze(args) if args.snapshot.is_none() => {
            run_analyze_live(args, wall_clock, &mut out, &mut err)
        }
        Command::Analyze(args) => run_analyze(args, wall_clock(), &mut out, &mut err),
        Command::Dump(args) => run_dump(args, &mut err),
        Command::History(args) => run_history(args, wall_clock(), &mut out, &mut err),
        Command::Completions { shell } => run_completions(*shell, &mut std::io::stdout()),
    };
    std::process::exit(code);
}
