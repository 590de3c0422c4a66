//! The TUI's live data source: one kubeconfig context's session — watchers, the RBAC probe
//! (unless read-only), the ops worker, the history store keyed by that cluster — opened at start
//! and again for each `:ctx` switch under the same rules (config.toml's `[read-only]`,
//! `--readonly` for the whole run, the namespaces of the command line and config.toml).
//!
//! A switch connects the new context and waits for its first complete sync while the old
//! session keeps running; only then does the event loop swap channels and drop the old
//! session (stopping its watchers), so a failed switch leaves the screen where it was.
//!
//! Owns: `LiveParams`, `LiveSource`, `Connected`, `LiveLink`, `PendingSwitch`, `open`,
//! `connect`, `contexts`, `read_only_reason`, `start_switch`, `switch_done`, `finish_switch`.
//! Composition only.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::app::contexts::ContextEntry;
use crate::app::Event;
use crate::cluster::live::fetch::spawn_fetch_worker;
use crate::cluster::live::{self, LiveError, LiveOptions, LiveSession};
use crate::cluster::ops::{spawn_ops_worker, OpContext};
use crate::engine::analysis::{AnalysisOptions, ExecutorSetting};
use crate::engine::gangs::PlacementOptions;
use crate::engine::model::Time;
use crate::history::ClusterKey;
use crate::protocol::{Command, Fetch, Update};
use crate::run::history::HistoryHook;
use crate::run::Channels;

/// How long a switch waits for the new context's first complete sync.
pub const SWITCH_TIMEOUT: Duration = Duration::from_secs(60);

/// What every live session of this run is opened with.
#[derive(Debug, Clone)]
pub struct LiveParams {
    /// `--kubeconfig` (`None`: `$KUBECONFIG` or `~/.kube/config`).
    pub kubeconfig: Option<PathBuf>,
    /// `-n`: the workload namespace watched (`None`: all).
    pub namespace: Option<String>,
    /// Alfred's namespace.
    pub alfred_namespace: String,
    /// The OME scheduler's namespace.
    pub scheduler_namespace: String,
    /// `--readonly`: the operator's choice for the whole run, every context included.
    pub readonly_flag: bool,
    /// config.toml's `[read-only]`: context name → read-only.
    pub read_only_contexts: BTreeMap<String, bool>,
    /// Days of history kept.
    pub retention_days: u32,
    /// The wall clock.
    pub clock: fn() -> Time,
    /// The instance-type table naming pools (`instance-type-map` in config.toml).
    pub instance_types: std::sync::Arc<crate::engine::nodes::ShapeTable>,
    /// config.toml's `[fleet] contexts` (names or glob patterns; empty: every context), the
    /// fleet `:fleet` opens.
    pub fleet_contexts: Vec<String>,
}

/// One open context: its session and the channels and history store the event loop uses.
pub struct LiveSource {
    /// The session (dropping it stops its watchers).
    pub session: LiveSession,
    /// Confirmed operator commands, to its ops worker.
    pub commands: mpsc::Sender<Command>,
    /// Reads the operator asks for (a node's YAML), to its read worker.
    pub fetches: mpsc::Sender<Fetch>,
    /// The ops and read workers' replies.
    pub updates: mpsc::Receiver<Update>,
    /// The history store keyed by this cluster, when it opened.
    pub history: Option<HistoryHook>,
}

/// What the event loop keeps of the live source: how to open another context, and the
/// session in use (kept alive here).
pub struct LiveLink {
    /// The run's parameters.
    pub params: LiveParams,
    /// The session shown (`None` once a fleet holds its sessions).
    pub session: Option<LiveSession>,
}

/// A switch being connected.
pub struct PendingSwitch {
    /// The context asked for.
    pub to: String,
    task: JoinHandle<Result<LiveSource, LiveError>>,
}

