//! `ome-top` (live TUI), `ome-top --snapshot FILE` and `ome-top demo`: loads the configuration,
//! builds the data source (cluster watchers + ops and read workers, the demo driver, or a
//! snapshot file), attaches the history store, and hands everything to `run::run_tui`.
//!
//! Owns: `DemoArgs`, `run_tui_command`. Composition only, no business logic; reads no clock
//! itself (`main.rs` passes one).

use std::collections::BTreeMap;
use std::io::Write;

use clap::Args;

use crate::cli::{TuiArgs, EXIT_BAD_INPUT, EXIT_OK};
use crate::cluster::live::fetch::spawn_fetch_worker;
use crate::cluster::live::{self, LiveOptions};
use crate::cluster::ops::{spawn_ops_worker, OpContext};
use crate::config::{load, ConfigPaths, Overrides};
use crate::engine::analysis::{AnalysisOptions, ExecutorSetting};
use crate::engine::gangs::PlacementOptions;
use crate::engine::model::Time;
use crate::history::ClusterKey;
use crate::run::demo::{spawn_demo, DemoOptions};
use crate::run::history::HistoryHook;
use crate::run::{run_tui, Channels, DataSource, TuiOptions};
use crate::ui::theme::Theme;

/// Flags of `ome-top demo`.
#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Seed of the simulated fleet (the same seed gives the same fleet).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// GPU nodes in the simulated fleet (40–2000).
    #[arg(long, default_value_t = crate::sim::demo::DEFAULT_NODES)]
    pub nodes: usize,
    /// Sim seconds per wall second.
    #[arg(long, default_value_t = 5.0)]
    pub speed: f64,
}

/// Which data source the TUI runs on.
pub enum Launch<'a> {
    /// The current (or `--context`) kubeconfig context, or `--snapshot FILE`.
    Cluster,
    /// `ome-top demo`.
    Demo(&'a DemoArgs),
}

/// Runs the TUI; returns the process exit code.
pub fn run_tui_command(
    args: &TuiArgs,
    launch: Launch<'_>,
    clock: fn() -> Time,
    err: &mut dyn Write,
) -> i32 {
    let config = match load(
        &ConfigPaths::discover(args.config.as_deref()),
        &Overrides {
            theme: args.theme.clone(),
            keymap: args.keymap.clone(),
        },
    ) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    log_config(&config);
    let opts = TuiOptions {
        alfred_namespace: args
            .alfred_namespace
            .clone()
            .unwrap_or_else(|| config.settings.alfred_namespace.clone()),
        scheduler_namespace: args
            .scheduler_namespace
            .clone()
            .unwrap_or_else(|| config.settings.scheduler_namespace.clone()),
        theme: config.theme.name.clone(),
        themes: config.themes.iter().map(Theme::from_config).collect(),
        keymap: Some(config.keymap.clone()),
        history: None,
        demo_clock: None,
        mouse: config.settings.mouse,
    };
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot start the runtime: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let retention = config.settings.history_retention_days;
    let read_only_contexts = config.settings.read_only.clone();
    let result = rt.block_on(async {
        match launch {
            Launch::Demo(d) => run_demo(d, opts, retention, clock).await,
            Launch::Cluster => match &args.snapshot {
                Some(path) => {
                    tracing::info!(file = %path.display(), "offline snapshot: read-only");
                    let key = ClusterKey::snapshot(path);
                    let opts = with_history(opts, key, "snapshot", retention, clock, None);
                    run_tui(DataSource::Snapshot(path.clone()), opts).await
                }
                None => run_live(args, opts, &read_only_contexts, retention, clock).await,
            },
        }
    });
    match result {
        Ok(()) => EXIT_OK,
        Err(e) => {
            tracing::error!("the TUI stopped: {e:#}");
            let _ = writeln!(err, "ome-top: {e:#}");
            e.downcast_ref::<live::LiveError>()
                .map_or(EXIT_BAD_INPUT, live::LiveError::exit_code)
        }
    }
}

/// Logs what the configuration chose and each startup notice.
fn log_config(config: &crate::config::Config) {
    let file = |f: &Option<std::path::PathBuf>| {
        f.as_ref()
            .map_or_else(|| "built-in".to_string(), |p| p.display().to_string())
    };
    tracing::info!(
        theme = config.theme.name,
        theme_file = file(&config.theme_file),
        keymap = config.keymap.name,
        keymap_file = file(&config.keymap_file),
        "configuration loaded"
    );
    for notice in &config.notices {
        tracing::warn!("configuration: {notice}");
    }
}

/// Attaches the history store (a missing or broken store is a notice, never fatal).
fn with_history(
    mut opts: TuiOptions,
    key: ClusterKey,
    actor: &str,
    retention_days: u32,
    clock: fn() -> Time,
    feed: Option<tokio::sync::watch::Receiver<std::sync::Arc<crate::protocol::Feed>>>,
) -> TuiOptions {
    opts.history =
        HistoryHook::open(key, retention_days, clock, feed).map(|h| h.with_actor(actor.into()));
    opts
}

