//! Rows of `last-cycle.json`: the spec examples field by field, null/absent recommendations,
//! unknown enum strings and fields, E1 rows, and skipped malformed rows.

use super::*;
use serde_json::json;

#[test]
fn execute_example_parses_every_row_and_field() {
    let (c, w) = cycle(EXECUTE_EXAMPLE);
    assert!(w.is_empty(), "{w:?}");
    let ts = c.timestamp.unwrap();
    assert_eq!(
        (ts, ts.timestamp_subsec_nanos()),
        (t("2026-09-28T10:15:02.418093721Z"), 418_093_721)
    );
    assert_eq!((&c.mode, c.extra.len()), (&Some(Mode::Execute), 0));
    assert_eq!(c.recommendations, Some(execute_example_rows()));
    let r = c.rows();
    assert_eq!(r[0].target, None, "journal-driven row has no target");
    let kinds = (&r[0].outcome, &r[0].policy, &r[0].reason);
    assert_eq!(
        kinds,
        (
            &Outcome::Submitted,
            &Policy::NodeHealth,
            &Reason::NodeUnhealthy
        )
    );
    assert_eq!(r[0].dispatch_status, Some(DispatchStatus::Submitted));
    assert_eq!(r[0].dispatch_reason, Some(DispatchReason::RequestSubmitted));
    assert_eq!(r[2].reject_reason, Some(RejectReason::Cooldown));
    let adv = AdvisoryReason::NonExecutableObservedFragmentation;
    assert_eq!(r[3].advisory_reason, Some(adv));
    assert_eq!((r[3].score, r[6].instance), (-0.15, -1));
}

#[test]
fn recommend_only_row_with_scheduling_and_placements() {
    let (r, w) = one_row(RECOMMEND_ONLY_ROW);
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(
        r.advisory_reason,
        Some(AdvisoryReason::SimulationRecommendOnly)
    );
    assert_eq!(r.hint_targets, hints(&["node-c", "node-d"]));
    let pod = PodRef {
        namespace: s("prod"),
        name: s("chat-engine-…"),
        uid: None,
        extra: Map::new(),
    };
    let expected = Scheduling {
        status: s("Feasible"),
        reason: s("PlacementFound"),
        scheduler_name: s("default-scheduler"),
        backend: s("kube-v135"),
        scheduler_version: s("v1.35.4"),
        configuration_id: s("sha256:…"),
        snapshot_id: s("…"),
        snapshot_time: Some(t("2026-09-28T10:15:01Z")),
        placements: vec![Placement {
            pod: Some(pod),
            node_name: s("node-c"),
            extra: Map::new(),
        }],
        extra: Map::new(),
    };
    assert_eq!(r.scheduling.as_ref(), Some(&expected));
    assert_eq!(expected.status, Some(SchedulingStatus::Feasible));
}

#[test]
fn default_install_omenative_unavailable_row() {
    let (r, w) = one_row(
        r#"{"workload":"prod/chat","component":"engine","instance":0,"policy":"defragmentation",
            "reason":"Fragmentation","outcome":"advisory","advisoryReason":"OMENativeUnavailable",
            "fromNode":"gpu-a","score":0,"scheduling":{"schedulerName":"default-scheduler",
            "status":"Unavailable","reason":"ProfileNotConfigured"}}"#,
    );
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(
        r.advisory_reason,
        Some(AdvisoryReason::OmeNativeUnavailable)
    );
    assert!(r.hint_targets.is_empty());
    assert_eq!(r.score, 0.0);
    let sch = r.scheduling.unwrap();
    assert_eq!(sch.status, Some(SchedulingStatus::Unavailable));
    assert_eq!(sch.reason.as_deref(), Some("ProfileNotConfigured"));
    assert_eq!(sch.scheduler_name.as_deref(), Some("default-scheduler"));
    assert!(sch.placements.is_empty() && sch.backend.is_none() && sch.snapshot_time.is_none());
}

