//! Episodes from scripted rows (every source a start or an end can have), the merge with
//! Alfred's record and Events, and the health questions.

use std::sync::Arc;

use chrono::Duration;

use super::*;
use crate::engine::model::testkit::at;
use crate::engine::model::Event;
use crate::engine::nodes::HealthState;
use crate::engine::recommendations::NodeRecord;

fn obs(health: HealthState, reason: &str) -> NodeObservation {
    NodeObservation {
        health,
        reason: reason.into(),
        triggers: Vec::new(),
        cordoned: false,
        since: None,
        cleared: None,
        pool: Some("H100".into()),
    }
}

fn row(t: Time, observed: NodeObservation) -> Observed {
    Observed { at: t, observed }
}

fn clear() -> NodeObservation {
    obs(HealthState::Clear, "")
}

fn unhealthy(since: Option<Time>) -> NodeObservation {
    NodeObservation {
        since,
        ..obs(HealthState::Unhealthy, "GpuUnhealthy=True")
    }
}

fn suspect(cleared: Time, window: i64) -> NodeObservation {
    NodeObservation {
        since: Some(cleared),
        cleared: Some(cleared),
        ..obs(
            HealthState::Suspect {
                until: cleared + Duration::minutes(window),
            },
            "GpuUnhealthy=False",
        )
    }
}

fn cleared_after(cleared: Time, window: i64) -> NodeObservation {
    NodeObservation {
        since: Some(cleared + Duration::minutes(window)),
        cleared: Some(cleared),
        ..obs(HealthState::Clear, "GpuUnhealthy=False")
    }
}

/// `(kind, from, from source, to and its source)` of each episode.
type Shape = (EpisodeKind, Time, Source, Option<(Time, Source)>);

fn shape(eps: &[Episode]) -> Vec<Shape> {
    eps.iter()
        .map(|e| {
            (
                e.kind.clone(),
                e.from.at,
                e.from.source,
                e.to.map(|p| (p.at, p.source)),
            )
        })
        .collect()
}

#[test]
fn a_repair_reads_as_unhealthy_then_suspect_with_the_conditions_times() {
    let rows = [
        row(at(10, 0, 0), clear()),
        row(at(10, 5, 0), unhealthy(Some(at(10, 4, 30)))),
        row(at(11, 0, 20), suspect(at(11, 0, 0), 30)),
        row(at(11, 31, 0), cleared_after(at(11, 0, 0), 30)),
    ];
    let eps = episodes(&rows, at(12, 0, 0));
    assert_eq!(
        shape(&eps),
        [
            (
                EpisodeKind::Unhealthy,
                at(10, 4, 30),
                Source::Condition,
                Some((at(11, 0, 0), Source::Condition))
            ),
            (
                EpisodeKind::Suspect,
                at(11, 0, 0),
                Source::Condition,
                Some((at(11, 30, 0), Source::Window))
            ),
        ]
    );
    assert_eq!(eps[0].reason, "GpuUnhealthy=True");
    assert_eq!(
        eps[0].duration(at(12, 0, 0)),
        Duration::minutes(55) + Duration::seconds(30)
    );
    assert_eq!(eps[1].until, Some(at(11, 30, 0)));
}

#[test]
fn repeated_rows_and_moved_deadlines_are_one_episode() {
    let mut later = suspect(at(10, 0, 0), 30);
    later.health = HealthState::Suspect {
        until: at(10, 45, 0),
    };
    let rows = [
        row(at(10, 1, 0), suspect(at(10, 0, 0), 30)),
        row(at(10, 2, 0), suspect(at(10, 0, 0), 30)),
        row(at(10, 3, 0), later),
    ];
    let eps = episodes(&rows, at(10, 10, 0));
    assert_eq!(eps.len(), 1, "{eps:?}");
    assert!(eps[0].is_open());
    assert_eq!(eps[0].from, Point::new(at(10, 0, 0), Source::Condition));
    assert_eq!(eps[0].until, Some(at(10, 45, 0)), "the latest deadline");
    // Past the deadline with no later row: the window ended the episode.
    let eps = episodes(&rows, at(11, 0, 0));
    assert_eq!(eps[0].to, Some(Point::new(at(10, 45, 0), Source::Window)));
}

