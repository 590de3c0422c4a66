//! Maintenance windows, trigger matching, preemptible nodes and aggressiveness weights.

use super::*;
use chrono::{Datelike, NaiveDate};
use std::collections::BTreeMap;

#[test]
fn window_start_is_inclusive_and_end_exclusive() {
    let w = MaintenanceWindow {
        days: vec![Weekday::Sat, Weekday::Sun],
        start_minute: 60,
        end_minute: 300,
    };
    assert!(!w.contains(Weekday::Sat, 59));
    assert!(w.contains(Weekday::Sat, 60));
    assert!(w.contains(Weekday::Sun, 299));
    assert!(!w.contains(Weekday::Sun, 300));
    assert!(!w.contains(Weekday::Mon, 120));
    let mut c = AlfredConfig::default();
    assert!(
        c.defrag_window_open(Weekday::Wed, 720),
        "no windows = always open"
    );
    c.maintenance_windows = vec![w];
    assert!(!c.defrag_window_open(Weekday::Wed, 120));
    assert!(c.defrag_window_open(Weekday::Sat, 120));
    let at = |h, m| {
        NaiveDate::from_ymd_opt(2026, 5, 2)
            .unwrap()
            .and_hms_opt(h, m, 0)
            .unwrap()
            .and_utc()
    };
    assert_eq!(at(1, 0).weekday(), Weekday::Sat);
    assert!(!c.defrag_window_open_at(at(0, 59)));
    assert!(c.defrag_window_open_at(at(1, 0)));
    assert!(c.defrag_window_open_at(at(4, 59)));
    assert!(!c.defrag_window_open_at(at(5, 0)));
}

fn node_facts_match(trigger: &str, node: &NodeFacts<'_>, now: i64) -> bool {
    let yaml = format!(
        "schemaVersion: 1\npolicies: {{nodeHealth: {{maintenance: {{triggers: [{trigger}]}}}}}}"
    );
    let config = parse_ok(&yaml);
    config.policies.node_health.maintenance.triggers[0].matches(node, now)
}

#[test]
fn trigger_matching() {
    let labels: BTreeMap<String, String> = [
        ("state", "patching"),
        ("empty", ""),
        ("start", "1000"),
        ("when", "soon"),
    ]
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .into();
    let conditions = [("Patching".to_owned(), "True".to_owned())];
    let taints = [("swap".to_owned(), "now".to_owned(), "NoSchedule".to_owned())];
    let node = NodeFacts {
        labels: &labels,
        conditions: &conditions,
        taints: &taints,
    };
    let cases = [
        (
            "{name: t, condition: {type: Patching, status: \"True\"}}",
            0,
            true,
        ),
        (
            "{name: t, condition: {type: Patching, status: \"False\"}}",
            0,
            false,
        ),
        (
            "{name: t, condition: {type: Draining, status: \"True\"}}",
            0,
            false,
        ),
        ("{name: t, label: {key: state}}", 0, true),
        ("{name: t, label: {key: state, value: patching}}", 0, true),
        ("{name: t, label: {key: state, value: done}}", 0, false),
        ("{name: t, label: {key: absent}}", 0, false),
        ("{name: t, label: {key: empty, value: \"\"}}", 0, true),
        ("{name: t, label: {key: state, value: \"\"}}", 0, false),
        (
            "{name: t, label: {key: start, valueIsStartTime: true}}",
            999,
            false,
        ),
        (
            "{name: t, label: {key: start, valueIsStartTime: true}}",
            1000,
            true,
        ),
        (
            "{name: t, label: {key: when, valueIsStartTime: true}}",
            0,
            true,
        ),
        (
            "{name: t, label: {key: empty, valueIsStartTime: true}}",
            0,
            true,
        ),
        (
            "{name: t, label: {key: absent, valueIsStartTime: true}}",
            i64::MAX,
            false,
        ),
        ("{name: t, taint: {key: swap}}", 0, true),
        (
            "{name: t, taint: {key: swap, value: now, effect: NoSchedule}}",
            0,
            true,
        ),
        ("{name: t, taint: {key: swap, value: later}}", 0, false),
        ("{name: t, taint: {key: swap, effect: NoExecute}}", 0, false),
        ("{name: t, taint: {key: other}}", 0, false),
    ];
    for (trigger, now, want) in cases {
        assert_eq!(
            node_facts_match(trigger, &node, now),
            want,
            "{trigger} at {now}"
        );
    }
}

#[test]
fn matching_trigger_names_are_sorted() {
    let c = parse_ok(
        "schemaVersion: 1\npolicies: {nodeHealth: {maintenance: {triggers: [\
         {name: zeta, label: {key: a}}, {name: alpha, label: {key: a}}, \
         {name: mid, label: {key: b}}]}}}",
    );
    let labels = BTreeMap::from([("a".to_owned(), "x".to_owned())]);
    let node = NodeFacts {
        labels: &labels,
        conditions: &[],
        taints: &[],
    };
    assert_eq!(c.matching_maintenance_triggers(&node, 0), ["alpha", "zeta"]);
}

#[test]
fn preemptible_means_a_listed_label_not_false() {
    let c = AlfredConfig::default();
    let labels = |k: &str, v: &str| BTreeMap::from([(k.to_owned(), v.to_owned())]);
    assert!(c.is_preemptible(&labels("node.kubernetes.io/preemptible", "true")));
    assert!(c.is_preemptible(&labels("cloud.google.com/gke-preemptible", "")));
    assert!(!c.is_preemptible(&labels("cloud.google.com/gke-preemptible", "false")));
    assert!(!c.is_preemptible(&labels("cloud.google.com/gke-spot", "true")));
    let none = parse_ok("schemaVersion: 1\nspotPolicy: {preemptibleLabels: []}");
    assert!(!none.is_preemptible(&labels("node.kubernetes.io/preemptible", "true")));
}

#[test]
fn aggressiveness_cost_weights() {
    assert_eq!(Aggressiveness::Conservative.cost_weight(), 1.5);
    assert_eq!(Aggressiveness::Balanced.cost_weight(), 1.0);
    assert_eq!(Aggressiveness::Aggressive.cost_weight(), 0.5);
}
