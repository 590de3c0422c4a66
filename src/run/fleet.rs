//! The fleet's sessions: every chosen kubeconfig context opened in parallel with
//! `run::live::connect` — the same watchers, RBAC probe, ops and read workers, history store
//! keyed by that cluster and read-only rules as a single context — each on a task of its own,
//! so an unreachable, slow or forbidden context never delays the others: its attempt fails
//! (or times out), the reducer hears why and when the next try starts, and it is retried
//! with a doubling backoff. A connected session's feed is forwarded to the event loop, named
//! by its context, at once; its history store opens beside it, on a blocking thread
//! (`Connected::with_history`), and the member can be shown once it has. One member is shown at a time: its channels (commands, reads, replies)
//! and its history hook are the event loop's; showing another swaps them, the sessions stay
//! open, so the switch is instant.
//!
//! The demo's fleet (`ome-top demo --clusters N`) is held the same way: each simulated
//! cluster's driver channels in a slot, the first one shown, the others a key away.
//!
//! Owns: `FleetRun`, `FleetMsg`, `SimulatedMember`, `open_fleet`, `idle_channels`.
//! Composition only.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tracing::Instrument;

use crate::app::fleet::{FleetEvent, MemberState};
use crate::app::Event;
use crate::cluster::live::{self as cluster_live, LiveSession};
use crate::config::fleet::choose_contexts;
use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use crate::engine::gangs::PlacementOptions;
use crate::engine::model::ClusterSnapshot;
use crate::protocol::{ApiStatus, Command, Feed, Fetch, Permissions, SourceKind, Update};
use crate::run::history::HistoryHook;
use crate::run::live::{self, LiveParams, LiveSource};
use crate::run::{Channels, Extras};

/// How long one attempt to open a context may take before it counts as failed.
const OPEN_TIMEOUT: Duration = Duration::from_secs(20);
/// The wait after a first failed attempt; it doubles after each failure.
const FIRST_RETRY: Duration = Duration::from_secs(5);
/// The longest wait between two attempts.
const MAX_RETRY: Duration = Duration::from_secs(300);
/// Messages the members may queue before their tasks wait for the loop.
const QUEUE: usize = 64;

/// What the fleet's tasks tell the event loop.
pub enum FleetMsg {
    /// A context's session connected: its feed, forwarded from now on.
    Connected(String, watch::Receiver<Arc<Feed>>),
    /// A context's session opened, its history store too (after `Connected`).
    Opened(String, Box<LiveSource>),
    /// An attempt to open a context failed; the next starts at `retry_at`.
    Failed {
        /// The context.
        context: String,
        /// Why, in one line.
        error: String,
        /// When the next attempt starts.
        retry_at: crate::engine::model::Time,
    },
    /// An open session published a feed.
    Feed(String, Arc<Feed>),
}

/// One open member. Its reply channel and history hook are the event loop's while it is
/// shown (`None` here then).
struct Slot {
    feed: watch::Receiver<Arc<Feed>>,
    /// A live member's session, kept open while the fleet runs (`None`: a simulated cluster,
    /// whose driver runs until its command channel closes).
    _session: Option<LiveSession>,
    commands: mpsc::Sender<Command>,
    fetches: mpsc::Sender<Fetch>,
    updates: Option<mpsc::Receiver<Update>>,
    history: Option<HistoryHook>,
}

/// One simulated cluster's channels (`ome-top demo --clusters N`), as its driver hands them.
pub struct SimulatedMember {
    /// Its name in the fleet (`demo-2`).
    pub name: String,
    /// Its latest feed.
    pub feed: watch::Receiver<Arc<Feed>>,
    /// Its driver's command, read and reply channels.
    pub commands: mpsc::Sender<Command>,
    /// Reads for its driver.
    pub fetches: mpsc::Sender<Fetch>,
    /// Its driver's replies.
    pub updates: mpsc::Receiver<Update>,
    /// Its own history store, when it opened.
    pub history: Option<HistoryHook>,
}

