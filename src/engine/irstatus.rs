//! InferenceReplica instance-status codec (spec `inferencereplica.md` §3 and §5.3 steps 7–8):
//! decides the DenseV1 / ColumnarV2 representation union, validates a ColumnarV2 payload in the
//! exact order of the reference decoder (first failure wins, no partial rows), expands it into the
//! same logical rows DenseV1 stores, and applies Alfred's row checks to rows from either encoding.
//!
//! Pure: no I/O, no clock, no randomness. It must not import anything outside
//! std/serde/serde_json/chrono (plus its sibling `indexset` module).

use std::collections::HashSet;
use std::fmt;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::indexset::{all_disjoint, parse_index_set, IndexSet};

/// The eight Instance phases in byte order, which is also the canonical group order of the
/// ColumnarV2 `phases` column.
pub const PHASES: [&str; 8] = [
    "Creating",
    "Deleting",
    "Failed",
    "Migrating",
    "Pending",
    "Ready",
    "Restarting",
    "Updating",
];

/// The only `instanceStatusEncoding` marker value; an absent marker means DenseV1.
pub const ENCODING_COLUMNAR_V2: &str = "ColumnarV2";

/// Alfred's row bound: the ColumnarV2 `max` it decodes with and the §5.3 step 8 row limit.
pub const MAX_ROWS: usize = 10_000;

/// Prefix of every [`RowError`] message; Alfred's observation reason for any codec or row failure.
pub const STATUS_INVALID: &str = "status is invalid";

/// A codec failure. Exactly the nine reasons of the OME error catalogue; each has a fixed reason
/// token and message and never carries status data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodecError {
    UnknownEncoding,
    RepresentationUnion,
    RangeSyntax,
    RangeOrder,
    RangeOverflow,
    CardinalityLimit,
    Coverage,
    CanonicalOrder,
    ValueDomain,
}

impl CodecError {
    /// Every reason, in catalogue order.
    pub const ALL: [CodecError; 9] = [
        Self::UnknownEncoding,
        Self::RepresentationUnion,
        Self::RangeSyntax,
        Self::RangeOrder,
        Self::RangeOverflow,
        Self::CardinalityLimit,
        Self::Coverage,
        Self::CanonicalOrder,
        Self::ValueDomain,
    ];

    fn catalogue(self) -> (&'static str, &'static str) {
        match self {
            Self::UnknownEncoding => ("unknown_encoding", "instance status encoding is unknown"),
            Self::RepresentationUnion => (
                "representation_union",
                "instance status representation is invalid",
            ),
            Self::RangeSyntax => ("range_syntax", "instance index set syntax is invalid"),
            Self::RangeOrder => ("range_order", "instance index set order is invalid"),
            Self::RangeOverflow => (
                "range_overflow",
                "instance index set exceeds the supported index domain",
            ),
            Self::CardinalityLimit => (
                "cardinality_limit",
                "instance status cardinality limit is invalid",
            ),
            Self::Coverage => ("coverage", "instance status column coverage is invalid"),
            Self::CanonicalOrder => (
                "canonical_order",
                "instance status column order is not canonical",
            ),
            Self::ValueDomain => (
                "value_domain",
                "instance status value is outside its supported domain",
            ),
        }
    }

    /// The snake_case reason token (the `reason` label of the manager's error counter).
    pub fn reason(self) -> &'static str {
        self.catalogue().0
    }

    /// The fixed operator-facing message; also what `Display` prints.
    pub fn message(self) -> &'static str {
        self.catalogue().1
    }
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for CodecError {}

/// Go leaves a field at its zero value when the JSON holds `null`; serde would reject it.
fn null_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A Kubernetes time: absent or `null` is `None`; any other value must be an RFC 3339 string,
/// because the API types would fail to unmarshal anything else. The original text is kept.
fn rfc3339_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let raw = Option::<String>::deserialize(d)?;
    if let Some(text) = &raw {
        chrono::DateTime::parse_from_rfc3339(text).map_err(D::Error::custom)?;
    }
    Ok(raw)
}

/// One grouped-column group `{value, indexes}`. Absent or `null` members take their zero value
/// (`""`, `0`), which the decoder then rejects as `value_domain` / `range_syntax`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default, bound(deserialize = "V: Deserialize<'de> + Default"))]
pub struct InstanceStatusGroup<V> {
    #[serde(deserialize_with = "null_default")]
    pub value: V,
    #[serde(deserialize_with = "null_default")]
    pub indexes: String,
}

/// `phases`, `runningRevisions`, `targetRevisions` groups.
pub type StringGroup = InstanceStatusGroup<String>;
/// `incarnations` groups (int64; non-zero, negative allowed).
pub type IncarnationGroup = InstanceStatusGroup<i64>;
/// `podCounts`, `servingPodCounts`, `availablePodCounts` groups (int32 ≥ 1).
pub type CountGroup = InstanceStatusGroup<i32>;

/// `status.instanceStatusColumns`. Presence is kept exactly: a list that is absent or `null` is
/// `None`, `[]` is `Some(empty)`; `admitted`/`activeOrdinalOne` absent or `null` are `None` and
/// `""` is present (and invalid). `members` is a plain string, so absent means `""`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InstanceStatusColumns {
    #[serde(deserialize_with = "null_default")]
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

/// One per-Instance ColumnarV2 entry. `announced` is opaque: the reference codec predates it, so
/// it is never validated and never counts as a record.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InstanceStatusEntry {
    #[serde(deserialize_with = "null_default")]
    pub index: i32,
    pub conditions: Option<Vec<InstanceCondition>>,
    #[serde(deserialize_with = "rfc3339_opt")]
    pub ready_since: Option<String>,
    pub operation: Option<InstanceOperation>,
    pub last_failure: Option<InstanceTermination>,
    pub announced: Option<Value>,
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

/// A per-Instance condition (`AllPodsReady`, `Drained`, …). Display only.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InstanceCondition {
    #[serde(rename = "type", deserialize_with = "null_default")]
    pub condition_type: String,
    #[serde(deserialize_with = "null_default")]
    pub status: String,
    #[serde(deserialize_with = "null_default")]
    pub reason: String,
    #[serde(deserialize_with = "null_default")]
    pub message: String,
    #[serde(deserialize_with = "rfc3339_opt")]
    pub last_transition_time: Option<String>,
}

/// The in-flight destructive operation of an Instance. Its presence alone makes a row non-steady;
/// `surge_index` is `Some` only when written (0 is a valid surge index).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InstanceOperation {
    #[serde(deserialize_with = "null_default")]
    pub id: String,
    /// `Create`, `Update`, `Restart`, `Migrate` or `Delete` (not validated).
    #[serde(rename = "type", deserialize_with = "null_default")]
    pub op_type: String,
    #[serde(deserialize_with = "null_default")]
    pub step: String,
    #[serde(deserialize_with = "rfc3339_opt")]
    pub started_at: Option<String>,
    #[serde(deserialize_with = "rfc3339_opt")]
    pub last_progress_at: Option<String>,
    /// `None` means the step clock is parked.
    #[serde(deserialize_with = "rfc3339_opt")]
    pub deadline: Option<String>,
    #[serde(deserialize_with = "null_default")]
    pub retry_count: i32,
    #[serde(deserialize_with = "null_default")]
    pub target_revision: String,
    #[serde(deserialize_with = "null_default")]
    pub reason: String,
    #[serde(deserialize_with = "null_default")]
    pub waiting: String,
    pub surge_index: Option<i32>,
    #[serde(deserialize_with = "null_default")]
    pub from_node: String,
    #[serde(deserialize_with = "null_default")]
    pub hint_target_nodes: Vec<String>,
    #[serde(rename = "requestUUID", deserialize_with = "null_default")]
    pub request_uuid: String,
}

