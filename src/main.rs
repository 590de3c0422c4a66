//! The `ome-top` binary: parses the command line and runs a command. The only place (with
//! `run.rs`) that reads the wall clock.

use clap::Parser;

use ome_top::cli::{run_analyze, run_completions, Cli, Command, TuiArgs, EXIT_BAD_INPUT, EXIT_OK};
use ome_top::run::{run_tui_blocking, DataSource, TuiOptions};

fn main() {
    let cli = Cli::parse();
    let code = match &cli.command {
        None => run_tui(&cli.tui),
        Some(Command::Analyze(args)) => {
            #[allow(clippy::disallowed_methods)] // The one clock read, passed into the engine.
            let now = chrono::Utc::now();
            run_analyze(args, now, &mut std::io::stdout(), &mut std::io::stderr())
        }
        Some(Command::Completions { shell }) => run_completions(*shell, &mut std::io::stdout()),
    };
    std::process::exit(code);
}

/// `ome-top` without a subcommand: the TUI. Offline `--snapshot` is wired; live mode arrives
/// with the cluster layer.
fn run_tui(args: &TuiArgs) -> i32 {
    let opts = TuiOptions {
        alfred_namespace: args.alfred_namespace.clone(),
        scheduler_namespace: args.scheduler_namespace.clone(),
        theme: args.theme.clone().unwrap_or_else(|| "default".into()),
    };
    let Some(path) = &args.snapshot else {
        eprintln!("ome-top: live mode is not available in this build; use --snapshot FILE");
        return EXIT_BAD_INPUT;
    };
    match run_tui_blocking(DataSource::Snapshot(path.clone()), opts) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("ome-top: {e:#}");
            EXIT_BAD_INPUT
        }
    }
}
