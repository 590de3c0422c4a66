//! A pod's (or any namespaced object's) `ns/name` ordering key without building the string: `PodKey` compares exactly like
//! `Pod::key()` strings do (byte order of `namespace + "/" + name`), so sorts that Alfred
//! defines on `ns/name` need no allocation per pod.
//!
//! Owns: `PodKey`, `cmp_joined`. Pure.

use std::cmp::Ordering;

use crate::engine::model::Pod;

/// `namespace/name` of a pod, compared (and equal) as the joined string.
#[derive(Debug, Clone, Copy)]
pub struct PodKey<'a> {
    /// Namespace.
    pub namespace: &'a str,
    /// Name.
    pub name: &'a str,
}

impl<'a> PodKey<'a> {
    /// The key of `pod`.
    pub fn of(pod: &'a Pod) -> Self {
        Self::of_names(&pod.namespace, &pod.name)
    }

    /// The key of any namespaced object's `(namespace, name)`.
    pub fn of_names(namespace: &'a str, name: &'a str) -> Self {
        PodKey { namespace, name }
    }
}

impl Ord for PodKey<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Pods of one namespace usually share its interned text: then the names decide.
        if std::ptr::eq(self.namespace, other.namespace) {
            return self.name.cmp(other.name);
        }
        cmp_joined(
            [self.namespace.as_bytes(), b"/", self.name.as_bytes()],
            [other.namespace.as_bytes(), b"/", other.name.as_bytes()],
        )
    }
}

impl PartialEq for PodKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PodKey<'_> {}

impl PartialOrd for PodKey<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Compares the concatenations of two segment lists byte by byte (like comparing the joined
/// strings), comparing whole common runs at once.
pub fn cmp_joined(x: [&[u8]; 3], y: [&[u8]; 3]) -> Ordering {
    let (mut i, mut j) = (0, 0);
    let (mut xs, mut ys) = (x[0], y[0]);
    loop {
        while xs.is_empty() && i + 1 < x.len() {
            i += 1;
            xs = x[i];
        }
        while ys.is_empty() && j + 1 < y.len() {
            j += 1;
            ys = y[j];
        }
        match (xs.is_empty(), ys.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            (false, false) => {}
        }
        let n = xs.len().min(ys.len());
        match xs[..n].cmp(&ys[..n]) {
            Ordering::Equal => {
                xs = &xs[n..];
                ys = &ys[n..];
            }
            unequal => return unequal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn key<'a>(namespace: &'a str, name: &'a str) -> PodKey<'a> {
        PodKey { namespace, name }
    }

    #[test]
    fn orders_like_the_joined_string_not_the_pair() {
        // '-' (0x2d) sorts before '/' (0x2f): "a-x/b" < "a/b" although "a" < "a-x".
        assert_eq!(key("a-x", "b").cmp(&key("a", "b")), Ordering::Less);
        assert_eq!(key("a", "b/c").cmp(&key("a/b", "c")), Ordering::Equal);
        assert_eq!(key("", "").cmp(&key("", "")), Ordering::Equal);
        assert_eq!(key("ns", "a").cmp(&key("ns", "ab")), Ordering::Less);
    }

    proptest! {
        #[test]
        fn same_order_as_format(
            a in "[a-c/.-]{0,4}", b in "[a-c/.-]{0,4}",
            c in "[a-c/.-]{0,4}", d in "[a-c/.-]{0,4}",
        ) {
            let want = format!("{a}/{b}").cmp(&format!("{c}/{d}"));
            prop_assert_eq!(key(&a, &b).cmp(&key(&c, &d)), want);
        }
    }
}