/// Diagnostics of the pod whose failure last triggered a recreate. Display only.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InstanceTermination {
    #[serde(deserialize_with = "null_default")]
    pub pod_name: String,
    #[serde(deserialize_with = "null_default")]
    pub container_name: String,
    #[serde(deserialize_with = "null_default")]
    pub reason: String,
    #[serde(deserialize_with = "null_default")]
    pub exit_code: i32,
    #[serde(deserialize_with = "null_default")]
    pub message: String,
    #[serde(deserialize_with = "rfc3339_opt")]
    pub time: Option<String>,
}

/// One logical Instance row, identical whichever encoding it came from. Integers are `i64` so
/// out-of-domain DenseV1 values (negative counts, `activeOrdinal: 7`) survive until
/// [`check_rows`]; int32 JSON fields are still refused above the int32 range at decode time.
/// Invariant: `has_operation == operation.is_some()`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InstanceRow {
    pub index: i64,
    pub incarnation: i64,
    pub phase: String,
    pub running_revision: String,
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

/// The DenseV1 fields a row needs. Every field is optional so absent/`null` take the zero value;
/// a wrong JSON type still fails, as it would when the API types unmarshal.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct DenseRow {
    index: Option<i32>,
    incarnation: Option<i64>,
    phase: Option<String>,
    running_revision: Option<String>,
    target_revision: Option<String>,
    pod_count: Option<i32>,
    serving_pod_count: Option<i32>,
    available_pod_count: Option<i32>,
    admitted: Option<bool>,
    active_ordinal: Option<i32>,
    #[serde(deserialize_with = "rfc3339_opt")]
    ready_since: Option<String>,
    operation: Option<InstanceOperation>,
}

/// A DenseV1 row that is not an object, has no integer `index`, or has a mistyped field is
/// `value_domain`; every other check is left to [`check_rows`].
fn dense_row(value: &Value) -> Result<InstanceRow, CodecError> {
    let row = DenseRow::deserialize(value).map_err(|_| CodecError::ValueDomain)?;
    let index = row.index.ok_or(CodecError::ValueDomain)?;
    Ok(InstanceRow {
        index: i64::from(index),
        incarnation: row.incarnation.unwrap_or_default(),
        phase: row.phase.unwrap_or_default(),
        running_revision: row.running_revision.unwrap_or_default(),
        target_revision: row.target_revision.unwrap_or_default(),
        pod_count: i64::from(row.pod_count.unwrap_or_default()),
        serving_pod_count: i64::from(row.serving_pod_count.unwrap_or_default()),
        available_pod_count: i64::from(row.available_pod_count.unwrap_or_default()),
        admitted: row.admitted.unwrap_or_default(),
        active_ordinal: i64::from(row.active_ordinal.unwrap_or_default()),
        has_operation: row.operation.is_some(),
        operation: row.operation,
        ready_since: row.ready_since,
    })
}

/// `instanceStatuses` as a list: absent or `null` is empty; any other non-list is `value_domain`.
fn dense_items(value: Option<&Value>) -> Result<&[Value], CodecError> {
    match value {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(CodecError::ValueDomain),
    }
}

/// Decodes the Instance rows of an InferenceReplica `status` object (§3.1, then §3.5).
///
/// Marker absent: columns present ⇒ `representation_union`, else the DenseV1 rows as stored (no
/// bound, no validation beyond typing). Marker `"ColumnarV2"`: columns absent or dense rows present
/// ⇒ `representation_union`, else the columns are validated and expanded under `max`. Any other
/// marker (also `""` or a non-string) ⇒ `unknown_encoding`. A `null` status has no rows. On error
/// no rows are returned. Unknown JSON fields are ignored everywhere.
pub fn decode_rows(status: &Value, max: usize) -> Result<Vec<InstanceRow>, CodecError> {
    let fields = match status {
        Value::Null => return Ok(Vec::new()),
        Value::Object(fields) => fields,
        _ => return Err(CodecError::ValueDomain),
    };
    // Go pointer/slice semantics: `null` is the same as absent.
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
            let columns =
                InstanceStatusColumns::deserialize(columns).map_err(|_| CodecError::ValueDomain)?;
            decode_columns(&columns, max)
        }
        Some(_) => Err(CodecError::UnknownEncoding),
    }
}

/// The validated index sets of a payload, so expansion never reparses or revalidates.
struct Plan {
    members: IndexSet,
    columns: [Vec<IndexSet>; 7],
    admitted: Option<IndexSet>,
    active_one: Option<IndexSet>,
}

/// Validates a ColumnarV2 payload in the order of §3.5 and expands it into rows in stored order.
/// `max == 0` fails with `cardinality_limit`. Nothing proportional to a range is allocated before
/// its cardinality is checked, and rows are allocated only after every check passed.
pub fn decode_columns(
    c: &InstanceStatusColumns,
    max: usize,
) -> Result<Vec<InstanceRow>, CodecError> {
    if max == 0 {
        return Err(CodecError::CardinalityLimit);
    }
    let members = parse_index_set(&c.members, max)?;
    let is_phase = |v: &String| PHASES.contains(&v.as_str());
    let non_empty = |v: &String| !v.is_empty();
    let columns = [
        check_column(c.phases.as_deref(), true, &members, is_phase)?,
        check_column(c.running_revisions.as_deref(), false, &members, non_empty)?,
        check_column(c.target_revisions.as_deref(), false, &members, non_empty)?,
        check_column(c.incarnations.as_deref(), false, &members, |v| *v != 0)?,
        check_column(c.pod_counts.as_deref(), false, &members, |v| *v > 0)?,
        check_column(c.serving_pod_counts.as_deref(), false, &members, |v| *v > 0)?,
        check_column(c.available_pod_counts.as_deref(), false, &members, |v| {
            *v > 0
        })?,
    ];
    let admitted = check_optional_set(c.admitted.as_deref(), &members)?;
    let active_one = check_optional_set(c.active_ordinal_one.as_deref(), &members)?;
    check_entries(c.entries.as_deref(), &members)?;
    check_row_order(c.row_order.as_deref(), &members)?;
    expand(
        &Plan {
            members,
            columns,
            admitted,
            active_one,
        },
        c,
    )
}

/// §3.5 step 3 for one grouped column; returns the group sets in group order.
fn check_column<V: Ord>(
    groups: Option<&[InstanceStatusGroup<V>]>,
    required: bool,
    members: &IndexSet,
    valid: impl Fn(&V) -> bool,
) -> Result<Vec<IndexSet>, CodecError> {
    let n = members.len();
    let groups = match groups {
        None | Some([]) if required => return Err(CodecError::Coverage),
        None => return Ok(Vec::new()),
        Some([]) => return Err(CodecError::ValueDomain),
        Some(groups) => groups,
    };
    if groups.len() > n {
        return Err(CodecError::CardinalityLimit);
    }
    let mut sets = Vec::with_capacity(groups.len());
    let mut covered = 0usize;
    let mut previous: Option<&V> = None;
    for group in groups {
        if !valid(&group.value) {
            return Err(CodecError::ValueDomain);
        }
        if previous.is_some_and(|p| *p >= group.value) {
            return Err(CodecError::CanonicalOrder);
        }
        // Bounded by `n`, so a set larger than members fails before any subset check.
        let set = parse_index_set(&group.indexes, n)?;
        if !set.is_subset_of(members) {
            return Err(CodecError::Coverage);
        }
        covered += set.len();
        if covered > n {
            return Err(CodecError::Coverage);
        }
        previous = Some(&group.value);
        sets.push(set);
    }
    if (required && covered != n) || !all_disjoint(&sets) {
        return Err(CodecError::Coverage);
    }
    Ok(sets)
}

