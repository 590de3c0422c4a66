//! Command-line definitions (clap) and the headless commands: `analyze`, `history`, `info`,
//! `completions` and `man` (the live-cluster commands are in `cli::live`, the fleet's in
//! `cli::fleet`; the program both binaries run is `crate::program`).
//!
//! Owns: `Cli`, `Command`, `LogLevelArg`, `run_analyze`, exit codes (`history` lives in
//! `cli/history/`, `info` in `cli/info.rs`). Holds no business logic of its own.

use std::io::Write;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::cluster::snapshot_file::read_snapshot;
use crate::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use crate::engine::gangs::CapacityModel;
use crate::engine::gangs::PlacementOptions;
use crate::engine::model::ClusterSnapshot;
use crate::report::json::{analysis_json, Source};
use crate::report::table::analysis_table;

pub mod demo;
pub mod explain;
pub mod fleet;
mod global;
pub mod history;
pub mod info;
pub mod live;
mod manual;
pub mod pipe;
pub use fleet::{run_fleet, FleetArgs};
pub use history::{run_history, HistoryArgs};
pub use info::{run_info, InfoArgs};
pub use manual::run_man;

/// Exit code for success.
pub const EXIT_OK: i32 = 0;
/// Exit code for bad input (unreadable or malformed snapshot, bad flags).
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code when the cluster is unreachable.
pub const EXIT_UNREACHABLE: i32 = 3;

/// ome-top: a live dashboard for GPU Kubernetes fleets that run OME model serving.
#[derive(Debug, Parser)]
#[command(name = "ome-top", version, about)]
pub struct Cli {
    /// What to do; without a subcommand, the live TUI.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The TUI's flags (used when no subcommand is given).
    #[command(flatten)]
    pub tui: TuiArgs,
    /// How much to write to the log file (`ome-top info` shows where): default `info`, or
    /// `log-level` in config.toml; `OME_TOP_LOG` and `RUST_LOG` beat the file, this flag
    /// beats them all.
    #[arg(long = "log-level", value_enum, global = true, value_name = "LEVEL")]
    pub log_level: Option<LogLevelArg>,
}

/// `--log-level`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogLevelArg {
    /// Failures only.
    Error,
    /// Failures and oddities.
    Warn,
    /// Start, connection, watcher state changes, every write, exit.
    Info,
    /// Also every request kube-rs sends and every analysis published.
    Debug,
    /// Everything ome-top and kube-rs report (headers are never written).
    Trace,
    /// No log file.
    Off,
}

impl LogLevelArg {
    /// The level it names.
    pub fn level(self) -> crate::config::LogLevel {
        use crate::config::LogLevel;
        match self {
            LogLevelArg::Error => LogLevel::Error,
            LogLevelArg::Warn => LogLevel::Warn,
            LogLevelArg::Info => LogLevel::Info,
            LogLevelArg::Debug => LogLevel::Debug,
            LogLevelArg::Trace => LogLevel::Trace,
            LogLevelArg::Off => LogLevel::Off,
        }
    }
}

impl Cli {
    /// `--log-level` as a level.
    pub fn log_level(&self) -> Option<crate::config::LogLevel> {
        self.log_level.map(LogLevelArg::level)
    }

    /// What this run does, as the log's start line names it: `live`, `snapshot` (the TUI on
    /// a file), `demo`, `analyze-live`, `analyze-snapshot`, `dump`, `fleet` (the Fleet view),
    /// `fleet-headless` (`fleet -o …`), `history`, `info`, `completions`, `man`.
    pub fn mode(&self) -> &'static str {
        match &self.command {
            None if self.tui.snapshot.is_some() => "snapshot",
            None => "live",
            Some(Command::Demo(_)) => "demo",
            Some(Command::Analyze(a)) if a.snapshot.is_some() => "analyze-snapshot",
            Some(Command::Analyze(_)) => "analyze-live",
            Some(Command::Explain(e)) if e.analyze.snapshot.is_some() => "explain-snapshot",
            Some(Command::Explain(_)) => "explain-live",
            Some(Command::Dump(_)) => "dump",
            Some(Command::Fleet(a)) if a.output.is_some() => "fleet-headless",
            Some(Command::Fleet(_)) => "fleet",
            Some(Command::History(_)) => "history",
            Some(Command::Info(_)) => "info",
            Some(Command::Completions { .. }) => "completions",
            Some(Command::Man) => "man",
        }
    }
}

