//! Indices of a list of names in byte-wise name order, equal names by index (what a stable
//! sort by name gives), computed with integer keys instead of string comparisons.
//!
//! Node names share long prefixes (`gpu-h100-00042`), so a comparison sort on strings spends
//! its time in `memcmp`. Here a run of names is split eight bytes at a time past the run's
//! common prefix (a most-significant-digit radix split, each level one sort of
//! `(u64 key, index)` pairs): one integer compare per comparison, and a level that is already
//! in order (API servers list nodes by name) costs one linear check.
//!
//! Owns: `name_order`. Pure; must not import anything outside `std`.

/// Runs this short are sorted by comparing the strings directly.
const SHORT_RUN: usize = 16;

/// Indices `0..names.len()` sorted by `names[i]` (byte-wise), ties by index.
pub fn name_order(names: &[&str]) -> Vec<usize> {
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    sort_run(names, &mut order, 0);
    order.into_iter().map(|i| i as usize).collect()
}

/// The eight bytes of `name` from `at`, big-endian, padded with zeros past its end. For two
/// names equal before `at`, a smaller key means a smaller name; equal keys decide nothing.
fn key_at(name: &str, at: usize) -> u64 {
    let bytes = name.as_bytes().get(at..).unwrap_or(&[]);
    let mut buf = [0u8; 8];
    let n = bytes.len().min(8);
    buf[..n].copy_from_slice(&bytes[..n]);
    u64::from_be_bytes(buf)
}

/// Sorts `run` (indices of names that all agree on their first `from` bytes).
fn sort_run(names: &[&str], run: &mut [u32], from: usize) {
    if run.len() < 2 {
        return;
    }
    if run.len() <= SHORT_RUN {
        run.sort_unstable_by(|a, b| names[*a as usize].cmp(names[*b as usize]).then(a.cmp(b)));
        return;
    }
    let first = names[run[0] as usize].as_bytes();
    let mut lcp = first.len();
    let mut same = true;
    for &i in &run[1..] {
        let b = names[i as usize].as_bytes();
        let shared = first[from.min(lcp)..lcp]
            .iter()
            .zip(b.get(from..).unwrap_or(&[]))
            .take_while(|(x, y)| x == y)
            .count();
        lcp = from + shared;
        same &= b.len() == first.len();
    }
    if same && lcp == first.len() {
        // Every name is the same: index order.
        run.sort_unstable();
        return;
    }
    let mut keyed: Vec<(u64, u32)> = run
        .iter()
        .map(|&i| (key_at(names[i as usize], lcp), i))
        .collect();
    if !keyed.is_sorted() {
        keyed.sort_unstable();
    }
    if keyed.first().map(|k| k.0) == keyed.last().map(|k| k.0) {
        // Only NUL bytes against a name's end can tie every key: compare the strings.
        run.sort_unstable_by(|a, b| names[*a as usize].cmp(names[*b as usize]).then(a.cmp(b)));
        return;
    }
    for (slot, (_, i)) in run.iter_mut().zip(&keyed) {
        *slot = *i;
    }
    let mut start = 0;
    while start < keyed.len() {
        let key = keyed[start].0;
        let end = start + keyed[start..].iter().take_while(|k| k.0 == key).count();
        sort_run(names, &mut run[start..end], lcp);
        start = end;
    }
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