/// §3.5 step 4: `admitted` / `activeOrdinalOne`, bounded by the member count.
fn check_optional_set(
    raw: Option<&str>,
    members: &IndexSet,
) -> Result<Option<IndexSet>, CodecError> {
    let Some(raw) = raw else { return Ok(None) };
    let set = parse_index_set(raw, members.len())?;
    if !set.is_subset_of(members) {
        return Err(CodecError::Coverage);
    }
    Ok(Some(set))
}

/// §3.5 step 5: entries strictly ascending, at most one per member, each with a record.
fn check_entries(
    entries: Option<&[InstanceStatusEntry]>,
    members: &IndexSet,
) -> Result<(), CodecError> {
    let Some(entries) = entries else {
        return Ok(());
    };
    if entries.is_empty() {
        return Err(CodecError::ValueDomain);
    }
    if entries.len() > members.len() {
        return Err(CodecError::CardinalityLimit);
    }
    let mut previous: Option<i32> = None;
    for entry in entries {
        match previous {
            Some(p) if entry.index == p => return Err(CodecError::Coverage),
            Some(p) if entry.index < p => return Err(CodecError::CanonicalOrder),
            _ => {}
        }
        if !members.contains(i64::from(entry.index)) || !entry.has_record() {
            return Err(CodecError::Coverage);
        }
        previous = Some(entry.index);
    }
    Ok(())
}

/// §3.5 step 6: a permutation of members other than the ascending one. Runs last because its
/// seen-flags are proportional to the member count, which every earlier step has accepted.
fn check_row_order(order: Option<&[i32]>, members: &IndexSet) -> Result<(), CodecError> {
    let Some(order) = order else { return Ok(()) };
    if order.is_empty() {
        return Err(CodecError::ValueDomain);
    }
    if order.len() != members.len() {
        return Err(CodecError::Coverage);
    }
    let mut seen = vec![false; order.len()];
    for &index in order {
        match members
            .rank(i64::from(index))
            .and_then(|rank| seen.get_mut(rank))
        {
            Some(flag) if !*flag => *flag = true,
            _ => return Err(CodecError::Coverage),
        }
    }
    // A permutation of distinct values is ascending exactly when every neighbour pair is.
    if order.windows(2).all(|pair| matches!(pair, [a, b] if a < b)) {
        return Err(CodecError::CanonicalOrder);
    }
    Ok(())
}

/// Runs `f` on the row of every member of `set` (rows in ascending member order). A subset
/// interval lies inside one member interval (those are maximal runs), so its members occupy
/// consecutive ranks: O(rows) overall, no per-index lookup.
fn for_each_row(
    rows: &mut [InstanceRow],
    members: &IndexSet,
    set: &IndexSet,
    mut f: impl FnMut(&mut InstanceRow),
) {
    for &(first, last) in set.intervals() {
        let Some(start) = members.rank(i64::from(first)) else {
            continue;
        };
        let end = start + (last - first) as usize + 1;
        if let Some(slice) = rows.get_mut(start..end) {
            slice.iter_mut().for_each(&mut f);
        }
    }
}

/// Assigns each group's value to the rows of its set.
fn assign<V>(
    rows: &mut [InstanceRow],
    plan: &Plan,
    column: usize,
    groups: Option<&[InstanceStatusGroup<V>]>,
    set_field: impl Fn(&mut InstanceRow, &V),
) {
    let sets = plan
        .columns
        .get(column)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (set, group) in sets.iter().zip(groups.unwrap_or_default()) {
        for_each_row(rows, &plan.members, set, |row| set_field(row, &group.value));
    }
}

/// §3.5 step 7: allocate the rows (only now) and fill them; defaults are those of §3.2.
fn expand(plan: &Plan, c: &InstanceStatusColumns) -> Result<Vec<InstanceRow>, CodecError> {
    let members = &plan.members;
    let mut rows: Vec<InstanceRow> = members
        .iter()
        .map(|i| InstanceRow {
            index: i64::from(i),
            ..InstanceRow::default()
        })
        .collect();
    assign(&mut rows, plan, 0, c.phases.as_deref(), |r, v| {
        r.phase.clone_from(v)
    });
    assign(
        &mut rows,
        plan,
        1,
        c.running_revisions.as_deref(),
        |r, v| r.running_revision.clone_from(v),
    );
    assign(&mut rows, plan, 2, c.target_revisions.as_deref(), |r, v| {
        r.target_revision.clone_from(v)
    });
    assign(&mut rows, plan, 3, c.incarnations.as_deref(), |r, v| {
        r.incarnation = *v
    });
    assign(&mut rows, plan, 4, c.pod_counts.as_deref(), |r, v| {
        r.pod_count = i64::from(*v)
    });
    assign(
        &mut rows,
        plan,
        5,
        c.serving_pod_counts.as_deref(),
        |r, v| r.serving_pod_count = i64::from(*v),
    );
    assign(
        &mut rows,
        plan,
        6,
        c.available_pod_counts.as_deref(),
        |r, v| r.available_pod_count = i64::from(*v),
    );
    if let Some(set) = &plan.admitted {
        for_each_row(&mut rows, members, set, |r| r.admitted = true);
    }
    if let Some(set) = &plan.active_one {
        for_each_row(&mut rows, members, set, |r| r.active_ordinal = 1);
    }
    for entry in c.entries.iter().flatten() {
        if let Some(row) = members
            .rank(i64::from(entry.index))
            .and_then(|r| rows.get_mut(r))
        {
            row.ready_since.clone_from(&entry.ready_since);
            row.operation.clone_from(&entry.operation);
            row.has_operation = entry.operation.is_some();
        }
    }
    let Some(order) = &c.row_order else {
        return Ok(rows);
    };
    let mut slots: Vec<Option<InstanceRow>> = rows.into_iter().map(Some).collect();
    // Validated as a permutation already; the error arm only keeps this total (no partial rows).
    order
        .iter()
        .map(|&i| {
            members
                .rank(i64::from(i))
                .and_then(|r| slots.get_mut(r))
                .and_then(Option::take)
        })
        .map(|row| row.ok_or(CodecError::Coverage))
        .collect()
}

/// Why §5.3 step 8 refused a row set. `position` is the row's place in stored order. Display is
/// [`STATUS_INVALID`] plus a short detail that never echoes status strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowError {
    TooManyRows { rows: usize },
    NegativeIndex { position: usize, index: i64 },
    UnknownPhase { position: usize, index: i64 },
    NegativeIncarnation { position: usize, index: i64 },
    NegativeCount { position: usize, index: i64 },
    ActiveOrdinal { position: usize, index: i64 },
    DuplicateIndex { position: usize, index: i64 },
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (position, index, what) = match *self {
            Self::TooManyRows { rows } => {
                return write!(
                    f,
                    "{STATUS_INVALID}: {rows} rows exceed the limit of {MAX_ROWS}"
                );
            }
            Self::NegativeIndex { position, index } => (position, index, "a negative index"),
            Self::UnknownPhase { position, index } => (position, index, "an unknown phase"),
            Self::NegativeIncarnation { position, index } => {
                (position, index, "a negative incarnation")
            }
            Self::NegativeCount { position, index } => (position, index, "a negative pod count"),
            Self::ActiveOrdinal { position, index } => {
                (position, index, "an activeOrdinal other than 0 or 1")
            }
            Self::DuplicateIndex { position, index } => (position, index, "a duplicate index"),
        };
        write!(
            f,
            "{STATUS_INVALID}: row {position} (index {index}) has {what}"
        )
    }
}

