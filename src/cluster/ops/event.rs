//! The Kubernetes Event every successful write leaves on the object it changed
//! (`events.k8s.io/v1`, `reportingController: ome-top`), so `kubectl describe` and other
//! operators see who did what and why. Written by kube's `runtime::events::Recorder`; only an
//! object whose name is too long for the Recorder's Event name gets the hand-written Event of
//! [`build_event`] (`generateName`, name cut).
//!
//! Owns: `EventTarget`, `recorder_parts`, `build_event`, `record_event`. An Event that cannot be
//! created never undoes the write; the caller reports it in the outcome.

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::api::events::v1::Event;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use kube::api::Api;
use kube::runtime::events::{Event as RecordedEvent, EventType, Recorder, Reporter};

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
/// Longest object name the Recorder's Event name fits: it names an Event
/// `<object name>.<eventTime in ns, hex>` (16 hex digits until the year 2554), and an Event
/// name is a DNS subdomain of ≤ 253 bytes. Longer names take [`build_event`]'s path.
pub const RECORDER_NAME_MAX_BYTES: usize = 253 - 1 - 16;

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

/// `regarding` of the Event: the object with its resourceVersion after the write.
fn regarding(target: &EventTarget) -> ObjectReference {
    ObjectReference {
        api_version: Some(target.api_version.to_string()),
        kind: Some(target.kind.to_string()),
        namespace: target.namespace.clone(),
        name: Some(target.name.clone()),
        uid: Some(target.uid.clone()),
        resource_version: target.resource_version.clone(),
        ..ObjectReference::default()
    }
}

/// `reportingInstance`: the actor cut to 128 bytes; `None` when empty (the Event then names
/// `ome-top`, as the Recorder does for a reporter without an instance).
fn instance_of(reporting_instance: &str) -> Option<&str> {
    Some(truncate_to(reporting_instance, SHORT_FIELD_MAX_BYTES)).filter(|i| !i.is_empty())
}

/// What the Recorder is handed for one Event: the reporter (`ome-top`, instance
/// `reporting_instance` cut to 128 bytes, never the host name), a `Normal` event with `text`
/// (note cut to 1 KiB) and the reference to `target`. The Recorder sets `eventTime` itself
/// (its own clock) and puts the Event in `target`'s namespace, `default` for Nodes.
pub fn recorder_parts(
    target: &EventTarget,
    text: &EventText,
    reporting_instance: &str,
) -> (Reporter, RecordedEvent, ObjectReference) {
    let reporter = Reporter {
        controller: REPORTING_CONTROLLER.to_string(),
        instance: instance_of(reporting_instance).map(str::to_string),
    };
    let event = RecordedEvent {
        type_: EventType::Normal,
        reason: text.reason.to_string(),
        note: Some(truncate_to(&text.note, NOTE_MAX_BYTES).to_string()),
        action: text.action.to_string(),
        secondary: None,
    };
    (reporter, event, regarding(target))
}

/// The hand-written Event, for objects whose name exceeds [`RECORDER_NAME_MAX_BYTES`]:
/// `Normal`, regarding `target`, reported by `ome-top` from `reporting_instance` at `now`
/// (microsecond precision, as the API stores it), named by the server from `generateName`
/// (the object name cut to 200 bytes, then `-`).
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
            instance_of(reporting_instance)
                .unwrap_or(REPORTING_CONTROLLER)
                .to_string(),
        ),
        regarding: Some(regarding(target)),
        ..Event::default()
    }
}

/// Creates the Event: through the Recorder, or [`build_event`] for a name too long for it.
/// `now` is the hand-written Event's `eventTime` only. `Err` says why in one line for the
/// outcome message (the write stands).
pub async fn record_event(
    client: &kube::Client,
    target: &EventTarget,
    text: &EventText,
    reporting_instance: &str,
    now: Time,
) -> Result<(), EventNotRecorded> {
    let namespace = target
        .namespace
        .clone()
        .unwrap_or_else(|| CLUSTER_SCOPED_EVENT_NAMESPACE.to_string());
    let created = if target.name.len() <= RECORDER_NAME_MAX_BYTES {
        let (reporter, event, reference) = recorder_parts(target, text, reporting_instance);
        // A Recorder per Event: its cache turns a repeat of the same Event within minutes into
        // a PATCH of the first one's series (keeping the first note), which would need `patch`
        // on Events and lose the repeat's note. A fresh Recorder always creates.
        Recorder::new(client.clone(), reporter)
            .publish(&event, &reference)
            .await
    } else {
        let event = build_event(target, text, reporting_instance, now);
        let api: Api<Event> = Api::namespaced(client.clone(), &namespace);
        api.create(&super::post_params(), &event).await.map(drop)
    };
    created.map_err(|e| match classify(&e) {
        ApiFailure::Forbidden(why) => EventNotRecorded::Forbidden { namespace, why },
        ApiFailure::Conflict(t)
        | ApiFailure::NotFound(t)
        | ApiFailure::Invalid(t)
        | ApiFailure::Other(t) => EventNotRecorded::Failed(t),
    })
}

/// Why the Event of a write was not recorded (the write stands).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventNotRecorded {
    /// The identity may not create Events there.
    #[error("lacks \"create events.events.k8s.io\" in {namespace} ({why})")]
    Forbidden {
        /// The Event's namespace.
        namespace: String,
        /// The API server's answer in one line.
        why: String,
    },
    /// Any other failure: the API server's answer in one line.
    #[error("{0}")]
    Failed(String),
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

    #[test]
    fn the_recorder_is_handed_the_same_fields() {
        let text = EventText {
            action: "Cordon",
            reason: "OmeTopCordon",
            note: "é".repeat(800),
        };
        let (reporter, event, reference) = recorder_parts(&node(), &text, "alice@laptop");
        assert_eq!(reporter.controller, "ome-top");
        assert_eq!(reporter.instance.as_deref(), Some("alice@laptop"));
        assert_eq!(event.type_, EventType::Normal);
        assert_eq!(
            (event.action.as_str(), event.reason.as_str()),
            ("Cordon", "OmeTopCordon")
        );
        assert_eq!(event.note.as_deref().map(str::len), Some(1024));
        assert!(event.secondary.is_none());
        assert_eq!(
            reference,
            build_event(
                &node(),
                &text,
                "a",
                chrono::Utc.timestamp_opt(0, 0).unwrap()
            )
            .regarding
            .unwrap()
        );
        assert_eq!(reference.resource_version.as_deref(), Some("77"));
        let (reporter, _, _) = recorder_parts(&node(), &text, &"x".repeat(300));
        assert_eq!(reporter.instance.map(|i| i.len()), Some(128));
        let (reporter, _, _) = recorder_parts(&node(), &text, "");
        assert_eq!(reporter.instance, None);
        let ev = build_event(&node(), &text, "", chrono::Utc.timestamp_opt(0, 0).unwrap());
        assert_eq!(ev.reporting_instance.as_deref(), Some("ome-top"));
    }
}
