//! The migration request annotation `ome.io/migration-request-v1-<uuid>` (alfred.md §3.1): its
//! key, the shared vocabulary (`Component`, `RequestError`), and reading request annotations with
//! Alfred's rules (inferencereplica.md §5.2). Building the value the TUI writes is `approval`
//! (from a move's row: `draft`); the JSON Patch that writes it is `cluster::ops::patches`'.
//!
//! Pure: uuids and times are passed in.

use crate::engine::formats::strict_json::{fold_key, is_uuid_syntax, parse_rfc3339};
use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use std::fmt;

/// Annotation key prefix; the full key is this plus the request UUID.
pub const REQUEST_ANNOTATION_PREFIX: &str = "ome.io/migration-request-v1-";
/// Largest annotation value, in bytes.
pub const REQUEST_VALUE_MAX_BYTES: usize = 4096;
/// Most `hint_target_nodes` the consumer accepts.
pub const MAX_HINT_TARGET_NODES: usize = 8;

/// An OMENative component with movable Instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Component {
    /// `engine`.
    Engine,
    /// `decoder`.
    Decoder,
    /// `router`.
    Router,
}

impl Component {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Component::Engine => "engine",
            Component::Decoder => "decoder",
            Component::Router => "router",
        }
    }

    /// Parses an exact (case-sensitive) wire value.
    pub fn parse(s: &str) -> Option<Component> {
        [Component::Engine, Component::Decoder, Component::Router]
            .into_iter()
            .find(|c| c.as_str() == s)
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A request annotation that passes Alfred's well-formedness rules (§5.2). Whether `instance`
/// names an existing Instance of `component` is the caller's check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedRequest {
    /// The key suffix; non-empty (any syntax, as §5.2 only rejects an empty one).
    pub uuid: String,
    /// Component named by the request.
    pub component: Component,
    /// Instance index, ≥ 0.
    pub instance: i32,
    /// Non-empty source node.
    pub from_node: String,
    /// When requested, if given.
    pub requested_at: Option<DateTime<Utc>>,
    /// Hints if present as a list of strings (not checked by Alfred; informational).
    pub hint_target_nodes: Vec<String>,
    /// `reason` if present as a string (informational).
    pub reason: Option<String>,
    /// `requested_by` if present as a string (informational).
    pub requested_by: Option<String>,
}

/// Why a request key/value cannot be built or is malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// Not a lowercase 8-4-4-4-12 UUID (required for keys the TUI writes).
    InvalidUuid(String),
    /// The key does not start with [`REQUEST_ANNOTATION_PREFIX`].
    NotARequestKey(String),
    /// The key has nothing after the prefix.
    EmptyUuid,
    /// The value is not one JSON document.
    InvalidJson(String),
    /// The value is JSON but not an object.
    NotAnObject,
    /// A field is missing or has a value the rules reject.
    Field {
        /// The JSON key, e.g. `hint_target_nodes`.
        field: &'static str,
        /// What is wrong.
        why: String,
    },
    /// The value exceeds [`REQUEST_VALUE_MAX_BYTES`].
    TooLarge {
        /// The value's length.
        bytes: usize,
    },
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::InvalidUuid(u) => {
                write!(f, "\"{u}\" is not a lowercase RFC 4122 UUID (8-4-4-4-12)")
            }
            RequestError::NotARequestKey(k) => {
                write!(f, "\"{k}\" is not a {REQUEST_ANNOTATION_PREFIX}<uuid> key")
            }
            RequestError::EmptyUuid => write!(f, "request annotation key has an empty uuid"),
            RequestError::InvalidJson(e) => write!(f, "request value is not valid JSON: {e}"),
            RequestError::NotAnObject => write!(f, "request value is not a JSON object"),
            RequestError::Field { field, why } => write!(f, "{field}: {why}"),
            RequestError::TooLarge { bytes } => write!(
                f,
                "request value is {bytes} bytes; the limit is {REQUEST_VALUE_MAX_BYTES}"
            ),
        }
    }
}

impl std::error::Error for RequestError {}

pub(super) fn field_err(field: &'static str, why: impl Into<String>) -> RequestError {
    RequestError::Field {
        field,
        why: why.into(),
    }
}

