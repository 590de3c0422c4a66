//! Integer sort keys for move rows. Alfred orders rows by score, footprint and identity
//! `(ns/name, component, instance)`; comparing those strings in every sort step dominated the
//! decision pass. Here each ISVC's `ns/name` gets a rank once per pass, so the sorts compare
//! small integers and move row indices instead of rows.
//!
//! Owns: `workload_ranks`, `IdentityKey`, `identity_key`, `identity_keys`, `descending_score_key`,
//! `rank_by_score`, `permute`. Pure.

use crate::engine::fast::pod_key::PodKey;
use crate::engine::fast::small_key_sort::stable_sort_by_small_key;
use crate::engine::fast::IsvcKeys;
use crate::engine::model::ClusterSnapshot;
use crate::engine::planning::MoveRow;
use crate::engine::workloads::Component;

/// A row identity as integers: comparing keys compares `MoveRow::identity()`.
/// `(rank of ns/name, rank of the component name, instance)`.
pub type IdentityKey = (u32, u8, i64);

/// The rank of every ISVC's `ns/name` among the distinct texts of all ISVCs (equal texts share
/// a rank): an integer whose order is the text order, for row sort keys. A live snapshot lists
/// ISVCs in text order, and then the key ids are those ranks and no name is read again.
pub fn workload_ranks(snap: &ClusterSnapshot, keys: &IsvcKeys<'_>) -> Vec<u32> {
    if let Some(ranks) = keys.text_ranks() {
        return ranks.to_vec();
    }
    let key = |i: usize| {
        let w = &snap.isvcs[i];
        PodKey::of_names(w.namespace(), w.name())
    };
    let mut order: Vec<usize> = (0..snap.isvcs.len()).collect();
    order.sort_by_key(|i| key(*i));
    let mut ranks = vec![0; snap.isvcs.len()];
    let mut rank = 0u32;
    for (k, i) in order.iter().enumerate() {
        if k > 0 && key(order[k - 1]) != key(*i) {
            rank += 1;
        }
        ranks[*i] = rank;
    }
    ranks
}

/// Rank of a component name in text order (`decoder` < `engine` < `router`).
pub fn component_rank(c: usize) -> u8 {
    match c {
        0 => 1,
        1 => 0,
        _ => 2,
    }
}

/// The identity key of a row built for Instance `instance` of `comp`.
pub fn identity_key(ranks: &[u32], comp: &Component, instance: i64) -> IdentityKey {
    let rank = ranks.get(comp.isvc).copied().unwrap_or(u32::MAX);
    (rank, component_rank(comp.component), instance)
}

/// Identity keys of `rows`; `known[i]` is row `i`'s key when it was built from an ISVC
/// component. When any row has none, every key is ranked from the row text instead.
pub fn identity_keys(rows: &[MoveRow], known: Vec<Option<IdentityKey>>) -> Vec<IdentityKey> {
    if known.iter().all(Option::is_some) && known.len() == rows.len() {
        return known.into_iter().flatten().collect();
    }
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|a, b| rows[*a].identity().cmp(&rows[*b].identity()));
    let mut keys = vec![(0, 0, 0); rows.len()];
    let mut rank = 0u32;
    for (k, i) in order.iter().enumerate() {
        if k > 0 && rows[order[k - 1]].identity() != rows[*i].identity() {
            rank += 1;
        }
        keys[*i] = (rank, 0, 0);
    }
    keys
}

/// A key whose ascending order is `score`'s descending `f64::total_cmp` order, so row sorts
/// compare plain integers.
pub fn descending_score_key(score: f64) -> u64 {
    let bits = score.to_bits() as i64;
    // `total_cmp`'s own mapping to a signed integer in total order.
    let ordered = bits ^ ((((bits >> 63) as u64) >> 1) as i64);
    !((ordered as u64) ^ (1 << 63))
}

/// The order of rows by score descending, footprint ascending and identity, ties by position
/// (what one stable sort by that key gives), as three stable passes from the least significant
/// key: identity (rows are generated nearly in identity order, so that pass is close to
/// linear), footprint (a counting sort) and score (integers, mostly equal).
pub fn rank_by_score(scores: &[f64], footprints: &[u32], keys: &[IdentityKey]) -> Vec<usize> {
    let mut order: Vec<u32> = (0..scores.len() as u32).collect();
    let key = |i: u32| keys.get(i as usize).copied().unwrap_or((u32::MAX, 0, 0));
    if !order.iter().map(|i| key(*i)).is_sorted() {
        order.sort_by_key(|i| key(*i));
    }
    stable_sort_by_small_key(&mut order, |i| {
        footprints.get(*i as usize).copied().unwrap_or(0)
    });
    let mut scored: Vec<(u64, u32)> = order
        .iter()
        .map(|i| (descending_score_key(scores[*i as usize]), *i))
        .collect();
    scored.sort_by_key(|(score, _)| *score);
    scored.into_iter().map(|(_, i)| i as usize).collect()
}

/// Reorders `items` so that position `k` holds the old `items[order[k]]` (`order` is a
/// permutation of the positions; otherwise the items named by `order` are kept, each once,
/// in its order).
pub fn permute<T>(mut items: Vec<T>, order: &[usize]) -> Vec<T> {
    let Some(mut done) = permutation_flags(order, items.len()) else {
        let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
        return order
            .iter()
            .filter_map(|i| slots.get_mut(*i).and_then(Option::take))
            .collect();
    };
    // In place, cycle by cycle: each row (large, and many of them) is swapped into its
    // place once, with no second buffer of rows to allocate, fault in and fill.
    for start in 0..items.len() {
        let mut k = start;
        while !done[k] {
            done[k] = true;
            let from = order[k];
            if from == start {
                break;
            }
            items.swap(k, from);
            k = from;
        }
    }
    items
}

