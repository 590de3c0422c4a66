//! InferenceReplica instance-status codec (spec `inferencereplica.md` §3 and §5.3 steps 7–8):
//! decides the DenseV1 / ColumnarV2 representation union, validates a ColumnarV2 payload in the
//! exact order of the reference decoder (first failure wins, no partial rows), expands it into the
//! same logical rows DenseV1 stores, and applies Alfred's row checks to rows of either encoding.
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

/// Prefix of every [`RowError`] message; Alfred reports any codec or row failure this way.
pub const STATUS_INVALID: &str = "status is invalid";

/// A codec failure: exactly the nine reasons of the OME error catalogue. Each has a fixed reason
/// token and message, and never carries status data.
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
    /// The snake_case reason token (the `reason` label of the manager's error counter).
    pub fn reason(self) -> &'static str {
        match self {
            Self::UnknownEncoding => "unknown_encoding",
            Self::RepresentationUnion => "representation_union",
            Self::RangeSyntax => "range_syntax",
            Self::RangeOrder => "range_order",
            Self::RangeOverflow => "range_overflow",
            Self::CardinalityLimit => "cardinality_limit",
            Self::Coverage => "coverage",
            Self::CanonicalOrder => "canonical_order",
            Self::ValueDomain => "value_domain",
        }
    }

    /// The fixed operator-facing catalogue message; also what `Display` prints.
    pub fn message(self) -> &'static str {
        match self {
            Self::UnknownEncoding => "instance status encoding is unknown",
            Self::RepresentationUnion => "instance status representation is invalid",
            Self::RangeSyntax => "instance index set syntax is invalid",
            Self::RangeOrder => "instance index set order is invalid",
            Self::RangeOverflow => "instance index set exceeds the supported index domain",
            Self::CardinalityLimit => "instance status cardinality limit is invalid",
            Self::Coverage => "instance status column coverage is invalid",
            Self::CanonicalOrder => "instance status column order is not canonical",
            Self::ValueDomain => "instance status value is outside its supported domain",
        }
    }
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for CodecError {}

