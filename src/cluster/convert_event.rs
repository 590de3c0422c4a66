//! Conversion of Events in both shapes the API server serves them into the engine's `Event`:
//! `v1` Events (`message`, `involvedObject`, `count`, `lastTimestamp`) and `events.k8s.io/v1`
//! Events (`note`, `regarding`, `series`, `deprecatedLastTimestamp`, `deprecatedCount`), the
//! shape kube-scheduler writes FailedScheduling in. Both are views of one stored object (the
//! server converts field for field), so the same event read through either gives the same
//! model value.
//!
//! Owns: `event`, `events_v1_event`. Pure functions.

use chrono::DateTime;
use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::events::v1 as events;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta, Time};

use crate::cluster::convert::{time, Interner};
use crate::engine::model::Event;

/// A `MicroTime` to the second (what the core converter has always kept).
fn seconds(t: &MicroTime) -> Option<crate::engine::model::Time> {
    DateTime::from_timestamp(t.0.as_second(), 0)
}

/// The fields both shapes carry, under neutral names.
struct Parts<'a> {
    meta: &'a ObjectMeta,
    regarding: Option<&'a core::ObjectReference>,
    reason: Option<&'a str>,
    message: Option<&'a str>,
    source: Option<&'a str>,
    kind: Option<&'a str>,
    /// `(series.lastObservedTime, series.count)`.
    series: (Option<&'a MicroTime>, Option<i32>),
    last: Option<&'a Time>,
    event_time: Option<&'a MicroTime>,
    first: Option<&'a Time>,
    count: Option<i32>,
}

fn build(i: &mut Interner, p: Parts<'_>) -> Event {
    let obj = p.regarding;
    let name = |i: &mut Interner, f: fn(&core::ObjectReference) -> Option<&String>| {
        i.name(obj.and_then(f).map_or("", String::as_str))
    };
    Event {
        namespace: i.name(p.meta.namespace.as_deref().unwrap_or_default()),
        object_kind: name(i, |o| o.kind.as_ref()),
        object_namespace: name(i, |o| o.namespace.as_ref()),
        object_name: name(i, |o| o.name.as_ref()),
        reason: i.name(p.reason.unwrap_or_default()),
        message: p.message.unwrap_or_default().to_string(),
        source: i.name(p.source.unwrap_or_default()),
        kind: i.name(p.kind.unwrap_or_default()),
        // A repeated event (the scheduler's) moves `series.lastObservedTime`.
        last_seen: p
            .series
            .0
            .and_then(seconds)
            .or_else(|| p.last.and_then(time))
            .or_else(|| p.event_time.and_then(seconds))
            .or_else(|| p.first.and_then(time)),
        count: i64::from(p.series.1.or(p.count).unwrap_or(1)),
    }
}

/// Converts a `v1` Event.
pub fn event(i: &mut Interner, e: &core::Event) -> Event {
    let series = e.series.as_ref();
    let parts = Parts {
        meta: &e.metadata,
        regarding: Some(&e.involved_object),
        reason: e.reason.as_deref(),
        message: e.message.as_deref(),
        source: e
            .source
            .as_ref()
            .and_then(|s| s.component.as_deref())
            .or(e.reporting_component.as_deref()),
        kind: e.type_.as_deref(),
        series: (
            series.and_then(|s| s.last_observed_time.as_ref()),
            series.and_then(|s| s.count),
        ),
        last: e.last_timestamp.as_ref(),
        event_time: e.event_time.as_ref(),
        first: e.first_timestamp.as_ref(),
        count: e.count,
    };
    build(i, parts)
}

/// Converts an `events.k8s.io/v1` Event.
pub fn events_v1_event(i: &mut Interner, e: &events::Event) -> Event {
    let series = e.series.as_ref();
    let parts = Parts {
        meta: &e.metadata,
        regarding: e.regarding.as_ref(),
        reason: e.reason.as_deref(),
        message: e.note.as_deref(),
        source: e
            .deprecated_source
            .as_ref()
            .and_then(|s| s.component.as_deref())
            .or(e.reporting_controller.as_deref()),
        kind: e.type_.as_deref(),
        series: (
            series.map(|s| &s.last_observed_time),
            series.map(|s| s.count),
        ),
        last: e.deprecated_last_timestamp.as_ref(),
        event_time: e.event_time.as_ref(),
        first: e.deprecated_first_timestamp.as_ref(),
        count: e.deprecated_count,
    };
    build(i, parts)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // Tests may fail loudly.

    use super::*;
    use serde_json::json;

    #[test]
    fn one_event_read_through_either_api_is_one_model_value() {
        // The scheduler's repeated FailedScheduling as each API serves it.
        let v1: events::Event = serde_json::from_value(json!({
            "metadata": {"name": "p.1", "namespace": "serving", "uid": "u"},
            "regarding": {"kind": "Pod", "namespace": "serving", "name": "p"},
            "reason": "FailedScheduling", "type": "Warning", "action": "Scheduling",
            "note": "0/6 nodes are available: no domain has room for gang serving/g.",
            "reportingController": "ome-scheduler", "reportingInstance": "ome-scheduler-x",
            "eventTime": "2026-09-28T10:00:00.000000Z",
            "series": {"count": 4, "lastObservedTime": "2026-09-28T10:06:00.500000Z"}}))
        .unwrap();
        let core: core::Event = serde_json::from_value(json!({
            "metadata": {"name": "p.1", "namespace": "serving", "uid": "u"},
            "involvedObject": {"kind": "Pod", "namespace": "serving", "name": "p"},
            "reason": "FailedScheduling", "type": "Warning", "action": "Scheduling",
            "message": "0/6 nodes are available: no domain has room for gang serving/g.",
            "reportingComponent": "ome-scheduler", "reportingInstance": "ome-scheduler-x",
            "eventTime": "2026-09-28T10:00:00.000000Z",
            "series": {"count": 4, "lastObservedTime": "2026-09-28T10:06:00.500000Z"}}))
        .unwrap();
        let mut i = Interner::default();
        let a = events_v1_event(&mut i, &v1);
        assert_eq!(a, event(&mut i, &core));
        assert_eq!((a.count, a.source.as_ref()), (4, "ome-scheduler"));
        assert_eq!(
            a.last_seen.unwrap().to_rfc3339(),
            "2026-09-28T10:06:00+00:00"
        );
        assert_eq!(a.object_name.as_ref(), "p");
    }

    #[test]
    fn a_single_event_falls_back_to_its_deprecated_fields() {
        let v1: events::Event = serde_json::from_value(json!({
            "metadata": {"name": "n.1", "namespace": "default"},
            "regarding": {"kind": "Node", "name": "n"},
            "reason": "NodeCordoned", "note": "cordoned", "type": "Normal",
            "deprecatedSource": {"component": "alfred"}, "deprecatedCount": 2,
            "deprecatedLastTimestamp": "2026-09-28T09:00:00Z"}))
        .unwrap();
        let e = events_v1_event(&mut Interner::default(), &v1);
        assert_eq!(
            (e.count, e.source.as_ref(), e.message.as_str()),
            (2, "alfred", "cordoned")
        );
        assert_eq!(
            e.last_seen.unwrap().to_rfc3339(),
            "2026-09-28T09:00:00+00:00"
        );
    }
}
