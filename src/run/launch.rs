//! `ome-top` (live TUI), `ome-top --snapshot FILE` and `ome-top demo`: loads the configuration,
//! builds the data source (cluster watchers + ops and read workers, the demo driver, or a
//! snapshot file), attaches the history store, and hands everything to `run::run_tui`.
//!
//! Owns: `Launch`, `run_tui_command`, `run_fleet_tui`. Composition only, no business logic; reads no clock
//! itself (`main.rs` passes one).

use std::collections::BTreeMap;
use std::io::Write;

use crate::cli::demo::DemoArgs;
use crate::cli::fleet::{fleet_tui_args, FleetArgs};
use crate::cli::{TuiArgs, EXIT_BAD_INPUT};
use crate::cluster::live;
use crate::config::{load, ConfigPaths, Overrides};
use crate::engine::model::Time;
use crate::engine::nodes::ShapeTable;
use crate::history::ClusterKey;
use crate::run::demo::{spawn_demo, DemoOptions};
use crate::run::fleet::{FleetRun, SimulatedMember};
use crate::run::history::HistoryHook;
use crate::run::live::{self as live_source, LiveLink, LiveParams};
use crate::run::{run_tui, Channels, DataSource, TuiOptions};
use crate::ui::theme::Theme;

/// Which data source the TUI runs on.
pub enum Launch<'a> {
    /// The current (or `--context`) kubeconfig context, or `--snapshot FILE`.
    Cluster,
    /// `ome-top demo`.
    Demo(&'a DemoArgs),
    /// `ome-top fleet` without `-o`: these contexts at once, on the Fleet view.
    Fleet(Vec<String>),
}

/// `ome-top fleet` without `-o`: the chosen contexts opened in parallel (`run::fleet`), the
/// TUI on the Fleet view at once; returns the process exit code.
pub fn run_fleet_tui(
    args: &FleetArgs,
    tui: &TuiArgs,
    clock: fn() -> Time,
    err: &mut dyn Write,
) -> i32 {
    match fleet_tui_args(args, tui, err) {
        Ok((merged, contexts)) => run_tui_command(&merged, Launch::Fleet(contexts), clock, err),
        Err(code) => code,
    }
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
    let snapshot_now = match args
        .now
        .as_deref()
        .map(chrono::DateTime::parse_from_rfc3339)
    {
        None => None,
        Some(Ok(t)) => Some(t.with_timezone(&chrono::Utc)),
        Some(Err(e)) => {
            let now = args.now.as_deref().unwrap_or_default();
            let _ = writeln!(err, "ome-top: --now {now:?} is not RFC 3339: {e}");
            return EXIT_BAD_INPUT;
        }
    };
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
        live: None,
        fleet: None,
        frame_interval: super::frame_interval(config.settings.max_redraws_per_second),
        instance_types: match ShapeTable::configured(config.settings.instance_type_map.as_ref()) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "ome-top: config.toml: instance-type-map: {e}");
                return EXIT_BAD_INPUT;
            }
        },
        snapshot_now,
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
    let fleet_contexts = config.settings.fleet.contexts.clone();
    let result = rt.block_on(async {
        match launch {
            Launch::Demo(d) => run_demo(d, opts, retention, clock).await,
            Launch::Fleet(contexts) => {
                let chosen = (&read_only_contexts, fleet_contexts.as_slice());
                let params = live_params(args, &opts, chosen, retention, clock);
                run_fleet(params, contexts, opts).await
            }
            Launch::Cluster => match &args.snapshot {
                Some(path) => {
                    tracing::info!(file = %path.display(), "offline snapshot: read-only");
                    let key = ClusterKey::snapshot(path);
                    let opts = with_history(opts, key, "snapshot", retention, clock, None);
                    run_tui(DataSource::Snapshot(path.clone()), opts).await
                }
                None => {
                    let chosen = (&read_only_contexts, fleet_contexts.as_slice());
                    run_live(args, opts, chosen, retention, clock).await
                }
            },
        }
    });
    // Tasks still running (watchers, a blocking read, the signal task) are not waited for
    // long: the TUI has ended.
    rt.shutdown_timeout(std::time::Duration::from_millis(300));
    match result {
        Ok(ended) => ended.exit_code(),
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
) -> anyhow::Result<crate::run::Ended> {
    tracing::info!(
        seed = d.seed,
        clusters = d.clusters,
        nodes = d.nodes,
        speed = d.speed,
        "demo fleet"
    );
    // Cluster i runs on seed `seed + i` and is named by it (`demo-1`, `demo-2`, …).
    let mut members = (0..d.clusters)
        .map(|i| demo_member(d, d.seed.wrapping_add(u64::from(i)), retention, clock));
    let Some((first, sim)) = members.next() else {
        anyhow::bail!("a demo of no cluster");
    };
    let others: Vec<SimulatedMember> = members.map(|(m, _)| m).collect();
    let (source, fleet) = if others.is_empty() {
        let channels = Channels {
            feed: first.feed,
            commands: first.commands,
            fetches: first.fetches,
            updates: first.updates,
        };
        (channels, (None, first.history))
    } else {
        let (fleet, channels, history) = FleetRun::simulated(first, others);
        (channels, (Some(fleet), history))
    };
    let opts = TuiOptions {
        demo_clock: Some(sim),
        history: fleet.1,
        fleet: fleet.0,
        ..opts
    };
    run_tui(DataSource::Channels(source), opts).await
}

