//! Stable sorts by a small integer key in linear time (a counting sort). The repack's bins and
//! the surge target lists are ordered by free GPUs — a handful of distinct values over
//! thousands of nodes already in name order — so a counting sort replaces an
//! `n log n` comparison sort with the very same result.
//!
//! Owns: `stable_sort_by_small_key`, `is_non_decreasing`. Pure.

/// Largest key the counting sort accepts; larger keys fall back to a comparison sort.
const MAX_KEY: u32 = 4096;

/// Sorts `items` stably by `key` ascending: equal keys keep their input order, exactly like
/// `slice::sort_by_key`. Linear when every key is at most `MAX_KEY`.
pub fn stable_sort_by_small_key<T: Copy>(items: &mut [T], key: impl Fn(&T) -> u32) {
    let Some(max) = items.iter().map(&key).max() else {
        return;
    };
    if max > MAX_KEY {
        items.sort_by_key(|t| key(t));
        return;
    }
    let mut starts = vec![0usize; max as usize + 2];
    for t in items.iter() {
        starts[key(t) as usize + 1] += 1;
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    let input = items.to_vec();
    for t in input {
        let slot = &mut starts[key(&t) as usize];
        items[*slot] = t;
        *slot += 1;
    }
}

/// Whether `keys` never decrease (then a stable sort whose last tie-break is this key only
/// needs to sort by the other keys).
pub fn is_non_decreasing<K: PartialOrd>(keys: impl Iterator<Item = K>) -> bool {
    let mut prev: Option<K> = None;
    for k in keys {
        if prev.as_ref().is_some_and(|p| *p > k) {
            return false;
        }
        prev = Some(k);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn large_keys_fall_back_to_a_comparison_sort() {
        let mut v = vec![(9000u32, 'a'), (3, 'b'), (9000, 'c'), (0, 'd')];
        stable_sort_by_small_key(&mut v, |t| t.0);
        assert_eq!(v, vec![(0, 'd'), (3, 'b'), (9000, 'a'), (9000, 'c')]);
        let mut empty: Vec<u32> = Vec::new();
        stable_sort_by_small_key(&mut empty, |t| *t);
        assert!(empty.is_empty());
    }

    #[test]
    fn non_decreasing_detects_a_descent() {
        assert!(is_non_decreasing([1, 1, 2].into_iter()));
        assert!(!is_non_decreasing([1, 3, 2].into_iter()));
        assert!(is_non_decreasing(std::iter::empty::<u8>()));
    }

    proptest! {
        #[test]
        fn equals_the_standard_stable_sort(v in proptest::collection::vec((0u32..20, 0u32..1000), 0..60)) {
            let mut want = v.clone();
            want.sort_by_key(|t| t.0);
            let mut got = v;
            stable_sort_by_small_key(&mut got, |t| t.0);
            prop_assert_eq!(got, want);
        }
    }
}
