//! The order of InferenceServices by `(namespace, name)`, computed with integer keys: each
//! distinct namespace gets a rank once, and names compare by their first 16 bytes as one
//! integer, falling back to the full text only when those are equal. Sorting thousands of
//! ISVCs with string comparisons was a visible share of building the workloads (`benches/stages.rs`, stage `workloads`).
//!
//! A live snapshot lists ISVCs in store key order already: that is checked first (one
//! comparison per neighbour pair), and then nothing is sorted.
//!
//! Owns: `by_namespace_name`, `by_namespace_name_known`, `in_namespace_name_order`, `key_orders`.
//! Pure.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::fast::pod_key::PodKey;
use crate::engine::fast::ByAddress;
#[cfg(test)]
use crate::engine::model::ClusterSnapshot;
use crate::engine::model::{InferenceService, Name};

/// The first 16 bytes of `s` as a big-endian integer, zero padded. `prefix(a) < prefix(b)`
/// implies `a < b`; equal prefixes leave the order to the full text.
fn prefix(s: &str) -> u128 {
    let mut bytes = [0u8; 16];
    let n = s.len().min(16);
    bytes[..n].copy_from_slice(&s.as_bytes()[..n]);
    u128::from_be_bytes(bytes)
}

/// The text rank of each namespace (equal texts share a rank), resolving each distinct
/// shared text (`Arc` pointer) once.
fn namespace_ranks<'a>(namespaces: impl Iterator<Item = &'a Name> + Clone) -> Vec<u32> {
    let mut distinct: HashMap<ByAddress<'a>, &str> = HashMap::default();
    for ns in namespaces.clone() {
        distinct.entry(ByAddress(ns)).or_insert(ns);
    }
    let mut texts: Vec<&str> = distinct.values().copied().collect();
    texts.sort_unstable();
    texts.dedup();
    let rank_of: HashMap<ByAddress<'a>, u32> = distinct
        .iter()
        .map(|(p, t)| (*p, texts.binary_search(t).unwrap_or(0) as u32))
        .collect();
    namespaces
        .map(|ns| rank_of.get(&ByAddress(ns)).copied().unwrap_or(0))
        .collect()
}

#[cfg(test)]
/// Whether `isvcs` are in ascending `(namespace, name)` text order (equal keys allowed).
pub fn in_namespace_name_order(isvcs: &[InferenceService]) -> bool {
    key_orders(isvcs).0
}

/// Whether `isvcs` are in ascending `(namespace, name)` order, and whether they are in that
/// order and in ascending `ns/name` text order as well, in one pass over the neighbours. The
/// two orders differ only where one namespace continues another with a byte below `/`
/// (`a-b/x` < `a/y`); the live store lists by `ns/name`, so both usually hold.
pub(super) fn key_orders(isvcs: &[InferenceService]) -> (bool, bool) {
    let mut joined = true;
    let tuple = isvcs.windows(2).all(|pair| {
        let (a, b) = (&pair[0], &pair[1]);
        // Neighbours usually share their namespace's text: then only the names compare, and
        // the two orders agree.
        if std::ptr::eq(a.namespace().as_ptr(), b.namespace().as_ptr())
            && a.namespace().len() == b.namespace().len()
        {
            return a.name() <= b.name();
        }
        let tuple = (a.namespace().as_ref(), a.name().as_ref())
            <= (b.namespace().as_ref(), b.name().as_ref());
        joined = joined
            && tuple
            && PodKey::of_names(a.namespace(), a.name())
                <= PodKey::of_names(b.namespace(), b.name());
        tuple
    });
    (tuple, tuple && joined)
}

#[cfg(test)]
/// Indices of `snap.isvcs` sorted by `(namespace, name)` text, equal keys by index — the
/// order a stable sort by that key gives.
pub fn by_namespace_name(snap: &ClusterSnapshot) -> Vec<usize> {
    by_namespace_name_known(&snap.isvcs, in_namespace_name_order(&snap.isvcs))
}

