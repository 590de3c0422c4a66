//! The snapshot task: waits for store changes, coalesces a burst, brings the analysis up to
//! date on a blocking thread and publishes the `Feed`. The analysis is incremental: the
//! stores hand over the objects they changed since the last batch (`cluster::live::delta`)
//! and only what those feed is re-run, at the analysis's time, without a whole snapshot
//! being built; anything the engine takes only as a whole is a full pass over the stores'
//! whole snapshot. Time moves the analysis only at its deadlines
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

use crate::cluster::live::delta::Delta;
use crate::cluster::live::slot::SourceStatus;
use crate::cluster::live::sources::Stores;
use crate::cluster::live::watch::Hub;
use crate::engine::analysis::{analyze, Advance, AnalysisOptions, Change, Incremental};
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

/// The last analysis; its snapshot is the stores' state at their last drain
/// (`cluster::live::delta`).
struct Analysed {
    inc: Incremental,
}

/// The stores analysed at about `opts.now`: `last` brought up to date by the changes drained
/// from them (at its time) when the other options are the same and no deadline of it passed
/// by `opts.now`, then moved in time (`move_in_time`); else a full analysis at `opts.now` of
/// their whole snapshot; a batch that changed something ends at `opts.now`. Either way the snapshot is the stores' state as drained and the
/// analysis equals `analyze(snapshot, options of the result)` (`delta`'s tests,
/// tests/engine/incremental).
fn analyse(last: Option<Analysed>, stores: &Stores, opts: AnalysisOptions) -> Analysed {
    let reusable = last.filter(|a| {
        let (o, inc) = (a.inc.options(), &a.inc);
        o.now <= opts.now
            && inc.next_deadline().is_none_or(|d| d > opts.now)
            && o.alfred_namespace == opts.alfred_namespace
            && o.executor == opts.executor
            && o.placement == opts.placement
    });
    let Some(Analysed { mut inc }) = reusable else {
        let inc = Incremental::new(stores.take_snapshot(), opts);
        return Analysed { inc };
    };
    // Only a change the engine takes as a whole reads the whole snapshot.
    let (changes, whole) = match stores.take_delta().news(inc.snapshot()) {
        Delta::Changes(changes) => (changes, false),
        Delta::Whole(snapshot) => (vec![Change::Snapshot(snapshot)], true),
    };
    let count = changes.len();
    let mut full = false;
    for change in changes {
        inc.apply(change);
        full |= inc.last_rerun().full;
    }
    // What changed was observed now, and a feed's analysis time is its observation time (the
    // history records a transition at it): a batch moves the analysis to now, which before a
    // deadline moves only `now` and the drifting figures. Without a change, time moves it only
    // at a deadline or every `RETIME_STEP`.
    let moved = if count > 0 {
        inc.retime(opts.now)
    } else {
        move_in_time(&mut inc, opts.now, RETIME_STEP)
    };
    tracing::trace!(changes = count, whole, full, ?moved, "analysis updated");
    Analysed { inc }
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
    hub: &Arc<Hub>,
    (source, options): (&SourceKind, &AnalysisOptions),
    last: &mut Option<Analysed>,
    generation: u64,
) -> Option<Feed> {
    let stores = &hub.stores;
    // The status is read before the snapshot: a feed never claims more freshness than it has.
    let api = api_status(&stores.all());
    let sources = stores.source_states();
    let warnings = stores.warnings();
    let permissions = hub
        .permissions
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let mut opts = options.clone();
    opts.now = (hub.clock)();
    let previous = last.take();
    // The stores are drained on the blocking thread, after the status was read.
    let hub = hub.clone();
    let updated = tokio::task::spawn_blocking(move || analyse(previous, &hub.stores, opts))
        .await
        .ok()?;
    // The incremental snapshot is the stores' as drained (`delta`'s invariant) and shares its
    // allocations with the feed until the next change.
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
    use crate::cluster::live::sources::{CONFIG_MAPS_AUDIT, PODS};
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

    /// The next feed published, within 5 s.
    pub(super) async fn next(rx: &mut watch::Receiver<Arc<Feed>>) -> Arc<Feed> {
        let wait = tokio::time::timeout(Duration::from_secs(5), rx.changed());
        wait.await.unwrap().unwrap();
        rx.borrow_and_update().clone()
    }

    /// A read-only hub on `clock` with its snapshot task running, and the task's feed.
    pub(super) fn started(
        clock: fn() -> Time,
    ) -> (Arc<Hub>, watch::Receiver<Arc<Feed>>, JoinHandle<()>) {
        let hub = Arc::new(Hub::new(clock, Permissions::read_only("test")));
        let options = AnalysisOptions {
            now: clock(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        };
        let source = SourceKind::Live("test".into());
        let (tx, rx) = watch::channel(Arc::new(initial_feed(&hub, source.clone(), &options)));
        let task = spawn_snapshot_task(hub.clone(), source, options, tx);
        (hub, rx, task)
    }

    #[tokio::test]
    async fn progress_alone_republishes_the_last_analysis_with_the_new_counts() {
        let (hub, mut rx, task) = started(clock);
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
    /// The task's path: after the first analysis, batches of pod events are drained by key
    /// (the stores' whole-snapshot count stays); a relist or another kind reads the whole.
    #[tokio::test]
    async fn pod_batches_read_no_whole_snapshot_but_a_relist_or_another_kind_does() {
        let (hub, mut rx, task) = started(clock);
        let (stores, pods) = (&hub.stores, &hub.stores.pods);
        let changed = || {
            hub.contents.fetch_add(1, Ordering::Release);
            hub.changed.notify_one();
        };
        let names = |f: Arc<Feed>| {
            f.snapshot
                .pods
                .iter()
                .map(|p| p.name.to_string())
                .collect::<Vec<_>>()
        };

        pods.on_event(Event::Init, &PODS, clock());
        pods.on_event(Event::InitApply(pod("a")), &PODS, clock());
        pods.on_event(Event::InitDone, &PODS, clock());
        changed();
        assert_eq!(names(next(&mut rx).await), ["a"]);
        let listed = stores.whole_snapshots();

        for (add, gone) in [("b", "a"), ("c", "b"), ("a", "c")] {
            pods.on_event(Event::Apply(pod(add)), &PODS, clock());
            pods.on_event(Event::Delete(pod(gone)), &PODS, clock());
            changed();
            assert_eq!(names(next(&mut rx).await), [add]);
        }
        assert_eq!(
            stores.whole_snapshots(),
            listed,
            "pod batches drain keys alone"
        );

        let audit = k8s_openapi::api::core::v1::ConfigMap {
            metadata: kube::api::ObjectMeta {
                name: Some("x-ome-migration-audit".into()),
                namespace: Some("team".into()),
                ..Default::default()
            },
            ..Default::default()
        };
        stores
            .audit
            .on_event(Event::Apply(audit), &CONFIG_MAPS_AUDIT, clock());
        changed();
        assert_eq!(next(&mut rx).await.snapshot.config_maps.len(), 1);
        assert_eq!(
            stores.whole_snapshots(),
            listed + 1,
            "another kind reads the whole"
        );
        task.abort();
    }
}

#[cfg(test)]
mod deadline_tests {
    use super::tests::{next, started};
    use super::*;
    use crate::cluster::live::sources::NODES;
    use crate::cluster::wire::Slim;
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

    /// With no store change, the task wakes at the analysis's next deadline (a suspect node's
    /// `suspectUntil`) and publishes the analysis at the new time: the node is Clear.
    #[tokio::test]
    async fn a_deadline_publishes_without_a_change() {
        let (hub, mut rx, task) = started(clock);
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
    use crate::cluster::live::delta::testkit::{apply, load, pod_key};
    use crate::engine::analysis::ExecutorSetting;
    use crate::engine::model::Pod;
    use crate::sim::cluster::{generate_cluster, ClusterSpec};
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

    /// Before its next deadline a changed pod is an incremental update from the drained keys
    /// alone, and the batch moves the analysis to its time without a pass; so does a batch
    /// once the time is `RETIME_STEP` old; past a deadline, or with time going back, the pass is a full one at the new time.
    /// Each result is the full analysis of the stores' snapshot at the result's time.
    #[test]
    fn updates_incrementally_until_a_deadline_then_runs_a_full_pass() {
        let spec = ClusterSpec {
            seed: 4,
            nodes: 20,
            pods: 200,
        };
        let original = generate_cluster(&spec, at(0).now);
        let stores = Stores::default();
        load(&stores, &original);
        let mut last = analyse(None, &stores, at(0));
        assert!(last.inc.last_rerun().full);
        assert_eq!(stores.whole_snapshots(), 1);
        let deadline = last.inc.next_deadline();

        let bound: Vec<_> = original
            .pods
            .shared()
            .iter()
            .filter(|p| p.node.is_some())
            .take(2)
            .cloned()
            .collect();
        let later = |ms| AnalysisOptions {
            now: at(0).now + chrono::Duration::milliseconds(ms),
            ..at(0)
        };
        for (step, pod) in bound.iter().enumerate() {
            // Another bound pod's readiness flipped.
            let mut flipped = Pod::clone(pod);
            flipped.ready = !flipped.ready;
            apply(&stores.pods, pod_key(pod), Arc::new(flipped));
            let when = later(300 + 100 * step as i64);
            last = analyse(Some(last), &stores, when.clone());
            let inc = &last.inc;
            assert!(!inc.last_rerun().full, "{step}: {:?}", inc.last_rerun());
            assert_eq!(inc.options().now, when.now, "a batch ends at its time");
            assert_eq!(stores.whole_snapshots(), 1, "no whole snapshot read");
            let snap = stores.snapshot();
            assert!(inc.snapshot() == &snap, "{step}: snapshots differ");
            let full = analyze(&snap, &when);
            assert_eq!(format!("{:?}", inc.analysis()), format!("{full:?}"));
        }

        let snap = stores.snapshot();
        let keep = Analysed {
            inc: last.inc.clone(),
        };
        let moved = analyse(Some(last), &stores, at(6));
        assert_eq!(moved.inc.options().now, at(6).now, "RETIME_STEP old: moved");
        let full = analyze(&snap, &at(6));
        assert_eq!(format!("{:?}", moved.inc.analysis()), format!("{full:?}"));
        if let Some(d) = deadline {
            let past = AnalysisOptions { now: d, ..at(0) };
            let third = analyse(Some(keep), &stores, past);
            assert!(
                third.inc.last_rerun().full,
                "a passed deadline is a full pass"
            );
        }
        let back = analyse(Some(moved), &stores, at(1));
        assert!(back.inc.last_rerun().full, "time going back is a full pass");
    }

    /// The task sleeps until the next deadline, not sooner than `TIME_STEP` after the
    /// analysis's time nor longer than `MAX_WAIT`; without deadlines nor drift, until a change.
    #[test]
    fn sleeps_until_the_next_deadline() {
        let quiet = Incremental::new(Default::default(), at(0));
        assert_eq!(next_wake(&quiet, at(0).now), None);
        let spec = ClusterSpec {
            seed: 4,
            nodes: 20,
            pods: 200,
        };
        let inc = Incremental::new(generate_cluster(&spec, at(0).now), at(0));
        let wait = next_wake(&inc, at(0).now);
        match (inc.next_deadline(), inc.drifts()) {
            (None, false) => assert_eq!(wait, None),
            _ => assert!(wait.is_some_and(|w| (TIME_STEP..=MAX_WAIT).contains(&w))),
        }
        assert_eq!(next_wake(&inc, at(3600).now).filter(|w| !w.is_zero()), None);
    }
}
