//! The snapshot task: waits for store changes, coalesces a burst, builds a `ClusterSnapshot`
//! from the stores, brings the analysis up to date on a blocking thread and publishes the
//! `Feed`. The analysis is incremental: the new snapshot is diffed against the one analysed
//! last and only what the changed pods, nodes and Events feed is re-run, at the analysis's
//! time; anything else changed is a full pass. Time moves the analysis only at its deadlines
//! (`Incremental::next_deadline`: the instants a rule that reads the clock flips) or, every
//! `RETIME_STEP`, by moving `now` and the pools' drifting figures (a pending pod's wait)
//! without a pass. Between changes the task sleeps until the next deadline (not before
//! `TIME_STEP` after the analysis's time), so a quiet cluster costs no engine work between
//! deadlines. A wake-up that changed nothing but a list's progress republishes the last feed
//! with the sources' new counts, without a new snapshot or analysis.
//!
//! Owns: `api_status`, `spawn_snapshot_task`, the coalescing timings, `TIME_STEP`,
//! `RETIME_STEP`. Reads time only through the hub's clock function.

use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::cluster::live::slot::SourceStatus;
use crate::cluster::live::sources::ChangeCounts;
use crate::cluster::live::watch::Hub;
use crate::engine::analysis::{
    analyze, changes_between, changes_in, Advance, AnalysisOptions, Changed, Incremental,
};
use crate::engine::model::{ClusterSnapshot, Time};
use crate::protocol::{ApiStatus, Feed, SourceKind};

/// Wait after the first change of a burst before analysing (more changes join it).
pub const COALESCE: Duration = Duration::from_millis(150);
/// Rest after each analysis, so that analyses start at most every 200 ms (≤ 5 per second).
pub const REST: Duration = Duration::from_millis(50);

/// The shortest interval between two moves of the analysis in time when no store changed (a
/// deadline a second after the analysis's time waits that second): at most one time-driven
/// pass a second, however many deadlines crowd together.
pub const TIME_STEP: Duration = Duration::from_secs(1);

/// How old the analysis's time may grow before a feed moves it (`Incremental::retime`: `now`
/// and the drifting figures only, no pass): the ages the views show from it, and a pending
/// pod's wait, pressure and score, lag by at most this much. The app's own age tick is 5 s.
pub const RETIME_STEP: Duration = Duration::from_secs(5);

/// The longest sleep before the task looks at the clock again: deadlines are wall-clock
/// instants and the wall clock may jump (suspend, NTP) while a timer runs on the monotonic one.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// The last analysis and the stores' change counts its snapshot was taken at (`None` when a
/// change arrived while it was taken).
struct Analysed {
    inc: Incremental,
    counts: Option<ChangeCounts>,
}

/// The parts a snapshot taken at `now` counts can differ in from one taken at `then`
/// counts: `None` (anything) unless both are exact and only pods, nodes or Events changed.
fn changed_parts(then: Option<ChangeCounts>, now: Option<ChangeCounts>) -> Option<Changed> {
    let (then, now) = (then?, now?);
    (then.others == now.others).then_some(Changed {
        pods: then.pods != now.pods,
        nodes: then.nodes != now.nodes,
        events: then.events != now.events,
    })
}

/// `snapshot` (taken at `counts`) analysed at about `opts.now`: `last` brought up to date by
/// the changes between its snapshot and this one (at its time) when the other options are the
/// same and no deadline of it passed by `opts.now`, then moved in time (`move_in_time`); else a
/// full analysis at `opts.now`. Either way the analysis equals `analyze(snapshot, options of
/// the result)` (tests/engine/incremental).
fn analyse(
    last: Option<Analysed>,
    (snapshot, counts): (&Arc<ClusterSnapshot>, Option<ChangeCounts>),
    opts: AnalysisOptions,
) -> Analysed {
    let reusable = last.filter(|a| {
        let (o, inc) = (a.inc.options(), &a.inc);
        o.now <= opts.now
            && inc.next_deadline().is_none_or(|d| d > opts.now)
            && o.alfred_namespace == opts.alfred_namespace
            && o.executor == opts.executor
            && o.placement == opts.placement
    });
    let Some(Analysed {
        mut inc,
        counts: then,
    }) = reusable
    else {
        let inc = Incremental::from_shared(snapshot.clone(), opts);
        return Analysed { inc, counts };
    };
    let changes = match changed_parts(then, counts) {
        Some(parts) => changes_in(inc.snapshot(), snapshot, parts),
        None => changes_between(inc.snapshot(), snapshot),
    };
    let count = changes.len();
    for change in changes {
        inc.apply(change);
    }
    let full = inc.last_rerun().full;
    let moved = move_in_time(&mut inc, opts.now, RETIME_STEP);
    tracing::trace!(changes = count, full, ?moved, "analysis updated");
    Analysed { inc, counts }
}

