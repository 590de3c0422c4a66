//! The `ome-top` binary: parses the command line and runs a command. With `run.rs`, the only
//! place that reads the wall clock; everything else receives it as a value or a function.

use clap::Parser;

use ome_top::cli::live::{run_analyze_live, run_dump};
use ome_top::cli::{run_analyze, run_completions, run_history, Cli, Command};
use ome_top::run::launch::{run_tui_command, Launch};

/// The wall clock: the one clock read, passed into everything else as a value or a function.
#[allow(clippy::disallowed_methods)]
fn wall_clock() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
}

fn main() {
    let cli = Cli::parse();
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    let code = match &cli.command {
        None => run_tui_command(&cli.tui, Launch::Cluster, wall_clock, &mut err),
        Some(Command::Demo(args)) => {
            run_tui_command(&cli.tui, Launch::Demo(args), wall_clock, &mut err)
        }
        Some(Command::Analyze(args)) if args.snapshot.is_none() => {
            run_analyze_live(args, wall_clock, &mut out, &mut err)
        }
        Some(Command::Analyze(args)) => run_analyze(args, wall_clock(), &mut out, &mut err),
        Some(Command::Dump(args)) => run_dump(args, &mut err),
        Some(Command::History(args)) => run_history(args, wall_clock(), &mut out, &mut err),
        Some(Command::Completions { shell }) => run_completions(*shell, &mut out),
    };
    std::process::exit(code);
}
