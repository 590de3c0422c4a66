//! Unit tests of index-set parsing, canonical printing and the set queries, including property
//! tests that parsing is total and round-trips canonical sets.

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