/// Moves `inc` to `now` when a deadline passed (a full pass: the changes may have brought one)
/// or its time is `step` old (`now` and the drifting figures only); else keeps its time.
fn move_in_time(inc: &mut Incremental, now: Time, step: Duration) -> Advance {
    let then = inc.options().now;
    let due = inc.next_deadline().is_some_and(|d| d <= now);
    let old = chrono::Duration::from_std(step).is_ok_and(|step| now - then >= step);
    if due || old || now < then {
        inc.retime(now)
    } else {
        Advance::Kept
    }
}

/// How long the task may sleep before time alone changes the analysis: until its next deadline
/// or, while pools drift, until its time is `RETIME_STEP` old — never sooner than `TIME_STEP`
/// after its time, never longer than `MAX_WAIT` (`None`: sleep until a change).
fn next_wake(inc: &Incremental, now: Time) -> Option<Duration> {
    let then = inc.options().now;
    let retime = chrono::Duration::from_std(RETIME_STEP).ok();
    let drift = retime.filter(|_| inc.drifts()).map(|step| then + step);
    let at = [inc.next_deadline(), drift].into_iter().flatten().min()?;
    let floor = chrono::Duration::from_std(TIME_STEP).map_or(at, |step| at.max(then + step));
    let wait = (floor - now).to_std().unwrap_or(Duration::ZERO);
    Some(wait.min(MAX_WAIT))
}

/// The last feed moved to the hub's time when no store changed since it (`None` when time
/// changed nothing, or the blocking thread failed: `last` is then `None` too).
async fn timed_feed(
    hub: &Hub,
    feed: &Feed,
    last: &mut Option<Analysed>,
    generation: u64,
) -> Option<Feed> {
    let mut analysed = last.take()?;
    let now = (hub.clock)();
    let (analysed, moved) = tokio::task::spawn_blocking(move || {
        let moved = move_in_time(&mut analysed.inc, now, RETIME_STEP);
        (analysed, moved)
    })
    .await
    .ok()?;
    let analysis = analysed.inc.shared_analysis();
    *last = Some(analysed);
    tracing::trace!(?moved, "analysis moved in time");
    (moved != Advance::Kept).then(|| Feed {
        generation,
        analysis,
        ..progress_feed(hub, feed)
    })
}

/// The connection state from the sources' states: a refused required source wins, then an
/// outage (since its first failure), then `Connecting` until every source has synced.
pub fn api_status(sources: &[&dyn SourceStatus]) -> ApiStatus {
    if let Some(what) = sources.iter().find_map(|s| s.refused_required()) {
        return ApiStatus::Forbidden {
            what: what.to_string(),
        };
    }
    let outage = sources
        .iter()
        .filter_map(|s| s.failure())
        .min_by_key(|(since, _)| *since);
    if let Some((since, error)) = outage {
        return ApiStatus::Reconnecting { since, error };
    }
    if sources.iter().all(|s| s.synced()) {
        ApiStatus::Connected
    } else {
        ApiStatus::Connecting
    }
}

