//! `ome-top fleet`: several kubeconfig contexts at once. With `-o json|table` it reads each
//! chosen context once, in parallel and read-only (each with its own timeout, so one slow or
//! unreachable context never holds the others back), analyses each as `analyze` does and
//! prints the fleet (docs/fleet-json.md); without `-o` it starts the Fleet view of the TUI.
//!
//! Owns: `FleetArgs`, `run_fleet`, `fleet_tui_args`, `fleet_contexts`, `FleetContextsError`,
//! `EXIT_NONE_ANSWERED`. Holds no business logic of its own (the rows are `report::fleet`'s,
//! the choice of contexts `config::fleet`'s).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::cli::{Output, TuiArgs, EXIT_BAD_INPUT, EXIT_OK};
use crate::cluster::live::{self, LiveError, LiveOptions};
use crate::config::fleet::{choose_contexts, ContextChoiceError};
use crate::config::{load_settings, ConfigPaths, Settings};
use crate::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use crate::engine::model::Time;
use crate::protocol::Feed;
use crate::report::fleet::json::{fleet_json, Analysed, ClusterDoc};
use crate::report::fleet::table::fleet_table;
use crate::report::fleet::{fits_lines, fleet_rows, Answer, ClusterInput, ClusterState, Link};
use crate::report::json::Source;

/// Exit code of `fleet -o …` when no context answered.
pub const EXIT_NONE_ANSWERED: i32 = 1;

/// Arguments of `fleet`.
#[derive(Debug, Clone, Args)]
pub struct FleetArgs {
    /// Kubeconfig file: the global `--kubeconfig` (`Cli::resolved`).
    #[arg(skip)]
    pub kubeconfig: Option<PathBuf>,
    /// The contexts to watch, by name or glob pattern (`prod-*`), comma-separated; default
    /// `[fleet] contexts` in config.toml, else every context of the kubeconfig.
    #[arg(long, value_delimiter = ',', value_name = "A,B,C")]
    pub contexts: Vec<String>,
    /// The global `-n`: workloads of one namespace in every context.
    #[arg(skip)]
    pub namespace: Option<String>,
    /// The global `--readonly` (the Fleet view writes nothing; this also disables actions
    /// inside each cluster's views). `-o` is always read-only.
    #[arg(skip)]
    pub readonly: bool,
    /// Print the fleet once instead of starting the TUI: `json` (docs/fleet-json.md) or
    /// `table`.
    #[arg(short = 'o', long = "output", value_enum)]
    pub output: Option<Output>,
    /// The global `--alfred-namespace`.
    #[arg(skip)]
    pub alfred_namespace: Option<String>,
    /// The global `--scheduler-namespace`.
    #[arg(skip)]
    pub scheduler_namespace: Option<String>,
    /// With `-o`: how long each context may take to connect and list everything, seconds.
    #[arg(long, default_value_t = 60, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
}

/// What the Fleet view of the TUI (`ome-top fleet` without `-o`) starts with: the TUI's flags
/// with the fleet's own put over them, and the chosen contexts (`run::launch::run_fleet_tui`
/// opens them). `Err` is the exit code, its reason already written to `err`.
pub fn fleet_tui_args(
    args: &FleetArgs,
    tui: &TuiArgs,
    err: &mut dyn Write,
) -> Result<(TuiArgs, Vec<String>), i32> {
    let settings = match load_settings(&ConfigPaths::discover(tui.config.as_deref())) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {e}");
            return Err(EXIT_BAD_INPUT);
        }
    };
    let kubeconfig = args.kubeconfig.clone().or_else(|| tui.kubeconfig.clone());
    let chosen = FleetArgs {
        kubeconfig: kubeconfig.clone(),
        ..args.clone()
    };
    let contexts = match fleet_contexts(&chosen, &settings) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {e}");
            return Err(e.exit_code());
        }
    };
    let merged = TuiArgs {
        kubeconfig,
        namespace: args.namespace.clone().or_else(|| tui.namespace.clone()),
        alfred_namespace: args
            .alfred_namespace
            .clone()
            .or_else(|| tui.alfred_namespace.clone()),
        scheduler_namespace: (args.scheduler_namespace.clone())
            .or_else(|| tui.scheduler_namespace.clone()),
        readonly: args.readonly || tui.readonly,
        ..tui.clone()
    };
    Ok((merged, contexts))
}