/// A Kubernetes time: absent is `None`, anything else must be an RFC 3339 string because the API
/// types would fail to unmarshal it otherwise. The original text is kept.
fn rfc3339<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let raw = Option::<String>::deserialize(d)?;
    if let Some(text) = &raw {
        chrono::DateTime::parse_from_rfc3339(text).map_err(D::Error::custom)?;
    }
    Ok(raw)
}

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
fn typed<T: for<'de> Deserialize<'de>>(value: &Value) -> Result<T, CodecError> {
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

/// One logical Instance row, identical whichever encoding it came from. Integers are `i64` so
/// out-of-domain DenseV1 values (negative counts, `activeOrdinal: 7`) survive until
/// [`check_rows`]; int32 JSON fields are still refused outside the int32 range when decoding.
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
fn dense_row(value: &Value) -> Result<InstanceRow, CodecError> {
    let row: DenseRow = typed(value)?;
    Ok(InstanceRow {
        index: row.index.ok_or(CodecError::ValueDomain)?.into(),
        incarnation: row.incarnation,
        phase: row.phase,
        running_revision: row.running_revision,
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

/// Shorthands for signatures that would not fit on one line.
type DecodeResult = Result<Vec<InstanceRow>, CodecError>;
type Columns = InstanceStatusColumns;
type Entry = InstanceStatusEntry;
type Flag = Option<IndexSet>;

/// Decodes the Instance rows of an InferenceReplica `status` object (§3.1, then §3.5).
///
/// Marker absent: columns present ⇒ `representation_union`, else the DenseV1 rows in stored order
/// (no bound and no checks beyond typing; see [`check_rows`]). Marker `"ColumnarV2"`: columns
/// absent or dense rows present ⇒ `representation_union`, else the columns are validated and
/// expanded under `max`. Any other marker (also `""` or a non-string) ⇒ `unknown_encoding`.
/// `null` equals absent everywhere; a `null` status has no rows. Unknown fields are ignored. On
/// error no rows are returned.
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

/// Validates a ColumnarV2 payload in the order of §3.5 and expands it into rows in stored order.
/// `max == 0` fails with `cardinality_limit`. Nothing proportional to a range is allocated before
/// its cardinality is checked, and rows are allocated only after every check has passed.
pub fn decode_columns(c: &InstanceStatusColumns, max: usize) -> DecodeResult {
    if max == 0 {
        return Err(CodecError::CardinalityLimit);
    }
    let m = parse_index_set(&c.members, max)?;
    let phase = |v: &String| PHASES.contains(&v.as_str());
    let text = |v: &String| !v.is_empty();
    let columns = [
        check_column(c.phases.as_deref(), true, &m, phase)?,
        check_column(c.running_revisions.as_deref(), false, &m, text)?,
        check_column(c.target_revisions.as_deref(), false, &m, text)?,
        check_column(c.incarnations.as_deref(), false, &m, |v| *v != 0)?,
        check_column(c.pod_counts.as_deref(), false, &m, |v| *v > 0)?,
        check_column(c.serving_pod_counts.as_deref(), false, &m, |v| *v > 0)?,
        check_column(c.available_pod_counts.as_deref(), false, &m, |v| *v > 0)?,
    ];
    let flags = [
        member_subset(c.admitted.as_deref(), &m)?,
        member_subset(c.active_ordinal_one.as_deref(), &m)?,
    ];
    check_entries(c.entries.as_deref(), &m)?;
    check_row_order(c.row_order.as_deref(), &m)?;
    expand(c, &m, &columns, &flags)
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
        covered += set.len();
        if !set.is_subset_of(members) || covered > n {
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

/// §3.5 step 4: `admitted` / `activeOrdinalOne` when present, bounded by the member count.
fn member_subset(raw: Option<&str>, members: &IndexSet) -> Result<Flag, CodecError> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    let set = parse_index_set(raw, members.len())?;
    if !set.is_subset_of(members) {
        return Err(CodecError::Coverage);
    }
    Ok(Some(set))
}

/// §3.5 step 5: entries strictly ascending, at most one per member, each with a record.
fn check_entries(entries: Option<&[Entry]>, members: &IndexSet) -> Result<(), CodecError> {
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
        if !members.contains(entry.index.into()) || !entry.has_record() {
            return Err(CodecError::Coverage);
        }
        previous = Some(entry.index);
    }
    Ok(())
}

/// §3.5 step 6: a permutation of members other than the ascending one. Runs last because its
/// seen-flags are proportional to the member count, which every earlier step has accepted.
fn check_row_order(order: Option<&[i32]>, members: &IndexSet) -> Result<(), CodecError> {
    let Some(order) = order else {
        return Ok(());
    };
    if order.is_empty() {
        return Err(CodecError::ValueDomain);
    }
    if order.len() != members.len() {
        return Err(CodecError::Coverage);
    }
    let mut seen = vec![false; order.len()];
    for &index in order {
        let flag = members.rank(index.into()).and_then(|r| seen.get_mut(r));
        match flag {
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
/// consecutive ranks: O(rows) overall, no per-index lookup. A non-member start (impossible after
/// validation) maps to an empty range instead of a panic.
fn each_row(rows: &mut [InstanceRow], m: &IndexSet, set: &IndexSet, f: impl Fn(&mut InstanceRow)) {
    for &(first, last) in set.intervals() {
        let start = m.rank(first.into()).unwrap_or(usize::MAX);
        let end = start.saturating_add((last - first) as usize + 1);
        rows.get_mut(start..end).into_iter().flatten().for_each(&f);
    }
}

/// The groups of an optional column; absent means none.
fn groups<V>(column: &Option<Vec<InstanceStatusGroup<V>>>) -> &[InstanceStatusGroup<V>] {
    column.as_deref().unwrap_or_default()
}

/// §3.5 step 7: allocate the rows (only now) and fill them; defaults are those of §3.2. `sets`
/// are the grouped columns' sets in §3.5 order, `flags` the `admitted` and `activeOrdinalOne` sets.
fn expand(c: &Columns, m: &IndexSet, sets: &[Vec<IndexSet>; 7], flags: &[Flag; 2]) -> DecodeResult {
    let mut rows = vec![InstanceRow::default(); m.len()];
    for (row, index) in rows.iter_mut().zip(m.iter()) {
        row.index = index.into();
    }
    let [phases, running, target, incarnations, pods, serving, available] = sets;
    for (set, g) in phases.iter().zip(groups(&c.phases)) {
        each_row(&mut rows, m, set, |r| r.phase.clone_from(&g.value));
    }
    for (set, g) in running.iter().zip(groups(&c.running_revisions)) {
        each_row(&mut rows, m, set, |r| {
            r.running_revision.clone_from(&g.value)
        });
    }
    for (set, g) in target.iter().zip(groups(&c.target_revisions)) {
        each_row(&mut rows, m, set, |r| {
            r.target_revision.clone_from(&g.value)
        });
    }
    for (set, g) in incarnations.iter().zip(groups(&c.incarnations)) {
        each_row(&mut rows, m, set, |r| r.incarnation = g.value);
    }
    for (set, g) in pods.iter().zip(groups(&c.pod_counts)) {
        each_row(&mut rows, m, set, |r| r.pod_count = g.value.into());
    }
    for (set, g) in serving.iter().zip(groups(&c.serving_pod_counts)) {
        each_row(&mut rows, m, set, |r| r.serving_pod_count = g.value.into());
    }
    for (set, g) in available.iter().zip(groups(&c.available_pod_counts)) {
        each_row(&mut rows, m, set, |r| {
            r.available_pod_count = g.value.into()
        });
    }
    let [admitted, active_one] = flags;
    if let Some(set) = admitted {
        each_row(&mut rows, m, set, |r| r.admitted = true);
    }
    if let Some(set) = active_one {
        each_row(&mut rows, m, set, |r| r.active_ordinal = 1);
    }
    copy_entries(&mut rows, m, c.entries.as_deref().unwrap_or_default());
    reorder(rows, m, c.row_order.as_deref())
}

/// Copies `readySince` and `operation` from each entry onto its row (ascending member order).
fn copy_entries(rows: &mut [InstanceRow], m: &IndexSet, entries: &[Entry]) {
    for entry in entries {
        if let Some(row) = m.rank(entry.index.into()).and_then(|r| rows.get_mut(r)) {
            row.ready_since.clone_from(&entry.ready_since);
            row.operation.clone_from(&entry.operation);
            row.has_operation = entry.operation.is_some();
        }
    }
}

/// Puts rows (ascending member order) into the validated `rowOrder`, if any. The error arm is
/// unreachable after validation and only keeps this total: it never yields partial rows.
fn reorder(rows: Vec<InstanceRow>, m: &IndexSet, order: Option<&[i32]>) -> DecodeResult {
    let Some(order) = order else {
        return Ok(rows);
    };
    let mut slots: Vec<Option<InstanceRow>> = rows.into_iter().map(Some).collect();
    let mut take = |i: i32| m.rank(i.into()).and_then(|r| slots.get_mut(r)?.take());
    let ordered: Option<Vec<InstanceRow>> = order.iter().map(|&i| take(i)).collect();
    ordered.ok_or(CodecError::Coverage)
}

/// What §5.3 step 8 found wrong with one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowProblem {
    NegativeIndex,
    UnknownPhase,
    NegativeIncarnation,
    NegativeCount,
    ActiveOrdinal,
    DuplicateIndex,
}

impl RowProblem {
    /// Short human detail; never echoes status strings.
    pub fn detail(self) -> &'static str {
        match self {
            Self::NegativeIndex => "a negative index",
            Self::UnknownPhase => "an unknown phase",
            Self::NegativeIncarnation => "a negative incarnation",
            Self::NegativeCount => "a negative pod count",
            Self::ActiveOrdinal => "an activeOrdinal other than 0 or 1",
            Self::DuplicateIndex => "a duplicate index",
        }
    }
}

/// Why §5.3 step 8 refused a row set; `position` is the row's place in stored order. Display is
/// [`STATUS_INVALID`] plus a short detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowError {
    TooManyRows {
        rows: usize,
    },
    InvalidRow {
        position: usize,
        index: i64,
        problem: RowProblem,
    },
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{STATUS_INVALID}: ")?;
        match *self {
            Self::TooManyRows { rows } => write!(f, "{rows} rows exceed the limit of {MAX_ROWS}"),
            Self::InvalidRow {
                position: p,
                index: i,
                problem,
            } => {
                write!(f, "row {p} (index {i}) has {}", problem.detail())
            }
        }
    }
}

impl std::error::Error for RowError {}

/// The first problem of one row in Alfred's order, ignoring uniqueness.
fn row_problem(row: &InstanceRow) -> Option<RowProblem> {
    let min_count = row
        .pod_count
        .min(row.serving_pod_count)
        .min(row.available_pod_count);
    if row.index < 0 {
        Some(RowProblem::NegativeIndex)
    } else if !PHASES.contains(&row.phase.as_str()) {
        Some(RowProblem::UnknownPhase)
    } else if row.incarnation < 0 {
        Some(RowProblem::NegativeIncarnation)
    } else if min_count < 0 {
        Some(RowProblem::NegativeCount)
    } else if !matches!(row.active_ordinal, 0 | 1) {
        Some(RowProblem::ActiveOrdinal)
    } else {
        None
    }
}

/// Alfred's row checks (§5.3 step 8) for rows of either encoding, first failure wins: at most
/// [`MAX_ROWS`] rows; then row by row in stored order: index ≥ 0, phase one of [`PHASES`],
/// incarnation ≥ 0, the three counts ≥ 0, activeOrdinal ∈ {0, 1}, index not on an earlier row.
pub fn check_rows(rows: &[InstanceRow]) -> Result<(), RowError> {
    if rows.len() > MAX_ROWS {
        return Err(RowError::TooManyRows { rows: rows.len() });
    }
    let mut seen = HashSet::with_capacity(rows.len());
    for (position, row) in rows.iter().enumerate() {
        let duplicate = || (!seen.insert(row.index)).then_some(RowProblem::DuplicateIndex);
        if let Some(problem) = row_problem(row).or_else(duplicate) {
            let index = row.index;
            return Err(RowError::InvalidRow {
                position,
                index,
                problem,
            });
        }
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
        use CodecError::*;
        let all = [
            UnknownEncoding,
            RepresentationUnion,
            RangeSyntax,
            RangeOrder,
            RangeOverflow,
            CardinalityLimit,
            Coverage,
            CanonicalOrder,
            ValueDomain,
        ];
        let reasons: Vec<_> = all.iter().map(|e| e.reason()).collect();
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
        let messages: Vec<_> = all.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            messages,
            [
                "instance status encoding is unknown",
                "instance status representation is invalid",
                "instance index set syntax is invalid",
                "instance index set order is invalid",
                "instance index set exceeds the supported index domain",
                "instance status cardinality limit is invalid",
                "instance status column coverage is invalid",
                "instance status column order is not canonical",
                "instance status value is outside its supported domain",
            ]
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
            Err(invalid(1, 1, RowProblem::UnknownPhase))
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

    fn invalid(position: usize, index: i64, problem: RowProblem) -> RowError {
        RowError::InvalidRow {
            position,
            index,
            problem,
        }
    }

    fn ok_row() -> InstanceRow {
        row(0, "Ready", ["r", ""], 0, [0; 3], false, 1)
    }

    /// `check_rows` on a valid row 0 followed by a valid row 1 changed by `f`.
    fn second(f: fn(&mut InstanceRow)) -> Result<(), RowError> {
        let mut r = InstanceRow {
            index: 1,
            ..ok_row()
        };
        f(&mut r);
        check_rows(&[ok_row(), r])
    }

    #[test]
    fn row_checks_field_rules() {
        use RowProblem::*;
        type Mutation = fn(&mut InstanceRow);
        let cases: [(Mutation, RowProblem); 9] = [
            (|r| r.phase = "ready".into(), UnknownPhase),
            (|r| r.phase.clear(), UnknownPhase),
            (|r| r.incarnation = -1, NegativeIncarnation),
            (|r| r.pod_count = -1, NegativeCount),
            (|r| r.serving_pod_count = -1, NegativeCount),
            (|r| r.available_pod_count = -1, NegativeCount),
            (|r| r.active_ordinal = 2, ActiveOrdinal),
            (|r| r.active_ordinal = -1, ActiveOrdinal),
            (|r| r.index = 0, DuplicateIndex),
        ];
        for (i, (f, problem)) in cases.into_iter().enumerate() {
            assert_eq!(
                second(f),
                Err(invalid(1, i64::from(problem != DuplicateIndex), problem)),
                "case {i}"
            );
        }
        assert_eq!(second(|_| {}), Ok(()));
        for phase in PHASES {
            assert_eq!(
                check_rows(&[InstanceRow {
                    phase: phase.into(),
                    ..ok_row()
                }]),
                Ok(())
            );
        }
    }

    #[test]
    fn row_checks_index_rules_and_order() {
        assert_eq!(check_rows(&[]), Ok(()));
        assert_eq!(check_rows(&[ok_row()]), Ok(()));
        let neg = InstanceRow {
            index: -1,
            ..ok_row()
        };
        assert_eq!(
            check_rows(&[neg]),
            Err(invalid(0, -1, RowProblem::NegativeIndex))
        );
        // Field checks come before uniqueness on the same row, rows are checked in order.
        let both = second(|r| {
            r.index = 0;
            r.incarnation = -1;
        });
        assert_eq!(both, Err(invalid(1, 0, RowProblem::NegativeIncarnation)));
        let bad_first = InstanceRow {
            active_ordinal: 5,
            ..ok_row()
        };
        let dup = check_rows(&[bad_first, ok_row(), ok_row()]);
        assert_eq!(dup, Err(invalid(0, 0, RowProblem::ActiveOrdinal)));
    }

    #[test]
    fn row_error_display() {
        let e = invalid(3, 7, RowProblem::DuplicateIndex);
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
