//! Canonical InferenceReplica index sets (spec `inferencereplica.md` §3.3): the string form
//! `"0-8,10-114,116"` used by ColumnarV2 `members`, group `indexes`, `admitted` and
//! `activeOrdinalOne`, parsed into sorted intervals so nothing is ever allocated in proportion to
//! the *range* a string spells — only to the number of terms it actually contains.
//!
//! This module owns parsing, canonical printing and the set queries the decoder needs (membership,
//! rank, subset, pairwise disjointness). It must not import anything outside
//! std/serde/serde_json/chrono (the error type comes from its sibling codec module).

use super::irstatus::CodecError;

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
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn reason(s: &str, limit: usize) -> &'static str {
        match parse_index_set(s, limit) {
            Ok(set) => panic!("{s:?} parsed as {set:?}"),
            Err(e) => e.reason(),
        }
    }

    #[test]
    fn parses_the_spec_example_and_answers_queries() {
        let set = parse_index_set("0-8,10-114,116", 1000).unwrap();
        assert_eq!(set.len(), 115);
        assert_eq!(set.intervals(), &[(0, 8), (10, 114), (116, 116)]);
        assert!(set.contains(0) && set.contains(8) && set.contains(116));
        assert!(!set.contains(9) && !set.contains(115) && !set.contains(-1) && !set.contains(117));
        assert_eq!(set.rank(0), Some(0));
        assert_eq!(set.rank(10), Some(9));
        assert_eq!(set.rank(116), Some(114));
        assert_eq!(set.rank(9), None);
        assert_eq!(set.rank(i64::MAX), None);
        assert_eq!(
            set.iter().take(11).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11]
        );
        assert_eq!(set.to_canonical_string(), "0-8,10-114,116");
    }

    #[test]
    fn accepts_the_index_domain_edges() {
        let top = parse_index_set("2147483647", 1).unwrap();
        assert_eq!(top.rank(2_147_483_647), Some(0));
        let set = parse_index_set("0,2147483646-2147483647", 3).unwrap();
        assert_eq!(set.len(), 3);
        assert_eq!(set.rank(2_147_483_647), Some(2));
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![0, 2_147_483_646, 2_147_483_647]
        );
        assert_eq!(parse_index_set("0", 1).unwrap().len(), 1);
    }

    #[test]
    fn syntax_errors() {
        for s in [
            "", ",", ",0", "0,", "0,,2", "-5", "5-", "1-2-3", "5--6", "00", "01", "0-09",
        ] {
            assert_eq!(reason(s, 100), "range_syntax", "{s:?}");
        }
        for s in [" 0", "0 ", "+1", "-0", "1x", "0x", "1.0", "१"] {
            assert_eq!(reason(s, 100), "range_syntax", "{s:?}");
        }
    }

    #[test]
    fn overflow_order_and_canonical_errors() {
        assert_eq!(reason("2147483648", 100), "range_overflow");
        assert_eq!(reason(&"9".repeat(40), 100), "range_overflow");
        assert_eq!(reason("0-4294967296", 100), "range_overflow");
        assert_eq!(reason("9-9", 100), "range_order");
        assert_eq!(reason("9-0", 100), "range_order");
        assert_eq!(reason("1,0", 100), "range_order");
        assert_eq!(reason("0-5,5-9", 100), "range_order");
        assert_eq!(reason("0-4,5-9", 100), "canonical_order");
        assert_eq!(reason("7,8", 100), "canonical_order");
    }

    #[test]
    fn checks_run_left_to_right() {
        // Overflow is noticed digit by digit, before a later bad byte.
        assert_eq!(reason("99999999999x", 100), "range_overflow");
        assert_eq!(reason("1x99999999999", 100), "range_syntax");
        // A leading zero is judged before the overflow.
        assert_eq!(reason("09999999999", 100), "range_syntax");
        // Dash placement is judged before the numbers of the term.
        assert_eq!(reason("99999999999-1-2", 100), "range_syntax");
        // An earlier term's order or size error beats a later term's syntax error.
        assert_eq!(reason("5-3,x", 100), "range_order");
        assert_eq!(reason("0-4,5,x", 100), "canonical_order");
        assert_eq!(reason("0-200,", 100), "cardinality_limit");
        // Order beats size within one term.
        assert_eq!(reason("0-50,40-5000", 100), "range_order");
        assert_eq!(reason("0-50,51-5000", 100), "canonical_order");
    }

    #[test]
    fn cardinality_is_bounded_per_term() {
        assert_eq!(reason("0-2147483647", 10_000), "cardinality_limit");
        assert_eq!(reason("0-9", 9), "cardinality_limit");
        assert_eq!(reason("0", 0), "cardinality_limit");
        assert_eq!(reason("", 0), "range_syntax");
        assert_eq!(parse_index_set("0-9", 10).unwrap().len(), 10);
        assert_eq!(reason("0-4,6-11", 10), "cardinality_limit");
        assert_eq!(parse_index_set("0-4,6-10", 10).unwrap().len(), 10);
    }

    #[test]
    fn from_intervals_enforces_canonical_form() {
        let set = IndexSet::from_intervals(&[(0, 0), (2, 5)]).unwrap();
        assert_eq!(set.to_canonical_string(), "0,2-5");
        assert_eq!(
            IndexSet::from_intervals(&[(5, 2)]),
            Err(CodecError::RangeOrder)
        );
        assert_eq!(
            IndexSet::from_intervals(&[(0, 3), (3, 5)]),
            Err(CodecError::RangeOrder)
        );
        assert_eq!(
            IndexSet::from_intervals(&[(0, 3), (4, 5)]),
            Err(CodecError::CanonicalOrder)
        );
        assert_eq!(
            IndexSet::from_intervals(&[(0, MAX_INDEX + 1)]),
            Err(CodecError::RangeOverflow)
        );
        assert!(IndexSet::from_intervals(&[]).unwrap().is_empty());
        assert_eq!(IndexSet::default().to_canonical_string(), "");
    }

    #[test]
    fn subset_and_disjointness() {
        let members = parse_index_set("0-9,20-29", 100).unwrap();
        let sub = parse_index_set("2-4,20,29", 100).unwrap();
        assert!(sub.is_subset_of(&members));
        assert!(members.is_subset_of(&members));
        assert!(!parse_index_set("8-10", 100).unwrap().is_subset_of(&members));
        assert!(!parse_index_set("15", 100).unwrap().is_subset_of(&members));
        assert!(!parse_index_set("30", 100).unwrap().is_subset_of(&members));
        let a = parse_index_set("0-4,9", 100).unwrap();
        let b = parse_index_set("5-8", 100).unwrap();
        let c = parse_index_set("8", 100).unwrap();
        assert!(all_disjoint(&[a.clone(), b.clone()]));
        assert!(!all_disjoint(&[a, b, c]));
        assert!(all_disjoint(&[]));
    }

    /// Random canonical interval lists: each gap is at least 2 so intervals never touch.
    fn canonical_intervals() -> impl Strategy<Value = Vec<(u32, u32)>> {
        prop::collection::vec((0u32..=1_000_000, 0u32..=1_000_000, any::<bool>()), 0..40).prop_map(
            |steps| {
                let mut out = Vec::new();
                let mut next: u64 = 0;
                for (gap, width, huge) in steps {
                    let first = next + u64::from(gap) * if huge { 500 } else { 1 };
                    let last = first + u64::from(width);
                    if last > u64::from(MAX_INDEX) {
                        break;
                    }
                    out.push((first as u32, last as u32));
                    next = last + 2;
                }
                out
            },
        )
    }

    proptest! {
        #[test]
        fn arbitrary_strings_never_panic_and_accepted_means_canonical(
            s in "[0-9,\\- +x]{0,24}|\\PC{0,24}",
            limit in 0usize..200,
        ) {
            if let Ok(set) = parse_index_set(&s, limit) {
                prop_assert_eq!(set.to_canonical_string(), s);
                prop_assert!(set.len() <= limit && !set.is_empty());
            }
        }

        #[test]
        fn canonical_sets_round_trip(intervals in canonical_intervals()) {
            let set = IndexSet::from_intervals(&intervals).unwrap();
            prop_assume!(!set.is_empty());
            let text = set.to_canonical_string();
            let back = parse_index_set(&text, usize::MAX).unwrap();
            prop_assert_eq!(&back, &set);
            prop_assert_eq!(back.intervals(), intervals.as_slice());
        }

        #[test]
        fn rank_and_contains_agree_with_iteration(
            intervals in prop::collection::vec((0u32..6, 0u32..4), 1..12),
        ) {
            let mut canonical = Vec::new();
            let mut next = 0u32;
            for (gap, width) in intervals {
                canonical.push((next + gap, next + gap + width));
                next += gap + width + 2;
            }
            let set = IndexSet::from_intervals(&canonical).unwrap();
            let members: Vec<u32> = set.iter().collect();
            prop_assert_eq!(members.len(), set.len());
            for probe in -2i64..i64::from(next) + 2 {
                let expected = members.iter().position(|&m| i64::from(m) == probe);
                prop_assert_eq!(set.rank(probe), expected);
                prop_assert_eq!(set.contains(probe), expected.is_some());
            }
        }
    }
}
