//! The representation union of an InferenceReplica `status` (spec §3.1): picks DenseV1 or
//! ColumnarV2 from the encoding marker, and reads DenseV1 `instanceStatuses` rows leniently but
//! typed (range checks are left to [`check_rows`](super::check_rows)).

use serde::Deserialize;
use serde_json::Value;

use super::columnar::{decode_columns, DecodeResult};
use super::columns::{typed, InstanceOperation, InstanceStatusColumns};
use super::rows::InstanceRow;
use super::{CodecError, ENCODING_COLUMNAR_V2};
use crate::engine::model::rfc3339;

/// The DenseV1 fields a row needs, typed as the API types them (int32 fields stay int32 so serde
/// refuses values the API could not hold). Absent fields are zero, except the required `index`.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct DenseRow {
    index: Option<i32>,
    incarnation: i64,
    phase: String,
    running_revision: String,
    target_revision: String,
    pod_count: i32,
    serving_pod_count: i32,
    available_pod_count: i32,
    admitted: bool,
    active_ordinal: i32,
    #[serde(deserialize_with = "rfc3339")]
    ready_since: Option<String>,
    operation: Option<InstanceOperation>,
}

/// A DenseV1 row that is not an object, has no integer `index` or has a mistyped field is
/// `value_domain`; every other range check is left to [`check_rows`].
///
/// [`check_rows`]: super::check_rows
fn dense_row(value: &Value) -> Result<InstanceRow, CodecError> {
    let row: DenseRow = typed(value)?;
    Ok(InstanceRow {
        index: row.index.ok_or(CodecError::ValueDomain)?.into(),
        incarnation: row.incarnation,
        phase: row.phase.into(),
        running_revision: row.running_revision.into(),
        target_revision: row.target_revision,
        pod_count: row.pod_count.into(),
        serving_pod_count: row.serving_pod_count.into(),
        available_pod_count: row.available_pod_count.into(),
        admitted: row.admitted,
        active_ordinal: row.active_ordinal.into(),
        has_operation: row.operation.is_some(),
        operation: row.operation,
        ready_since: row.ready_since,
    })
}

/// `instanceStatuses` as a list: absent is empty; any other non-list is `value_domain`.
fn dense_items(value: Option<&Value>) -> Result<&[Value], CodecError> {
    match value {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(CodecError::ValueDomain),
    }
}

/// Decodes the Instance rows of an InferenceReplica `status` object (§3.1, then §3.5).
///
/// Marker absent: columns present ⇒ `representation_union`, else the DenseV1 rows in stored order
/// (no bound and no checks beyond typing; see [`check_rows`]). Marker `"ColumnarV2"`: columns
/// absent or dense rows present ⇒ `representation_union`, else the columns are validated and
/// expanded under `max`. Any other marker (also `""` or a non-string) ⇒ `unknown_encoding`.
/// `null` equals absent everywhere; a `null` status has no rows. Unknown fields are ignored. On
/// error no rows are returned.
///
/// [`check_rows`]: super::check_rows
pub fn decode_rows(status: &Value, max: usize) -> DecodeResult {
    let fields = match status {
        Value::Null => return Ok(Vec::new()),
        Value::Object(fields) => fields,
        _ => return Err(CodecError::ValueDomain),
    };
    let present = |key: &str| fields.get(key).filter(|v| !v.is_null());
    let columns = present("instanceStatusColumns");
    let dense = present("instanceStatuses");
    match present("instanceStatusEncoding") {
        None if columns.is_some() => Err(CodecError::RepresentationUnion),
        None => dense_items(dense)?.iter().map(dense_row).collect(),
        Some(Value::String(marker)) if marker == ENCODING_COLUMNAR_V2 => {
            let Some(columns) = columns else {
                return Err(CodecError::RepresentationUnion);
            };
            if !dense_items(dense)?.is_empty() {
                return Err(CodecError::RepresentationUnion);
            }
            // A payload the API types could not even unmarshal is outside the value domain.
            decode_columns(&InstanceStatusColumns::from_json(columns)?, max)
        }
        Some(_) => Err(CodecError::UnknownEncoding),
    }
}