/// The annotation key for `uuid`, which must be a lowercase 8-4-4-4-12 UUID.
pub fn annotation_key(uuid: &str) -> Result<String, RequestError> {
    if is_uuid_syntax(uuid) && !uuid.bytes().any(|b| b.is_ascii_uppercase()) {
        Ok(format!("{REQUEST_ANNOTATION_PREFIX}{uuid}"))
    } else {
        Err(RequestError::InvalidUuid(uuid.to_owned()))
    }
}

/// Reads one request annotation with Alfred's rules (inferencereplica.md §5.2), except
/// "names an Instance that currently exists", which needs the cluster.
///
/// Mirrors Go's `encoding/json` into a struct holding only the fields §5.2 names: names match
/// case-insensitively and the last match wins; unknown keys are ignored; `null` leaves a field
/// unset. Stricter on one point: a missing/`null` `instance` is malformed (Go would read 0).
/// `hint_target_nodes`, `reason` and `requested_by` are informational and never make a value
/// malformed (kept only when of the expected type).
pub fn parse_request_annotation(key: &str, value: &str) -> Result<ParsedRequest, RequestError> {
    let uuid = key
        .strip_prefix(REQUEST_ANNOTATION_PREFIX)
        .ok_or_else(|| RequestError::NotARequestKey(key.to_owned()))?;
    if uuid.is_empty() {
        return Err(RequestError::EmptyUuid);
    }
    let doc: Value =
        serde_json::from_str(value).map_err(|e| RequestError::InvalidJson(e.to_string()))?;
    let obj = doc.as_object().ok_or(RequestError::NotAnObject)?;
    let get = |name: &str| member(obj, name);
    match get("schemaVersion") {
        Some(Value::String(v)) if v == "v1" => {}
        other => {
            let why = format!("must be \"v1\", found {}", show(other));
            return Err(field_err("schemaVersion", why));
        }
    }
    let text = |name: &str| get(name).and_then(Value::as_str).map(str::to_owned);
    let hints: Vec<String> = match get("hint_target_nodes") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    Ok(ParsedRequest {
        uuid: uuid.to_owned(),
        component: component_member(get("component"))?,
        instance: instance_member(get("instance"))?,
        from_node: from_node_member(get("from_node"))?,
        requested_at: requested_at(get("requested_at"))?,
        hint_target_nodes: hints,
        reason: text("reason"),
        requested_by: text("requested_by"),
    })
}

fn component_member(v: Option<&Value>) -> Result<Component, RequestError> {
    match v {
        Some(Value::String(c)) => Component::parse(c),
        _ => None,
    }
    .ok_or_else(|| {
        let why = format!("must be engine, decoder or router, found {}", show(v));
        field_err("component", why)
    })
}

/// An integer (Go rejects `3.0` for an int field) in 0..=i32::MAX.
fn instance_member(v: Option<&Value>) -> Result<i32, RequestError> {
    v.and_then(Value::as_i64)
        .and_then(|n| i32::try_from(n).ok())
        .filter(|n| *n >= 0)
        .ok_or_else(|| {
            field_err(
                "instance",
                format!("must be an integer ≥ 0, found {}", show(v)),
            )
        })
}

fn from_node_member(v: Option<&Value>) -> Result<String, RequestError> {
    match v {
        Some(Value::String(n)) if !n.is_empty() => Ok(n.clone()),
        other => {
            let why = format!("must be a non-empty string, found {}", show(other));
            Err(field_err("from_node", why))
        }
    }
}

/// Optional `requested_at`: absent, `null` or `""` ⇒ `None`; otherwise it must be RFC 3339.
fn requested_at(v: Option<&Value>) -> Result<Option<DateTime<Utc>>, RequestError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => parse_rfc3339(s)
            .map(Some)
            .ok_or_else(|| field_err("requested_at", format!("\"{s}\" is not RFC 3339"))),
        Some(other) => Err(field_err(
            "requested_at",
            format!("must be a string, found {other}"),
        )),
    }
}

