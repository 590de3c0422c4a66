//! Canonical InferenceReplica index sets (spec `inferencereplica.md` §3.3): the string form
//! `"0-8,10-114,116"` used by ColumnarV2 `members`, group `indexes`, `admitted` and
//! `activeOrdinalOne`, parsed into sorted intervals so nothing is ever allocated in proportion to
//! the *range* a string spells — only to the number of terms it actually contains.
//!
//! This module owns parsing, canonical printing and the set queries the decoder needs (membership,
//! rank, subset, pairwise disjointness).
//!
//! The unit tests live in `indexset/tests.rs`.

use crate::engine::workloads::irstatus::CodecError;

/// Largest Instance index: indices are non-negative int32 values.
pub const MAX_INDEX: u32 = 2_147_483_647;

/// A set of Instance indices stored as inclusive intervals.
///
/// Invariants (upheld by every constructor): intervals are sorted, each has `first <= last <=
/// MAX_INDEX`, consecutive intervals are disjoint **and** non-adjacent (`next.first > prev.last +
/// 1`), `offsets[k]` is the number of indices in `intervals[..k]`, and `len` is the total. Because
/// the form is canonical, two sets are equal exactly when their intervals are equal.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IndexSet {
    intervals: Vec<(u32, u32)>,
    offsets: Vec<usize>,
    len: usize,
}

impl IndexSet {
    #[cfg(test)]
    /// Builds a set from intervals already in canonical order. Errors mirror the parser:
    /// `first > last` or an interval starting at/before the previous end is `range_order`, an
    /// adjacent interval is `canonical_order`, an index above [`MAX_INDEX`] is `range_overflow`.
    /// Unlike the string form, a one-index interval is written `(i, i)`.
    pub fn from_intervals(intervals: &[(u32, u32)]) -> Result<IndexSet, CodecError> {
        let mut set = IndexSet::default();
        for &(first, last) in intervals {
            if last > MAX_INDEX {
                return Err(CodecError::RangeOverflow);
            }
            if first > last {
                return Err(CodecError::RangeOrder);
            }
            set.push_checked(first, last, usize::MAX)?;
        }
        Ok(set)
    }

    /// Appends one interval after the order checks against the current last interval and the
    /// size bound, in that order (order errors win over size errors). The caller has already
    /// checked `first <= last <= MAX_INDEX`. Nothing is stored on error.
    fn push_checked(&mut self, first: u32, last: u32, limit: usize) -> Result<(), CodecError> {
        if let Some(&(_, prev_last)) = self.intervals.last() {
            if first <= prev_last {
                return Err(CodecError::RangeOrder);
            }
            // `first > prev_last` here, so `prev_last + 1` cannot overflow.
            if first == prev_last + 1 {
                return Err(CodecError::CanonicalOrder);
            }
        }
        let len = self.len.saturating_add(width(first, last));
        if len > limit {
            return Err(CodecError::CardinalityLimit);
        }
        self.offsets.push(self.len);
        self.intervals.push((first, last));
        self.len = len;
        Ok(())
    }

    /// Number of indices in the set (not the number of intervals).
    pub fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    /// True when the set holds no index. Parsed sets are never empty (`""` is rejected).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The canonical intervals, ascending, disjoint and non-adjacent.
    pub fn intervals(&self) -> &[(u32, u32)] {
        &self.intervals
    }

    /// Whether `index` is a member. Takes `i64` so callers can pass raw row values: anything
    /// negative or above [`MAX_INDEX`] is simply not a member.
    pub fn contains(&self, index: i64) -> bool {
        self.rank(index).is_some()
    }

    /// Zero-based position of `index` in ascending order, or `None` for a non-member. O(log k) in
    /// the number of intervals: the offset of its interval plus the distance from that interval's
    /// first index.
    pub fn rank(&self, index: i64) -> Option<usize> {
        let index = u32::try_from(index).ok()?;
        // First interval whose end is at or after `index`; it holds `index` iff it starts by it.
        let pos = self.intervals.partition_point(|&(_, last)| last < index);
        let &(first, _) = self.intervals.get(pos)?;
        if first > index {
            return None;
        }
        Some(self.offsets.get(pos)? + width(first, index) - 1)
    }

