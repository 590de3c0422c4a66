//! The Kubernetes Event every successful write leaves on the object it changed
//! (`events.k8s.io/v1`, `reportingController: ome-top`), so `kubectl describe` and other
//! operators see who did what and why.
//!
//! Owns: `EventTarget`, `build_event`, `record_event`. An Event that cannot be created never
//! undoes the write; the caller reports it in the outcome. Must not import `app`, `ui`,
//! `ratatui` or `crossterm`.

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::api::events::v1::Event;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use kube::api::{Api, PostParams};

use super::outcome::{classify, ApiFailure};
use crate::engine::model::Time;

/// `reportingController` of every Event ome-top writes.
pub const REPORTING_CONTROLLER: &str = "ome-top";
/// Namespace of Events about cluster-scoped objects (Nodes), as kubectl and kubelets do.
pub const CLUSTER_SCOPED_EVENT_NAMESPACE: &str = "default";
/// API server limits (events.k8s.io/v1 validation): `note` ≤ 1 KiB; `reportingInstance`,
/// `action` and `reason` ≤ 128 bytes.
const NOTE_MAX_BYTES: usize = 1024;
const SHORT_FIELD_MAX_BYTES: usize = 128;
/// Longest object-name prefix of a generated Event name (the server appends 5 characters;
/// names are ≤ 253 bytes).
const NAME_PREFIX_MAX_BYTES: usize = 200;

/// The object an Event is about, as it is after the write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventTarget {
    /// `apiVersion` of the object, e.g. `v1`, `ome.io/v1beta1`.
    pub api_version: &'static str,
    /// `kind`, e.g. `Node`.
    pub kind: &'static str,
    /// Namespace; `None` for cluster-scoped objects.
    pub namespace: Option<String>,
    /// Object name.
    pub name: String,
    /// `metadata.uid`.
    pub uid: String,
    /// resourceVersion after the write, when known.
    pub resource_version: Option<String>,
}

/// What happened, in the Event's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventText {
    /// `action`, e.g. `Cordon` (≤ 128 bytes).
    pub action: &'static str,
    /// `reason`, e.g. `OmeTopCordon` (≤ 128 bytes).
    pub reason: &'static str,
    /// `note`: who, what and the operator's reason; cut to 1 KiB on a character boundary.
    pub note: String,
}

/// Cuts `text` to at most `max` bytes without splitting a character.
pub fn truncate_to(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// The Event object: `Normal`, regarding `target`, reported by `ome-top` from
/// `reporting_instance` at `now` (microsecond precision, as the API stores it).
pub fn build_event(
    target: &EventTarget,
    text: &EventText,
    reporting_instance: &str,
    now: Time,
) -> Event {
    let namespace = target
        .namespace
        .clone()
        .unwrap_or_else(|| CLUSTER_SCOPED_EVENT_NAMESPACE.to_string());
    let micros = now.timestamp_subsec_micros() * 1000;
    let event_time = k8s_openapi::jiff::Timestamp::new(now.timestamp(), micros as i32)
        .ok()
        .map(MicroTime);
    let instance = truncate_to(reporting_instance, SHORT_FIELD_MAX_BYTES);
    Event {
        metadata: ObjectMeta {
            // generateName is validated as a DNS subdomain that may end only in a dash.
            generate_name: Some(format!(
                "{}-",
                truncate_to(&target.name, NAME_PREFIX_MAX_BYTES)
            )),
            namespace: Some(namespace),
            ..ObjectMeta::default()
        },
        event_time,
        action: Some(text.action.to_string()),
        reason: Some(text.reason.to_string()),
        note: Some(truncate_to(&text.note, NOTE_MAX_BYTES).to_string()),
        type_: Some("Normal".to_string()),
        reporting_controller: Some(REPORTING_CONTROLLER.to_string()),
        reporting_instance: Some(
            if instance.is_empty() {
                REPORTING_CONTROLLER
            } else {
                instance
            }
            .to_string(),
        ),
        regarding: Some(ObjectReference {
            api_version: Some(target.api_version.to_string()),
            kind: Some(target.kind.to_string()),
            namespace: target.namespace.clone(),
            name: Some(target.name.clone()),
            uid: Some(target.uid.clone()),
            resource_version: target.resource_version.clone(),
            ..ObjectReference::default()
        }),
        ..Event::default()
    }
}

/// Creates the Event. `Err` carries one line for the outcome message (the write stands).
pub async fn record_event(
    client: &kube::Client,
    target: &EventTarget,
    text: &EventText,
    reporting_instance: &str,
    now: Time,
) -> Result<(), String> {
    let event = build_event(target, text, reporting_instance, now);
    let namespace = event.metadata.namespace.clone().unwrap_or_default();
    let api: Api<Event> = Api::namespaced(client.clone(), &namespace);
    match api.create(&PostParams::default(), &event).await {
        Ok(_) => Ok(()),
        Err(e) => Err(match classify(&e) {
            ApiFailure::Forbidden(t) => {
                format!("lacks \"create events.events.k8s.io\" in {namespace} ({t})")
            }
            ApiFailure::Conflict(t)
            | ApiFailure::NotFound(t)
            | ApiFailure::Invalid(t)
            | ApiFailure::Other(t) => t,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn node() -> EventTarget {
        EventTarget {
            api_version: "v1",
            kind: "Node",
            namespace: None,
            name: "gpu-1".into(),
            uid: "u-1".into(),
            resource_version: Some("77".into()),
        }
    }

    #[test]
    fn node_event_lands_in_default_with_the_reporting_fields() {
        let now = chrono::Utc.with_ymd_and_hms(2026, 11, 30, 4, 0, 0).unwrap()
            + chrono::TimeDelta::nanoseconds(123_456_789);
        let text = EventText {
            action: "Cordon",
            reason: "OmeTopCordon",
            note: "cordoned by alice: disk errors".into(),
        };
        let ev = build_event(&node(), &text, "alice@laptop", now);
        assert_eq!(ev.metadata.namespace.as_deref(), Some("default"));
        assert_eq!(ev.metadata.generate_name.as_deref(), Some("gpu-1-"));
        assert_eq!(ev.reporting_controller.as_deref(), Some("ome-top"));
        assert_eq!(ev.reporting_instance.as_deref(), Some("alice@laptop"));
        assert_eq!(ev.reason.as_deref(), Some("OmeTopCordon"));
        let json = serde_json::to_value(&ev).unwrap();
        assert_eq!(json["eventTime"], "2026-11-30T04:00:00.123456Z");
        assert_eq!(json["regarding"]["kind"], "Node");
        assert!(json["regarding"].get("namespace").is_none());
    }

    #[test]
    fn long_texts_are_cut_on_character_boundaries() {
        let text = EventText {
            action: "OptOut",
            reason: "OmeTopOptOut",
            note: "é".repeat(800),
        };
        let mut target = node();
        target.namespace = Some("prod".into());
        let ev = build_event(
            &target,
            &text,
            &"x".repeat(300),
            chrono::Utc.timestamp_opt(0, 0).unwrap(),
        );
        assert_eq!(ev.note.as_deref().map(str::len), Some(1024));
        assert_eq!(ev.reporting_instance.as_deref().map(str::len), Some(128));
        assert_eq!(ev.metadata.namespace.as_deref(), Some("prod"));
        assert_eq!(truncate_to("aé", 2), "a");
        assert_eq!(truncate_to("abc", 10), "abc");
    }
}