/// Flags of the TUI (`ome-top` without a subcommand). All but `--snapshot` and `--now` are
/// global: given before or after any subcommand (`ome-top --kubeconfig K fleet`, `ome-top
/// fleet --kubeconfig K`); `Cli::resolved` hands them to the subcommand that reads them.
#[derive(Debug, Clone, Args)]
pub struct TuiArgs {
    /// kubeconfig context to use (default: the current context).
    #[arg(long, value_name = "NAME", global = true)]
    pub context: Option<String>,
    /// kubeconfig file (default: $KUBECONFIG or ~/.kube/config).
    #[arg(long, value_name = "FILE", global = true)]
    pub kubeconfig: Option<PathBuf>,
    /// Scope workloads (pods, InferenceServices, PodGroups) to this namespace (nodes are
    /// cluster-wide).
    #[arg(short = 'n', long, value_name = "NS", global = true)]
    pub namespace: Option<String>,
    /// Alfred's namespace (default: `alfred-namespace` in config.toml, else `ome`).
    #[arg(long = "alfred-namespace", value_name = "NS", global = true)]
    pub alfred_namespace: Option<String>,
    /// Namespace of the OME scheduler's ConfigMap (default: `scheduler-namespace` in
    /// config.toml, else `ome`).
    #[arg(long = "scheduler-namespace", value_name = "NS", global = true)]
    pub scheduler_namespace: Option<String>,
    /// Never write: every action is disabled (also per context: `[read-only]` in config.toml;
    /// the headless commands never write).
    #[arg(long, global = true)]
    pub readonly: bool,
    /// Theme name.
    #[arg(long, value_name = "NAME", global = true)]
    pub theme: Option<String>,
    /// Keymap name.
    #[arg(long, value_name = "NAME", global = true)]
    pub keymap: Option<String>,
    /// Replay a saved snapshot offline (actions disabled).
    #[arg(long = "snapshot", value_name = "FILE")]
    pub snapshot: Option<PathBuf>,
    /// The time a `--snapshot` is aged against (RFC 3339); by default the newest timestamp
    /// the snapshot holds, so ages read as they did when it was taken.
    #[arg(long, value_name = "RFC3339", requires = "snapshot")]
    pub now: Option<String>,
    /// Config file (default: the user config dir's config.toml).
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The TUI on an embedded simulated OME fleet (no cluster needed).
    Demo(crate::cli::demo::DemoArgs),
    /// One-shot analysis of the live cluster (or of `--snapshot FILE`), as a table or JSON.
    Analyze(AnalyzeArgs),
    /// Why a pending GPU pod (or its gang) is Pending, and the fewest moves that free room
    /// for it (from `--snapshot FILE` or the live cluster), as a table or JSON.
    Explain(crate::cli::explain::ExplainArgs),
    /// Prints health episodes (a node's, or every node's with the health answers) and audit rows
    /// (of a node or any object) from the local history store.
    History(HistoryArgs),
    /// Saves a snapshot file of the live cluster (a Kubernetes `List`, JSON).
    Dump(crate::cli::live::DumpArgs),
    /// Several clusters at once: every pool of every chosen kubeconfig context, what needs a
    /// hand first and where a request fits; `-o json|table` prints it once.
    Fleet(FleetArgs),
    /// Prints where ome-top keeps its files (config, keymaps, themes, history, logs), which
    /// exist, and the versions it was built with.
    Info(InfoArgs),
    /// Prints shell completions.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Prints the manual page (roff: `ome-top man | man -l -`).
    Man,
}

/// Output format of `analyze` and `history`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Output {
    /// Aligned text.
    Table,
    /// JSON (for `analyze`, the contract of docs/analyze-json.md).
    Json,
}

/// Executor availability (`migration.apiVersion: v1` is not readable from the cluster).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Executor {
    /// Available iff the dispatch journal `alfred-dispatch-state` exists.
    Auto,
    /// Assume `migration.apiVersion: v1`.
    Available,
    /// Assume the default install.
    Unavailable,
}

/// Arguments of `analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// A Kubernetes List (JSON or YAML) as `kubectl get ... -o json` prints it; without it
    /// the live cluster is analysed.
    #[arg(long, value_name = "FILE")]
    pub snapshot: Option<PathBuf>,
    /// Which cluster (live mode): the global `--kubeconfig`, `--context`, `-n`.
    #[arg(skip)]
    pub cluster: crate::cli::live::ClusterArgs,
    /// The observation time (RFC 3339); defaults to the newest timestamp a `--snapshot`
    /// holds (so ages read as they did when it was taken, as in the TUI), else the current
    /// time.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value = "table")]
    pub output: Output,
    /// Alfred's namespace: the global `--alfred-namespace`, else config.toml's, else `ome`.
    #[arg(skip)]
    pub alfred_namespace: Option<String>,
    /// The global `--config`.
    #[arg(skip)]
    pub config: Option<PathBuf>,
    /// Whether Alfred's OMENative executor is available.
    #[arg(long, value_enum, default_value = "auto")]
    pub executor: Executor,
    /// Namespace of the OME scheduler's ConfigMap: the global `--scheduler-namespace`, else
    /// config.toml's, else `ome`.
    #[arg(skip)]
    pub scheduler_namespace: Option<String>,
    /// Capacity model of predicted gang pins: `c` (member room, default) or `a` (whole node).
    #[arg(long, value_enum, default_value = "c")]
    pub capacity_model: CapacityArg,
    /// GPU utilisation (percent) below which a node counts as underutilised for the
    /// descheduler's HighNodeUtilization view in the lints.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repack_threshold: u32,
    /// Live mode only, hidden: keep watching and print one line per published feed instead
    /// of one analysis (the scale test's headless probe, benches/scale.rs).
    #[arg(long, hide = true, conflicts_with = "snapshot")]
    pub watch: bool,
    /// `explain POD`: print the explanation of this pending pod instead of the analysis.
    #[arg(skip)]
    pub explain: Option<String>,
}

