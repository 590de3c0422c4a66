//! A scripted sequence of node states replayed into a store through real analyses, with
//! restarts in between: only transitions become rows, and the rows read back as the exact
//! episodes (with the times the conditions give); an older store's repeated rows are removed
//! by the migration.

use std::sync::Arc;

use super::{open, record, temp};
use crate::engine::model::testkit::{at, node};
use crate::engine::model::{ClusterSnapshot, NodeCondition, Time};
use crate::engine::timeline::{episodes, EpisodeKind, Source};
use crate::history::{ClusterKey, HistoryStore};

/// gpu-a and gpu-b with their GpuUnhealthy condition (`None`: absent) and cordon.
fn world(a: Option<(&str, Time)>, a_cordoned: bool, b: Option<(&str, Time)>) -> ClusterSnapshot {
    let condition = |c: Option<(&str, Time)>| {
        c.map(|(status, since)| NodeCondition {
            kind: Arc::from("GpuUnhealthy"),
            status: Arc::from(status),
            last_transition: Some(since),
        })
        .into_iter()
        .collect()
    };
    let mut gpu_a = node("gpu-a", 8);
    gpu_a.conditions = condition(a);
    gpu_a.unschedulable = a_cordoned;
    let mut gpu_b = node("gpu-b", 8);
    gpu_b.conditions = condition(b);
    ClusterSnapshot {
        nodes: vec![gpu_a, gpu_b].into(),
        replicas_listed: true,
        ..ClusterSnapshot::default()
    }
}

type Shape = (EpisodeKind, Time, Source, Option<(Time, Source)>);

fn shape(store: &HistoryStore, key: &ClusterKey, node: &str, now: Time) -> Vec<Shape> {
    let rows = store.node_timeline(key, node).unwrap();
    episodes(&rows, now)
        .into_iter()
        .map(|e| {
            (
                e.kind,
                e.from.at,
                e.from.source,
                e.to.map(|p| (p.at, p.source)),
            )
        })
        .collect()
}

/// Replays the script into the store at `path` under `key`, asserting the rows each step
/// writes; returns the store as the last run left it.
fn replay_script(path: &std::path::Path, key: &ClusterKey) -> HistoryStore {
    let key = key.clone();
    let b_down = Some(("True", at(9, 0, 0)));
    // 10:00, first run: gpu-a healthy, gpu-b Unhealthy since before ome-top ran.
    let mut store = open(path, at(10, 0, 0));
    assert_eq!(
        record(&mut store, &key, &world(None, false, b_down), at(10, 0, 0)),
        2
    );
    let a_down = Some(("True", at(10, 4, 0)));
    assert_eq!(
        record(
            &mut store,
            &key,
            &world(a_down, false, b_down),
            at(10, 5, 0)
        ),
        1
    );
    drop(store);
    // 10:10, a restart finds the same states: nothing written.
    let mut store = open(path, at(10, 10, 0));
    assert_eq!(
        record(
            &mut store,
            &key,
            &world(a_down, false, b_down),
            at(10, 10, 0)
        ),
        0
    );
    let a_up = Some(("False", at(10, 19, 0)));
    assert_eq!(
        record(&mut store, &key, &world(a_up, false, b_down), at(10, 20, 0)),
        1
    );
    for minute in 21..25 {
        let snap = world(a_up, false, b_down);
        assert_eq!(record(&mut store, &key, &snap, at(10, minute, 0)), 0);
    }
    drop(store);
    // 10:25, another restart inside the Suspect window: nothing; then a cordon.
    let mut store = open(path, at(10, 25, 0));
    assert_eq!(
        record(&mut store, &key, &world(a_up, false, b_down), at(10, 25, 0)),
        0
    );
    assert_eq!(
        record(&mut store, &key, &world(a_up, true, b_down), at(10, 30, 0)),
        1
    );
    drop(store);
    // 11:30, ome-top was not running: gpu-a's window ended at 10:49; gpu-b recovered at 10:40
    // and its whole Suspect window passed unseen.
    let b_up = Some(("False", at(10, 40, 0)));
    let mut store = open(path, at(11, 30, 0));
    assert_eq!(
        record(&mut store, &key, &world(a_up, true, b_up), at(11, 30, 0)),
        2
    );
    assert_eq!(
        record(&mut store, &key, &world(a_up, false, b_up), at(11, 35, 0)),
        1
    );
    store
}