/// Why the fleet's contexts cannot be chosen.
#[derive(Debug, thiserror::Error)]
pub enum FleetContextsError {
    /// The kubeconfig does not load.
    #[error("{0}")]
    Kubeconfig(LiveError),
    /// A name or pattern chooses nothing.
    #[error("{0}")]
    Choice(ContextChoiceError),
}

impl FleetContextsError {
    /// The process exit code (2: bad input).
    pub fn exit_code(&self) -> i32 {
        match self {
            FleetContextsError::Kubeconfig(e) => e.exit_code(),
            FleetContextsError::Choice(_) => EXIT_BAD_INPUT,
        }
    }
}

/// The contexts `ome-top fleet` reads: `--contexts`, else `[fleet] contexts` of `settings`,
/// else every context of the kubeconfig (`config::fleet::choose_contexts`).
pub fn fleet_contexts(
    args: &FleetArgs,
    settings: &Settings,
) -> Result<Vec<String>, FleetContextsError> {
    let wanted = if args.contexts.is_empty() {
        &settings.fleet.contexts
    } else {
        &args.contexts
    };
    let available = live::kubeconfig_contexts(args.kubeconfig.as_deref())
        .map_err(FleetContextsError::Kubeconfig)?;
    choose_contexts(&available, wanted).map_err(FleetContextsError::Choice)
}

/// What one context gave: its server (when the kubeconfig names one) and its first complete
/// feed, or why not.
struct Read {
    context: String,
    server: Option<String>,
    result: Result<Arc<Feed>, LiveError>,
    /// The error in words, one line (empty when the context answered): what the document,
    /// the table and stderr say.
    words: String,
}

/// `ome-top fleet -o json|table` (without `-o` the TUI starts instead:
/// `run::launch::run_fleet_tui`). `config` is the top-level `--config`.
pub fn run_fleet(
    args: &FleetArgs,
    config: Option<&Path>,
    format: Output,
    clock: fn() -> Time,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let settings = match load_settings(&ConfigPaths::discover(config)) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let contexts = match fleet_contexts(args, &settings) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {e}");
            return e.exit_code();
        }
    };
    let opts = match analysis_options(args, &settings, clock()) {
        Ok(o) => o,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let reads = match read_all(args, &contexts, &opts, clock) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot start the async runtime: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    for r in reads.iter().filter(|r| r.result.is_err()) {
        let _ = writeln!(err, "ome-top: context {}: {}", r.context, r.words);
    }
    let analyses = analyse_all(&reads, &opts);
    let code = print(format, &reads, &analyses, opts.now, out, err);
    if code != EXIT_OK {
        return code;
    }
    if reads.iter().any(|r| r.result.is_ok()) {
        EXIT_OK
    } else {
        EXIT_NONE_ANSWERED
    }
}

/// The options of every context's analysis, at `now`, with config.toml's defaults.
fn analysis_options(
    args: &FleetArgs,
    settings: &Settings,
    now: Time,
) -> Result<AnalysisOptions, crate::engine::nodes::ShapeTableError> {
    let alfred = args.alfred_namespace.as_ref();
    let scheduler = args.scheduler_namespace.as_ref();
    let placement = crate::engine::gangs::PlacementOptions {
        scheduler_namespace: scheduler.unwrap_or(&settings.scheduler_namespace).clone(),
        ..Default::default()
    };
    Ok(AnalysisOptions {
        now,
        alfred_namespace: alfred.unwrap_or(&settings.alfred_namespace).clone(),
        executor: ExecutorSetting::Auto,
        placement,
        instance_types: crate::engine::nodes::ShapeTable::configured(
            settings.instance_type_map.as_ref(),
        )?,
    })
}

