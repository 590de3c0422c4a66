//! The fleet's rows, attention order and fits answer on small hand-built clusters.

use crate::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use crate::engine::model::testkit::{at, node, pod};
use crate::engine::model::ClusterSnapshot;
use crate::report::fleet::*;

fn analysed(snap: &ClusterSnapshot) -> Analysis {
    let opts = AnalysisOptions {
        now: at(10, 0, 0),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Available,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    analyze(snap, &opts)
}

/// Two 8-GPU nodes with 4 and 6 GPUs used (4 + 2 free), one 8-GPU pod pending since 9:00.
fn crowded() -> ClusterSnapshot {
    ClusterSnapshot {
        nodes: vec![node("gpu-a", 8), node("gpu-b", 8)].into(),
        pods: vec![
            pod("x", "a", Some("gpu-a"), 4),
            pod("x", "b", Some("gpu-b"), 6),
            pod("ml", "big", None, 8),
        ]
        .into(),
        replicas_listed: true,
        ..Default::default()
    }
}

/// Three idle 8-GPU nodes.
fn idle() -> ClusterSnapshot {
    ClusterSnapshot {
        nodes: vec![node("gpu-a", 8), node("gpu-b", 8), node("gpu-c", 8)].into(),
        replicas_listed: true,
        ..Default::default()
    }
}

fn answered<'a>(context: &'a str, snap: &'a ClusterSnapshot, a: &'a Analysis) -> ClusterInput<'a> {
    ClusterInput {
        context,
        state: ClusterState::Answered(Answer {
            snapshot: snap,
            analysis: a,
            link: Link::OneShot,
            read_only: true,
            as_of: at(9, 59, 0),
        }),
    }
}

#[test]
fn one_row_per_cluster_and_pool_read_from_the_analysis() {
    let (s1, s2) = (crowded(), idle());
    let (a1, a2) = (analysed(&s1), analysed(&s2));
    let clusters = [
        answered("prod-us", &s2, &a2),
        answered("prod-eu", &s1, &a1),
        ClusterInput {
            context: "prod-ap",
            state: ClusterState::Failed("cluster unreachable: https://127.0.0.1:1: refused"),
        },
    ];
    let rows = fleet_rows(&clusters, at(10, 0, 0));
    let order: Vec<(&str, Attention)> = rows
        .iter()
        .map(|r| (r.context.as_str(), r.attention))
        .collect();
    assert_eq!(
        order,
        [
            ("prod-ap", Attention::Unreachable),
            ("prod-eu", Attention::PodsWaiting),
            ("prod-us", Attention::Fine),
        ]
    );
    let eu = &rows[1];
    let pool = &a1.pools[0];
    assert_eq!(eu.pool.as_deref(), Some(pool.name.as_str()));
    assert_eq!((eu.nodes, eu.gpus_used, eu.gpus_total), (2, 10, 16));
    assert_eq!((eu.schedulable_free, eu.whole_free_nodes), (6, 0));
    assert_eq!(
        (eu.largest_fit_now, eu.largest_fit_after_repack),
        (pool.largest_fit_now, pool.largest_fit_after)
    );
    assert_eq!((eu.pending.pods, eu.pending.largest_gpus), (1, 8));
    assert_eq!(
        (eu.pending.oldest_minutes, eu.pending.no_room_now),
        (60.0, 1)
    );
    assert_eq!((eu.age_seconds, eu.read_only), (60, true));
    assert_eq!(eu.alfred.map(|a| a.mode), Some(None), "no alfred-config");
    assert_eq!(
        rows[0].status,
        RowStatus::Failed("cluster unreachable: https://127.0.0.1:1: refused".into())
    );
    assert_eq!(rows[0].pool, None);
}

fn row(context: &str, pool: &str) -> FleetRow {
    let s = idle();
    let a = analysed(&s);
    let mut rows = fleet_rows(&[answered("x", &s, &a)], at(10, 0, 0));
    let mut r = rows.remove(0);
    r.context = context.into();
    r.pool = Some(pool.into());
    r
}