async fn run_demo(
    d: &DemoArgs,
    opts: TuiOptions,
    retention: u32,
    clock: fn() -> Time,
) -> anyhow::Result<()> {
    tracing::info!(
        seed = d.seed,
        nodes = d.nodes,
        speed = d.speed,
        "demo fleet"
    );
    let ch = spawn_demo(
        DemoOptions {
            seed: d.seed,
            nodes: d.nodes,
            speed: d.speed,
        },
        clock,
    );
    let opts = TuiOptions {
        demo_clock: Some(ch.clock),
        ..opts
    };
    let opts = with_history(
        opts,
        ClusterKey::demo(d.seed),
        "demo",
        retention,
        clock,
        Some(ch.feed.clone()),
    );
    let source = DataSource::Channels(Channels {
        feed: ch.feed,
        commands: ch.commands,
        fetches: ch.fetches,
        updates: ch.updates,
    });
    run_tui(source, opts).await
}

/// Why the session may not write, if it may not: `--readonly`, or the context's
/// `[read-only]` entry in config.toml (a flag always wins; a context not listed is writable).
fn read_only_reason(
    flag: bool,
    context: Option<&str>,
    contexts: &BTreeMap<String, bool>,
) -> Option<String> {
    if flag {
        return Some("read-only mode (--readonly)".to_string());
    }
    let context = context?;
    contexts
        .get(context)
        .copied()
        .unwrap_or(false)
        .then(|| format!("read-only for context {context} (config.toml)"))
}

fn log_read_only(why: Option<&str>) {
    match why {
        Some(why) => tracing::info!("session is read-only: {why}"),
        None => tracing::info!("session may write (RBAC decides each action)"),
    }
}

async fn run_live(
    args: &TuiArgs,
    opts: TuiOptions,
    read_only_contexts: &BTreeMap<String, bool>,
    retention: u32,
    clock: fn() -> Time,
) -> anyhow::Result<()> {
    let context = live::context_name(args.kubeconfig.as_deref(), args.context.as_deref());
    let read_only = read_only_reason(args.readonly, context.as_deref(), read_only_contexts);
    log_read_only(read_only.as_deref());
    let session = live::connect(LiveOptions {
        kubeconfig: args.kubeconfig.clone(),
        context: args.context.clone(),
        namespace: args.namespace.clone(),
        alfred_namespace: opts.alfred_namespace.clone(),
        scheduler_namespace: opts.scheduler_namespace.clone(),
        read_only: read_only.clone(),
        analysis: AnalysisOptions {
            now: clock(),
            alfred_namespace: opts.alfred_namespace.clone(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions {
                scheduler_namespace: opts.scheduler_namespace.clone(),
                ..PlacementOptions::default()
            },
        },
        clock,
    })
    .await?;
    // Audit rows and Events name the Kubernetes user; a cluster that refuses the review
    // still gets a truthful actor. A read-only session writes nothing to audit and sends no
    // review (a SelfSubjectReview is itself a create request).
    let actor = match &read_only {
        Some(_) => format!("unknown user (context {}, read-only)", session.context),
        None => live::identity::whoami(&session.client)
            .await
            .unwrap_or_else(|| format!("unknown user (context {})", session.context)),
    };
    tracing::info!(actor, "acting as");
    let (cmd_tx, cmd_rx) = tokio::sync::mpsc::channel(16);
    let (upd_tx, upd_rx) = tokio::sync::mpsc::channel(16);
    let ctx = OpContext {
        alfred_namespace: opts.alfred_namespace.clone(),
        actor: actor.clone(),
        read_only,
        now: clock(),
    };
    let (fetch_tx, fetch_rx) = tokio::sync::mpsc::channel(16);
    // Reads run beside the writes, and in a read-only session too: a GET writes nothing.
    let _reader = spawn_fetch_worker(session.client.clone(), fetch_rx, upd_tx.clone());
    let _worker = spawn_ops_worker(session.client.clone(), ctx, clock, cmd_rx, upd_tx);
    let key = ClusterKey::live(&session.server, &session.context);
    let opts = with_history(
        opts,
        key,
        &actor,
        retention,
        clock,
        Some(session.feed.clone()),
    );
    let source = DataSource::Channels(Channels {
        feed: session.feed.clone(),
        commands: cmd_tx,
        fetches: fetch_tx,
        updates: upd_rx,
    });
    run_tui(source, opts).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_or_the_contexts_entry_makes_a_session_read_only() {
        let contexts = BTreeMap::from([("prod".to_string(), true), ("dev".to_string(), false)]);
        let why = |flag, ctx| read_only_reason(flag, ctx, &contexts);
        assert_eq!(
            why(true, Some("dev")).as_deref(),
            Some("read-only mode (--readonly)")
        );
        assert_eq!(
            why(false, Some("prod")).as_deref(),
            Some("read-only for context prod (config.toml)")
        );
        assert_eq!(why(false, Some("dev")), None);
        assert_eq!(
            why(false, Some("staging")),
            None,
            "an unlisted context is writable"
        );
        assert_eq!(why(false, None), None);
    }
}
