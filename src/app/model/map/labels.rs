//! Domain labels as a person reads them: values in natural order (`rack-2` before `rack-10`:
//! runs of digits compare as numbers) and the prefix every value shares cut off at a
//! separator (`rack-h100-00`, `rack-h100-01` → `00`, `01` under `rack-h100-`), so the map's
//! cells, not its labels, take the width.
//!
//! Owns: `natural_order`, `label_prefix`. Plain data.

use std::cmp::Ordering;

/// Compares `a` and `b` run by run: two digit runs by value (then by length, so `01` and `1`
/// stay apart), any other two runs by bytes.
pub fn natural_order(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    while let (Some(p), Some(q)) = (x.first(), y.first()) {
        let (dx, dy) = (p.is_ascii_digit(), q.is_ascii_digit());
        let (run_x, rest_x) = split_run(x, dx);
        let (run_y, rest_y) = split_run(y, dy);
        let order = if dx && dy {
            let (tx, ty) = (trim_zeros(run_x), trim_zeros(run_y));
            tx.len()
                .cmp(&ty.len())
                .then(tx.cmp(ty))
                .then(run_x.len().cmp(&run_y.len()))
        } else {
            run_x.cmp(run_y)
        };
        if order != Ordering::Equal {
            return order;
        }
        (x, y) = (rest_x, rest_y);
    }
    x.len().cmp(&y.len())
}

/// The leading run of digits (`digits`) or of non-digits, and the rest.
fn split_run(s: &[u8], digits: bool) -> (&[u8], &[u8]) {
    let end = s
        .iter()
        .position(|b| b.is_ascii_digit() != digits)
        .unwrap_or(s.len());
    s.split_at(end)
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let start = d.iter().position(|b| *b != b'0').unwrap_or(d.len());
    &d[start..]
}

/// The prefix `values` share, cut after its last separator (`-`, `_`, `.`, `/`, `:`), so
/// each label keeps a whole token; empty for fewer than two values or when a value would be
/// left empty.
pub fn label_prefix<'a>(values: impl Iterator<Item = &'a str> + Clone) -> &'a str {
    let mut all = values.clone();
    let Some(first) = all.next() else {
        return "";
    };
    if all.clone().next().is_none() {
        return "";
    }
    let common = all.fold(first.len(), |n, v| {
        first.as_bytes()[..n]
            .iter()
            .zip(v.as_bytes())
            .take_while(|(a, b)| a == b)
            .count()
    });
    let cut = first.as_bytes()[..common]
        .iter()
        .rposition(|b| matches!(b, b'-' | b'_' | b'.' | b'/' | b':'))
        .map_or(0, |i| i + 1);
    let prefix = &first[..cut];
    if values.into_iter().any(|v| v.len() == prefix.len()) {
        return "";
    }
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_sort_by_value() {
        let mut v = vec![
            "rack-10", "rack-2", "rack-1", "rack-02", "rack-b", "rack-a9", "rack-a10", "rack",
        ];
        v.sort_by(|a, b| natural_order(a, b));
        assert_eq!(
            v,
            ["rack", "rack-1", "rack-2", "rack-02", "rack-10", "rack-a9", "rack-a10", "rack-b"]
        );
        assert_eq!(natural_order("h100-007", "h100-7"), Ordering::Greater);
        assert_eq!(natural_order("x", "x"), Ordering::Equal);
    }

    #[test]
    fn the_shared_prefix_is_cut_at_a_separator() {
        let racks = ["rack-h100-00", "rack-h100-01", "rack-h100-120"];
        assert_eq!(label_prefix(racks.iter().copied()), "rack-h100-");
        let zones = ["us-east-1a", "us-east-1b"];
        assert_eq!(label_prefix(zones.iter().copied()), "us-east-");
        assert_eq!(label_prefix(["rack-1"].iter().copied()), "", "one value");
        assert_eq!(label_prefix(["a-1", "b-1"].iter().copied()), "");
        assert_eq!(
            label_prefix(["rack-", "rack-1"].iter().copied()),
            "",
            "a value would be left empty"
        );
    }
}
