//! The `ome-top` binary: parses the command line, starts the log and runs a command. With
//! `run.rs`, the only place that reads the wall clock; everything else receives it as a value
//! or a function.

use clap::Parser;

use ome_top::cli::live::{run_analyze_live, run_dump};
use ome_top::cli::pipe::QuietPipe;
use ome_top::cli::{run_analyze, run_completions, run_fleet, run_history, run_info, Cli, Command};
use ome_top::config::ConfigPaths;
use ome_top::logging::{self, LogSession, StderrLog};
use ome_top::run::launch::{run_tui_command, Launch};

/// The wall clock: the one clock read, passed into everything else as a value or a function.
#[allow(clippy::disallowed_methods)]
fn wall_clock() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
}

fn main() {
    ome_top::tune_allocator_for_long_runs();
    let cli = Cli::parse().resolved();
    let code = {
        // Dropped before `exit` (which skips destructors), so queued lines reach the file.
        let _log = start_log(&cli);
        let code = run(&cli);
        tracing::info!(exit_code = code, "ome-top exits");
        code
    };
    std::process::exit(code);
}

fn run(cli: &Cli) -> i32 {
    // A reader that stops early (`| head`) ends the output quietly, with the command's status.
    let mut out = QuietPipe::new(std::io::stdout());
    let mut err = StderrLog::new(std::io::stderr());
    match &cli.command {
        None => run_tui_command(&cli.tui, Launch::Cluster, wall_clock, &mut err),
        Some(Command::Demo(args)) => {
            run_tui_command(&cli.tui, Launch::Demo(args), wall_clock, &mut err)
        }
        Some(Command::Analyze(args)) if args.snapshot.is_none() => {
            run_analyze_live(args, wall_clock, &mut out, &mut err)
        }
        Some(Command::Analyze(args)) => run_analyze(args, wall_clock(), &mut out, &mut err),
        Some(Command::Explain(e)) if e.analyze.snapshot.is_none() => {
            run_analyze_live(&e.analyze, wall_clock, &mut out, &mut err)
        }
        Some(Command::Explain(e)) => run_analyze(&e.analyze, wall_clock(), &mut out, &mut err),
        Some(Command::Dump(args)) => run_dump(args, &mut err),
        Some(Command::Fleet(args)) => run_fleet(args, &cli.tui, wall_clock, &mut out, &mut err),
        Some(Command::History(args)) => run_history(args, wall_clock(), &mut out, &mut err),
        Some(Command::Info(args)) => run_info(args, &cli.tui, cli.log_level(), &mut out, &mut err),
        Some(Command::Completions { shell }) => run_completions(*shell, &mut out),
    }
}

/// Starts the log file (docs/logs.md) and writes the start line. `info` and `completions`
/// write none: they only print. A log that cannot start is no reason to stop.
fn start_log(cli: &Cli) -> LogSession {
    if matches!(
        cli.command,
        Some(Command::Info(_) | Command::Completions { .. })
    ) {
        return LogSession::none();
    }
    let paths = ConfigPaths::discover(cli.tui.config.as_deref());
    let (choice, config_error) = logging::choose_for(cli.log_level(), &paths);
    let Ok(session) = logging::start(&choice, logging::paths::log_dir().as_deref()) else {
        return LogSession::none();
    };
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        mode = cli.mode(),
        log_level = %choice.describe(),
        log_level_from = choice.source.describe(),
        pid = std::process::id(),
        "ome-top starts"
    );
    for ignored in &choice.ignored {
        tracing::warn!("{ignored}");
    }
    if let Some(e) = config_error {
        tracing::warn!("config.toml not read for the log level: {e}");
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        tracing::error!("panic: {info}");
        previous(info);
    }));
    session
}
