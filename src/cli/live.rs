//! The headless commands that talk to a live cluster: `analyze` without `--snapshot`, and
//! `dump -o FILE`. Each builds its own tokio runtime; the clock function comes from main.rs.
//!
//! Owns: `ClusterArgs`, `DumpArgs`, `run_analyze_live` (and its hidden `--watch` probe),
//! `run_dump`. Holds no business logic of its own.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::cli::{analysis_options, print_analysis, AnalyzeArgs, EXIT_BAD_INPUT, EXIT_OK};
use crate::cluster::live::dump::dump;
use crate::cluster::live::watch::Scope;
use crate::cluster::live::{self, LiveError, LiveOptions, LiveSession};
use crate::engine::analysis::analyze;
use crate::engine::model::Time;
use crate::protocol::{ApiStatus, Feed};
use crate::report::json::Source;

/// How long `analyze` waits for the initial lists of a live cluster.
pub const SYNC_TIMEOUT: Duration = Duration::from_secs(120);

/// Which cluster to talk to: the global `--kubeconfig`, `--context` and `-n`
/// (`Cli::resolved`).
#[derive(Debug, Clone, Default)]
pub struct ClusterArgs {
    /// Kubeconfig file (default: `$KUBECONFIG`, then `~/.kube/config`).
    pub kubeconfig: Option<PathBuf>,
    /// Kubeconfig context (default: the current context).
    pub context: Option<String>,
    /// Scope workloads (pods, InferenceServices, PodGroups) to one namespace; nodes are
    /// cluster-wide.
    pub namespace: Option<String>,
}

/// Arguments of `dump`.
#[derive(Debug, Args)]
pub struct DumpArgs {
    /// The file to write (a Kubernetes `List`, JSON).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Which cluster: the global `--kubeconfig`, `--context`, `-n`.
    #[arg(skip)]
    pub cluster: ClusterArgs,
    /// Alfred's namespace: the global `--alfred-namespace`, else `ome`.
    #[arg(skip = String::from("ome"))]
    pub alfred_namespace: String,
    /// Namespace of the OME scheduler's ConfigMap `ome-scheduler-config`: the global
    /// `--scheduler-namespace`, else `ome`.
    #[arg(skip = String::from("ome"))]
    pub scheduler_namespace: String,
}

fn runtime(err: &mut dyn Write) -> Option<tokio::runtime::Runtime> {
    match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => Some(rt),
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot start the async runtime: {e}");
            None
        }
    }
}

fn fail(e: &LiveError, err: &mut dyn Write) -> i32 {
    let _ = writeln!(err, "ome-top: {e}");
    e.exit_code()
}

/// `analyze` on the live cluster: connect read-only, wait for the initial lists, analyse
/// once with the command's options and print like `analyze --snapshot`.
pub fn run_analyze_live(
    args: &AnalyzeArgs,
    clock: fn() -> Time,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let opts = match analysis_options(args, clock(), err) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let Some(rt) = runtime(err) else {
        return EXIT_BAD_INPUT;
    };
    let live_opts = LiveOptions {
        kubeconfig: args.cluster.kubeconfig.clone(),
        context: args.cluster.context.clone(),
        namespace: args.cluster.namespace.clone(),
        alfred_namespace: opts.alfred_namespace.clone(),
        scheduler_namespace: opts.placement.scheduler_namespace.clone(),
        read_only: Some("read-only mode (--readonly)".to_string()),
        analysis: opts.clone(),
        clock,
    };
    if args.watch {
        return match rt.block_on(watch_feeds(live_opts, out)) {
            Ok(()) => EXIT_OK,
            Err(e) => fail(&e, err),
        };
    }
    let synced = rt.block_on(async {
        let mut session = live::connect(live_opts).await?;
        session.wait_synced(SYNC_TIMEOUT).await
    });
    let feed = match synced {
        Ok(f) => f,
        Err(e) => return fail(&e, err),
    };
    let analysis = analyze(&feed.snapshot, &opts);
    if let Some(pod) = &args.explain {
        let snap = &feed.snapshot;
        return crate::cli::explain::print_explain(args.output, pod, snap, &analysis, out, err);
    }
    print_analysis(
        args.output,
        &feed.snapshot,
        &analysis,
        Source::Live,
        &feed.warnings,
        out,
        err,
    )
}

/// `analyze --watch`: connects like the TUI (read-only) and prints one line per published feed
/// until the session ends or stdout is closed, e.g.
/// `feed generation=7 api=connected nodes=5000 pods=100000 events_applied=105012
/// events_in_feed=104988`. The reader timestamps the lines; nothing here reads the clock.
async fn watch_feeds(opts: LiveOptions, out: &mut dyn Write) -> Result<(), LiveError> {
    let mut session = live::connect(opts).await?;
    loop {
        let feed = session.feed.borrow_and_update().clone();
        if writeln!(out, "{}", feed_line(&feed, &session))
            .and_then(|()| out.flush())
            .is_err()
        {
            return Ok(());
        }
        if session.feed.changed().await.is_err() {
            return Ok(());
        }
    }
}

/// One `--watch` line (see `watch_feeds`).
fn feed_line(feed: &Feed, session: &LiveSession) -> String {
    let api = match feed.api {
        ApiStatus::Connecting => "connecting",
        ApiStatus::Connected => "connected",
        ApiStatus::Reconnecting { .. } => "reconnecting",
        ApiStatus::Forbidden { .. } => "forbidden",
        ApiStatus::Offline => "offline",
        ApiStatus::Simulated => "simulated",
    };
    let counts = session.event_counts();
    format!(
        "feed generation={} api={api} nodes={} pods={} events_applied={} events_in_feed={}",
        feed.generation,
        feed.snapshot.nodes.len(),
        feed.snapshot.pods.len(),
        counts.applied,
        counts.in_feed
    )
}

/// `dump -o FILE`: lists every watched source and writes the `List`.
pub fn run_dump(args: &DumpArgs, err: &mut dyn Write) -> i32 {
    let Some(rt) = runtime(err) else {
        return EXIT_BAD_INPUT;
    };
    let scope = Scope {
        namespace: args.cluster.namespace.clone(),
        alfred_namespace: args.alfred_namespace.clone(),
        scheduler_namespace: args.scheduler_namespace.clone(),
    };
    let dumped = rt.block_on(async {
        let cluster = &args.cluster;
        let (client, _) =
            live::client(cluster.kubeconfig.as_deref(), cluster.context.as_deref()).await?;
        dump(&client, &scope).await
    });
    let dumped = match dumped {
        Ok(d) => d,
        Err(e) => return fail(&e, err),
    };
    for w in &dumped.warnings {
        let _ = writeln!(err, "ome-top: warning: {w}");
    }
    let bytes = match serde_json::to_vec_pretty(&dumped.list) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot encode the dump: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    match std::fs::write(&args.output, bytes) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot write {}: {e}", args.output.display());
            EXIT_BAD_INPUT
        }
    }
}
