//! One shared `Name` per distinct string, as the live store publishes them: namespaces, label
//! keys and values, owner names and UIDs point at one allocation each, so two equal names
//! compare by pointer (`same`; plain `==` on `Name` reads the bytes) and hot strings stay in
//! cache.
//!
//! Owns: `Interner`, `address`, `same`, `same_opt`, `PairsByAddress`, `LastAnswer`. Used by
//! the cluster converters and by the simulated fleets (which must look like what the live
//! store publishes). Pure; must not import anything outside `std` and `engine`.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::engine::model::Name;

/// The address of a name's shared text: equal addresses mean equal texts (the converse holds
/// for names from one `Interner`). Valid as a key only while the name is alive.
pub fn address(name: &Name) -> usize {
    Arc::as_ptr(name).cast::<u8>() as usize
}

/// Whether two names hold the same text, deciding by address first. `Arc<str>`'s `==` does
/// not: it checks the lengths and then compares the bytes even when both names point at one
/// allocation (rustc 1.95 emits a `bcmp` call), and on a string no pass has touched lately
/// that is a cache miss per comparison. Names from one `Interner` are equal exactly when
/// their addresses are, so hot comparisons of shared texts use this.
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

/// Name pairs (a node selector, say) as a map key by the addresses of their names: hashing
/// and comparing read no text. Equal keys hold equal texts; equal texts in other allocations
/// are other keys, so only a cache of a pure function of the text may use it (such a cache
/// then computes an answer twice, never a wrong one). Valid while the names are alive.
#[derive(Debug, Clone, Copy)]
pub struct PairsByAddress<'a>(pub &'a [(Name, Name)]);

impl Hash for PairsByAddress<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.len());
        for (k, v) in self.0 {
            state.write_usize(address(k));
            state.write_usize(address(v));
        }
    }
}

impl PartialEq for PairsByAddress<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(other.0)
                .all(|((a, b), (c, d))| Arc::ptr_eq(a, c) && Arc::ptr_eq(b, d))
    }
}

impl Eq for PairsByAddress<'_> {}

/// The answer for the last key asked, remembered. Objects of one workload, gang or pool sit
/// side by side in a live snapshot and share their texts, so most lookups by `address` repeat
/// the previous key and skip the map behind it. Keys must stay valid for the whole use (the
/// addresses of names that live as long as the snapshot being read).
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
    /// remembered for `key`). Inlined: it runs once per pod in several passes, and the
    /// remembered case is a comparison and a copy.
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

/// Shares repeated strings (namespaces, label keys and values, node names) between objects.
#[derive(Debug, Default)]
pub struct Interner {
    names: HashMap<Box<str>, Name>,
}

impl Interner {
    /// The shared copy of `s`.
    pub fn name(&mut self, s: &str) -> Name {
        if let Some(n) = self.names.get(s) {
            return n.clone();
        }
        let n: Name = Arc::from(s);
        self.names.insert(Box::from(s), n.clone());
        n
    }

    /// The shared copy of an optional string (`None` and `""` both give `None`).
    pub fn opt(&mut self, s: Option<&str>) -> Option<Name> {
        s.filter(|s| !s.is_empty()).map(|s| self.name(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_answer_computes_only_when_the_key_changes() {
        let mut last = LastAnswer::default();
        let mut computed = 0;
        for key in [1, 1, 2, 2, 2, 1] {
            let answer = last.get(key, || {
                computed += 1;
                key * 10
            });
            assert_eq!(answer, key * 10);
        }
        assert_eq!(computed, 3);
    }

    #[test]
    fn same_is_text_equality() {
        let a: Name = Arc::from("team-0");
        let copy: Name = Arc::from("team-0");
        let other: Name = Arc::from("team-1");
        assert!(same(&a, &a.clone()));
        assert!(same(&a, &copy), "equal texts in two allocations");
        assert!(!same(&a, &other));
        assert!(!same(&a, &Arc::from("team")));
        assert!(same_opt(None, None));
        assert!(same_opt(Some(&a), Some(&copy)));
        assert!(!same_opt(Some(&a), None));
        assert!(!same_opt(None, Some(&a)));
    }

    #[test]
    fn pairs_by_address_are_equal_only_for_the_same_names() {
        let (k, v): (Name, Name) = (Arc::from("gpu"), Arc::from("h100"));
        let shared = vec![(k.clone(), v.clone())];
        let again = vec![(k.clone(), v.clone())];
        let copied = vec![(Arc::from("gpu"), Arc::from("h100"))];
        let mut map: HashMap<PairsByAddress<'_>, u32> = HashMap::new();
        map.insert(PairsByAddress(&shared), 1);
        assert_eq!(
            map.get(&PairsByAddress(&again)),
            Some(&1),
            "same names, other list"
        );
        assert_eq!(
            map.get(&PairsByAddress(&copied)),
            None,
            "equal texts, other names"
        );
        assert_eq!(map.get(&PairsByAddress(&[])), None);
        assert_ne!(PairsByAddress(&shared), PairsByAddress(&shared[..0]));
    }

    #[test]
    fn equal_strings_share_one_allocation() {
        let mut i = Interner::default();
        let a = i.name("team-0");
        let b = i.name(&String::from("team-0"));
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &i.name("team-1")));
        assert_eq!(i.opt(Some("")), None);
        assert_eq!(i.opt(None), None);
        assert!(i.opt(Some("team-0")).is_some_and(|n| Arc::ptr_eq(&n, &a)));
    }
}
