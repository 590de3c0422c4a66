//! Texts compared and keyed by where they live. The live store and the converters intern
//! names, so equal texts usually share one allocation and an address compare answers without
//! reading a byte (`Arc<str>`'s own `==` always reads the bytes). Every key here borrows its
//! text, so an address cannot be reused by another text while the key exists.
//!
//! Owns: `same`, `same_opt`, `same_str`, `same_shared`, `same_allocation`, `ByAddress`,
//! `PairsByAddress`, `LastAnswer`. Pure.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::engine::model::Name;

/// Whether two names hold the same text, deciding by address first.
#[inline]
pub fn same(a: &Name, b: &Name) -> bool {
    Arc::ptr_eq(a, b) || a == b
}

/// `same` for optional names (two `None`s are the same).
#[inline]
pub fn same_opt(a: Option<&Name>, b: Option<&Name>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => same(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// Whether two texts are equal, deciding by address (and length) first.
#[inline]
pub fn same_str(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || a == b
}

/// Whether two shared values are equal, deciding by allocation first: one allocation is one
/// value (an unchanged object a store hands out again), anything else is compared by value.
#[inline]
pub fn same_shared<T: PartialEq + ?Sized>(a: &Arc<T>, b: &Arc<T>) -> bool {
    Arc::ptr_eq(a, b) || **a == **b
}

/// Whether two shared values are one allocation (what interning promises; tests check it).
pub fn same_allocation<T: ?Sized>(a: &Arc<T>, b: &Arc<T>) -> bool {
    Arc::ptr_eq(a, b)
}

/// A text as a key by its address and length: hashing and comparing read no byte. Equal keys
/// hold equal texts; equal texts elsewhere are other keys, so only a memo of a pure function
/// of the text may key on it (it then computes an answer twice, never a wrong one).
#[derive(Debug, Clone, Copy)]
pub struct ByAddress<'a>(pub &'a str);

impl PartialEq for ByAddress<'_> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for ByAddress<'_> {}

impl Hash for ByAddress<'_> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.as_ptr() as usize);
        state.write_usize(self.0.len());
    }
}

/// Name pairs (a node selector, say) as a map key by the addresses of their names, with the
/// contract of `ByAddress`: only a cache of a pure function of the texts may use it.
#[derive(Debug, Clone, Copy)]
pub struct PairsByAddress<'a>(pub &'a [(Name, Name)]);

impl Hash for PairsByAddress<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.len());
        for (k, v) in self.0 {
            ByAddress(k).hash(state);
            ByAddress(v).hash(state);
        }
    }
}

impl PartialEq for PairsByAddress<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self.0.iter().zip(other.0).all(|((a, b), (c, d))| {
                ByAddress(a) == ByAddress(c) && ByAddress(b) == ByAddress(d)
            })
    }
}

impl Eq for PairsByAddress<'_> {}

/// The answer for the last key asked, remembered: objects of one workload, gang or pool sit
/// side by side in a live snapshot and share their texts, so most lookups keyed by
/// `ByAddress` repeat the previous key and skip the map behind it. `compute` must be a pure
/// function of the key's text.
#[derive(Debug)]
pub struct LastAnswer<K, V> {
    last: Option<(K, V)>,
}

impl<K, V> Default for LastAnswer<K, V> {
    fn default() -> Self {
        LastAnswer { last: None }
    }
}

impl<K: PartialEq, V: Clone> LastAnswer<K, V> {
    /// The remembered answer when `key` equals the last key asked, else `compute()` (then
    /// remembered for `key`). Inlined: it runs once per pod in several passes.
    #[inline]
    pub fn get(&mut self, key: K, compute: impl FnOnce() -> V) -> V {
        match &self.last {
            Some((seen, answer)) if *seen == key => answer.clone(),
            _ => {
                let answer = compute();
                self.last = Some((key, answer.clone()));
                answer
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Names drawn from a few texts, each text in two allocations: equal texts at other
    /// addresses are the case an address shortcut must not get wrong.
    fn names(picks: &[(u8, bool)]) -> Vec<Name> {
        let first: Vec<Name> = (0..4).map(|t| Arc::from(format!("text-{t}"))).collect();
        let second: Vec<Name> = (0..4).map(|t| Arc::from(format!("text-{t}"))).collect();
        picks
            .iter()
            .map(|&(t, other)| {
                let t = usize::from(t % 4);
                if other {
                    second[t].clone()
                } else {
                    first[t].clone()
                }
            })
            .collect()
    }

    #[test]
    fn same_is_text_equality() {
        let a: Name = Arc::from("team-0");
        let copy: Name = Arc::from("team-0");
        assert!(same(&a, &a.clone()));
        assert!(same(&a, &copy), "equal texts in two allocations");
        assert!(!same(&a, &Arc::from("team-1")));
        assert!(same_opt(None, None));
        assert!(!same_opt(Some(&a), None));
        assert!(same_str("ab", &String::from("ab")));
        assert!(!same_str("ab", &"abc"[..2].replace('b', "c")));
        assert!(same_allocation(&a, &a.clone()) && !same_allocation(&a, &copy));
    }

    #[test]
    fn by_address_tells_a_prefix_from_its_text() {
        let whole = "gpu-h100";
        assert_ne!(
            ByAddress(&whole[..3]),
            ByAddress(whole),
            "same address, other length"
        );
        assert_eq!(ByAddress(&whole[..3]), ByAddress(&whole[..3]));
    }

    proptest! {
        /// Address comparisons agree with text comparisons wherever they answer "equal", and
        /// `same` is exactly text equality.
        #[test]
        fn address_keys_imply_text_equality(picks in proptest::collection::vec((0u8..8, any::<bool>()), 2..24)) {
            let names = names(&picks);
            for a in &names {
                for b in &names {
                    prop_assert_eq!(same(a, b), a.as_ref() == b.as_ref());
                    prop_assert_eq!(same_str(a, b), a.as_ref() == b.as_ref());
                    prop_assert_eq!(same_shared(a, b), a.as_ref() == b.as_ref());
                    if ByAddress(a) == ByAddress(b) {
                        prop_assert_eq!(a.as_ref(), b.as_ref());
                    }
                }
            }
        }

        /// A memo keyed by address answers what the function answers, whatever allocation
        /// holds each text and in whatever order the keys come.
        #[test]
        fn last_answer_is_the_function(picks in proptest::collection::vec((0u8..8, any::<bool>()), 0..40)) {
            let names = names(&picks);
            let mut last = LastAnswer::default();
            for n in &names {
                let got = last.get(ByAddress(n), || n.len() * 31 + n.as_bytes()[5] as usize);
                prop_assert_eq!(got, n.len() * 31 + n.as_bytes()[5] as usize);
            }
        }

        /// A cache keyed by `PairsByAddress` returns what a cache keyed by the texts returns.
        #[test]
        fn pairs_cache_is_the_text_cache(picks in proptest::collection::vec((0u8..8, any::<bool>()), 0..24)) {
            let names = names(&picks);
            let lists: Vec<Vec<(Name, Name)>> = names
                .chunks(3)
                .map(|c| c.windows(2).map(|w| (w[0].clone(), w[1].clone())).collect())
                .collect();
            let text = |l: &[(Name, Name)]| l.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",");
            let mut fast: HashMap<PairsByAddress<'_>, String> = HashMap::new();
            for l in &lists {
                let got = fast.entry(PairsByAddress(l)).or_insert_with(|| text(l)).clone();
                prop_assert_eq!(got, text(l));
            }
        }
    }
}
