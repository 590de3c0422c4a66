//! Unit tests of the node record reader: the spec's E2 record, an E1 record, tolerated unknown
//! and mistyped members, non-object records and wire enum round trips.

use super::*;

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn parse(text: &str) -> (Result<NodeRecord, ValueError>, Vec<String>) {
    let mut w = Vec::new();
    (parse_node_record("node.gpu-a", text, &mut w), w)
}

const E2_RECORD: &str = r#"{
      "nodeUID": "0c1d…",
      "state": "Suspect",
      "conditions": [{"type":"GpuUnhealthy","status":"False","lastTransitionTime":"2026-09-28T09:58:10Z"}],
      "suspectUntil": "2026-09-28T10:28:10Z",
      "maintenance": {"requested": true, "triggers": ["os-patching"]},
      "workloads": ["prod/chat","team-b/summarize"],
      "omeGpuOccupantsPresent": true,
      "observedAt": "2026-09-28T10:15:01.003Z",
      "signaledAt": "2026-09-28T09:41:31.200Z",
      "maintenanceRequestedAt": "2026-09-28T10:05:00.911Z"
    }"#;

#[test]
fn spec_record_parses_every_field() {
    let (rec, w) = parse(E2_RECORD);
    assert!(w.is_empty(), "{w:?}");
    let expected = NodeRecord {
        node_uid: Some("0c1d…".into()),
        state: Some("Suspect".into()),
        conditions: vec![NodeCondition {
            type_: "GpuUnhealthy".into(),
            status: Some("False".into()),
            last_transition_time: Some(t("2026-09-28T09:58:10Z")),
            extra: Map::new(),
        }],
        suspect_until: Some(t("2026-09-28T10:28:10Z")),
        maintenance: Some(NodeMaintenance {
            requested: true,
            triggers: vec!["os-patching".into()],
            extra: Map::new(),
        }),
        workloads: vec!["prod/chat".into(), "team-b/summarize".into()],
        ome_gpu_occupants_present: true,
        observed_at: Some(t("2026-09-28T10:15:01.003Z")),
        signaled_at: Some(t("2026-09-28T09:41:31.200Z")),
        drained_at: None,
        maintenance_requested_at: Some(t("2026-09-28T10:05:00.911Z")),
        maintenance_drained_at: None,
        extra: Map::new(),
    };
    let rec = rec.unwrap();
    assert_eq!(rec, expected);
    assert_eq!(rec.state_kind(), Some(NodeState::Suspect));
    let since = t("2026-09-28T09:41:31.200Z");
    assert_eq!(rec.repair_phase(), EpisodePhase::Open { since });
    let since = t("2026-09-28T10:05:00.911Z");
    assert_eq!(rec.maintenance_phase(), EpisodePhase::Open { since });
}

#[test]
fn e1_record_without_uid_and_maintenance_parses() {
    let text = r#"{"state":"Unhealthy",
          "conditions":[{"type":"GpuUnhealthy","status":"True","lastTransitionTime":"2025-01-01T00:00:00Z"}],
          "workloads":["prod/chat"],"observedAt":"2025-01-01T00:01:00Z",
          "signaledAt":"2025-01-01T00:00:30Z","drainedAt":"2025-01-01T00:00:45Z"}"#;
    let (rec, w) = parse(text);
    assert!(w.is_empty(), "{w:?}");
    let rec = rec.unwrap();
    assert_eq!(rec.node_uid, None);
    assert_eq!(rec.maintenance, None);
    assert_eq!(rec.maintenance_requested_at, None);
    assert!(!rec.ome_gpu_occupants_present);
    assert_eq!(rec.state_kind(), Some(NodeState::Unhealthy));
    let (since, drained) = (Some(t("2025-01-01T00:00:30Z")), t("2025-01-01T00:00:45Z"));
    assert_eq!(rec.repair_phase(), EpisodePhase::Drained { since, drained });
    assert_eq!(rec.maintenance_phase(), EpisodePhase::None);
}

#[test]
fn unknown_and_wrong_typed_members_are_kept_with_warnings() {
    let text = r#"{"state":"Cordoned","observedAt":"yesterday","workloads":["a",1],
          "cordonedForMaintenance":"rule-1","omeGpuOccupantsPresent":null,
          "maintenance":{"requested":"yes","triggers":["x"],"cordon":true},
          "conditions":[{"status":"True"},7,{"type":"Ready","status":"Weird","lastTransitionTime":"0001-01-01T00:00:00Z","reason":"r"}]}"#;
    let (rec, w) = parse(text);
    let rec = rec.unwrap();
    assert_eq!(rec.state_kind(), Some(NodeState::Other("Cordoned".into())));
    assert_eq!(rec.observed_at, None);
    assert_eq!(rec.extra["observedAt"], "yesterday");
    assert_eq!(rec.extra["workloads"], serde_json::json!(["a", 1]));
    assert_eq!(rec.extra["cordonedForMaintenance"], "rule-1");
    assert!(rec.workloads.is_empty());
    let m = rec.maintenance.unwrap();
    assert!(!m.requested);
    assert_eq!(m.extra["requested"], "yes");
    assert_eq!(m.extra["cordon"], true);
    assert_eq!(rec.conditions.len(), 1);
    let c = &rec.conditions[0];
    assert_eq!(
        (c.type_.as_str(), c.status.as_deref()),
        ("Ready", Some("Weird"))
    );
    assert_eq!(c.last_transition_time, Some(t("0001-01-01T00:00:00Z")));
    assert_eq!(c.extra["reason"], "r");
    let joined = w.join("\n");
    for needle in [
        "node.gpu-a: `observedAt` is not an RFC 3339 timestamp",
        "node.gpu-a: `workloads` is not an array of strings",
        "node.gpu-a: maintenance: `requested` is not a boolean",
        "node.gpu-a: conditions[0] has no `type`; skipped",
        "node.gpu-a: conditions[1] is a number; skipped",
    ] {
        assert!(joined.contains(needle), "missing {needle:?} in {joined}");
    }
}

#[test]
fn non_object_and_non_json_records_are_errors() {
    let (rec, _) = parse("[1,2]");
    assert_eq!(
        rec.unwrap_err().to_string(),
        "node.gpu-a: JSON is an array, not an object"
    );
    let (rec, _) = parse("state: Suspect");
    assert!(rec
        .unwrap_err()
        .to_string()
        .starts_with("node.gpu-a: not valid JSON"));
}

#[test]
fn wire_enum_round_trips() {
    for s in ["Clear", "Unhealthy", "Unknown", "Suspect", "Cordoned", ""] {
        assert_eq!(NodeState::from_wire(s).as_str(), s);
    }
}
