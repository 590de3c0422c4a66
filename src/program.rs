//! The program both binaries run: `ome-top`, and `kubectl-ome_top`, the same program as a
//! kubectl plugin (`kubectl ome-top …`), so that `cargo install` installs both and a krew
//! install needs no second build. Parses the command line under the name it was invoked by,
//! starts the log (start and exit lines, panics) and dispatches a command.
//!
//! Owns: `Invocation`, `run_program`. The wall clock is the binary's, handed in.

use clap::{CommandFactory, FromArgMatches};

use crate::cli::live::{run_analyze_live, run_dump};
use crate::cli::pipe::QuietPipe;
use crate::cli::{
    run_analyze, run_completions, run_fleet, run_history, run_info, run_man, Cli, Command,
};
use crate::config::ConfigPaths;
use crate::engine::model::Time;
use crate::logging::{self, LogSession, StderrLog};
use crate::run::launch::{run_fleet_tui, run_tui_command, Launch};

/// How the program was invoked: the name its usage lines and errors show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invocation {
    /// As `ome-top`.
    OmeTop,
    /// As the kubectl plugin: kubectl runs `kubectl-ome_top` for `kubectl ome-top`.
    KubectlPlugin,
}

impl Invocation {
    /// The command an operator types, as usage lines show it.
    pub fn bin_name(self) -> &'static str {
        match self {
            Invocation::OmeTop => "ome-top",
            Invocation::KubectlPlugin => "kubectl ome-top",
        }
    }

    /// Parses the process's command line; a bad one prints clap's error and exits 2, as
    /// `Parser::parse` does.
    fn parse(self) -> Cli {
        let matches = Cli::command().bin_name(self.bin_name()).get_matches();
        match Cli::from_arg_matches(&matches) {
            Ok(cli) => cli.resolved(),
            Err(e) => e.format(&mut Cli::command()).exit(),
        }
    }
}

/// Runs the program as `invocation` with the binary's wall clock; returns the exit status.
pub fn run_program(invocation: Invocation, wall_clock: fn() -> Time) -> i32 {
    let cli = invocation.parse();
    // Dropped before the caller exits (which skips destructors), so queued lines reach the file.
    let _log = start_log(&cli);
    let code = run(&cli, wall_clock);
    tracing::info!(exit_code = code, "ome-top exits");
    code
}

fn run(cli: &Cli, wall_clock: fn() -> Time) -> i32 {
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
        Some(Command::Fleet(args)) => match args.output {
            None => run_fleet_tui(args, &cli.tui, wall_clock, &mut err),
            Some(format) => {
                let config = cli.tui.config.as_deref();
                run_fleet(args, config, format, wall_clock, &mut out, &mut err)
            }
        },
        Some(Command::History(args)) => run_history(args, wall_clock(), &mut out, &mut err),
        Some(Command::Info(args)) => run_info(args, &cli.tui, cli.log_level(), &mut out, &mut err),
        Some(Command::Completions { shell }) => run_completions(*shell, &mut out),
        Some(Command::Man) => run_man(&mut out, &mut err),
    }
}

/// Starts the log file (docs/logs.md) and writes the start line. `info`, `completions` and
/// `man` write none: they only print. A log that cannot start is no reason to stop.
fn start_log(cli: &Cli) -> LogSession {
    if matches!(
        cli.command,
        Some(Command::Info(_) | Command::Completions { .. } | Command::Man)
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
