//! Indices of a list of names in byte-wise name order, equal names by index (what a stable
//! sort by name gives), computed with integer keys instead of string comparisons.
//!
//! Node names share long prefixes (`gpu-h100-00042`), so a comparison sort on strings spends
//! its time in `memcmp`. Here names are split eight bytes at a time (a most-significant-digit
//! radix split, each level one pass over `(u64 key, index)` pairs): a level that is already in
//! order (API servers list nodes by name) costs one linear check, a level with a few distinct
//! keys (pool prefixes) a counting sort, and any other level one sort of integer pairs.
//!
//! Owns: `name_order`. Pure.

/// Runs this short are sorted by comparing the strings directly.
const SHORT_RUN: usize = 16;

/// Indices `0..names.len()` sorted by `names[i]` (byte-wise), ties by index.
pub fn name_order(names: &[&str]) -> Vec<usize> {
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    sort_run(names, &mut order, 0);
    order.into_iter().map(|i| i as usize).collect()
}

/// The eight bytes of `name` from `at`, big-endian, padded with zeros past its end. For two
/// names equal before `at`, a smaller key means a smaller name; equal keys decide nothing
/// unless both names reach `at + 8`.
fn key_at(name: &str, at: usize) -> u64 {
    let bytes = name.as_bytes();
    if let Some(chunk) = bytes.get(at..at + 8) {
        let mut buf = [0u8; 8];
        buf.copy_from_slice(chunk);
        return u64::from_be_bytes(buf);
    }
    let rest = bytes.get(at..).unwrap_or(&[]);
    let mut buf = [0u8; 8];
    buf[..rest.len()].copy_from_slice(rest);
    u64::from_be_bytes(buf)
}

fn by_string(names: &[&str], run: &mut [u32]) {
    run.sort_unstable_by(|a, b| names[*a as usize].cmp(names[*b as usize]).then(a.cmp(b)));
}

/// Sorts `run` (ascending indices of names that all agree on their first `at` bytes).
fn sort_run(names: &[&str], run: &mut [u32], at: usize) {
    if run.len() <= SHORT_RUN {
        by_string(names, run);
        return;
    }
    let mut keyed: Vec<(u64, u32)> = run
        .iter()
        .map(|&i| (key_at(names[i as usize], at), i))
        .collect();
    if !keyed.is_sorted() && !bucket_sort(&mut keyed) {
        keyed.sort_unstable();
    }
    for (slot, (_, i)) in run.iter_mut().zip(&keyed) {
        *slot = *i;
    }
    let mut start = 0;
    while start < keyed.len() {
        let key = keyed[start].0;
        let end = start + keyed[start..].iter().take_while(|k| k.0 == key).count();
        let group = &mut run[start..end];
        if group.len() > 1 {
            if group.iter().all(|&i| names[i as usize].len() >= at + 8) {
                // The group shares eight more bytes: split on the next eight.
                sort_run(names, group, at + 8);
            } else {
                by_string(names, group);
            }
        }
        start = end;
    }
}

/// Keys with at most this many distinct values are placed by counting instead of sorting.
const FEW_KEYS: usize = 32;

/// Stable counting sort of `keyed` (in index order within equal keys) when it holds at most
/// `FEW_KEYS` distinct keys (node names of a few pools); `false`, untouched, otherwise.
fn bucket_sort(keyed: &mut [(u64, u32)]) -> bool {
    let mut distinct: Vec<u64> = Vec::new();
    let mut slot_of: Vec<u8> = Vec::with_capacity(keyed.len());
    let mut last = 0usize;
    for (k, _) in keyed.iter() {
        if distinct.get(last) != Some(k) {
            match distinct.iter().position(|d| d == k) {
                Some(p) => last = p,
                None if distinct.len() < FEW_KEYS => {
                    last = distinct.len();
                    distinct.push(*k);
                }
                None => return false,
            }
        }
        slot_of.push(last as u8);
    }
    // Start of each distinct key's bucket, in key order.
    let mut by_key: Vec<usize> = (0..distinct.len()).collect();
    by_key.sort_unstable_by_key(|&d| distinct[d]);
    let mut counts = vec![0usize; distinct.len()];
    for &d in &slot_of {
        counts[usize::from(d)] += 1;
    }
    let mut starts = vec![0usize; distinct.len()];
    let mut next = 0;
    for &d in &by_key {
        starts[d] = next;
        next += counts[d];
    }
    let mut out = vec![(0u64, 0u32); keyed.len()];
    for (item, &d) in keyed.iter().zip(&slot_of) {
        let at = &mut starts[usize::from(d)];
        out[*at] = *item;
        *at += 1;
    }
    keyed.copy_from_slice(&out);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(names: &[&str]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|a, b| names[*a].cmp(names[*b]));
        order
    }

    #[test]
    fn matches_a_stable_sort_on_generated_names() {
        let mut owned = Vec::new();
        let mut x: u64 = 7;
        for i in 0..600 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pool = ["h100", "a100", "gaudi", "h1"][(x >> 33) as usize % 4];
            owned.push(format!("gpu-{pool}-{:05}", (x >> 40) % 700));
            if i % 50 == 0 {
                owned.push(format!("gpu-{pool}"));
                owned.push(String::new());
            }
        }
        let names: Vec<&str> = owned.iter().map(String::as_str).collect();
        assert_eq!(name_order(&names), reference(&names));
    }

    #[test]
    fn duplicates_prefixes_and_nul_bytes_keep_byte_order() {
        let mut owned: Vec<String> = (0..40).map(|i| format!("node-{}", i % 7)).collect();
        owned.extend((0..20).map(|i| format!("node-{}\0{}", i % 3, "\0".repeat(i % 4))));
        owned.extend((0..20).map(|i| "n".repeat(i % 11)));
        let names: Vec<&str> = owned.iter().map(String::as_str).collect();
        assert_eq!(name_order(&names), reference(&names));
        assert!(name_order(&[]).is_empty());
        assert_eq!(name_order(&["b", "a"]), vec![1, 0]);
    }
}
