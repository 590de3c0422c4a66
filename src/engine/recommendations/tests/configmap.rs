//! The whole ConfigMap (node keys, unknown keys, a bad `last-cycle.json`), freshness boundaries,
//! row identity and the display order.

use super::*;
use chrono::TimeDelta;
use std::collections::BTreeMap;
use std::time::Duration;

#[test]
fn whole_configmap_with_bad_last_cycle_still_reads_nodes() {
    let hashed = format!("node-hash.very-long-name.{}", "ab".repeat(32));
    let d = data(&[
        ("last-cycle.json", "recommendations: []"),
        (
            "node.ip-10-0-0-1.ec2.internal",
            r#"{"nodeUID":"u1","state":"Unhealthy"}"#,
        ),
        (&hashed, r#"{"nodeUID":"u2","state":"Unknown"}"#),
        ("node.gpu-z", "[]"),
        ("recommendations.json", "{}"),
        ("node.", "{}"),
    ]);
    let r = parse_recommendations(&d);
    let err = r.last_cycle.clone().unwrap().unwrap_err().to_string();
    assert!(err.starts_with("last-cycle.json: not valid JSON:"), "{err}");
    assert_eq!(r.nodes.len(), 3);
    assert_eq!(r.nodes[0].key, hashed);
    assert_eq!(r.nodes[0].node_name, None);
    assert_eq!(
        r.nodes[0].record.as_ref().unwrap().node_uid.as_deref(),
        Some("u2")
    );
    assert_eq!(r.nodes[1].node_name.as_deref(), Some("gpu-z"));
    assert_eq!(
        r.nodes[1].record.as_ref().map_err(ToString::to_string),
        Err("node.gpu-z: JSON is an array, not an object".into())
    );
    assert_eq!(
        r.nodes[2].node_name.as_deref(),
        Some("ip-10-0-0-1.ec2.internal")
    );
    assert_eq!(r.unknown_keys, ["node.", "recommendations.json"]);
    assert!(r.warnings.is_empty());
    let not_object = parse_recommendations(&data(&[("last-cycle.json", "null")])).last_cycle;
    assert_eq!(
        not_object.map(|r| r.map_err(|e| e.to_string()).map(drop)),
        Some(Err("last-cycle.json: JSON is null, not an object".into()))
    );
    assert_eq!(parse_recommendations(&BTreeMap::new()).last_cycle, None);
}

#[test]
fn freshness_boundaries() {
    let ts = t("2026-09-28T10:15:00Z");
    let interval = Duration::from_secs(30);
    let f = freshness(ts, interval, t("2026-09-28T10:16:00Z"));
    assert_eq!(
        f,
        Freshness {
            age: TimeDelta::seconds(60),
            stale: false,
            clock_skew: false
        }
    );
    let f = freshness(ts, interval, t("2026-09-28T10:16:00.000000001Z"));
    assert!(f.stale && !f.clock_skew);
    let f = freshness(ts, interval, t("2026-09-28T10:14:59Z"));
    assert_eq!(
        f,
        Freshness {
            age: TimeDelta::seconds(-1),
            stale: false,
            clock_skew: true
        }
    );
    let f = freshness(ts, interval, ts);
    assert!(!f.stale && !f.clock_skew);
    let f = freshness(ts, Duration::MAX, t("9999-01-01T00:00:00Z"));
    assert!(!f.stale, "an unrepresentable limit is never stale");
}

#[test]
fn identity_and_display_order() {
    let (c, _) = cycle(EXECUTE_EXAMPLE);
    let mut rows = c.rows().to_vec();
    let id = row_identity(&rows[0]);
    assert_eq!(
        id,
        (
            "nodehealth",
            "prod/chat",
            "engine",
            3,
            Some("gpu-a"),
            "NodeUnhealthy"
        )
    );
    let mut maint = row(
        "z/m",
        0,
        "nodehealth",
        "NodeMaintenance",
        "advisory",
        "gpu-x",
        9.0,
    );
    maint.from_node = None;
    rows.push(maint);
    rows.push(row(
        "a/neg-zero",
        0,
        "defragmentation",
        "Fragmentation",
        "advisory",
        "n",
        -0.0,
    ));
    sort_rows_for_display(&mut rows);
    let order: Vec<(&str, i32)> = rows
        .iter()
        .map(|r| (r.workload.as_str(), r.instance))
        .collect();
    let expected = [
        ("legacy/llm", 2),
        ("prod/chat", 3),
        ("z/m", 0),
        ("prod/embed", 0),
        ("team-b/summarize", 1),
        ("a/neg-zero", 0),
        ("prod/big", 0),
        ("prod/pvc-model", -1),
        ("prod/rerank", 0),
    ];
    assert_eq!(order, expected);
    assert_eq!(row_identity(&rows[2]).4, None);
}