/// The value of the last member whose name folds to `name`'s fold (Go assignment order).
fn member<'a>(obj: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    let want = fold_key(name);
    obj.iter()
        .rev()
        .find(|(k, _)| fold_key(k) == want)
        .map(|(_, v)| v)
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), Value::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    const UUID: &str = "3f1c2d4e-9a7b-4c1d-8e2f-0123456789ab";

    /// The §3.1 example value.
    const EXAMPLE: &str = concat!(
        r#"{"schemaVersion":"v1","component":"engine","instance":3,"from_node":"gpu-a","#,
        r#""hint_target_nodes":["gpu-c","gpu-d"],"reason":"NodeUnhealthy","#,
        r#""requested_at":"2026-09-28T10:15:02.418093721Z","requested_by":"alfred"}"#
    );

    #[test]
    fn parse_round_trip_and_rules() {
        let key = annotation_key(UUID).unwrap();
        let p = parse_request_annotation(&key, EXAMPLE).unwrap();
        assert_eq!(
            (p.uuid.as_str(), p.component, p.instance),
            (UUID, Component::Engine, 3)
        );
        let at = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 2).unwrap();
        let at = at + chrono::TimeDelta::nanoseconds(418_093_721);
        assert_eq!(
            (p.requested_at, p.reason.as_deref()),
            (Some(at), Some("NodeUnhealthy"))
        );
        assert_eq!(p.hint_target_nodes, ["gpu-c", "gpu-d"]);
        assert_eq!(p.requested_by.as_deref(), Some("alfred"));
        let base = r#""schemaVersion":"v1","component":"router","instance":0,"from_node":"n""#;
        let minimal = parse_request_annotation(&key, &format!("{{{base}}}")).unwrap();
        assert_eq!((minimal.requested_at, minimal.reason), (None, None));
        let odd = format!(r#"{{{base},"extra":[1],"hint_target_nodes":7,"Instance":2}}"#);
        let p = parse_request_annotation(&key, &odd).unwrap();
        assert_eq!((p.instance, p.hint_target_nodes.len()), (2, 0));
    }

    #[test]
    fn malformed_annotations() {
        let key = annotation_key(UUID).unwrap();
        let bad = |v: &str| parse_request_annotation(&key, v).unwrap_err();
        let field = |v: &str| match bad(v) {
            RequestError::Field { field, .. } => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            field(r#"{"component":"engine","instance":0,"from_node":"n"}"#),
            "schemaVersion"
        );
        assert_eq!(
            field(r#"{"schemaVersion":"v2","component":"engine","instance":0,"from_node":"n"}"#),
            "schemaVersion"
        );
        assert_eq!(
            field(r#"{"schemaVersion":"v1","component":"Engine","instance":0,"from_node":"n"}"#),
            "component"
        );
        for inst in ["-1", "3.0", "null", "\"3\"", "2147483648"] {
            let v = format!(
                r#"{{"schemaVersion":"v1","component":"engine","instance":{inst},"from_node":"n"}}"#
            );
            assert_eq!(field(&v), "instance", "{inst}");
        }
        assert_eq!(
            field(r#"{"schemaVersion":"v1","component":"engine","instance":0,"from_node":""}"#),
            "from_node"
        );
        let v = concat!(
            r#"{"schemaVersion":"v1","component":"engine","instance":0,"from_node":"n","#,
            r#""requested_at":"now"}"#
        );
        assert_eq!(field(v), "requested_at");
        assert_eq!(bad("[]"), RequestError::NotAnObject);
        assert!(matches!(bad("{} x"), RequestError::InvalidJson(_)));
        assert_eq!(
            parse_request_annotation(REQUEST_ANNOTATION_PREFIX, "{}"),
            Err(RequestError::EmptyUuid)
        );
        let other = parse_request_annotation("ome.io/other", "{}");
        assert!(matches!(other, Err(RequestError::NotARequestKey(_))));
    }

    #[test]
    fn keys() {
        assert_eq!(
            annotation_key(UUID).unwrap(),
            format!("ome.io/migration-request-v1-{UUID}")
        );
        for bad in [
            UUID.to_uppercase().as_str(),
            "",
            "3f1c2d4e9a7b4c1d8e2f0123456789ab",
        ] {
            assert!(matches!(
                annotation_key(bad),
                Err(RequestError::InvalidUuid(_))
            ));
        }
    }

    proptest! {
        #[test]
        fn parse_never_panics(key in ".{0,60}", value in ".{0,200}") {
            let _ = parse_request_annotation(&key, &value);
            let _ = parse_request_annotation(&format!("{REQUEST_ANNOTATION_PREFIX}{key}"), &value);
        }
    }
}