/// Builds one feed from the hub's current state, bringing `last` up to date on a blocking
/// thread (`last` is `None` afterwards only if that thread failed).
async fn build_feed(
    hub: &Hub,
    (source, options): (&SourceKind, &AnalysisOptions),
    last: &mut Option<Analysed>,
    generation: u64,
) -> Option<Feed> {
    let stores = &hub.stores;
    // The status is read before the snapshot: a feed never claims more freshness than it has.
    let api = api_status(&stores.all());
    let sources = stores.source_states();
    let warnings = stores.warnings();
    // Counted before and after: equal readings mean the snapshot holds exactly those counts.
    let before = stores.change_counts();
    let snapshot = Arc::new(stores.snapshot());
    let after = stores.change_counts();
    let counts = (before == after).then_some(after);
    let permissions = hub
        .permissions
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let mut opts = options.clone();
    opts.now = (hub.clock)();
    let previous = last.take();
    let updated = tokio::task::spawn_blocking(move || analyse(previous, (&snapshot, counts), opts))
        .await
        .ok()?;
    // The incremental snapshot equals the stores' (`changes_between`'s invariant) and shares
    // its allocations with the feed until the next change.
    let (snapshot, analysis) = (updated.inc.shared_snapshot(), updated.inc.shared_analysis());
    *last = Some(updated);
    Some(Feed {
        generation,
        source: source.clone(),
        api,
        sources,
        snapshot,
        analysis,
        permissions,
        warnings,
    })
}

/// The last analysed feed (its generation too) with the sources' states (list progress) and
/// the connection state as they are now: what a wake-up that changed no store publishes.
fn progress_feed(hub: &Hub, last: &Feed) -> Feed {
    let stores = &hub.stores;
    Feed {
        api: api_status(&stores.all()),
        sources: stores.source_states(),
        ..last.clone()
    }
}

/// The feed published before anything is listed: empty snapshot, `Connecting`.
pub fn initial_feed(hub: &Hub, source: SourceKind, options: &AnalysisOptions) -> Feed {
    let snapshot = ClusterSnapshot::default();
    let mut opts = options.clone();
    opts.now = (hub.clock)();
    let analysis = analyze(&snapshot, &opts);
    Feed {
        generation: 0,
        source,
        api: ApiStatus::Connecting,
        sources: hub.stores.source_states(),
        snapshot: Arc::new(snapshot),
        analysis: Arc::new(analysis),
        permissions: hub
            .permissions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone(),
        warnings: Vec::new(),
    }
}

/// Logs a published feed (debug), and the connection state when it changed (info, or a
/// warning for an outage or a refusal).
fn log_feed(feed: &Feed, last: &mut std::mem::Discriminant<ApiStatus>) {
    log_published(feed);
    let now = std::mem::discriminant(&feed.api);
    if now != *last {
        *last = now;
        log_api(&feed.api);
    }
}

fn log_published(feed: &Feed) {
    tracing::debug!(
        generation = feed.generation,
        nodes = feed.snapshot.nodes.len(),
        pods = feed.snapshot.pods.len(),
        warnings = feed.warnings.len(),
        "analysis published"
    );
}

/// The connection state's log line.
fn log_api(api: &ApiStatus) {
    match api {
        ApiStatus::Reconnecting { since, error } => log_outage(since, error),
        ApiStatus::Forbidden { what } => tracing::error!("the identity may not {what}"),
        ApiStatus::Connected => tracing::info!("every source listed: connected"),
        _ => {}
    }
}

fn log_outage(since: &crate::engine::model::Time, error: &str) {
    tracing::warn!(%since, error, "API server unreachable: reconnecting, last data kept");
}

/// Sleeps `wait`, or forever (`None`).
async fn sleep_for(wait: Option<Duration>) {
    match wait {
        Some(wait) => tokio::time::sleep(wait).await,
        None => std::future::pending().await,
    }
}