#[test]
fn a_scripted_week_with_restarts_reads_back_as_its_exact_episodes() {
    let (_dir, path) = temp();
    let key = ClusterKey::live("https://10.0.0.1:6443", "prod");
    let store = replay_script(&path, &key);
    assert_eq!(store.node_timeline(&key, "gpu-a").unwrap().len(), 6);
    assert_eq!(store.node_timeline(&key, "gpu-b").unwrap().len(), 2);
    assert_eq!(
        store.seen(&key).unwrap(),
        Some(at(11, 35, 0)),
        "last observed"
    );

    let now = at(12, 0, 0);
    assert_eq!(
        shape(&store, &key, "gpu-a", now),
        [
            (
                EpisodeKind::Unhealthy,
                at(10, 4, 0),
                Source::Condition,
                Some((at(10, 19, 0), Source::Condition))
            ),
            (
                EpisodeKind::Suspect,
                at(10, 19, 0),
                Source::Condition,
                Some((at(10, 49, 0), Source::Window))
            ),
            (
                EpisodeKind::Cordoned,
                at(10, 30, 0),
                Source::Observed,
                Some((at(11, 35, 0), Source::Observed))
            ),
        ]
    );
    assert_eq!(
        shape(&store, &key, "gpu-b", now),
        [
            (
                EpisodeKind::Unhealthy,
                at(9, 0, 0),
                Source::Condition,
                Some((at(10, 40, 0), Source::Condition))
            ),
            (
                EpisodeKind::Suspect,
                at(10, 40, 0),
                Source::Condition,
                Some((at(11, 10, 0), Source::Window))
            ),
        ]
    );
    // The health questions over the same rows: one health episode each (more than 0 flaps).
    let health = store.nodes_health(&key, at(0, 0, 0), now, 0).unwrap();
    assert_eq!(health.nodes.len(), 2);
    assert!(health.nodes.values().all(|n| n.episodes == 1 && n.flapping));
    let pool = &health.pools[0];
    assert_eq!((pool.repairs, pool.open), (2, 0));
    // (15 min + 100 min) / 2.
    assert_eq!(pool.mean, Some(chrono::Duration::seconds(57 * 60 + 30)));
}

#[test]
fn the_migration_drops_the_repeated_rows_an_older_store_wrote_at_every_start() {
    let (_dir, path) = temp();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    {
        let mut conn = rusqlite::Connection::open(&path).unwrap();
        let tx = conn.transaction().unwrap();
        tx.execute_batch(crate::history::schema::MIGRATIONS[0])
            .unwrap();
        tx.execute_batch("PRAGMA user_version = 1").unwrap();
        tx.execute("INSERT INTO clusters (key) VALUES ('demo:1')", [])
            .unwrap();
        // One Suspect row per start, each with a later deadline, around a real change
        // (milliseconds after 9:00, inside the retention).
        let base = at(9, 0, 0).timestamp_millis();
        let rows = [
            (1, "Clear", None),
            (2, "Suspect", Some(100)),
            (3, "Suspect", Some(200)),
            (4, "Suspect", Some(300)),
            (5, "Unhealthy", None),
            (6, "Unhealthy", None),
        ];
        for (at, state, until) in rows {
            tx.execute(
                "INSERT INTO node_transitions (cluster_id, node, at_ms, state, \
                 suspect_until_ms, reason, triggers, cordoned) \
                 VALUES (1, 'gpu-a', ?1, ?2, ?3, '', '', 0)",
                rusqlite::params![base + at, state, until.map(|u: i64| base + u)],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }
    let store = open(&path, at(10, 0, 0));
    let rows = store.node_timeline(&ClusterKey::demo(1), "gpu-a").unwrap();
    let kept: Vec<(i64, &str)> = rows
        .iter()
        .map(|r| {
            (
                r.at.timestamp_millis() - at(9, 0, 0).timestamp_millis(),
                r.observed.health.name(),
            )
        })
        .collect();
    assert_eq!(kept, [(1, "Clear"), (2, "Suspect"), (5, "Unhealthy")]);
    assert!(rows
        .iter()
        .all(|r| r.observed.since.is_none() && r.observed.pool.is_none()));
}

#[test]
fn a_demo_run_starts_its_history_fresh() {
    let (_dir, path) = temp();
    let mut store = open(&path, at(10, 0, 0));
    let older_build = ClusterKey::demo(1);
    let first_run = ClusterKey::demo_run(1, at(10, 0, 0));
    let other_seed = ClusterKey::demo_run(2, at(10, 0, 0));
    assert_eq!(first_run.as_str(), "demo:1@20260928T100000Z");
    for key in [&older_build, &first_run, &other_seed] {
        record(&mut store, key, &world(None, false, None), at(10, 0, 0));
    }
    let second_run = ClusterKey::demo_run(1, at(11, 0, 0));
    assert_eq!(store.forget_demo_runs(1, &second_run).unwrap(), 2);
    assert_eq!(
        record(
            &mut store,
            &second_run,
            &world(None, false, None),
            at(11, 0, 0)
        ),
        2
    );
    assert_eq!(store.clusters().unwrap(), [second_run, other_seed]);
    assert!(store.node_timeline(&first_run, "gpu-a").unwrap().is_empty());
    assert_eq!(super::count(&store, "node_transitions"), 4);
}