impl std::error::Error for RowError {}

/// Alfred's row checks (§5.3 step 8) for rows of either encoding, row by row in stored order,
/// first failure wins: at most [`MAX_ROWS`] rows; then per row index ≥ 0, phase one of
/// [`PHASES`], incarnation ≥ 0, the three counts ≥ 0, activeOrdinal ∈ {0, 1}, and an index not
/// seen on an earlier row.
pub fn check_rows(rows: &[InstanceRow]) -> Result<(), RowError> {
    if rows.len() > MAX_ROWS {
        return Err(RowError::TooManyRows { rows: rows.len() });
    }
    let mut seen = HashSet::with_capacity(rows.len());
    for (position, row) in rows.iter().enumerate() {
        let index = row.index;
        let error = if index < 0 {
            RowError::NegativeIndex { position, index }
        } else if !PHASES.contains(&row.phase.as_str()) {
            RowError::UnknownPhase { position, index }
        } else if row.incarnation < 0 {
            RowError::NegativeIncarnation { position, index }
        } else if row.pod_count < 0 || row.serving_pod_count < 0 || row.available_pod_count < 0 {
            RowError::NegativeCount { position, index }
        } else if row.active_ordinal != 0 && row.active_ordinal != 1 {
            RowError::ActiveOrdinal { position, index }
        } else if !seen.insert(index) {
            RowError::DuplicateIndex { position, index }
        } else {
            continue;
        };
        return Err(error);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    const TIME: &str = "2026-09-28T10:15:02Z";

    /// The §3.5 base payload: members "0-9", two phases, two revisions, two incarnations, counts,
    /// admission, an ordinal and two entries.
    fn base() -> Value {
        json!({
            "members": "0-9",
            "phases": [{"value": "Ready", "indexes": "0-2,4-9"}, {"value": "Updating", "indexes": "3"}],
            "runningRevisions": [
                {"value": "rev-a", "indexes": "0-6,8-9"}, {"value": "rev-b", "indexes": "7"}
            ],
            "targetRevisions": [{"value": "rev-b", "indexes": "3"}],
            "incarnations": [{"value": 1, "indexes": "0-6,8-9"}, {"value": 2, "indexes": "7"}],
            "podCounts": [{"value": 1, "indexes": "0-9"}],
            "servingPodCounts": [{"value": 1, "indexes": "0-9"}],
            "availablePodCounts": [{"value": 1, "indexes": "0-9"}],
            "admitted": "0-7,9",
            "activeOrdinalOne": "7",
            "entries": [
                {"index": 2, "readySince": TIME},
                {"index": 5, "lastFailure": {"podName": "x-5-0", "reason": "Error", "time": TIME}}
            ]
        })
    }

    fn columnar(columns: Value) -> Value {
        json!({"instanceStatusEncoding": "ColumnarV2", "instanceStatusColumns": columns})
    }

    fn reason_of(status: &Value, max: usize) -> &'static str {
        match decode_rows(status, max) {
            Ok(rows) => panic!("decoded {} rows from {status}", rows.len()),
            Err(e) => e.reason(),
        }
    }

    /// Reason for the base payload after `mutate`, under Alfred's bound.
    fn rejects(mutate: impl FnOnce(&mut Value)) -> &'static str {
        let mut columns = base();
        mutate(&mut columns);
        reason_of(&columnar(columns), MAX_ROWS)
    }

    fn members(s: &str) -> &'static str {
        rejects(|c| c["members"] = json!(s))
    }

    fn decode(columns: Value) -> Vec<InstanceRow> {
        decode_rows(&columnar(columns), MAX_ROWS).unwrap()
    }

    fn row(
        i: i64,
        phase: &str,
        rev: [&str; 2],
        inc: i64,
        n: [i64; 3],
        adm: bool,
        ord: i64,
    ) -> InstanceRow {
        InstanceRow {
            index: i,
            incarnation: inc,
            phase: phase.into(),
            running_revision: rev[0].into(),
            target_revision: rev[1].into(),
            pod_count: n[0],
            serving_pod_count: n[1],
            available_pod_count: n[2],
            admitted: adm,
            active_ordinal: ord,
            ..InstanceRow::default()
        }
    }

    #[test]
    fn catalogue_reasons_and_messages() {
        let reasons: Vec<_> = CodecError::ALL.iter().map(|e| e.reason()).collect();
        assert_eq!(
            reasons,
            [
                "unknown_encoding",
                "representation_union",
                "range_syntax",
                "range_order",
                "range_overflow",
                "cardinality_limit",
                "coverage",
                "canonical_order",
                "value_domain",
            ]
        );
        assert_eq!(
            CodecError::UnknownEncoding.to_string(),
            "instance status encoding is unknown"
        );
        assert_eq!(
            CodecError::RangeOverflow.message(),
            "instance index set exceeds the supported index domain"
        );
        assert_eq!(
            CodecError::CardinalityLimit.message(),
            "instance status cardinality limit is invalid"
        );
        assert_eq!(
            CodecError::ValueDomain.to_string(),
            "instance status value is outside its supported domain"
        );
        assert_eq!(
            CodecError::CanonicalOrder.message(),
            "instance status column order is not canonical"
        );
    }

    #[test]
    fn base_payload_expands() {
        let rows = decode(base());
        let mut want: Vec<_> = (0..10)
            .map(|i| row(i, "Ready", ["rev-a", ""], 1, [1; 3], true, 0))
            .collect();
        want[3].phase = "Updating".into();
        want[3].target_revision = "rev-b".into();
        want[7] = row(7, "Ready", ["rev-b", ""], 2, [1; 3], true, 1);
        want[8].admitted = false;
        want[2].ready_since = Some(TIME.into());
        assert_eq!(rows, want);
        assert_eq!(check_rows(&rows), Ok(()));
    }

    #[test]
    fn table_members_range_syntax() {
        assert_eq!(members(""), "range_syntax");
        assert_eq!(members("0-9 "), "range_syntax");
        assert_eq!(members("00-9"), "range_syntax");
        assert_eq!(members("+0-9"), "range_syntax");
        assert_eq!(members("0-9,"), "range_syntax");
        assert_eq!(rejects(|c| c["members"] = Value::Null), "range_syntax");
    }

    #[test]
    fn table_members_range_order() {
        assert_eq!(members("9-0"), "range_order");
        assert_eq!(members("0-8,9-9"), "range_order");
        assert_eq!(members("0-5,5-9"), "range_order");
        assert_eq!(members("1,0"), "range_order");
    }

    #[test]
    fn table_index_set_canonical_order() {
        assert_eq!(members("0-4,5-9"), "canonical_order");
        let split = json!([{"value": "Ready", "indexes": "0-2,3-9"}]);
        assert_eq!(rejects(|c| c["phases"] = split), "canonical_order");
        assert_eq!(
            rejects(|c| c["activeOrdinalOne"] = json!("7,8")),
            "canonical_order"
        );
    }

    #[test]
    fn table_range_overflow() {
        assert_eq!(members("0-2147483648"), "range_overflow");
        assert_eq!(members(&"9".repeat(40)), "range_overflow");
    }

    #[test]
    fn table_cardinality_limit() {
        assert_eq!(reason_of(&columnar(base()), 9), "cardinality_limit");
        assert_eq!(reason_of(&columnar(base()), 0), "cardinality_limit");
        let wide = json!([{"value": "Ready", "indexes": "0-10"}]);
        assert_eq!(rejects(|c| c["phases"] = wide), "cardinality_limit");
        assert_eq!(
            rejects(|c| c["admitted"] = json!("0-10")),
            "cardinality_limit"
        );
        let two = json!([{"value": "Failed", "indexes": "0"}, {"value": "Ready", "indexes": "0"}]);
        assert_eq!(
            rejects(|c| {
                c["members"] = json!("0");
                c["phases"] = two;
            }),
            "cardinality_limit"
        );
        let eleven: Vec<Value> = (0..11)
            .map(|i| json!({"index": i, "readySince": TIME}))
            .collect();
        assert_eq!(
            rejects(|c| c["entries"] = json!(eleven)),
            "cardinality_limit"
        );
    }

    #[test]
    fn bombs_fail_fast_with_cardinality_limit() {
        assert_eq!(members("0-2147483647"), "cardinality_limit");
        assert_eq!(members("0-9,11-2147483647"), "cardinality_limit");
        let bomb = json!([{"value": "Ready", "indexes": "0-2147483647"}]);
        assert_eq!(rejects(|c| c["phases"] = bomb), "cardinality_limit");
        assert_eq!(
            rejects(|c| c["admitted"] = json!("0-2147483647")),
            "cardinality_limit"
        );
    }

    #[test]
    fn table_phase_coverage() {
        let obj = |c: &mut Value| c.as_object_mut().unwrap().remove("phases");
        assert_eq!(
            rejects(|c| {
                obj(c);
            }),
            "coverage"
        );
        assert_eq!(rejects(|c| c["phases"] = Value::Null), "coverage");
        assert_eq!(rejects(|c| c["phases"] = json!([])), "coverage");
        let short = json!([{"value": "Ready", "indexes": "0-8"}]);
        assert_eq!(rejects(|c| c["phases"] = short), "coverage");
        let extra = json!([{"value": "Ready", "indexes": "0-8,10"}]);
        assert_eq!(rejects(|c| c["phases"] = extra), "coverage");
        let dup =
            json!([{"value": "Failed", "indexes": "3"}, {"value": "Ready", "indexes": "0-9"}]);
        assert_eq!(rejects(|c| c["phases"] = dup), "coverage");
        let both = json!({"members": "0-4", "phases": [
            {"value": "Failed", "indexes": "0-4"}, {"value": "Ready", "indexes": "0-4"}]});
        assert_eq!(reason_of(&columnar(both), MAX_ROWS), "coverage");
    }

    #[test]
    fn table_group_canonical_order() {
        let two_ready =
            json!([{"value": "Ready", "indexes": "0-4"}, {"value": "Ready", "indexes": "5-9"}]);
        assert_eq!(rejects(|c| c["phases"] = two_ready), "canonical_order");
        let unsorted = json!([{"value": "Updating", "indexes": "3"}, {"value": "Ready", "indexes": "0-2,4-9"}]);
        assert_eq!(rejects(|c| c["phases"] = unsorted), "canonical_order");
        let revs =
            json!([{"value": "rev-b", "indexes": "0-4"}, {"value": "rev-a", "indexes": "5-9"}]);
        assert_eq!(rejects(|c| c["runningRevisions"] = revs), "canonical_order");
        let incs = json!([{"value": 10, "indexes": "0-4"}, {"value": 9, "indexes": "5-9"}]);
        assert_eq!(rejects(|c| c["incarnations"] = incs), "canonical_order");
        let counts = json!([{"value": 2, "indexes": "0-4"}, {"value": 1, "indexes": "5-9"}]);
        assert_eq!(
            rejects(|c| c["availablePodCounts"] = counts),
            "canonical_order"
        );
    }

    #[test]
    fn table_value_domain() {
        let unknown = json!([{"value": "Unknown", "indexes": "0-9"}]);
        assert_eq!(rejects(|c| c["phases"] = unknown), "value_domain");
        let empty_rev = json!([{"value": "", "indexes": "0-9"}]);
        assert_eq!(
            rejects(|c| c["runningRevisions"] = empty_rev),
            "value_domain"
        );
        assert_eq!(
            rejects(|c| c["runningRevisions"] = json!([])),
            "value_domain"
        );
        let zero_inc = json!([{"value": 0, "indexes": "0-9"}]);
        assert_eq!(rejects(|c| c["incarnations"] = zero_inc), "value_domain");
        let zero = json!([{"value": 0, "indexes": "0-9"}]);
        assert_eq!(rejects(|c| c["podCounts"] = zero), "value_domain");
        let negative = json!([{"value": -1, "indexes": "0-9"}]);
        assert_eq!(
            rejects(|c| c["servingPodCounts"] = negative),
            "value_domain"
        );
        assert_eq!(rejects(|c| c["entries"] = json!([])), "value_domain");
        assert_eq!(rejects(|c| c["rowOrder"] = json!([])), "value_domain");
    }

    #[test]
    fn table_subset_coverage() {
        let overlap =
            json!([{"value": "rev-a", "indexes": "0-6"}, {"value": "rev-b", "indexes": "6-9"}]);
        assert_eq!(rejects(|c| c["runningRevisions"] = overlap), "coverage");
        let outside = json!([{"value": "rev-a", "indexes": "10"}]);
        assert_eq!(rejects(|c| c["targetRevisions"] = outside), "coverage");
        assert_eq!(rejects(|c| c["admitted"] = json!("0-7,12")), "coverage");
        assert_eq!(rejects(|c| c["activeOrdinalOne"] = json!("10")), "coverage");
    }

    #[test]
    fn table_entry_coverage() {
        assert_eq!(
            rejects(|c| c["entries"][1]["index"] = json!(11)),
            "coverage"
        );
        assert_eq!(rejects(|c| c["entries"][1]["index"] = json!(2)), "coverage");
        assert_eq!(
            rejects(|c| c["entries"][0] = json!({"index": 2})),
            "coverage"
        );
        let only_empty = json!({"index": 2, "conditions": []});
        assert_eq!(rejects(|c| c["entries"][0] = only_empty), "coverage");
        let only_announced = json!({"index": 2, "announced": ["x"]});
        assert_eq!(rejects(|c| c["entries"][0] = only_announced), "coverage");
    }

    #[test]
    fn table_entries_out_of_order() {
        assert_eq!(
            rejects(|c| c["entries"].as_array_mut().unwrap().swap(0, 1)),
            "canonical_order"
        );
    }

    #[test]
    fn table_row_order_ascending() {
        assert_eq!(
            rejects(|c| c["rowOrder"] = json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
            "canonical_order"
        );
    }

    #[test]
    fn table_row_order_coverage() {
        assert_eq!(rejects(|c| c["rowOrder"] = json!([9, 0])), "coverage");
        assert_eq!(
            rejects(|c| c["rowOrder"] = json!([9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8])),
            "coverage"
        );
        assert_eq!(
            rejects(|c| c["rowOrder"] = json!([9, 0, 1, 2, 3, 4, 5, 6, 7, 7])),
            "coverage"
        );
        assert_eq!(
            rejects(|c| c["rowOrder"] = json!([10, 0, 1, 2, 3, 4, 5, 6, 7, 8])),
            "coverage"
        );
        assert_eq!(
            rejects(|c| c["rowOrder"] = json!([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8])),
            "coverage"
        );
    }

    #[test]
    fn table_representation_union() {
        let unmarked = json!({"instanceStatusColumns": base()});
        assert_eq!(reason_of(&unmarked, MAX_ROWS), "representation_union");
        let no_columns = json!({"instanceStatusEncoding": "ColumnarV2"});
        assert_eq!(reason_of(&no_columns, MAX_ROWS), "representation_union");
        let null_columns =
            json!({"instanceStatusEncoding": "ColumnarV2", "instanceStatusColumns": null});
        assert_eq!(reason_of(&null_columns, MAX_ROWS), "representation_union");
        let mut mixed = columnar(base());
        mixed["instanceStatuses"] = json!([{"index": 0, "phase": "Ready"}]);
        assert_eq!(reason_of(&mixed, MAX_ROWS), "representation_union");
    }

    #[test]
    fn table_unknown_encoding() {
        for marker in [json!("ColumnarV3"), json!(""), json!("DenseV1"), json!(2)] {
            let status = json!({"instanceStatusEncoding": marker, "instanceStatusColumns": base()});
            assert_eq!(reason_of(&status, MAX_ROWS), "unknown_encoding", "{marker}");
        }
    }

    #[test]
    fn validation_order_first_failure_wins() {
        // An unknown phase (step 3) beats a bad admitted set (step 4) and a bad row order (step 6).
        let unknown = json!([{"value": "Unknown", "indexes": "0-9"}]);
        let r = rejects(|c| {
            c["phases"] = unknown;
            c["admitted"] = json!("");
            c["rowOrder"] = json!([]);
        });
        assert_eq!(r, "value_domain");
        // Value domain is checked before group order, group order before the index set.
        let both =
            json!([{"value": "Ready", "indexes": "0-9"}, {"value": "Bogus", "indexes": "x"}]);
        assert_eq!(rejects(|c| c["phases"] = both), "value_domain");
        let order = json!([{"value": "rev-b", "indexes": "0"}, {"value": "rev-a", "indexes": "x"}]);
        assert_eq!(rejects(|c| c["targetRevisions"] = order), "canonical_order");
        // Members is parsed before phases are even looked at.
        assert_eq!(
            rejects(|c| {
                c["members"] = json!("0-9,");
                c["phases"] = json!([]);
            }),
            "range_syntax"
        );
        // Entries (step 5) before row order (step 6).
        assert_eq!(
            rejects(|c| {
                c["entries"] = json!([]);
                c["rowOrder"] = json!([1]);
            }),
            "value_domain"
        );
    }

    #[test]
    fn accepted_edge_cases() {
        let neg = json!([{"value": -5, "indexes": "0-6,8-9"}, {"value": 2, "indexes": "7"}]);
        let mut c = base();
        c["incarnations"] = neg;
        let rows = decode(c);
        assert_eq!((rows[0].incarnation, rows[7].incarnation), (-5, 2));
        let mut c = base();
        c["podCounts"] = json!([{"value": 2147483647, "indexes": "0-9"}]);
        assert_eq!(decode(c)[9].pod_count, 2_147_483_647);
        let top = json!({"members": "0,2147483647", "phases": [{"value": "Failed", "indexes": "0,2147483647"}],
            "entries": [{"index": 2147483647, "readySince": TIME}]});
        let rows = decode(top);
        assert_eq!(
            (rows[1].index, rows[1].ready_since.as_deref()),
            (2_147_483_647, Some(TIME))
        );
        let mut c = base();
        c["entries"][0]["conditions"] = json!([]);
        assert_eq!(decode(c)[2].ready_since.as_deref(), Some(TIME));
        let mut c = base();
        c["rowOrder"] = json!([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
        let rows = decode(c);
        assert_eq!(
            rows.iter().map(|r| r.index).collect::<Vec<_>>(),
            (0..10).rev().collect::<Vec<_>>()
        );
        assert_eq!(
            (rows[2].active_ordinal, rows[6].phase.as_str()),
            (1, "Updating")
        );
        assert!(rows[7].ready_since.is_some());
    }

    #[test]
    fn unknown_fields_are_ignored_and_optional_columns_default() {
        let mut c = json!({"members": "0-9", "phases": [{"value": "Deleting", "indexes": "0-9", "x": 1}],
            "futureColumn": {"a": [1]}, "admitted": null, "rowOrder": null, "entries": null});
        c["entries"] = json!([{"index": 4, "operation": {"type": "Delete", "newField": true},
            "announced": ["once"], "somethingElse": 3}]);
        let rows = decode(c);
        assert!(rows
            .iter()
            .all(|r| r.phase == "Deleting" && !r.admitted && r.pod_count == 0));
        assert!(rows[4].has_operation && rows[4].operation.as_ref().unwrap().op_type == "Delete");
        let mut status = columnar(base());
        status["conditions"] = json!([{"type": "Ready"}]);
        status["futureStatusField"] = json!(7);
        assert_eq!(decode_rows(&status, MAX_ROWS).unwrap().len(), 10);
    }

    #[test]
    fn mistyped_columns_are_value_domain() {
        assert_eq!(rejects(|c| c["members"] = json!(5)), "value_domain");
        assert_eq!(rejects(|c| c["rowOrder"] = json!([9, "0"])), "value_domain");
        assert_eq!(
            rejects(|c| c["rowOrder"] = json!([3_000_000_000_i64])),
            "value_domain"
        );
        assert_eq!(
            rejects(|c| c["podCounts"][0]["value"] = json!(1.5)),
            "value_domain"
        );
        assert_eq!(
            rejects(|c| c["entries"][0]["readySince"] = json!("yesterday")),
            "value_domain"
        );
        assert_eq!(reason_of(&columnar(json!("0-9")), MAX_ROWS), "value_domain");
    }

    #[test]
    fn example_1_eight_instances_one_mid_update() {
        let columns = json!({
            "members": "0-7",
            "phases": [{"value": "Ready", "indexes": "0-2,4-7"}, {"value": "Updating", "indexes": "3"}],
            "runningRevisions": [{"value": "chat-engine-5d8f9c7a", "indexes": "0-7"}],
            "targetRevisions": [{"value": "chat-engine-7b1e22c0", "indexes": "3"}],
            "incarnations": [{"value": 1, "indexes": "0-4,6-7"}, {"value": 2, "indexes": "5"}],
            "podCounts": [{"value": 1, "indexes": "0-2,4-7"}, {"value": 2, "indexes": "3"}],
            "servingPodCounts": [{"value": 1, "indexes": "0-7"}],
            "availablePodCounts": [{"value": 1, "indexes": "0-7"}],
            "admitted": "0-7",
            "activeOrdinalOne": "6",
            "entries": [
                {"index": 3, "operation": {"id": "upd-3-1", "type": "Update", "step": "WaitReady",
                  "startedAt": "2026-09-28T10:10:00Z", "lastProgressAt": "2026-09-28T10:11:30Z",
                  "deadline": "2026-09-28T10:40:00Z", "targetRevision": "chat-engine-7b1e22c0"}},
                {"index": 5, "lastFailure": {"podName": "chat-engine-5-default-0",
                  "containerName": "ome-container", "reason": "OOMKilled", "exitCode": 137,
                  "time": "2026-09-28T07:03:12Z"}}
            ]
        });
        let operation =
            InstanceOperation::deserialize(&columns["entries"][0]["operation"]).unwrap();
        let (run, tgt) = ("chat-engine-5d8f9c7a", "chat-engine-7b1e22c0");
        let mut want: Vec<_> = (0..8)
            .map(|i| row(i, "Ready", [run, ""], 1, [1; 3], true, 0))
            .collect();
        want[3] = row(3, "Updating", [run, tgt], 1, [2, 1, 1], true, 0);
        want[3].has_operation = true;
        want[3].operation = Some(operation);
        want[5].incarnation = 2;
        want[6].active_ordinal = 1;
        let rows = decode(columns);
        assert_eq!(rows, want);
        let op = rows[3].operation.as_ref().unwrap();
        assert_eq!(
            (op.op_type.as_str(), op.step.as_str(), op.surge_index),
            ("Update", "WaitReady", None)
        );
        assert_eq!(op.deadline.as_deref(), Some("2026-09-28T10:40:00Z"));
        assert_eq!(check_rows(&rows), Ok(()));
    }

    #[test]
    fn example_2_sparse_migration_stored_order() {
        let columns = json!({
            "members": "0,2-3,7",
            "rowOrder": [2, 0, 3, 7],
            "phases": [{"value": "Creating", "indexes": "7"}, {"value": "Migrating", "indexes": "2"},
                       {"value": "Ready", "indexes": "0,3"}],
            "runningRevisions": [{"value": "chat-engine-5d8f9c7a", "indexes": "0,2-3"}],
            "targetRevisions": [{"value": "chat-engine-5d8f9c7a", "indexes": "7"}],
            "incarnations": [{"value": 1, "indexes": "0,2,7"}, {"value": 4, "indexes": "3"}],
            "podCounts": [{"value": 1, "indexes": "0,2-3,7"}],
            "servingPodCounts": [{"value": 1, "indexes": "0,2-3"}],
            "availablePodCounts": [{"value": 1, "indexes": "0,2-3"}],
            "admitted": "0,2-3",
            "entries": [
                {"index": 2, "operation": {"id": "mig-7c9e", "type": "Migrate", "step": "SurgeWait",
                  "startedAt": "2026-09-28T10:12:00Z", "lastProgressAt": "2026-09-28T10:12:05Z",
                  "deadline": "2026-09-28T10:42:00Z", "surgeIndex": 7, "fromNode": "gpu-b",
                  "requestUUID": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}},
                {"index": 7, "operation": {"id": "create-7-1", "type": "Create", "step": "WaitReady",
                  "startedAt": "2026-09-28T10:12:05Z", "lastProgressAt": "2026-09-28T10:12:05Z",
                  "deadline": "2026-09-28T10:42:05Z", "targetRevision": "chat-engine-5d8f9c7a"}}
            ]
        });
        let rev = "chat-engine-5d8f9c7a";
        let rows = decode(columns);
        let plain = |r: &InstanceRow| InstanceRow {
            has_operation: false,
            operation: None,
            ..r.clone()
        };
        assert_eq!(
            rows.iter().map(plain).collect::<Vec<_>>(),
            vec![
                row(2, "Migrating", [rev, ""], 1, [1, 1, 1], true, 0),
                row(0, "Ready", [rev, ""], 1, [1, 1, 1], true, 0),
                row(3, "Ready", [rev, ""], 4, [1, 1, 1], true, 0),
                row(7, "Creating", ["", rev], 1, [1, 0, 0], false, 0),
            ]
        );
        let ops: Vec<_> = rows
            .iter()
            .map(|r| (r.has_operation, r.operation.as_ref()))
            .collect();
        let migrate = ops[0].1.unwrap();
        assert_eq!(
            (migrate.op_type.as_str(), migrate.surge_index),
            ("Migrate", Some(7))
        );
        assert_eq!(migrate.from_node, "gpu-b");
        assert_eq!(migrate.request_uuid, "7c9e6679-7425-40de-944b-e07fc1f90ae7");
        assert!(ops[0].0 && !ops[1].0 && ops[1].1.is_none() && !ops[2].0);
        assert_eq!(ops[3].1.map(|o| o.op_type.as_str()), Some("Create"));
        assert_eq!(check_rows(&rows), Ok(()));
    }

    #[test]
    fn example_3_minimal_payload() {
        let rows = decode(
            json!({"members": "0-2,9", "phases": [{"value": "Pending", "indexes": "0-2,9"}]}),
        );
        let want: Vec<_> = [0, 1, 2, 9]
            .iter()
            .map(|&i| row(i, "Pending", ["", ""], 0, [0; 3], false, 0))
            .collect();
        assert_eq!(rows, want);
    }

    #[test]
    fn union_dense_cases() {
        assert_eq!(decode_rows(&Value::Null, MAX_ROWS), Ok(vec![]));
        assert_eq!(decode_rows(&json!({}), MAX_ROWS), Ok(vec![]));
        assert_eq!(
            decode_rows(&json!({"instanceStatuses": null}), MAX_ROWS),
            Ok(vec![])
        );
        let nulls = json!({"instanceStatusEncoding": null, "instanceStatusColumns": null, "instanceStatuses": []});
        assert_eq!(decode_rows(&nulls, MAX_ROWS), Ok(vec![]));
        let mut empty_dense = columnar(base());
        empty_dense["instanceStatuses"] = json!([]);
        assert_eq!(decode_rows(&empty_dense, MAX_ROWS).unwrap().len(), 10);
        assert_eq!(
            reason_of(&json!({"instanceStatuses": {}}), MAX_ROWS),
            "value_domain"
        );
        assert_eq!(reason_of(&json!("status"), MAX_ROWS), "value_domain");
    }

    #[test]
    fn dense_rows_are_lenient_but_typed() {
        let status = json!({"instanceStatuses": [
            {"index": 4, "phase": "Ready", "incarnation": 3, "podCount": 1, "servingPodCount": 1,
             "availablePodCount": 1, "admitted": true, "activeOrdinal": 1, "readySince": TIME,
             "readyPodCount": 1, "nodesOccupied": ["n1"], "conditions": [{"type": "AllPodsReady"}],
             "operation": {"type": "Restart", "surgeIndex": 0}},
            {"index": 1, "phase": "Bogus", "podCount": -1, "activeOrdinal": 7, "runningRevision": null}
        ]});
        let rows = decode_rows(&status, MAX_ROWS).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[0].index, rows[0].incarnation, rows[0].active_ordinal),
            (4, 3, 1)
        );
        assert_eq!(rows[0].ready_since.as_deref(), Some(TIME));
        assert_eq!(
            rows[0].operation.as_ref().and_then(|o| o.surge_index),
            Some(0)
        );
        assert_eq!(
            rows[1],
            InstanceRow {
                index: 1,
                phase: "Bogus".into(),
                pod_count: -1,
                active_ordinal: 7,
                ..InstanceRow::default()
            }
        );
        assert_eq!(
            check_rows(&rows),
            Err(RowError::UnknownPhase {
                position: 1,
                index: 1
            })
        );
        for bad in [
            json!(3),
            json!({"phase": "Ready"}),
            json!({"index": "3"}),
            json!({"index": 1.5}),
            json!({"index": 3_000_000_000_i64}),
            json!({"index": 1, "podCount": 3_000_000_000_i64}),
            json!({"index": 1, "readySince": "soon"}),
            json!({"index": 1, "admitted": "yes"}),
        ] {
            let status = json!({"instanceStatuses": [bad.clone()]});
            assert_eq!(reason_of(&status, MAX_ROWS), "value_domain", "{bad}");
        }
    }

    #[test]
    fn dense_rows_have_no_codec_bound_but_fail_the_row_check() {
        let many: Vec<Value> = (0..=MAX_ROWS)
            .map(|i| json!({"index": i, "phase": "Ready"}))
            .collect();
        let rows = decode_rows(&json!({"instanceStatuses": many}), 1).unwrap();
        assert_eq!(
            check_rows(&rows),
            Err(RowError::TooManyRows { rows: MAX_ROWS + 1 })
        );
        assert_eq!(check_rows(&rows[..MAX_ROWS]), Ok(()));
    }

    #[test]
    fn row_checks_each_rule() {
        let ok = row(0, "Ready", ["r", ""], 0, [0; 3], false, 1);
        let with = |f: fn(&mut InstanceRow)| {
            let mut r = ok.clone();
            f(&mut r);
            check_rows(&[ok.clone(), InstanceRow { index: 1, ..r }])
        };
        let at = |e: fn(usize, i64) -> RowError| Err(e(1, 1));
        assert_eq!(check_rows(std::slice::from_ref(&ok)), Ok(()));
        assert_eq!(check_rows(&[]), Ok(()));
        assert_eq!(with(|_| {}), Ok(()));
        let neg = InstanceRow {
            index: -1,
            ..ok.clone()
        };
        assert_eq!(
            check_rows(&[neg]),
            Err(RowError::NegativeIndex {
                position: 0,
                index: -1
            })
        );
        assert_eq!(
            with(|r| r.phase = "ready".into()),
            at(|position, index| RowError::UnknownPhase { position, index })
        );
        assert_eq!(
            with(|r| r.phase.clear()),
            at(|position, index| RowError::UnknownPhase { position, index })
        );
        assert_eq!(
            with(|r| r.incarnation = -1),
            at(|position, index| RowError::NegativeIncarnation { position, index })
        );
        assert_eq!(
            with(|r| r.pod_count = -1),
            at(|position, index| RowError::NegativeCount { position, index })
        );
        assert_eq!(
            with(|r| r.serving_pod_count = -1),
            at(|position, index| RowError::NegativeCount { position, index })
        );
        assert_eq!(
            with(|r| r.available_pod_count = -1),
            at(|position, index| RowError::NegativeCount { position, index })
        );
        assert_eq!(
            with(|r| r.active_ordinal = 2),
            at(|position, index| RowError::ActiveOrdinal { position, index })
        );
        assert_eq!(
            with(|r| r.active_ordinal = -1),
            at(|position, index| RowError::ActiveOrdinal { position, index })
        );
        assert_eq!(
            check_rows(&[ok.clone(), ok.clone()]),
            Err(RowError::DuplicateIndex {
                position: 1,
                index: 0
            })
        );
        for phase in PHASES {
            assert_eq!(
                check_rows(&[InstanceRow {
                    phase: phase.into(),
                    ..ok.clone()
                }]),
                Ok(())
            );
        }
    }

    #[test]
    fn row_error_display() {
        let e = RowError::DuplicateIndex {
            position: 3,
            index: 7,
        };
        assert_eq!(
            e.to_string(),
            "status is invalid: row 3 (index 7) has a duplicate index"
        );
        let e = RowError::TooManyRows { rows: 10_001 };
        assert_eq!(
            e.to_string(),
            "status is invalid: 10001 rows exceed the limit of 10000"
        );
        assert!(PHASES.windows(2).all(|w| w[0] < w[1]));
    }

    /// Arbitrary JSON, biased towards values the decoder cares about.
    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-3i64..12).prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(|f| json!(f)),
            "(0|[1-9][0-9]?)(-[0-9]{1,2})?(,[1-9][0-9]?(-[0-9]{1,2})?){0,2}".prop_map(Value::from),
            prop::sample::select(PHASES.to_vec()).prop_map(Value::from),
            "\\PC{0,8}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                prop::collection::btree_map("[a-zA-Z]{1,6}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    const POINTERS: &[&str] = &[
        "/instanceStatusEncoding",
        "/instanceStatusColumns",
        "/instanceStatuses",
        "/c/members",
        "/c/rowOrder",
        "/c/phases",
        "/c/phases/0",
        "/c/phases/0/value",
        "/c/phases/0/indexes",
        "/c/phases/1/indexes",
        "/c/runningRevisions/0/value",
        "/c/runningRevisions/1/indexes",
        "/c/targetRevisions",
        "/c/incarnations/0/value",
        "/c/incarnations/1",
        "/c/podCounts/0/value",
        "/c/servingPodCounts/0/indexes",
        "/c/availablePodCounts",
        "/c/admitted",
        "/c/activeOrdinalOne",
        "/c/entries",
        "/c/entries/0",
        "/c/entries/0/index",
        "/c/entries/1/index",
        "/c/entries/0/readySince",
        "/c/entries/1/lastFailure",
        "/c/entries/0/operation",
        "/c/entries/0/conditions",
        "/instanceStatuses/0",
        "/instanceStatuses/0/index",
    ];

    /// Replaces (or, with `None`, removes) the value at `pointer`, when its parent exists.
    fn mutate(status: &mut Value, pointer: &str, value: Option<Value>) {
        let pointer = pointer.replace("/c/", "/instanceStatusColumns/");
        let Some((parent, key)) = pointer.rsplit_once('/') else {
            return;
        };
        match (status.pointer_mut(parent), value) {
            (Some(Value::Object(map)), Some(v)) => {
                map.insert(key.to_string(), v);
            }
            (Some(Value::Object(map)), None) => {
                map.shift_remove(key);
            }
            (Some(Value::Array(items)), v) => {
                let Ok(i) = key.parse::<usize>() else { return };
                match v {
                    Some(v) if i < items.len() => items[i] = v,
                    Some(v) => items.push(v),
                    None if i < items.len() => {
                        items.remove(i);
                    }
                    None => {}
                }
            }
            _ => {}
        }
    }

    proptest! {
        #[test]
        fn mutated_json_never_panics(
            dense in any::<bool>(),
            edits in prop::collection::vec((0..POINTERS.len(), prop::option::of(arb_json())), 1..5),
            max in prop_oneof![Just(MAX_ROWS), 0usize..12],
        ) {
            let mut status = if dense {
                json!({"instanceStatuses": [{"index": 0, "phase": "Ready"}, {"index": 3}]})
            } else {
                columnar(base())
            };
            for (which, value) in edits {
                mutate(&mut status, POINTERS[which], value);
            }
            if let Ok(rows) = decode_rows(&status, max) {
                let columnar = status.get("instanceStatusEncoding").is_some_and(|m| !m.is_null());
                prop_assert!(!columnar || (rows.len() <= max && !rows.is_empty()));
                prop_assert!(rows.iter().all(|r| r.has_operation == r.operation.is_some()));
                let _ = check_rows(&rows).map_err(|e| e.to_string());
            }
        }

        #[test]
        fn arbitrary_status_never_panics(status in arb_json(), max in 0usize..20) {
            let _ = decode_rows(&status, max);
            let _ = decode_rows(&json!({"instanceStatusEncoding": "ColumnarV2",
                "instanceStatusColumns": status}), max);
        }

        #[test]
        fn any_non_ascending_row_order_is_accepted(order in Just((0..10).collect::<Vec<i64>>()).prop_shuffle()) {
            prop_assume!(order.windows(2).any(|w| w[0] > w[1]));
            let ascending = decode(base());
            let mut c = base();
            c["rowOrder"] = json!(order);
            let rows = decode(c);
            let want: Vec<_> = order.iter().map(|&i| ascending[i as usize].clone()).collect();
            prop_assert_eq!(rows, want);
        }
    }
}