#[test]
fn attention_puts_what_needs_a_hand_first() {
    let mut failed = row("a", "p");
    failed.status = RowStatus::Failed("no".into());
    let mut stale = row("b", "p");
    stale.status = RowStatus::Stale {
        since: at(9, 0, 0),
        error: "x".into(),
    };
    let mut blocked = row("c", "p");
    if let Some(a) = blocked.alfred.as_mut() {
        a.stalled_entries = 1;
    }
    let mut waiting_long = row("d", "p");
    waiting_long.pending = Pending {
        pods: 2,
        largest_gpus: 8,
        oldest_minutes: 90.0,
        no_room_now: 2,
    };
    let mut waiting_more = waiting_long.clone();
    waiting_more.context = "e".into();
    waiting_more.pending.pods = 3;
    waiting_more.pending.oldest_minutes = 5.0;
    let mut failing = row("f", "p");
    failing.not_clear.unhealthy = 1;
    let mut fragmented = row("g", "p");
    fragmented.above_threshold = true;
    let mut suspect = row("h", "p");
    suspect.not_clear.maintenance = 1;
    let (fine_b, fine_a) = (row("i", "b"), row("i", "a"));
    let mut rows = vec![
        fine_b,
        suspect,
        fragmented,
        fine_a,
        failing,
        waiting_long,
        waiting_more,
        blocked,
        stale,
        failed,
    ];
    for r in &mut rows {
        r.attention = attention::attention_of(r);
    }
    attention_order(&mut rows);
    let got: Vec<String> = rows
        .iter()
        .map(|r| format!("{}/{}", r.context, r.pool.as_deref().unwrap_or("-")))
        .collect();
    assert_eq!(
        got,
        ["a/p", "b/p", "c/p", "e/p", "d/p", "f/p", "g/p", "h/p", "i/a", "i/b"]
    );
}

#[test]
fn fits_name_the_pools_now_and_after_the_repack() {
    let (s1, s2) = (crowded(), idle());
    let (a1, a2) = (analysed(&s1), analysed(&s2));
    let clusters = [
        answered("prod-eu", &s1, &a1),
        answered("prod-us", &s2, &a2),
        ClusterInput {
            context: "prod-ap",
            state: ClusterState::Connecting,
        },
    ];
    let lines = fits_lines(&clusters);
    let eight = lines.iter().find(|l| l.gpus == 8).unwrap();
    let pool = &a2.pools[0].name;
    assert_eq!(
        eight.to_string(),
        format!(
            "8 GPUs: fits now in: prod-us/{pool} (3); after repack also: none; \
             not known: prod-ap (connecting)"
        )
    );
    let four = lines.iter().find(|l| l.gpus == 4).unwrap();
    assert_eq!(
        four.now
            .iter()
            .map(|p| (p.context.as_str(), p.room))
            .collect::<Vec<_>>(),
        [("prod-us", Some(6)), ("prod-eu", Some(1))]
    );
    assert!(lines.windows(2).all(|w| w[0].gpus < w[1].gpus));
}

#[test]
fn stale_and_connecting_clusters_are_not_counted_where_a_request_fits() {
    let (s1, s2) = (crowded(), idle());
    let (a1, a2) = (analysed(&s1), analysed(&s2));
    let mut stale = answered("prod-eu", &s1, &a1);
    if let ClusterState::Answered(a) = &mut stale.state {
        a.link = Link::Reconnecting {
            since: at(9, 58, 0),
            error: "connection reset",
        };
    }
    let clusters = [
        stale,
        answered("prod-us", &s2, &a2),
        ClusterInput {
            context: "prod-ap",
            state: ClusterState::Connecting,
        },
    ];
    let rows = fleet_rows(&clusters, at(10, 0, 0));
    let order: Vec<(&str, Attention)> = rows
        .iter()
        .map(|r| (r.context.as_str(), r.attention))
        .collect();
    assert_eq!(
        order,
        [
            ("prod-eu", Attention::Stale),
            ("prod-ap", Attention::Connecting),
            ("prod-us", Attention::Fine),
        ]
    );
    assert_eq!(rows[0].pending.pods, 1, "a stale row keeps its last data");
    let lines = fits_lines(&clusters);
    assert!(lines.iter().all(|l| l
        .now
        .iter()
        .chain(&l.after_repack)
        .all(|p| p.context == "prod-us")));
    assert_eq!(
        lines[0].unknown,
        [
            ("prod-eu".to_string(), "stale data"),
            ("prod-ap".to_string(), "connecting")
        ]
    );
    let text = table::fleet_table(&rows, &lines);
    assert!(
        text.contains("  - prod-eu: reconnecting: connection reset\n  - prod-ap: initial lists not complete\n"),
        "{text}"
    );
    assert_eq!(text.matches("prod-eu: reconnecting").count(), 1, "{text}");
}