/// `Some(all false)` when `order` is a permutation of `0..len`, else `None`.
fn permutation_flags(order: &[usize], len: usize) -> Option<Vec<bool>> {
    if order.len() != len {
        return None;
    }
    let mut seen = vec![false; len];
    for i in order {
        if std::mem::replace(seen.get_mut(*i)?, true) {
            return None;
        }
    }
    seen.fill(false);
    Some(seen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::isvc;

    /// Dense ranks of the `ns/name` texts, computed from the strings.
    fn text_ranks(snap: &ClusterSnapshot) -> Vec<u32> {
        let mut texts: Vec<String> = snap.isvcs.iter().map(|w| w.key()).collect();
        texts.sort();
        texts.dedup();
        // Distinct texts below the service's own: its dense rank.
        let rank = |w: &crate::engine::model::InferenceService| {
            texts.iter().filter(|t| **t < w.key()).count() as u32
        };
        snap.isvcs.iter().map(rank).collect()
    }

    #[test]
    fn ranks_follow_the_joined_text_not_the_tuple() {
        // ("a-b", "x") sorts after ("a", "y") as a tuple but before it as "a-b/x" < "a/y".
        let snap = ClusterSnapshot {
            isvcs: vec![
                isvc("a", "y"),
                isvc("a-b", "x"),
                isvc("b", "z"),
                isvc("a", "y"),
            ]
            .into(),
            ..Default::default()
        };
        let ranks = workload_ranks(&snap, &IsvcKeys::new(&snap.isvcs));
        assert_eq!(ranks, text_ranks(&snap));
        assert_eq!(ranks[0], ranks[3]);
        assert!(ranks[1] < ranks[0]);
    }

    proptest::proptest! {
        #[test]
        fn ranks_equal_text_ranks_in_any_order(
            pairs in proptest::collection::vec(("[ab/-]{0,3}", "[ab-]{0,3}"), 0..30),
            sort in proptest::bool::ANY,
        ) {
            let mut isvcs: Vec<_> = pairs.iter().map(|(ns, name)| isvc(ns, name)).collect();
            if sort {
                // The live store's order: the key-id path, unless a namespace continues
                // another with a byte below '/'.
                isvcs.sort_by(|a, b| (&a.namespace(), &a.name()).cmp(&(&b.namespace(), &b.name())));
            }
            let snap = ClusterSnapshot { isvcs: isvcs.into(), ..Default::default() };
            proptest::prop_assert_eq!(
                workload_ranks(&snap, &IsvcKeys::new(&snap.isvcs)),
                text_ranks(&snap)
            );
        }
    }

    #[test]
    fn component_ranks_follow_the_names() {
        let mut names: Vec<(u8, &str)> = crate::engine::model::COMPONENTS
            .iter()
            .enumerate()
            .map(|(c, n)| (component_rank(c), *n))
            .collect();
        names.sort();
        let sorted: Vec<&str> = names.iter().map(|(_, n)| *n).collect();
        assert_eq!(sorted, vec!["decoder", "engine", "router"]);
    }

    #[test]
    fn score_keys_order_like_total_cmp_descending() {
        let scores = [
            f64::NAN,
            f64::INFINITY,
            1.5,
            0.25,
            0.0,
            -0.0,
            -0.25,
            f64::NEG_INFINITY,
            -f64::NAN,
        ];
        for a in scores {
            for b in scores {
                let want = b.total_cmp(&a);
                let got = descending_score_key(a).cmp(&descending_score_key(b));
                assert_eq!(got, want, "{a} vs {b}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn rank_by_score_equals_one_stable_sort(
            rows in proptest::collection::vec(
                (0u8..4, 0u32..5, (0u32..6, 0u8..3, -1i64..3)),
                0..50,
            ),
        ) {
            let scores: Vec<f64> = rows.iter().map(|r| f64::from(r.0) - 1.5).collect();
            let footprints: Vec<u32> = rows.iter().map(|r| r.1).collect();
            let keys: Vec<IdentityKey> = rows.iter().map(|r| r.2).collect();
            let mut want: Vec<usize> = (0..rows.len()).collect();
            want.sort_by(|a, b| {
                scores[*b]
                    .total_cmp(&scores[*a])
                    .then(footprints[*a].cmp(&footprints[*b]))
                    .then(keys[*a].cmp(&keys[*b]))
            });
            proptest::prop_assert_eq!(rank_by_score(&scores, &footprints, &keys), want);
        }
    }

    #[test]
    fn permute_moves_items_into_the_given_order() {
        assert_eq!(
            permute(vec!['a', 'b', 'c'], &[2, 0, 1]),
            vec!['c', 'a', 'b']
        );
        // Not a permutation: the named items, each once, in `order`'s order.
        assert_eq!(permute(vec!['a', 'b', 'c'], &[2, 2, 7, 0]), vec!['c', 'a']);
    }

    proptest::proptest! {
        #[test]
        fn permute_in_place_equals_reading_items_in_order(
            keys in proptest::collection::vec(0u32..1000, 0..200)
        ) {
            let mut order: Vec<usize> = (0..keys.len()).collect();
            order.sort_by_key(|i| keys[*i]);
            let items: Vec<String> = (0..keys.len()).map(|i| format!("row-{i}")).collect();
            let expected: Vec<String> = order.iter().map(|i| items[*i].clone()).collect();
            proptest::prop_assert_eq!(permute(items, &order), expected);
        }
    }
}