#[test]
fn a_suspect_window_ome_top_did_not_see_is_filled_in_from_the_clear_row() {
    let rows = [
        row(at(9, 0, 0), unhealthy(None)),
        row(at(14, 0, 0), cleared_after(at(11, 0, 0), 30)),
    ];
    assert_eq!(
        shape(&episodes(&rows, at(15, 0, 0))),
        [
            (
                EpisodeKind::Unhealthy,
                at(9, 0, 0),
                Source::FirstSeen,
                Some((at(11, 0, 0), Source::Condition))
            ),
            (
                EpisodeKind::Suspect,
                at(11, 0, 0),
                Source::Condition,
                Some((at(11, 30, 0), Source::Window))
            ),
        ]
    );
}

#[test]
fn a_state_that_began_again_between_two_looks_is_a_new_episode() {
    let first = unhealthy(Some(at(8, 50, 0)));
    let again = unhealthy(Some(at(13, 0, 0)));
    assert!(!first.same_state(&again));
    assert!(first.same_state(&unhealthy(Some(at(8, 50, 0)))));
    // A stored time has milliseconds, the cluster's more: the same second is the same start.
    let finer = unhealthy(Some(at(8, 50, 0) + Duration::nanoseconds(999_999)));
    assert!(first.same_state(&finer));
    let rows = [row(at(9, 0, 0), first), row(at(14, 0, 0), again)];
    let eps = episodes(&rows, at(15, 0, 0));
    assert_eq!(
        shape(&eps),
        [
            (
                EpisodeKind::Unhealthy,
                at(8, 50, 0),
                Source::Condition,
                Some((at(13, 0, 0), Source::Condition))
            ),
            (
                EpisodeKind::Unhealthy,
                at(13, 0, 0),
                Source::Condition,
                None
            ),
        ]
    );
}

#[test]
fn maintenance_and_cordon_are_episodes_of_their_own() {
    let mut maint = clear();
    maint.triggers = vec!["os-patching".into()];
    let mut cordoned = maint.clone();
    cordoned.cordoned = true;
    let mut uncordoned = clear();
    uncordoned.cordoned = false;
    let rows = [
        row(at(10, 0, 0), maint),
        row(at(10, 10, 0), cordoned),
        row(at(11, 0, 0), uncordoned),
    ];
    assert_eq!(
        shape(&episodes(&rows, at(12, 0, 0))),
        [
            (
                EpisodeKind::Maintenance("os-patching".into()),
                at(10, 0, 0),
                Source::FirstSeen,
                Some((at(11, 0, 0), Source::Observed))
            ),
            (
                EpisodeKind::Cordoned,
                at(10, 10, 0),
                Source::Observed,
                Some((at(11, 0, 0), Source::Observed))
            ),
        ]
    );
}

fn record(signaled: Option<Time>, maintenance: Option<Time>) -> NodeRecord {
    NodeRecord {
        node_uid: None,
        state: None,
        conditions: Vec::new(),
        suspect_until: None,
        maintenance: None,
        workloads: Vec::new(),
        ome_gpu_occupants_present: false,
        observed_at: None,
        signaled_at: signaled,
        drained_at: signaled.map(|t| t + Duration::minutes(3)),
        maintenance_requested_at: maintenance,
        maintenance_drained_at: None,
        extra: Default::default(),
    }
}

fn event(reason: &str, t: Time) -> Event {
    Event {
        namespace: Arc::from("default"),
        object_kind: Arc::from("Node"),
        object_namespace: Arc::from(""),
        object_name: Arc::from("gpu-a"),
        reason: Arc::from(reason),
        message: format!("{reason} message"),
        source: Arc::from("alfred"),
        kind: Arc::from("Normal"),
        last_seen: Some(t),
        count: 1,
    }
}