    /// Every member in ascending order. Lazy: iterating is the only cost proportional to `len`.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.intervals
            .iter()
            .flat_map(|&(first, last)| first..=last)
    }

    /// Whether every member of `self` is a member of `other`. Each interval of `self` must lie
    /// inside a single interval of `other` (the intervals of `other` are maximal runs), found by
    /// binary search so many small sets against one large set stay O(k log m).
    pub fn is_subset_of(&self, other: &IndexSet) -> bool {
        if self.len > other.len {
            return false;
        }
        self.intervals.iter().all(|&(first, last)| {
            let pos = other.intervals.partition_point(|&(_, o_last)| o_last < first);
            matches!(other.intervals.get(pos), Some(&(o_first, o_last)) if o_first <= first && last <= o_last)
        })
    }

    #[cfg(test)]
    /// The only accepted spelling of this set: `F-L` for ranges, `N` for single indices, joined by
    /// commas. Parsing the result yields an equal set. An empty set prints as `""`, which the
    /// parser rejects on purpose (an empty set is expressed by omitting the field).
    pub fn to_canonical_string(&self) -> String {
        let terms: Vec<String> = self
            .intervals
            .iter()
            .map(|&(first, last)| {
                if first == last {
                    first.to_string()
                } else {
                    format!("{first}-{last}")
                }
            })
            .collect();
        terms.join(",")
    }
}

/// True when no index belongs to two of `sets`. Pools the intervals and sorts them once instead
/// of comparing sets pairwise, so it is O(k log k) in the total number of intervals.
pub fn all_disjoint(sets: &[IndexSet]) -> bool {
    let mut pooled: Vec<(u32, u32)> = sets
        .iter()
        .flat_map(|s| s.intervals.iter().copied())
        .collect();
    pooled.sort_unstable();
    pooled.windows(2).all(|pair| match pair {
        [(_, prev_last), (next_first, _)] => next_first > prev_last,
        _ => true,
    })
}

/// Number of indices in `first..=last`; the caller guarantees `first <= last`.
fn width(first: u32, last: u32) -> usize {
    (last - first) as usize + 1
}

/// Parses a canonical index set, refusing more than `limit` indices.
///
/// Checks run left to right, term by term, and the first failure wins (§3.5): `""`, an empty term,
/// a bad dash, a non-digit or a leading zero is `range_syntax`; a number above 2147483647 is
/// `range_overflow`; `F >= L` or a term starting at/before the previous end is `range_order`; a
/// term starting right after the previous end is `canonical_order`; a cumulative size above
/// `limit` is `cardinality_limit` (also for `limit == 0`). The size check runs per term before the
/// term is stored, so `"0-2147483647"` fails at once without allocating anything per index.
pub fn parse_index_set(s: &str, limit: usize) -> Result<IndexSet, CodecError> {
    if s.is_empty() {
        return Err(CodecError::RangeSyntax);
    }
    if limit == 0 {
        return Err(CodecError::CardinalityLimit);
    }
    let mut set = IndexSet::default();
    // `split` yields an empty term for a leading, trailing or doubled comma.
    for term in s.split(',') {
        if term.is_empty() {
            return Err(CodecError::RangeSyntax);
        }
        let (first, last) = parse_term(term)?;
        set.push_checked(first, last, limit)?;
    }
    Ok(set)
}

/// Parses one non-empty term: `N` or `F-L` with exactly one inner dash and `F < L`.
fn parse_term(term: &str) -> Result<(u32, u32), CodecError> {
    let Some((head, tail)) = term.split_once('-') else {
        let index = parse_index(term)?;
        return Ok((index, index));
    };
    // Dash placement is judged before either number, exactly like the reference decoder.
    if head.is_empty() || tail.is_empty() || tail.contains('-') {
        return Err(CodecError::RangeSyntax);
    }
    let first = parse_index(head)?;
    let last = parse_index(tail)?;
    if first >= last {
        return Err(CodecError::RangeOrder);
    }
    Ok((first, last))
}

/// Parses one unsigned decimal index without sign, whitespace or leading zero. Overflow is
/// detected digit by digit, so forty 9s never overflow the accumulator.
fn parse_index(raw: &str) -> Result<u32, CodecError> {
    let bytes = raw.as_bytes();
    if bytes.is_empty() || (bytes.len() > 1 && bytes.first() == Some(&b'0')) {
        return Err(CodecError::RangeSyntax);
    }
    let mut value: u64 = 0;
    for &b in bytes {
        if !b.is_ascii_digit() {
            return Err(CodecError::RangeSyntax);
        }
        value = value * 10 + u64::from(b - b'0');
        if value > u64::from(MAX_INDEX) {
            return Err(CodecError::RangeOverflow);
        }
    }
    u32::try_from(value).map_err(|_| CodecError::RangeOverflow)
}

#[cfg(test)]
mod tests;