/// Starts the snapshot task; it ends when every receiver of `tx` is gone.
pub fn spawn_snapshot_task(
    hub: Arc<Hub>,
    source: SourceKind,
    options: AnalysisOptions,
    tx: watch::Sender<Arc<Feed>>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut generation = 0;
        let mut last_api = std::mem::discriminant(&ApiStatus::Connecting);
        // The contents count and permissions of the last analysed feed.
        let mut analysed: Option<(u64, Arc<Feed>)> = None;
        let mut last: Option<Analysed> = None;
        loop {
            let wake = last.as_ref().and_then(|a| next_wake(&a.inc, (hub.clock)()));
            let timed = tokio::select! {
                () = hub.changed.notified() => false,
                () = sleep_for(wake) => true,
                () = tx.closed() => return,
            };
            let contents = hub.contents.load(Ordering::Acquire);
            let quiet = analysed.as_ref().filter(|(c, _)| timed && *c == contents);
            if let Some((_, feed)) = quiet {
                // Time alone: the last snapshot, its analysis moved to the clock's time.
                let Some(feed) = timed_feed(&hub, feed, &mut last, generation + 1).await else {
                    continue;
                };
                generation += 1;
                let feed = Arc::new(feed);
                analysed = Some((contents, feed.clone()));
                if tx.send(feed).is_err() {
                    return;
                }
                continue;
            }
            tokio::time::sleep(COALESCE).await;
            // Read before the snapshot is taken: every change counted is in this feed.
            let contents = hub.contents.load(Ordering::Acquire);
            let permissions = hub
                .permissions
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone();
            let unchanged = analysed
                .as_ref()
                .filter(|(c, f)| *c == contents && f.permissions == permissions);
            if let Some((_, last)) = unchanged {
                let feed = progress_feed(&hub, last);
                if tx.send(Arc::new(feed)).is_err() {
                    return;
                }
                tokio::time::sleep(REST).await;
                continue;
            }
            generation += 1;
            let events = hub.events_applied.load(Ordering::Relaxed);
            let Some(feed) = build_feed(&hub, (&source, &options), &mut last, generation).await
            else {
                continue;
            };
            log_feed(&feed, &mut last_api);
            // Stored before the send, so a receiver of this feed never reads an older count.
            hub.events_in_feed.store(events, Ordering::Relaxed);
            let feed = Arc::new(feed);
            analysed = Some((contents, feed.clone()));
            if tx.send(feed).is_err() {
                return;
            }
            tokio::time::sleep(REST).await;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::live::sources::PODS;
    use crate::cluster::wire::Slim;
    use crate::engine::analysis::ExecutorSetting;
    use crate::engine::model::Time;
    use crate::protocol::Permissions;
    use kube::runtime::watcher::Event;

    fn clock() -> Time {
        chrono::DateTime::UNIX_EPOCH
    }

    fn pod(name: &str) -> Slim<k8s_openapi::api::core::v1::Pod> {
        let json = serde_json::json!({"metadata": {"name": name, "namespace": "team"},
            "spec": {"containers": [{"name": "main"}]}});
        Slim(serde_json::from_value(json).unwrap())
    }

    async fn next(rx: &mut watch::Receiver<Arc<Feed>>) -> Arc<Feed> {
        let wait = tokio::time::timeout(Duration::from_secs(5), rx.changed());
        wait.await.unwrap().unwrap();
        rx.borrow_and_update().clone()
    }

    #[tokio::test]
    async fn progress_alone_republishes_the_last_analysis_with_the_new_counts() {
        let hub = Arc::new(Hub::new(clock, Permissions::read_only("test")));
        let options = AnalysisOptions {
            now: clock(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        };
        let source = SourceKind::Live("test".into());
        let (tx, mut rx) = watch::channel(Arc::new(initial_feed(&hub, source.clone(), &options)));
        let task = spawn_snapshot_task(hub.clone(), source, options, tx);
        let pods = &hub.stores.pods;

        hub.changed.notify_one();
        let analysed = next(&mut rx).await;
        assert_eq!(analysed.generation, 1);

        // A list running: two pods received, nothing visible changed.
        pods.on_event(Event::Init, &PODS, clock());
        pods.on_event(Event::InitApply(pod("a")), &PODS, clock());
        pods.on_event(Event::InitApply(pod("b")), &PODS, clock());
        hub.changed.notify_one();
        let progress = next(&mut rx).await;
        assert_eq!(progress.generation, 1, "no new analysis for progress");
        assert!(
            progress.snapshot.pods.is_empty(),
            "the snapshot is the last one"
        );
        let state = |f: &Feed| {
            f.sources
                .iter()
                .find(|s| s.name == "pods")
                .cloned()
                .unwrap()
        };
        assert_eq!(state(&progress).listing, Some(2));

        // The list completes: a change of contents, so a new snapshot and analysis.
        pods.on_event(Event::InitDone, &PODS, clock());
        hub.contents.fetch_add(1, Ordering::Release);
        hub.changed.notify_one();
        let done = next(&mut rx).await;
        assert_eq!(done.generation, 2);
        assert_eq!(done.snapshot.pods.len(), 2);
        assert_eq!(state(&done).listing, None);
        task.abort();
    }
}

#[cfg(test)]
mod deadline_tests {
    use super::*;
    use crate::cluster::live::sources::NODES;
    use crate::cluster::wire::Slim;
    use crate::engine::analysis::ExecutorSetting;
    use crate::protocol::Permissions;
    use kube::runtime::watcher::Event;
    use std::sync::atomic::AtomicI64;

    /// The test's wall clock, in seconds since the epoch.
    static SECONDS: AtomicI64 = AtomicI64::new(1_790_000_000);

    fn clock() -> Time {
        Time::from_timestamp(SECONDS.load(Ordering::SeqCst), 0).unwrap_or_default()
    }

    /// A node whose trigger condition turned False `ago` seconds before the clock's time.
    fn suspect_node(ago: i64) -> Slim<k8s_openapi::api::core::v1::Node> {
        let since = Time::from_timestamp(SECONDS.load(Ordering::SeqCst) - ago, 0).unwrap();
        let json = serde_json::json!({"metadata": {"name": "gpu-a"},
            "status": {"conditions": [{"type": "GpuUnhealthy", "status": "False",
                "lastTransitionTime": since.to_rfc3339()}]}});
        Slim(serde_json::from_value(json).unwrap())
    }

    async fn next(rx: &mut watch::Receiver<Arc<Feed>>) -> Arc<Feed> {
        let wait = tokio::time::timeout(Duration::from_secs(5), rx.changed());
        wait.await.unwrap().unwrap();
        rx.borrow_and_update().clone()
    }

    /// With no store change, the task wakes at the analysis's next deadline (a suspect node's
    /// `suspectUntil`) and publishes the analysis at the new time: the node is Clear.
    #[tokio::test]
    async fn a_deadline_publishes_without_a_change() {
        let hub = Arc::new(Hub::new(clock, Permissions::read_only("test")));
        let options = AnalysisOptions {
            now: clock(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        };
        let source = SourceKind::Live("test".into());
        let (tx, mut rx) = watch::channel(Arc::new(initial_feed(&hub, source.clone(), &options)));
        let task = spawn_snapshot_task(hub.clone(), source, options, tx);
        // Suspect for one more second (the window is 30 minutes).
        let nodes = &hub.stores.nodes;
        nodes.on_event(Event::Init, &NODES, clock());
        nodes.on_event(Event::InitApply(suspect_node(30 * 60 - 1)), &NODES, clock());
        nodes.on_event(Event::InitDone, &NODES, clock());
        hub.contents.fetch_add(1, Ordering::Release);
        hub.changed.notify_one();
        let first = next(&mut rx).await;
        assert_eq!(first.analysis.nodes[0].health.name(), "Suspect");
        SECONDS.fetch_add(2, Ordering::SeqCst);
        let later = next(&mut rx).await;
        assert_eq!(later.generation, first.generation + 1);
        assert_eq!(later.analysis.nodes[0].health.name(), "Clear");
        assert!(
            later.snapshot.nodes == first.snapshot.nodes,
            "the same snapshot"
        );
        task.abort();
    }
}

#[cfg(test)]
mod analyse_tests {
    use super::*;
    use crate::engine::analysis::ExecutorSetting;
    use crate::sim::fleet::{generate_fleet, FleetSpec};
    use chrono::TimeZone;

    fn at(seconds: i64) -> AnalysisOptions {
        AnalysisOptions {
            now: chrono::Utc
                .timestamp_opt(1_790_000_000 + seconds, 0)
                .unwrap(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        }
    }

    fn counts(pods: u64, others: u64) -> Option<ChangeCounts> {
        Some(ChangeCounts {
            pods,
            others,
            ..ChangeCounts::default()
        })
    }

    /// Before its next deadline a changed pod is an incremental update at the analysis's time
    /// (with the counts saying only pods changed, or without counts); once the time is
    /// `RETIME_STEP` old it moves without a pass; past a deadline, or with time going back,
    /// the pass is a full one at the new time. Each result is the full analysis of the
    /// snapshot at the result's time.
    #[test]
    fn updates_incrementally_until_a_deadline_then_runs_a_full_pass() {
        let spec = FleetSpec {
            seed: 4,
            nodes: 20,
            pods: 200,
        };
        let original = generate_fleet(&spec, at(0).now);
        let first = analyse(None, (&Arc::new(original.clone()), counts(1, 1)), at(0));
        assert!(first.inc.last_rerun().full);

        let bound: Vec<usize> = (0..original.pods.len())
            .filter(|&p| original.pods[p].node.is_some())
            .take(2)
            .collect();
        let later = |ms| AnalysisOptions {
            now: at(0).now + chrono::Duration::milliseconds(ms),
            ..at(0)
        };
        let mut snap = original.clone();
        for (step, taken_at) in [counts(2, 1), None].into_iter().enumerate() {
            // From the first analysis, another bound pod's readiness flipped.
            snap = original.clone();
            let p = bound[step];
            snap.pods[p].ready = !snap.pods[p].ready;
            let shared = Arc::new(snap.clone());
            let next = analyse(Some(first_or(&first)), (&shared, taken_at), later(2_400));
            let inc = &next.inc;
            assert!(!inc.last_rerun().full, "{step}: {:?}", inc.last_rerun());
            assert_eq!(inc.options().now, at(0).now, "the analysis's time is kept");
            assert!(inc.snapshot() == &snap, "{step}: snapshots differ");
            let full = analyze(&snap, &at(0));
            assert_eq!(format!("{:?}", inc.analysis()), format!("{full:?}"));
        }

        let shared = Arc::new(snap.clone());
        let deadline = first.inc.next_deadline();
        let moved = analyse(Some(first_or(&first)), (&shared, counts(3, 1)), at(6));
        assert_eq!(moved.inc.options().now, at(6).now, "RETIME_STEP old: moved");
        let full = analyze(&snap, &at(6));
        assert_eq!(format!("{:?}", moved.inc.analysis()), format!("{full:?}"));
        if let Some(d) = deadline {
            let past = AnalysisOptions { now: d, ..at(0) };
            let third = analyse(Some(first), (&shared, counts(3, 1)), past);
            assert!(
                third.inc.last_rerun().full,
                "a passed deadline is a full pass"
            );
        }
        let back = analyse(Some(moved), (&shared, counts(3, 1)), at(1));
        assert!(back.inc.last_rerun().full, "time going back is a full pass");
    }

    /// The task sleeps until the next deadline, not sooner than `TIME_STEP` after the
    /// analysis's time nor longer than `MAX_WAIT`; without deadlines nor drift, until a change.
    #[test]
    fn sleeps_until_the_next_deadline() {
        let quiet = Incremental::new(Default::default(), at(0));
        assert_eq!(next_wake(&quiet, at(0).now), None);
        let spec = FleetSpec {
            seed: 4,
            nodes: 20,
            pods: 200,
        };
        let inc = Incremental::new(generate_fleet(&spec, at(0).now), at(0));
        let wait = next_wake(&inc, at(0).now);
        match (inc.next_deadline(), inc.drifts()) {
            (None, false) => assert_eq!(wait, None),
            _ => assert!(wait.is_some_and(|w| (TIME_STEP..=MAX_WAIT).contains(&w))),
        }
        assert_eq!(next_wake(&inc, at(3600).now).filter(|w| !w.is_zero()), None);
    }

    /// A copy of `first` (each step starts from the same analysis).
    fn first_or(first: &Analysed) -> Analysed {
        Analysed {
            inc: first.inc.clone(),
            counts: first.counts,
        }
    }

    #[test]
    fn only_counts_taken_exactly_and_equal_outside_pods_nodes_events_narrow_the_walk() {
        let all = |pods, nodes, events| Changed {
            pods,
            nodes,
            events,
        };
        assert_eq!(
            changed_parts(counts(1, 4), counts(3, 4)),
            Some(all(true, false, false))
        );
        assert_eq!(
            changed_parts(counts(1, 4), counts(1, 4)),
            Some(all(false, false, false))
        );
        assert_eq!(changed_parts(counts(1, 4), counts(1, 5)), None);
        assert_eq!(changed_parts(None, counts(1, 4)), None);
        assert_eq!(changed_parts(counts(1, 4), None), None);
    }
}