#[test]
fn null_and_absent_recommendations() {
    let (c, w) =
        cycle(r#"{"timestamp":"2026-09-28T10:15:02Z","mode":"execute","recommendations":null}"#);
    assert!(w.is_empty() && c.recommendations.is_none() && c.rows().is_empty());
    let (c, w) = cycle(r#"{"timestamp":"2026-09-28T10:15:02Z"}"#);
    assert!(c.recommendations.is_none() && c.mode.is_none());
    assert_eq!(
        w,
        ["last-cycle.json: no `recommendations` member; treated as null"]
    );
    let (c, w) = cycle(r#"{"recommendations":[]}"#);
    assert_eq!((c.recommendations, c.timestamp), (Some(vec![]), None));
    assert_eq!(
        w,
        ["last-cycle.json: no `timestamp`; freshness cannot be judged"]
    );
}

#[test]
fn unknown_enum_strings_and_unknown_fields_are_kept() {
    let doc = r#"{"timestamp":"2026-09-28T10:15:02Z","mode":"dry-run","generation":7,
          "recommendations":[{"workload":"p/w","component":"engine","instance":1,"policy":"tpuslice",
          "reason":"Preemption","outcome":"admitted","advisoryReason":"AcceleratorPlacementUnmodeled",
          "dispatchStatus":"prepared","score":1.5,"sliceTopology":"2x2",
          "scheduling":{"status":"Ready","reason":"ProfileSelected","zone":"a",
            "placements":[{"pod":{"namespace":"p","name":"x","uid":"u1","ip":"10.0.0.1"},"nodeName":"n","rank":0},"junk"]}}]}"#;
    let (c, w) = cycle(doc);
    assert_eq!(c.mode, Some(Mode::Unknown(Box::new("dry-run".into()))));
    assert_eq!(c.extra["generation"], 7);
    let r = &c.rows()[0];
    assert_eq!(r.policy, Policy::Unknown(Box::new("tpuslice".into())));
    assert_eq!(r.reason, Reason::Unknown(Box::new("Preemption".into())));
    assert_eq!(r.reason.class(), 0);
    // E1's reserved `admitted` is the outcome ome-top computes for the next move.
    assert_eq!(r.outcome, Outcome::Admitted);
    let adv = AdvisoryReason::Unknown(Box::new("AcceleratorPlacementUnmodeled".into()));
    assert_eq!(r.advisory_reason, Some(adv));
    assert_eq!(
        r.dispatch_status,
        Some(DispatchStatus::Unknown(Box::new("prepared".into())))
    );
    assert_eq!(r.extra["sliceTopology"], "2x2");
    let sch = r.scheduling.as_ref().unwrap();
    assert_eq!(
        sch.status,
        Some(SchedulingStatus::Unknown(Box::new("Ready".into())))
    );
    assert_eq!(sch.extra["zone"], "a");
    assert_eq!(sch.placements.len(), 1);
    assert_eq!(sch.placements[0].extra["rank"], 0);
    let pod = sch.placements[0].pod.as_ref().unwrap();
    assert_eq!(
        (pod.uid.as_deref(), &pod.extra["ip"]),
        (Some("u1"), &json!("10.0.0.1"))
    );
    let skipped = "last-cycle.json: recommendations[0]: scheduling: placements[1] is a string";
    assert_eq!(w.len(), 1);
    assert!(w[0].starts_with(skipped), "{w:?}");
}

#[test]
fn e1_row_with_withhold_reason() {
    let (r, w) = one_row(
        r#"{"workload":"prod/chat","component":"engine","instance":0,"policy":"defragmentation",
            "reason":"Fragmentation","outcome":"withheld","withholdReason":"DispatcherUnavailable",
            "fromNode":"gpu-b","target":"gpu-e","score":0.3}"#,
    );
    assert!(w.is_empty());
    assert_eq!(
        r.withhold_reason,
        Some(WithholdReason::DispatcherUnavailable)
    );
    assert_eq!(
        (&r.dispatch_status, r.target.as_deref()),
        (&None, Some("gpu-e"))
    );
    assert!(r.extra.is_empty());
}

#[test]
fn bad_rows_are_skipped_with_index_and_reason() {
    let doc = r#"{"timestamp":"2026-09-28T10:15:02Z","mode":"execute","recommendations":[
          42, {"workload":"a/b","component":"engine","policy":"defragmentation","reason":"Fragmentation","outcome":"advisory","score":0},
          {"workload":"a/b","component":"engine","instance":3000000000,"policy":"defragmentation","reason":"Fragmentation","outcome":"advisory","score":"high"},
          {"workload":"a/c","component":"engine","instance":1,"policy":"defragmentation","reason":"Fragmentation","outcome":"advisory","score":0,"emergency":"yes"}]}"#;
    let (c, w) = cycle(doc);
    assert_eq!(c.rows().len(), 1);
    assert_eq!(c.rows()[0].extra["emergency"], "yes");
    assert!(!c.rows()[0].emergency);
    assert_eq!(
        w[0],
        "last-cycle.json: recommendations[0] is a number; skipped"
    );
    assert_eq!(
        w[1],
        "last-cycle.json: recommendations[1] skipped: missing or invalid instance"
    );
    let two = "last-cycle.json: recommendations[2] skipped: missing or invalid instance, score";
    assert_eq!(w[2], two);
    assert!(w[3].starts_with("last-cycle.json: recommendations[3]: `emergency` is not a boolean"));
    assert_eq!(w.len(), 4);
}