/// Capacity model of predicted gang pins (gangpack.md §0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CapacityArg {
    /// Lineage A: eligible whole nodes.
    A,
    /// Lineage C: member slots, several members per node.
    C,
}

/// Runs `analyze`, writing the result to `out` and errors to `err`; returns the exit code.
/// The snapshot is analysed at `--now`, else at the newest timestamp it holds (as the TUI
/// ages it), else at `wall_clock`.
pub fn run_analyze(
    args: &AnalyzeArgs,
    wall_clock: DateTime<Utc>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let opts = match analysis_options(args, wall_clock, err) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let Some(path) = &args.snapshot else {
        let _ = writeln!(
            err,
            "ome-top: analyze needs --snapshot FILE or a live cluster"
        );
        return EXIT_BAD_INPUT;
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot read {}: {e}", path.display());
            return EXIT_BAD_INPUT;
        }
    };
    let (snap, warnings) = match read_snapshot(&bytes) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {}: {e}", path.display());
            return EXIT_BAD_INPUT;
        }
    };
    // Aged by its own time, as the TUI ages it: a snapshot read a week later reads as it
    // did when it was taken (`--now` overrides).
    let mut opts = opts;
    if args.now.is_none() {
        opts.now = snap.newest_time().unwrap_or(wall_clock);
    }
    let analysis = analyze(&snap, &opts);
    if let Some(pod) = &args.explain {
        return crate::cli::explain::print_explain(args.output, pod, &snap, &analysis, out, err);
    }
    print_analysis(
        args.output,
        &snap,
        &analysis,
        Source::Snapshot,
        &warnings,
        out,
        err,
    )
}

/// The analysis options of `args` at `--now` (or `wall_clock`); `Err(exit code)` after
/// writing the reason to `err`.
pub fn analysis_options(
    args: &AnalyzeArgs,
    wall_clock: DateTime<Utc>,
    err: &mut dyn Write,
) -> Result<AnalysisOptions, i32> {
    let now = match &args.now {
        None => wall_clock,
        Some(s) => match DateTime::parse_from_rfc3339(s) {
            Ok(t) => t.with_timezone(&Utc),
            Err(e) => {
                let _ = writeln!(err, "ome-top: --now {s:?} is not RFC 3339: {e}");
                return Err(EXIT_BAD_INPUT);
            }
        },
    };
    // The pools are named with the instance-type table of config.toml, as in the TUI.
    let paths = crate::config::ConfigPaths::discover(args.config.as_deref());
    let settings = match crate::config::load_settings(&paths) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {e}");
            return Err(EXIT_BAD_INPUT);
        }
    };
    let instance_types =
        match crate::engine::nodes::ShapeTable::configured(settings.instance_type_map.as_ref()) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "ome-top: {e}");
                return Err(EXIT_BAD_INPUT);
            }
        };
    let or_configured = |given: &Option<String>, configured: &String| {
        given.clone().unwrap_or_else(|| configured.clone())
    };
    Ok(AnalysisOptions {
        now,
        alfred_namespace: or_configured(&args.alfred_namespace, &settings.alfred_namespace),
        executor: match args.executor {
            Executor::Auto => ExecutorSetting::Auto,
            Executor::Available => ExecutorSetting::Available,
            Executor::Unavailable => ExecutorSetting::Unavailable,
        },
        placement: PlacementOptions {
            scheduler_namespace: or_configured(
                &args.scheduler_namespace,
                &settings.scheduler_namespace,
            ),
            capacity_model: match args.capacity_model {
                CapacityArg::A => CapacityModel::WholeNode,
                CapacityArg::C => CapacityModel::MemberRoom,
            },
            repack_threshold_percent: args.repack_threshold,
        },
        instance_types,
    })
}

/// Prints an analysis in `format`; returns the exit code.
pub fn print_analysis(
    format: Output,
    snap: &ClusterSnapshot,
    analysis: &Analysis,
    source: Source,
    warnings: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let written = match format {
        Output::Json => {
            let doc = analysis_json(snap, analysis, source, warnings);
            serde_json::to_writer_pretty(&mut *out, &doc)
                .map_err(std::io::Error::other)
                .and_then(|()| writeln!(out))
        }
        Output::Table => write!(out, "{}", analysis_table(snap, analysis, warnings)),
    };
    match written {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot write output: {e}");
            EXIT_BAD_INPUT
        }
    }
}

/// Prints completions for `shell` to `out`.
pub fn run_completions(shell: clap_complete::Shell, out: &mut dyn Write) -> i32 {
    clap_complete::generate(shell, &mut Cli::command(), "ome-top", out);
    EXIT_OK
}
