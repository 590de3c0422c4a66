//! The snapshot task: waits for store changes, coalesces a burst, brings the analysis up to
//! date on a blocking thread and publishes the `Feed` (the change that completes a sync is not
//! held back for a burst). The analysis is incremental: the
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
use tracing::Instrument;

use crate::cluster::live::delta::Delta;
use crate::cluster::live::hub::Hub;
use crate::cluster::live::slot::SourceStatus;
use crate::cluster::live::stores::Stores;
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

/// Waits `wait` (the coalescing, or the rest after an analysis), cut short when the last
/// analysed feed was not `connected` and every source is now synced: the feed that completes
/// a sync is the one the screen waits for (the first, or the end of an outage), and
/// completing a sync is one change, not a burst to batch. A change that woke the wait is
/// left pending for the task's next turn when `keep` (the rest: the analysis is behind it);
/// the coalescing analyses next, which reads it.
async fn pause(hub: &Hub, wait: Duration, connected: bool, keep: bool) {
    if connected {
        return tokio::time::sleep(wait).await;
    }
    let synced = || matches!(api_status(&hub.stores.all()), ApiStatus::Connected);
    let until = tokio::time::Instant::now() + wait;
    let mut woken = false;
    while !synced() {
        tokio::select! {
            () = tokio::time::sleep_until(until) => break,
            () = hub.changed.notified() => woken = true,
        }
    }
    if woken && keep {
        hub.changed.notify_one();
    }
}

/// Starts the snapshot task; it ends when every receiver of `tx` is gone.
pub fn spawn_snapshot_task(
    hub: Arc<Hub>,
    source: SourceKind,
    options: AnalysisOptions,
    tx: watch::Sender<Arc<Feed>>,
) -> JoinHandle<()> {
    tokio::spawn(
        async move {
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
                let connected = last_api == std::mem::discriminant(&ApiStatus::Connected);
                pause(&hub, COALESCE, connected, false).await;
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
                    pause(&hub, REST, connected, true).await;
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
                let connected = last_api == std::mem::discriminant(&ApiStatus::Connected);
                pause(&hub, REST, connected, true).await;
            }
        }
        .in_current_span(),
    )
}

#[cfg(test)]
mod tests;
