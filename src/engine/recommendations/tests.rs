//! Unit tests of the recommendations reader: the §1.4 example documents and row builders here,
//! the cases by topic in `tests/`.

use super::*;
use chrono::{DateTime, Utc};
use serde_json::Map;

mod configmap;
mod props;
mod rows;

const EXECUTE_EXAMPLE: &str = r#"{
      "timestamp": "2026-09-28T10:15:02.418093721Z",
      "mode": "execute",
      "recommendations": [
        {"workload":"prod/chat","component":"engine","instance":3,"policy":"nodehealth","reason":"NodeUnhealthy",
         "outcome":"submitted","fromNode":"gpu-a","hintTargets":["gpu-c","gpu-d"],"score":0.5,
         "dispatchStatus":"submitted","requestUUID":"7c9e6679-7425-40de-944b-e07fc1f90ae7","dispatchReason":"RequestSubmitted"},
        {"workload":"prod/embed","component":"engine","instance":0,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"withheld","fromNode":"gpu-b","target":"gpu-e","hintTargets":["gpu-e","gpu-f"],"score":0.2925,
         "dispatchStatus":"withheld","dispatchReason":"SerialDispatchLimit"},
        {"workload":"team-b/summarize","component":"engine","instance":1,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"rejected","rejectReason":"Cooldown","fromNode":"gpu-b","hintTargets":["gpu-e"],"score":0.131},
        {"workload":"prod/rerank","component":"engine","instance":0,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"advisory","advisoryReason":"NonExecutableObservedFragmentation","fromNode":"gpu-a","score":-0.15},
        {"workload":"prod/big","component":"engine","instance":0,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"advisory","advisoryReason":"NoSurgeHeadroom","fromNode":"gpu-g","score":0},
        {"workload":"legacy/llm","component":"engine","instance":2,"policy":"nodehealth","reason":"NodeUnhealthy",
         "outcome":"advisory","advisoryReason":"RawDeploymentMigrationUnsupported","fromNode":"gpu-a","score":0.5},
        {"workload":"prod/pvc-model","component":"engine","instance":-1,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"advisory","advisoryReason":"VolumePinned","fromNode":"gpu-h","score":0}
      ]
    }"#;

const RECOMMEND_ONLY_ROW: &str = r#"{"workload":"prod/chat","component":"engine","instance":3,"policy":"defragmentation","reason":"Fragmentation",
     "outcome":"advisory","advisoryReason":"SimulationRecommendOnly","fromNode":"node-a","hintTargets":["node-c","node-d"],
     "score":0.2925,
     "scheduling":{"schedulerName":"default-scheduler","backend":"kube-v135","schedulerVersion":"v1.35.4",
       "configurationID":"sha256:…","status":"Feasible","reason":"PlacementFound",
       "snapshotID":"…","snapshotTime":"2026-09-28T10:15:01Z",
       "placements":[{"pod":{"namespace":"prod","name":"chat-engine-…"},"nodeName":"node-c"}]}}"#;

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// `Some(v)` as a string or a vocabulary value.
fn s<T: for<'a> From<&'a str>>(v: &str) -> Option<T> {
    Some(T::from(v))
}

fn cycle(text: &str) -> (LastCycle, Vec<String>) {
    let mut w = Vec::new();
    let c = parse_last_cycle(text, &mut w).unwrap();
    (c, w)
}

fn one_row(row: &str) -> (Row, Vec<String>) {
    let doc = format!(
        r#"{{"timestamp":"2026-09-28T10:15:02Z","mode":"recommend-only","recommendations":[{row}]}}"#
    );
    let (c, w) = cycle(&doc);
    assert_eq!(c.rows().len(), 1, "{w:?}");
    (c.rows()[0].clone(), w)
}

fn row(w: &str, i: i32, policy: &str, reason: &str, outcome: &str, from: &str, score: f64) -> Row {
    Row {
        workload: w.into(),
        component: "engine".into(),
        instance: i,
        policy: policy.into(),
        reason: reason.into(),
        outcome: outcome.into(),
        score,
        advisory_reason: None,
        reject_reason: None,
        from_node: s(from),
        target: None,
        hint_targets: Vec::new(),
        emergency: false,
        cooldown_overridden: false,
        dispatch_status: None,
        request_uuid: None,
        dispatch_reason: None,
        withhold_reason: None,
        scheduling: None,
        extra: Map::new(),
    }
}

fn hints(h: &[&str]) -> Vec<String> {
    h.iter().map(|x| x.to_string()).collect()
}

fn advice(w: &str, i: i32, policy: &str, reason: &str, adv: &str, from: &str, sc: f64) -> Row {
    Row {
        advisory_reason: s(adv),
        ..row(w, i, policy, reason, "advisory", from, sc)
    }
}

/// The seven rows of the §1.4 example, every field spelled out.
fn execute_example_rows() -> Vec<Row> {
    let (d, h, fr, nu) = (
        "defragmentation",
        "nodehealth",
        "Fragmentation",
        "NodeUnhealthy",
    );
    vec![
        Row {
            hint_targets: hints(&["gpu-c", "gpu-d"]),
            dispatch_status: s("submitted"),
            request_uuid: s("7c9e6679-7425-40de-944b-e07fc1f90ae7"),
            dispatch_reason: s("RequestSubmitted"),
            ..row("prod/chat", 3, h, nu, "submitted", "gpu-a", 0.5)
        },
        Row {
            target: s("gpu-e"),
            hint_targets: hints(&["gpu-e", "gpu-f"]),
            dispatch_status: s("withheld"),
            dispatch_reason: s("SerialDispatchLimit"),
            ..row("prod/embed", 0, d, fr, "withheld", "gpu-b", 0.2925)
        },
        Row {
            reject_reason: s("Cooldown"),
            hint_targets: hints(&["gpu-e"]),
            ..row("team-b/summarize", 1, d, fr, "rejected", "gpu-b", 0.131)
        },
        advice(
            "prod/rerank",
            0,
            d,
            fr,
            "NonExecutableObservedFragmentation",
            "gpu-a",
            -0.15,
        ),
        advice("prod/big", 0, d, fr, "NoSurgeHeadroom", "gpu-g", 0.0),
        advice(
            "legacy/llm",
            2,
            h,
            nu,
            "RawDeploymentMigrationUnsupported",
            "gpu-a",
            0.5,
        ),
        advice("prod/pvc-model", -1, d, fr, "VolumePinned", "gpu-h", 0.0),
    ]
}

fn data(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

const NODE_TEXT: &str = r#"{"nodeUID":"u","state":"Suspect","conditions":[{"type":"GpuUnhealthy",
      "status":"False","lastTransitionTime":"2026-09-28T09:58:10Z"}],"maintenance":{"requested":true,
      "triggers":["os"]},"workloads":["a/b"],"observedAt":"2026-09-28T10:15:01.003Z"}"#;