/// One simulated cluster of the demo: its driver, and its history keyed by its seed and its
/// start (each run is a world of its own; earlier runs of the seed keep theirs).
fn demo_member(
    d: &DemoArgs,
    seed: u64,
    retention: u32,
    clock: fn() -> Time,
) -> (SimulatedMember, crate::sim::demo::DemoClock) {
    let options = DemoOptions {
        seed,
        nodes: d.nodes,
        speed: d.speed,
    };
    let ch = spawn_demo(options, clock);
    let history =
        HistoryHook::open_demo(seed, ch.clock.wall_start, retention, clock, ch.feed.clone())
            .map(|h| h.with_actor("demo".into()));
    let member = SimulatedMember {
        name: crate::protocol::demo_cluster_name(seed),
        feed: ch.feed,
        commands: ch.commands,
        fetches: ch.fetches,
        updates: ch.updates,
        history,
    };
    (member, ch.clock)
}

async fn run_live(
    args: &TuiArgs,
    opts: TuiOptions,
    chosen: (&BTreeMap<String, bool>, &[String]),
    retention: u32,
    clock: fn() -> Time,
) -> anyhow::Result<crate::run::Ended> {
    let params = live_params(args, &opts, chosen, retention, clock);
    let source = live_source::open(&params, args.context.as_deref()).await?;
    let data = DataSource::Channels(Channels {
        feed: source.session.feed.clone(),
        commands: source.commands,
        fetches: source.fetches,
        updates: source.updates,
    });
    let opts = TuiOptions {
        history: source.history,
        live: Some(LiveLink {
            params,
            session: Some(source.session),
        }),
        ..opts
    };
    run_tui(data, opts).await
}

/// What every live session of the run is opened with.
fn live_params(
    args: &TuiArgs,
    opts: &TuiOptions,
    (read_only_contexts, fleet_contexts): (&BTreeMap<String, bool>, &[String]),
    retention: u32,
    clock: fn() -> Time,
) -> LiveParams {
    LiveParams {
        kubeconfig: args.kubeconfig.clone(),
        namespace: args.namespace.clone(),
        alfred_namespace: opts.alfred_namespace.clone(),
        scheduler_namespace: opts.scheduler_namespace.clone(),
        readonly_flag: args.readonly,
        read_only_contexts: read_only_contexts.clone(),
        retention_days: retention,
        clock,
        instance_types: opts.instance_types.clone(),
        fleet_contexts: fleet_contexts.to_vec(),
    }
}

/// `ome-top fleet`: every context of `contexts` opened in parallel (none waits for another),
/// the TUI on the Fleet view at once; each member's own history store opens with it.
async fn run_fleet(
    params: LiveParams,
    contexts: Vec<String>,
    opts: TuiOptions,
) -> anyhow::Result<crate::run::Ended> {
    tracing::info!(contexts = ?contexts, "fleet: watching");
    let data = DataSource::Channels(crate::run::fleet::idle_channels(&params));
    let fleet = crate::run::fleet::FleetRun::start(params.clone(), contexts, None);
    let opts = TuiOptions {
        live: Some(LiveLink {
            params,
            session: None,
        }),
        fleet: Some(fleet),
        ..opts
    };
    run_tui(data, opts).await
}
