//! ColumnarV2 validation and expansion (spec §3.5): checks a decoded
//! `instanceStatusColumns` payload in the exact order of the reference decoder (first failure
//! wins) and only then allocates and fills the logical rows, in stored order.

use super::columns::{InstanceStatusColumns, InstanceStatusEntry, InstanceStatusGroup};
use super::rows::InstanceRow;
use super::{CodecError, PHASES};
use crate::engine::workloads::irstatus::indexset::{all_disjoint, parse_index_set, IndexSet};

/// Shorthands for signatures that would not fit on one line.
pub(super) type DecodeResult = Result<Vec<InstanceRow>, CodecError>;
type Columns = InstanceStatusColumns;
type Entry = InstanceStatusEntry;
type Flag = Option<IndexSet>;

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
        each_row(&mut rows, m, set, |r| r.phase = g.value.as_str().into());
    }
    for (set, g) in running.iter().zip(groups(&c.running_revisions)) {
        // One shared text per group, as the column holds it.
        let value: std::sync::Arc<str> = g.value.as_str().into();
        each_row(&mut rows, m, set, |r| r.running_revision = value.clone());
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