/// `by_namespace_name` for a caller that already knows whether the ISVCs are in that order
/// (`in_order` must be `in_namespace_name_order(&snap.isvcs)`): the check reads every name.
pub(super) fn by_namespace_name_known(isvcs: &[InferenceService], in_order: bool) -> Vec<usize> {
    if in_order {
        return (0..isvcs.len()).collect();
    }
    let ranks = namespace_ranks(isvcs.iter().map(|w| w.namespace()));
    // One packed integer pair per ISVC: (namespace rank, name bytes 0..12) and
    // (name bytes 12..16, index), compared as plain integers.
    let mut keys: Vec<(u128, u64)> = isvcs
        .iter()
        .zip(ranks)
        .zip(0u64..)
        .map(|((w, ns), i)| {
            let p = prefix(w.name());
            let high = (u128::from(ns) << 96) | (p >> 32);
            let low = ((p as u64) << 32) | i;
            (high, low)
        })
        .collect();
    keys.sort_unstable();
    let mut order: Vec<usize> = keys
        .iter()
        .map(|(_, low)| (low & 0xffff_ffff) as usize)
        .collect();
    // Equal namespaces and 16-byte prefixes (long names, duplicates): the full names decide,
    // then the index (already ascending within the run, and the sort below is stable).
    let same_prefix = |a: &(u128, u64), b: &(u128, u64)| a.0 == b.0 && a.1 >> 32 == b.1 >> 32;
    let mut start = 0;
    for end in 1..=keys.len() {
        if end == keys.len() || !same_prefix(&keys[start], &keys[end]) {
            if end - start > 1 {
                order[start..end].sort_by(|a, b| isvcs[*a].name().cmp(isvcs[*b].name()));
            }
            start = end;
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::isvc;
    use proptest::prelude::*;

    fn stable_order(snap: &ClusterSnapshot) -> Vec<usize> {
        let mut order: Vec<usize> = (0..snap.isvcs.len()).collect();
        order.sort_by(|a, b| {
            let (x, y) = (&snap.isvcs[*a], &snap.isvcs[*b]);
            x.namespace()
                .cmp(y.namespace())
                .then_with(|| x.name().cmp(y.name()))
        });
        order
    }

    #[test]
    fn long_names_and_duplicates() {
        let long = "x".repeat(20);
        let snap = ClusterSnapshot {
            isvcs: vec![
                isvc("b", &format!("{long}b")),
                isvc("b", &format!("{long}a")),
                isvc("a-b", "z"),
                isvc("a", "y"),
                isvc("b", &format!("{long}a")),
                isvc("a", "y\u{0}"),
            ]
            .into(),
            ..Default::default()
        };
        assert_eq!(by_namespace_name(&snap), vec![3, 5, 2, 1, 4, 0]);
        assert_eq!(by_namespace_name(&snap), stable_order(&snap));
    }

    proptest! {
        #[test]
        fn equals_a_stable_text_sort(
            pairs in proptest::collection::vec(("[ab-]{0,3}", "[ab\u{0}]{0,18}"), 0..30),
        ) {
            let snap = ClusterSnapshot {
                isvcs: pairs.iter().map(|(ns, name)| isvc(ns, name)).collect(),
                ..Default::default()
            };
            prop_assert_eq!(by_namespace_name(&snap), stable_order(&snap));
            // The same ISVCs in key order (the live store's order) take the sorted path.
            let sorted = ClusterSnapshot {
                isvcs: stable_order(&snap).iter().map(|i| snap.isvcs[*i].clone()).collect(),
                ..Default::default()
            };
            prop_assert!(in_namespace_name_order(&sorted.isvcs));
            // Both orders hold exactly when the `ns/name` texts are ascending too.
            let texts: Vec<String> = sorted.isvcs.iter().map(|w| w.key()).collect();
            let joined = texts.windows(2).all(|t| t[0] <= t[1]);
            prop_assert_eq!(key_orders(&sorted.isvcs), (true, joined));
            prop_assert_eq!(key_orders(&snap.isvcs).1, key_orders(&snap.isvcs).0 && {
                let texts: Vec<String> = snap.isvcs.iter().map(|w| w.key()).collect();
                texts.windows(2).all(|t| t[0] <= t[1])
            });
            prop_assert_eq!(by_namespace_name(&sorted), stable_order(&sorted));
        }
    }
}