/// Why the session may not write, if it may not: `--readonly`, or the context's
/// `[read-only]` entry in config.toml (a flag always wins; a context not listed is writable).
pub fn read_only_reason(
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

/// The kubeconfig's contexts, the ones config.toml makes read-only marked.
pub fn contexts(p: &LiveParams) -> Vec<ContextEntry> {
    live::context_names(p.kubeconfig.as_deref())
        .into_iter()
        .map(|name| ContextEntry {
            read_only: read_only_reason(false, Some(&name), &p.read_only_contexts).is_some(),
            name,
        })
        .collect()
}

/// A context connected, its ops and read workers started, its history store not yet
/// opened (`with_history`): what the fleet shows while the store opens beside it.
pub struct Connected {
    /// The session (dropping it stops its watchers).
    pub session: LiveSession,
    commands: mpsc::Sender<Command>,
    fetches: mpsc::Sender<Fetch>,
    updates: mpsc::Receiver<Update>,
    actor: String,
}

/// Opens `context` (`None`: the kubeconfig's current one): connects, starts the ops worker
/// and the history store of that cluster. Does not wait for the first sync.
pub async fn open(p: &LiveParams, context: Option<&str>) -> Result<LiveSource, LiveError> {
    Ok(connect(p, context).await?.with_history(p).await)
}

/// Connects `context` and starts its ops and read workers; the history store is
/// `Connected::with_history`'s.
pub async fn connect(p: &LiveParams, context: Option<&str>) -> Result<Connected, LiveError> {
    let name = live::context_name(p.kubeconfig.as_deref(), context);
    let read_only = read_only_reason(p.readonly_flag, name.as_deref(), &p.read_only_contexts);
    log_read_only(read_only.as_deref());
    let session = live::connect(LiveOptions {
        kubeconfig: p.kubeconfig.clone(),
        context: context.map(str::to_string),
        namespace: p.namespace.clone(),
        alfred_namespace: p.alfred_namespace.clone(),
        scheduler_namespace: p.scheduler_namespace.clone(),
        read_only: read_only.clone(),
        analysis: AnalysisOptions {
            now: (p.clock)(),
            alfred_namespace: p.alfred_namespace.clone(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions {
                scheduler_namespace: p.scheduler_namespace.clone(),
                ..PlacementOptions::default()
            },
            instance_types: p.instance_types.clone(),
        },
        clock: p.clock,
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
    tracing::info!(actor, context = %session.context, "acting as");
    let (cmd_tx, cmd_rx) = mpsc::channel(16);
    let (upd_tx, upd_rx) = mpsc::channel(16);
    let ctx = OpContext {
        alfred_namespace: p.alfred_namespace.clone(),
        actor: actor.clone(),
        read_only,
        now: (p.clock)(),
    };
    let (fetch_tx, fetch_rx) = mpsc::channel(16);
    // Reads run beside the writes, and in a read-only session too: a GET writes nothing.
    // Both workers end when their channels close (the source is dropped).
    let _reader = spawn_fetch_worker(session.client.clone(), fetch_rx, upd_tx.clone());
    let _worker = spawn_ops_worker(session.client.clone(), ctx, p.clock, cmd_rx, upd_tx);
    Ok(Connected {
        session,
        commands: cmd_tx,
        fetches: fetch_tx,
        updates: upd_rx,
        actor,
    })
}

impl Connected {
    /// Opens the history store keyed by this cluster on a blocking thread (SQLite: the open
    /// checks, migrates and prunes the file, and waits out another opener's lock), so no
    /// runtime worker, and no other session's watchers, wait for it.
    pub async fn with_history(self, p: &LiveParams) -> LiveSource {
        let key = ClusterKey::live(&self.session.server, &self.session.context);
        let (retention, clock) = (p.retention_days, p.clock);
        let (feed, actor) = (self.session.feed.clone(), self.actor);
        let opened = tokio::task::spawn_blocking(move || {
            HistoryHook::open(key, retention, clock, Some(feed)).map(|h| h.with_actor(actor))
        })
        .await;
        let history = opened.unwrap_or_else(|e| {
            tracing::warn!("history store not opened, running without it: {e}");
            None
        });
        LiveSource {
            session: self.session,
            commands: self.commands,
            fetches: self.fetches,
            updates: self.updates,
            history,
        }
    }
}

/// Starts connecting `to` in the background; an event to hand the reducer at once when it
/// cannot start (not a live run, or a switch already under way).
pub fn start_switch(
    link: Option<&LiveLink>,
    pending: &mut Option<PendingSwitch>,
    to: String,
) -> Option<Event> {
    let refused = |error: &str| Event::ContextFailed {
        context: to.clone(),
        error: error.to_string(),
    };
    let Some(link) = link else {
        return Some(refused("not connected to a cluster"));
    };
    if pending.is_some() {
        return Some(refused("another switch is under way"));
    }
    let params = link.params.clone();
    let context = to.clone();
    let task = tokio::spawn(async move {
        let mut source = open(&params, Some(&context)).await?;
        source.session.wait_synced(SWITCH_TIMEOUT).await?;
        Ok(source)
    });
    *pending = Some(PendingSwitch { to, task });
    None
}

/// Why a `:ctx` switch did not connect; the reducer shows it in one line.
#[derive(Debug, thiserror::Error)]
pub enum SwitchError {
    /// The context's session did not start or sync.
    #[error("{}", live::one_line(.0))]
    Connect(LiveError),
    /// The task connecting it ended (panicked or was cancelled).
    #[error("the connection ended: {0}")]
    Ended(tokio::task::JoinError),
}

/// Waits for the pending switch (forever when there is none); clears it once done. Cancel
/// safe: dropped before the end, the switch stays pending.
pub async fn switch_done(
    pending: &mut Option<PendingSwitch>,
) -> (String, Result<LiveSource, SwitchError>) {
    let Some(p) = pending.as_mut() else {
        return std::future::pending().await;
    };
    let joined = (&mut p.task).await;
    let to = p.to.clone();
    *pending = None;
    let result = match joined {
        Ok(Ok(source)) => Ok(source),
        Ok(Err(e)) => Err(SwitchError::Connect(e)),
        Err(e) => Err(SwitchError::Ended(e)),
    };
    (to, result)
}

/// Puts a connected source in place of the old one (whose session drops here, stopping its
/// watchers) and returns the event that tells the reducer.
pub fn finish_switch(
    source: LiveSource,
    link: &mut Option<LiveLink>,
    history: &mut Option<HistoryHook>,
    channels: &mut Channels,
) -> Event {
    let LiveSource {
        session,
        commands,
        fetches,
        updates,
        history: hook,
    } = source;
    channels.feed = session.feed.clone();
    channels.commands = commands;
    channels.fetches = fetches;
    channels.updates = updates;
    let feed = channels.feed.borrow_and_update().clone();
    let dismissed = hook
        .as_ref()
        .map(HistoryHook::dismissed)
        .unwrap_or_default();
    let notices = hook.as_ref().map(|h| h.notices.clone()).unwrap_or_default();
    *history = hook;
    let contexts = match link {
        Some(l) => {
            l.session = Some(session);
            contexts(&l.params)
        }
        None => Vec::new(),
    };
    Event::ContextSwitched {
        feed,
        dismissed,
        contexts,
        notices,
    }
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