#[test]
fn the_cluster_reaches_back_and_marks_alfreds_moments_once_with_each_source() {
    let mut maint = clear();
    maint.triggers = vec!["hardware-swap".into()];
    // ome-top first looks at 12:00: the node is already in maintenance and Unhealthy; the
    // conditions say nothing of when (no transition times), Alfred's record does.
    let first = NodeObservation {
        triggers: maint.triggers.clone(),
        ..unhealthy(None)
    };
    let rows = [row(at(12, 0, 0), first)];
    let rec = record(Some(at(9, 0, 0)), Some(at(8, 0, 0)));
    let events = [
        event("NodeRepairNeeded", at(9, 0, 20)),
        event("NodeDrainedForRepair", at(9, 3, 5)),
        event("NodeMaintenanceRequested", at(8, 0, 1)),
        event("SomethingElse", at(9, 30, 0)),
    ];
    let refs: Vec<&Event> = events.iter().collect();
    let t = node_timeline(&rows, None, Some(&rec), &refs, at(13, 0, 0));
    assert_eq!(
        shape(&t.episodes),
        [
            (
                EpisodeKind::Maintenance("hardware-swap".into()),
                at(8, 0, 0),
                Source::AlfredRecord,
                None
            ),
            (
                EpisodeKind::Unhealthy,
                at(9, 0, 0),
                Source::AlfredRecord,
                None
            ),
        ]
    );
    let marks: Vec<(Time, MarkKind, Vec<Source>)> = t
        .marks
        .iter()
        .map(|m| (m.at, m.kind, m.sources.clone()))
        .collect();
    let both = vec![Source::AlfredRecord, Source::Event];
    assert_eq!(
        marks,
        [
            (at(8, 0, 0), MarkKind::MaintenanceRequested, both.clone()),
            (at(9, 0, 0), MarkKind::RepairRequested, both.clone()),
            (at(9, 3, 0), MarkKind::DrainedForRepair, both),
        ]
    );
    assert_eq!(t.marks[1].message, "NodeRepairNeeded message");
}

#[test]
fn the_current_observation_closes_what_the_store_left_open() {
    let rows = [row(at(10, 0, 0), unhealthy(Some(at(9, 0, 0))))];
    let now = row(at(10, 40, 0), suspect(at(10, 30, 0), 30));
    let t = node_timeline(&rows, Some(&now), None, &[], at(10, 40, 0));
    assert_eq!(
        shape(&t.episodes),
        [
            (
                EpisodeKind::Unhealthy,
                at(9, 0, 0),
                Source::Condition,
                Some((at(10, 30, 0), Source::Condition))
            ),
            (EpisodeKind::Suspect, at(10, 30, 0), Source::Condition, None),
        ]
    );
    // Without any store row, the cluster alone still tells the current episode.
    let alone = node_timeline(&[], Some(&rows[0]), None, &[], at(10, 0, 0));
    assert_eq!(
        shape(&alone.episodes),
        [(EpisodeKind::Unhealthy, at(9, 0, 0), Source::Condition, None)]
    );
}

/// Unhealthy from `h:00` for `minutes`, then Suspect 30 minutes, then Clear.
fn repair(h: u32, minutes: i64) -> Vec<Observed> {
    let start = at(h, 0, 0);
    let end = start + Duration::minutes(minutes);
    vec![
        row(start, unhealthy(Some(start))),
        row(end, suspect(end, 30)),
        row(end + Duration::minutes(30), cleared_after(end, 30)),
    ]
}

#[test]
fn flapping_nodes_and_the_mean_time_to_repair_per_pool() {
    let mut flappy = vec![row(at(0, 0, 0), clear())];
    for h in [1, 3, 5, 7] {
        flappy.extend(repair(h, 20));
    }
    let mut steady = vec![row(at(0, 0, 0), clear())];
    steady.extend(repair(2, 60));
    let mut other = repair(4, 10);
    for r in &mut other {
        r.observed.pool = Some("A100".into());
    }
    // Still Unhealthy at the window's end.
    let open = vec![row(at(9, 0, 0), unhealthy(Some(at(9, 0, 0))))];
    let nodes = [
        ("flappy", Some("H100"), flappy.as_slice()),
        ("steady", Some("H100"), steady.as_slice()),
        ("other", Some("A100"), other.as_slice()),
        ("open", Some("H100"), open.as_slice()),
    ];
    let f = nodes_health(nodes, at(0, 30, 0), at(10, 0, 0), 3);
    let counts: Vec<(&str, usize, bool)> = f
        .nodes
        .iter()
        .map(|(n, v)| (n.as_str(), v.episodes, v.flapping))
        .collect();
    assert_eq!(
        counts,
        [
            ("flappy", 4, true),
            ("open", 1, false),
            ("other", 1, false),
            ("steady", 1, false)
        ]
    );
    assert_eq!(f.flapping().len(), 1);
    let h100 = f.pool("H100").unwrap();
    assert_eq!((h100.repairs, h100.open), (5, 1));
    // (4 × 20 + 60) / 5 = 28 minutes.
    assert_eq!(h100.mean, Some(Duration::minutes(28)));
    assert_eq!(f.pool("A100").unwrap().mean, Some(Duration::minutes(10)));
    // A window that starts later sees fewer episodes.
    let late = nodes_health(nodes, at(4, 0, 0), at(10, 0, 0), 1);
    assert_eq!(late.nodes["flappy"].episodes, 2);
    assert!(late.nodes["flappy"].flapping);
}
