//! The ColumnarV2 wire types of `status.instanceStatusColumns` (spec §3.2–§3.4) and the
//! null-tolerant typed reading shared with the DenseV1 reader: grouped columns, per-Instance
//! entries and the in-flight operation record.
//!
//! Owns no validation beyond typing (that is `columnar`).

use serde::Deserialize;
use serde_json::Value;

use super::CodecError;
use crate::engine::model::rfc3339;
pub use crate::engine::model::InstanceOperation;

/// Copy of `value` without object members that are `null`. Go decodes `null` as the zero value
/// (nil pointer, nil slice, `""`, `0`), which for every field read here means "absent", so one
/// pass replaces a `null`-tolerant attribute on every field.
fn strip_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), strip_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(strip_nulls).collect()),
        other => other.clone(),
    }
}

/// Deserializes after [`strip_nulls`]; any typing failure is `value_domain`.
pub(super) fn typed<T: for<'de> Deserialize<'de>>(value: &Value) -> Result<T, CodecError> {
    T::deserialize(strip_nulls(value)).map_err(|_| CodecError::ValueDomain)
}

/// One grouped-column group `{value, indexes}`. Absent members take their zero value (`""`, `0`),
/// which the decoder then rejects as `value_domain` / `range_syntax`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default, bound(deserialize = "V: Deserialize<'de> + Default"))]
pub struct InstanceStatusGroup<V> {
    pub value: V,
    pub indexes: String,
}

/// `phases`, `runningRevisions`, `targetRevisions` groups.
pub type StringGroup = InstanceStatusGroup<String>;
/// `incarnations` groups (int64; non-zero, negative allowed).
pub type IncarnationGroup = InstanceStatusGroup<i64>;
/// `podCounts`, `servingPodCounts`, `availablePodCounts` groups (int32 ≥ 1).
pub type CountGroup = InstanceStatusGroup<i32>;

/// `status.instanceStatusColumns`. Presence is kept exactly: a list that is absent or `null` is
/// `None` and `[]` is `Some(empty)`; `admitted`/`activeOrdinalOne` absent or `null` are `None`
/// while `""` is present (and invalid). `members` is a plain string: absent means `""`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InstanceStatusColumns {
    pub members: String,
    pub row_order: Option<Vec<i32>>,
    pub phases: Option<Vec<StringGroup>>,
    pub running_revisions: Option<Vec<StringGroup>>,
    pub target_revisions: Option<Vec<StringGroup>>,
    pub incarnations: Option<Vec<IncarnationGroup>>,
    pub pod_counts: Option<Vec<CountGroup>>,
    pub serving_pod_counts: Option<Vec<CountGroup>>,
    pub available_pod_counts: Option<Vec<CountGroup>>,
    pub admitted: Option<String>,
    pub active_ordinal_one: Option<String>,
    pub entries: Option<Vec<InstanceStatusEntry>>,
}

/// One per-Instance ColumnarV2 entry. `conditions` and `lastFailure` stay opaque JSON because
/// only their presence matters to the codec (rows do not carry them). `announced` is opaque and
/// never counts as a record: the reference codec predates it.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InstanceStatusEntry {
    pub index: i32,
    pub conditions: Option<Vec<Value>>,
    #[serde(deserialize_with = "rfc3339")]
    pub ready_since: Option<String>,
    pub operation: Option<InstanceOperation>,
    pub last_failure: Option<Value>,
    pub announced: Option<Value>,
}

impl InstanceStatusColumns {
    /// Reads a columns object the way the API types would: `null` anywhere equals absent, a
    /// mistyped field is `value_domain`, unknown fields are ignored. (Plain serde also works but
    /// rejects `null` in non-`Option` fields.)
    pub fn from_json(value: &Value) -> Result<Self, CodecError> {
        typed(value)
    }
}

impl InstanceStatusEntry {
    /// True when the entry carries a record: non-empty `conditions`, `readySince`, `operation` or
    /// `lastFailure` (an explicitly empty `conditions: []` counts as absent).
    pub fn has_record(&self) -> bool {
        self.conditions.as_ref().is_some_and(|c| !c.is_empty())
            || self.ready_since.is_some()
            || self.operation.is_some()
            || self.last_failure.is_some()
    }
}
