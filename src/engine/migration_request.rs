//! The migration request annotation `ome.io/migration-request-v1-<uuid>` (alfred.md §3.1): building
//! and validating the value the TUI writes for an operator "approval", reading request
//! annotations with Alfred's rules (inferencereplica.md §5.2), and the JSON Patch that writes one
//! (compare-and-swap on uid and resourceVersion, never a full update).
//!
//! Pure: uuids and times are passed in. Must not import anything outside
//! std/serde/serde_json/chrono (and sibling modules).

use super::journal_strict::{fold_key, is_uuid_syntax, parse_rfc3339};
use chrono::{DateTime, Datelike, Timelike, Utc};
use serde::Serialize;
use serde_json::{json, Map, Value};
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

/// An approval to write. [`MigrationRequest::to_annotation_value`] enforces: `instance >= 0`;
/// `from_node` and every hint are DNS-1123 subdomains; hints ≤ 8, unique, never `from_node`;
/// `reason`/`requested_by` non-empty; `requested_at` in years 0000–9999; value ≤ 4096 bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationRequest {
    /// Component of the Instance to move.
    pub component: Component,
    /// Instance index.
    pub instance: i32,
    /// Node the Instance must leave (the only hard exclusion).
    pub from_node: String,
    /// Soft target preference, written in this order; omitted from the JSON when empty.
    pub hint_target_nodes: Vec<String>,
    /// Written verbatim (`Fragmentation`, `NodeUnhealthy`, `NodeMaintenance`, ...).
    pub reason: String,
    /// Request time (the caller's "now"); written as Go RFC3339Nano in UTC.
    pub requested_at: DateTime<Utc>,
    /// Who asks (`alfred`, `kubectl-ome`, the TUI's name).
    pub requested_by: String,
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
    Field { field: &'static str, why: String },
    /// The value exceeds [`REQUEST_VALUE_MAX_BYTES`].
    TooLarge { bytes: usize },
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

fn field_err(field: &'static str, why: impl Into<String>) -> RequestError {
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

/// True iff `s` is a DNS-1123 subdomain (Kubernetes `IsDNS1123Subdomain`): ≤ 253 bytes,
/// dot-separated labels of `[a-z0-9-]`, each starting and ending alphanumeric.
pub fn is_dns1123_subdomain(s: &str) -> bool {
    let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            b.first().is_some_and(alnum)
                && b.last().is_some_and(alnum)
                && b.iter().all(|c| alnum(c) || *c == b'-')
        })
}

/// Formats like Go's `time.RFC3339Nano` in UTC: fraction with trailing zeros trimmed (none if
/// zero), `Z` suffix. `None` for years outside 0000–9999 or a chrono leap-second value, which
/// Go cannot represent.
pub fn format_rfc3339_nano(t: DateTime<Utc>) -> Option<String> {
    let nanos = t.nanosecond();
    if !(0..=9999).contains(&t.year()) || nanos >= 1_000_000_000 {
        return None;
    }
    let mut out = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    );
    if nanos > 0 {
        let frac = format!("{nanos:09}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out.push('Z');
    Some(out)
}

/// Wire shape of the value; field order here is the byte order of the output.
#[derive(Serialize)]
struct WireRequest<'a> {
    #[serde(rename = "schemaVersion")]
    schema_version: &'a str,
    component: &'a str,
    instance: i32,
    from_node: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    hint_target_nodes: &'a [String],
    reason: &'a str,
    requested_at: String,
    requested_by: &'a str,
}

impl MigrationRequest {
    /// Checks the invariants listed on the type, except the size limit.
    pub fn validate(&self) -> Result<(), RequestError> {
        if self.instance < 0 {
            return Err(field_err(
                "instance",
                format!("must be ≥ 0, got {}", self.instance),
            ));
        }
        if !is_dns1123_subdomain(&self.from_node) {
            let why = format!("\"{}\" is not a DNS-1123 subdomain", self.from_node);
            return Err(field_err("from_node", why));
        }
        self.validate_hints()?;
        if self.reason.is_empty() {
            return Err(field_err("reason", "must not be empty"));
        }
        if self.requested_by.is_empty() {
            return Err(field_err("requested_by", "must not be empty"));
        }
        Ok(())
    }

    fn validate_hints(&self) -> Result<(), RequestError> {
        const F: &str = "hint_target_nodes";
        let hints = &self.hint_target_nodes;
        if hints.len() > MAX_HINT_TARGET_NODES {
            let why = format!("{} nodes; at most {MAX_HINT_TARGET_NODES}", hints.len());
            return Err(field_err(F, why));
        }
        for (i, hint) in hints.iter().enumerate() {
            if !is_dns1123_subdomain(hint) {
                return Err(field_err(
                    F,
                    format!("\"{hint}\" is not a DNS-1123 subdomain"),
                ));
            }
            if *hint == self.from_node {
                return Err(field_err(F, format!("\"{hint}\" is the source node")));
            }
            if hints.get(..i).is_some_and(|earlier| earlier.contains(hint)) {
                return Err(field_err(F, format!("\"{hint}\" is listed twice")));
            }
        }
        Ok(())
    }

    /// The compact JSON value, keys in the order of §3.1, `hint_target_nodes` omitted if empty.
    pub fn to_annotation_value(&self) -> Result<String, RequestError> {
        self.validate()?;
        let requested_at = format_rfc3339_nano(self.requested_at)
            .ok_or_else(|| field_err("requested_at", "year must be 0000–9999 (Go RFC 3339)"))?;
        let wire = WireRequest {
            schema_version: "v1",
            component: self.component.as_str(),
            instance: self.instance,
            from_node: &self.from_node,
            hint_target_nodes: &self.hint_target_nodes,
            reason: &self.reason,
            requested_at,
            requested_by: &self.requested_by,
        };
        let value =
            serde_json::to_string(&wire).map_err(|e| RequestError::InvalidJson(e.to_string()))?;
        if value.len() > REQUEST_VALUE_MAX_BYTES {
            return Err(RequestError::TooLarge { bytes: value.len() });
        }
        Ok(value)
    }
}

/// Escapes one JSON Pointer reference token (RFC 6901): `~` → `~0`, then `/` → `~1`.
pub fn escape_json_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The JSON Patch that adds request `key` = `value` to an InferenceService: `test` its uid and
/// resourceVersion (so a changed or recreated object fails the patch), `add` an empty
/// annotations map when the object has none (an `add` below a missing parent fails), then `add`
/// the annotation.
pub fn json_patch_for_request(
    isvc_uid: &str,
    resource_version: &str,
    has_annotations: bool,
    key: &str,
    value: &str,
) -> Value {
    let mut ops = vec![
        json!({"op": "test", "path": "/metadata/uid", "value": isvc_uid}),
        json!({"op": "test", "path": "/metadata/resourceVersion", "value": resource_version}),
    ];
    if !has_annotations {
        ops.push(json!({"op": "add", "path": "/metadata/annotations", "value": {}}));
    }
    let path = format!("/metadata/annotations/{}", escape_json_pointer(key));
    ops.push(json!({"op": "add", "path": path, "value": value}));
    Value::Array(ops)
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
    let hints = match get("hint_target_nodes") {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::to_owned),
        _ => [].iter().filter_map(Value::as_str).map(str::to_owned),
    };
    Ok(ParsedRequest {
        uuid: uuid.to_owned(),
        component: component_member(get("component"))?,
        instance: instance_member(get("instance"))?,
        from_node: from_node_member(get("from_node"))?,
        requested_at: requested_at(get("requested_at"))?,
        hint_target_nodes: hints.collect(),
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
mod tests {}