/// Reads every context in parallel on one runtime, each bounded by `--timeout`.
fn read_all(
    args: &FleetArgs,
    contexts: &[String],
    opts: &AnalysisOptions,
    clock: fn() -> Time,
) -> std::io::Result<Vec<Read>> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let within = Duration::from_secs(args.timeout);
    let reads = contexts.iter().map(|context| {
        let live_opts = LiveOptions {
            kubeconfig: args.kubeconfig.clone(),
            context: Some(context.clone()),
            namespace: args.namespace.clone(),
            alfred_namespace: opts.alfred_namespace.clone(),
            scheduler_namespace: opts.placement.scheduler_namespace.clone(),
            read_only: Some("read-only mode (ome-top fleet -o)".to_string()),
            analysis: opts.clone(),
            clock,
        };
        read_one(live_opts, within)
    });
    Ok(rt.block_on(futures::future::join_all(reads)))
}

/// One context: connect, wait for the first complete sync, all within `within`.
async fn read_one(opts: LiveOptions, within: Duration) -> Read {
    let context = opts.context.clone().unwrap_or_default();
    let server = live::context_server(opts.kubeconfig.as_deref(), &context);
    let synced = async {
        let mut session = live::connect(opts).await?;
        session.wait_synced(within).await
    };
    let result = match tokio::time::timeout(within, synced).await {
        Ok(answer) => answer,
        Err(_) => Err(LiveError::NotSynced {
            server: server.clone().unwrap_or_else(|| "(no server)".into()),
            within,
        }),
    };
    let words = result
        .as_ref()
        .err()
        .map(|e| live::one_line(e))
        .unwrap_or_default();
    Read {
        context,
        server,
        result,
        words,
    }
}

/// Each answering context analysed with the command's options (as `analyze` does), on a
/// thread each.
fn analyse_all(reads: &[Read], opts: &AnalysisOptions) -> Vec<Option<Analysis>> {
    std::thread::scope(|scope| {
        let running: Vec<_> = reads
            .iter()
            .map(|r| {
                let feed = r.result.as_ref().ok();
                scope.spawn(move || feed.map(|f| analyze(&f.snapshot, opts)))
            })
            .collect();
        running
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    })
}

fn print(
    format: Output,
    reads: &[Read],
    analyses: &[Option<Analysis>],
    now: Time,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let written = match format {
        Output::Json => {
            let docs: Vec<ClusterDoc> = reads
                .iter()
                .zip(analyses)
                .map(|(r, a)| cluster_doc(r, a.as_ref()))
                .collect();
            serde_json::to_writer_pretty(&mut *out, &fleet_json(now, &docs))
                .map_err(std::io::Error::other)
                .and_then(|()| writeln!(out))
        }
        Output::Table => {
            let inputs: Vec<ClusterInput> = reads
                .iter()
                .zip(analyses)
                .map(|(r, a)| cluster_input(r, a.as_ref()))
                .collect();
            let text = fleet_table(&fleet_rows(&inputs, now), &fits_lines(&inputs));
            write!(out, "{text}")
        }
    };
    match written {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot write output: {e}");
            EXIT_BAD_INPUT
        }
    }
}

/// A context of the JSON document.
fn cluster_doc<'a>(r: &'a Read, analysis: Option<&'a Analysis>) -> ClusterDoc<'a> {
    let result = match (&r.result, analysis) {
        (Ok(feed), Some(analysis)) => Ok(Analysed {
            snapshot: &feed.snapshot,
            analysis,
            source: Source::Live,
            warnings: &feed.warnings,
        }),
        (Err(_), _) => Err(r.words.as_str()),
        (Ok(_), None) => Err("the analysis did not complete"),
    };
    ClusterDoc {
        context: &r.context,
        server: r.server.as_deref(),
        result,
    }
}

/// A context of the table.
fn cluster_input<'a>(r: &'a Read, analysis: Option<&'a Analysis>) -> ClusterInput<'a> {
    let state = match (&r.result, analysis) {
        (Ok(feed), Some(analysis)) => ClusterState::Answered(Answer {
            snapshot: &feed.snapshot,
            analysis,
            link: Link::OneShot,
            read_only: true,
            as_of: analysis.now,
        }),
        (Err(_), _) => ClusterState::Failed(&r.words),
        (Ok(_), None) => ClusterState::Failed("the analysis did not complete"),
    };
    ClusterInput {
        context: &r.context,
        state,
    }
}