/// The fleet's sessions and the tasks that open them and forward their feeds.
pub struct FleetRun {
    contexts: Vec<String>,
    /// Watched beside a cluster already shown, which stays on screen (the demo's fleet).
    beside: bool,
    slots: BTreeMap<String, Slot>,
    shown: Option<String>,
    tx: mpsc::Sender<FleetMsg>,
    rx: mpsc::Receiver<FleetMsg>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for FleetRun {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

impl FleetRun {
    /// Starts opening every context of `contexts` but `shown` (the session already shown,
    /// adopted with `adopt_shown`), each on its own task.
    pub fn start(params: LiveParams, contexts: Vec<String>, shown: Option<&str>) -> Self {
        let (tx, rx) = mpsc::channel(QUEUE);
        let tasks = contexts
            .iter()
            .filter(|c| Some(c.as_str()) != shown)
            .map(|c| {
                // Every line its session logs (watchers, snapshot task) names the member.
                let span = tracing::info_span!("member", context = %c);
                tokio::spawn(connect(params.clone(), c.clone(), tx.clone()).instrument(span))
            })
            .collect();
        FleetRun {
            contexts,
            beside: false,
            slots: BTreeMap::new(),
            shown: None,
            tx,
            rx,
            tasks,
        }
    }

    /// The fleet of simulated clusters (`ome-top demo --clusters N`): `shown` is the member on
    /// screen from the start (its channels and history hook are returned for the event
    /// loop), `others` wait in their slots; every member's feed is forwarded at once, so the
    /// Fleet view is full from the start.
    pub fn simulated(
        shown: SimulatedMember,
        others: Vec<SimulatedMember>,
    ) -> (Self, Channels, Option<HistoryHook>) {
        let (tx, rx) = mpsc::channel(QUEUE);
        let contexts = std::iter::once(&shown)
            .chain(&others)
            .map(|m| m.name.clone())
            .collect();
        let mut fleet = FleetRun {
            contexts,
            beside: true,
            slots: BTreeMap::new(),
            shown: Some(shown.name.clone()),
            tx,
            rx,
            tasks: Vec::new(),
        };
        let channels = Channels {
            feed: shown.feed.clone(),
            commands: shown.commands.clone(),
            fetches: shown.fetches.clone(),
            updates: shown.updates,
        };
        let first = Slot {
            feed: shown.feed,
            _session: None,
            commands: shown.commands,
            fetches: shown.fetches,
            updates: None,
            history: None,
        };
        fleet.forward(&shown.name, first.feed.clone());
        fleet.slots.insert(shown.name, first);
        for m in others {
            fleet.forward(&m.name, m.feed.clone());
            let slot = Slot {
                feed: m.feed,
                _session: None,
                commands: m.commands,
                fetches: m.fetches,
                updates: Some(m.updates),
                history: m.history,
            };
            fleet.slots.insert(m.name, slot);
        }
        (fleet, channels, shown.history)
    }

    /// Whether the fleet is watched beside a cluster shown from the start (the demo's), so
    /// that cluster's views stay on screen.
    pub fn beside_shown(&self) -> bool {
        self.beside
    }

    /// The event that tells the reducer which contexts the fleet watches: the Fleet view
    /// opens, unless the fleet is watched beside a cluster shown from the start.
    pub fn started(&self) -> Event {
        let contexts = self.contexts.clone();
        match self.beside {
            true => Event::Fleet(FleetEvent::Watching { contexts }),
            false => Event::Fleet(FleetEvent::Started { contexts }),
        }
    }

    /// The shown single-context session joins the fleet (`:fleet`): its replies and history
    /// hook stay the event loop's.
    pub fn adopt_shown(&mut self, session: LiveSession, ch: &Channels) {
        let context = session.context.clone();
        let slot = Slot {
            feed: session.feed.clone(),
            _session: Some(session),
            commands: ch.commands.clone(),
            fetches: ch.fetches.clone(),
            updates: None,
            history: None,
        };
        self.forward(&context, slot.feed.clone());
        self.slots.insert(context.clone(), slot);
        self.shown = Some(context);
    }

    /// The next message of the fleet's tasks. Cancel safe.
    pub async fn next(&mut self) -> Option<FleetMsg> {
        self.rx.recv().await
    }

    /// A message that is ready now, if any.
    pub fn ready(&mut self) -> Option<FleetMsg> {
        self.rx.try_recv().ok()
    }

    /// Takes in a message; returns the event it is to the reducer.
    pub fn take(&mut self, msg: FleetMsg) -> Option<Event> {
        let (context, state) = match msg {
            FleetMsg::Connected(context, feed) => {
                self.forward(&context, feed);
                // Its first feed follows from the forwarder.
                return None;
            }
            FleetMsg::Opened(context, source) => {
                let LiveSource {
                    session,
                    commands,
                    fetches,
                    updates,
                    history,
                } = *source;
                // Its feeds are forwarded since `Connected`.
                let slot = Slot {
                    feed: session.feed.clone(),
                    _session: Some(session),
                    commands,
                    fetches,
                    updates: Some(updates),
                    history,
                };
                self.slots.insert(context, slot);
                return None;
            }
            FleetMsg::Failed {
                context,
                error,
                retry_at,
            } => (context, MemberState::Failed { error, retry_at }),
            FleetMsg::Feed(context, feed) => {
                let connected = matches!(feed.api, ApiStatus::Connected);
                tracing::debug!(
                    context,
                    generation = feed.generation,
                    connected,
                    "fleet: feed taken"
                );
                (context, MemberState::Answered(feed))
            }
        };
        Some(Event::Fleet(FleetEvent::Member { context, state }))
    }

    /// Shows `to`: its channels and history hook become the event loop's, the shown one's go
    /// back to its slot (its session keeps running). The event tells the reducer.
    pub fn show(
        &mut self,
        to: &str,
        ch: &mut Channels,
        history: &mut Option<HistoryHook>,
    ) -> Event {
        if self.shown.as_deref() == Some(to) {
            // Shown already: its channels are the loop's; nothing to swap.
            return switched(ch, history);
        }
        let Some(slot) = self.slots.get_mut(to) else {
            return Event::ContextFailed {
                context: to.to_string(),
                error: "its session is not open".to_string(),
            };
        };
        let (_, idle) = mpsc::channel(1);
        let updates = slot.updates.take().unwrap_or(idle);
        let hook = slot.history.take();
        let feed = slot.feed.clone();
        ch.commands = slot.commands.clone();
        ch.fetches = slot.fetches.clone();
        let old_updates = std::mem::replace(&mut ch.updates, updates);
        let mut old_hook = std::mem::replace(history, hook);
        if let Some(prev) = self.shown.replace(to.to_string()) {
            if let Some(prev) = self.slots.get_mut(&prev) {
                prev.updates = Some(old_updates);
                prev.history = old_hook.take();
            }
        }
        ch.feed = feed;
        switched(ch, history)
    }

    /// Forwards every feed `context`'s session publishes to the event loop.
    fn forward(&mut self, context: &str, mut feed: watch::Receiver<Arc<Feed>>) {
        let (context, tx) = (context.to_string(), self.tx.clone());
        self.tasks.push(tokio::spawn(async move {
            loop {
                let f = feed.borrow_and_update().clone();
                if tx.send(FleetMsg::Feed(context.clone(), f)).await.is_err() {
                    return;
                }
                if feed.changed().await.is_err() {
                    return;
                }
            }
        }));
    }
}

/// What tells the reducer the shown member is `ch`'s: its feed now, the dismissals its
/// history store holds, and what opening the store reported (once).
fn switched(ch: &mut Channels, history: &mut Option<HistoryHook>) -> Event {
    let feed = ch.feed.borrow_and_update().clone();
    let dismissed = history
        .as_ref()
        .map(HistoryHook::dismissed)
        .unwrap_or_default();
    let notices = history
        .as_mut()
        .map(|h| std::mem::take(&mut h.notices))
        .unwrap_or_default();
    Event::ContextSwitched {
        feed,
        dismissed,
        contexts: Vec::new(),
        notices,
    }
}

/// `:fleet` in a single-context run: the fleet of every context of the kubeconfig, the shown
/// session adopted as one member; the event that tells the reducer (none outside a live run
/// or when a fleet is watched already).
pub fn open_fleet(extras: &mut Extras, ch: &Channels) -> Option<Event> {
    if extras.fleet.is_some() {
        return None;
    }
    let link = extras.live.as_mut()?;
    let available: Vec<String> = live::contexts(&link.params)
        .into_iter()
        .map(|c| c.name)
        .collect();
    let contexts = match choose_contexts(&available, &link.params.fleet_contexts) {
        Ok(c) => c,
        Err(e) => {
            let why = format!("cannot open the fleet: {e} (config.toml [fleet] contexts)");
            return Some(Event::Fleet(FleetEvent::Unavailable(why)));
        }
    };
    let session = link.session.take();
    let shown = session.as_ref().map(|s| s.context.clone());
    let mut contexts = contexts;
    if let Some(s) = &shown {
        if !contexts.contains(s) {
            contexts.insert(0, s.clone());
        }
    }
    let mut fleet = FleetRun::start(link.params.clone(), contexts, shown.as_deref());
    if let Some(session) = session {
        fleet.adopt_shown(session, ch);
    }
    let started = fleet.started();
    extras.fleet = Some(fleet);
    Some(started)
}

/// The event loop's channels before any member is shown (`ome-top fleet`): a feed that never
/// changes (the loop does not hand it to the reducer) and channels nobody reads.
pub fn idle_channels(params: &LiveParams) -> Channels {
    let snapshot = ClusterSnapshot::default();
    let options = AnalysisOptions {
        now: (params.clock)(),
        alfred_namespace: params.alfred_namespace.clone(),
        executor: ExecutorSetting::Auto,
        placement: PlacementOptions {
            scheduler_namespace: params.scheduler_namespace.clone(),
            ..PlacementOptions::default()
        },
        instance_types: params.instance_types.clone(),
    };
    let analysis = analyze(&snapshot, &options);
    let feed = Feed {
        generation: 0,
        source: SourceKind::Live(String::new()),
        api: ApiStatus::Connecting,
        sources: Vec::new(),
        snapshot: Arc::new(snapshot),
        analysis: Arc::new(analysis),
        permissions: Permissions::read_only("no cluster shown"),
        warnings: Vec::new(),
    };
    // The sender drops here: the loop sees the feed closed and stops asking it.
    let (_, feed) = watch::channel(Arc::new(feed));
    let (commands, _) = mpsc::channel(1);
    let (fetches, _) = mpsc::channel(1);
    let (_, updates) = mpsc::channel(1);
    Channels {
        feed,
        commands,
        fetches,
        updates,
    }
}

/// Hands a connected member to the event loop: its feeds reach the Fleet view at once, its
/// history store opens beside them.
async fn opened(
    params: &LiveParams,
    context: String,
    connected: live::Connected,
    tx: &mpsc::Sender<FleetMsg>,
) {
    tracing::info!(context, "fleet: context opened");
    let feed = connected.session.feed.clone();
    if tx
        .send(FleetMsg::Connected(context.clone(), feed))
        .await
        .is_ok()
    {
        let source = connected.with_history(params).await;
        let _ = tx.send(FleetMsg::Opened(context, Box::new(source))).await;
    }
}

/// Opens `context` until it opens: a failed or timed-out attempt is reported with the time of
/// the next, after a wait that doubles up to `MAX_RETRY`.
async fn connect(params: LiveParams, context: String, tx: mpsc::Sender<FleetMsg>) {
    let mut wait = FIRST_RETRY;
    loop {
        tracing::debug!("fleet: opening the context");
        let attempt = tokio::time::timeout(OPEN_TIMEOUT, live::connect(&params, Some(&context)));
        let error = match attempt.await {
            Ok(Ok(connected)) => return opened(&params, context, connected, &tx).await,
            Ok(Err(e)) => cluster_live::one_line(&e),
            Err(_) => format!("no answer within {} s", OPEN_TIMEOUT.as_secs()),
        };
        tracing::warn!(
            context,
            error,
            retry_in_s = wait.as_secs(),
            "fleet: context not opened"
        );
        let retry_at = (params.clock)() + chrono::TimeDelta::from_std(wait).unwrap_or_default();
        let failed = FleetMsg::Failed {
            context: context.clone(),
            error,
            retry_at,
        };
        if tx.send(failed).await.is_err() {
            return;
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(MAX_RETRY);
    }
}
