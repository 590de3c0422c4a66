//! The Instance rows of an InferenceReplica's status, identical whichever encoding (DenseV1,
//! ColumnarV2) they were decoded from, and the in-flight operation record they carry. Data
//! only: decoding and the row checks are `workloads::irstatus`'s.
//!
//! Owns: `InstanceRow`, `InstanceOperation`. Pure.

use std::sync::Arc;

use compact_str::CompactString;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

/// One logical Instance row, identical whichever encoding it came from. Integers are `i64` so
/// out-of-domain DenseV1 values (negative counts, `activeOrdinal: 7`) survive until
/// the status codec's row checks; int32 JSON fields are still refused outside the int32 range when decoding.
/// Invariant: `has_operation == operation.is_some()`. `phase` is held inline (every phase
/// fits), so reading it follows no pointer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InstanceRow {
    pub index: i64,
    pub incarnation: i64,
    pub phase: CompactString,
    /// Shared text: the converter interns it with the replica's `currentRevision`, so the
    /// eligibility check compares addresses before it reads any byte of it.
    pub running_revision: Arc<str>,
    pub target_revision: String,
    pub pod_count: i64,
    pub serving_pod_count: i64,
    pub available_pod_count: i64,
    pub admitted: bool,
    pub active_ordinal: i64,
    pub has_operation: bool,
    pub operation: Option<InstanceOperation>,
    pub ready_since: Option<String>,
}

/// The in-flight destructive operation of an Instance; its presence alone makes a row non-steady.
/// `surge_index` is `Some` only when written (0 is a valid surge index); times are RFC 3339 text
/// and `deadline: None` means the step clock is parked. Enum-like strings are not validated.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InstanceOperation {
    pub id: String,
    #[serde(rename = "type")]
    pub op_type: String,
    pub step: String,
    #[serde(deserialize_with = "rfc3339")]
    pub started_at: Option<String>,
    #[serde(deserialize_with = "rfc3339")]
    pub last_progress_at: Option<String>,
    #[serde(deserialize_with = "rfc3339")]
    pub deadline: Option<String>,
    pub retry_count: i32,
    pub target_revision: String,
    pub reason: String,
    pub waiting: String,
    pub surge_index: Option<i32>,
    pub from_node: String,
    pub hint_target_nodes: Vec<String>,
    #[serde(rename = "requestUUID")]
    pub request_uuid: String,
}

/// A Kubernetes time: absent is `None`, anything else must be an RFC 3339 string because the API
/// types would fail to unmarshal it otherwise. The original text is kept.
pub(crate) fn rfc3339<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let raw = Option::<String>::deserialize(d)?;
    if let Some(text) = &raw {
        chrono::DateTime::parse_from_rfc3339(text).map_err(D::Error::custom)?;
    }
    Ok(raw)
}
