//! The keys a store changed since the snapshot task last drained it: the snapshot task turns
//! them into the incremental analysis' changes without reading the rest of the store. A relist,
//! a clear or more keys than an incremental batch takes mark the store replaced as a whole.
//!
//! Owns: `Touched`, `Drained`. Pure.

use std::collections::BTreeSet;

use crate::engine::analysis::MAX_CHANGES;

/// The keys changed since the last drain (or the whole store replaced).
#[derive(Debug, Default)]
pub struct Touched {
    keys: BTreeSet<Box<str>>,
    /// Replaced as a whole (relist, clear, or past `MAX_CHANGES` keys): the keys are moot.
    whole: bool,
}

impl Touched {
    /// Records a change of the object at `key`.
    pub fn key(&mut self, key: &str) {
        if self.whole || self.keys.contains(key) {
            return;
        }
        // Past this many, a batch is a full analysis anyway: stop keeping keys (bounded memory
        // even if nobody drains).
        if self.keys.len() >= MAX_CHANGES {
            self.replaced();
        } else {
            self.keys.insert(Box::from(key));
        }
    }

    /// Records that the whole store was replaced.
    pub fn replaced(&mut self) {
        self.whole = true;
        self.keys.clear();
    }

    /// The keys recorded (`None`: the whole store), and a fresh record.
    pub fn take(&mut self) -> Option<BTreeSet<Box<str>>> {
        let whole = std::mem::take(&mut self.whole);
        let keys = std::mem::take(&mut self.keys);
        (!whole).then_some(keys)
    }
}

/// What a store changed since its last drain, read with the drain (under one lock: exactly
/// the store's state then).
#[derive(Debug, Clone, PartialEq)]
pub enum Drained<T> {
    /// Each key changed, in key order, with its object now (`None`: gone).
    Keys(Vec<(Box<str>, Option<T>)>),
    /// Replaced as a whole: read every object instead.
    Whole,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_kept_once_until_taken_and_a_replacement_drops_them() {
        let mut t = Touched::default();
        t.key("b");
        t.key("a");
        t.key("b");
        let keys: Vec<_> = t.take().unwrap_or_default().into_iter().collect();
        assert_eq!(keys, vec![Box::from("a"), Box::from("b")]);
        assert_eq!(t.take(), Some(BTreeSet::new()), "taking starts afresh");
        t.key("a");
        t.replaced();
        t.key("c");
        assert_eq!(t.take(), None);
        assert_eq!(t.take(), Some(BTreeSet::new()));
    }

    #[test]
    fn too_many_keys_make_a_replacement() {
        let mut t = Touched::default();
        for i in 0..=MAX_CHANGES {
            t.key(&format!("k{i}"));
        }
        assert_eq!(t.take(), None);
    }
}
