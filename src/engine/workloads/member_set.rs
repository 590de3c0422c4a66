//! The set of pod identities `(incarnation, runner code, ordinal)` seen in one OMENative
//! Instance (`inferencereplica.md` §5.3 steps 10–11). An Instance has one or a few pods, so
//! the set keeps them inline and only spills to a hash set for large Instances: building
//! 10,000 Instances then allocates nothing.
//!
//! Owns: `MemberSet`, `MemberKey`. Pure.

use rustc_hash::FxHashSet as HashSet;

/// `(incarnation, runner code, pod ordinal)` of one pod.
pub type MemberKey = (i64, u8, i64);

/// Members kept inline before spilling to the hash set.
const INLINE: usize = 4;

/// A set of member identities (insertion reports duplicates like `HashSet::insert`).
#[derive(Debug, Clone, Default)]
pub struct MemberSet {
    inline: [MemberKey; INLINE],
    len: usize,
    spilled: HashSet<MemberKey>,
}

impl MemberSet {
    /// Adds `key`; `false` when it was already present.
    pub fn insert(&mut self, key: MemberKey) -> bool {
        if self.spilled.is_empty() {
            if self.inline[..self.len].contains(&key) {
                return false;
            }
            if self.len < INLINE {
                self.inline[self.len] = key;
                self.len += 1;
                return true;
            }
            self.spilled.extend(self.inline.iter().copied());
            self.len = 0;
        }
        self.spilled.insert(key)
    }

    /// Number of distinct members.
    pub fn len(&self) -> usize {
        self.len + self.spilled.len()
    }

    #[cfg(test)]
    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every member, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &MemberKey> {
        self.inline[..self.len].iter().chain(self.spilled.iter())
    }

    /// Whether the set equals the set of `expected_len` distinct keys that `expected` accepts.
    pub fn equals(&self, expected_len: i64, expected: impl Fn(&MemberKey) -> bool) -> bool {
        self.len() as i64 == expected_len && self.iter().all(expected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_hash_set_across_the_spill() {
        let mut set = MemberSet::default();
        let mut reference: HashSet<MemberKey> = HashSet::default();
        let keys: Vec<MemberKey> = (0..40).map(|i| (i % 3, (i % 2) as u8, i % 13)).collect();
        for k in keys {
            assert_eq!(set.insert(k), reference.insert(k), "{k:?}");
            assert_eq!(set.len(), reference.len());
        }
        let mut got: Vec<MemberKey> = set.iter().copied().collect();
        let mut want: Vec<MemberKey> = reference.into_iter().collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
        assert!(!set.is_empty());
        assert!(MemberSet::default().is_empty());
    }

    #[test]
    fn equals_checks_size_and_membership() {
        let mut set = MemberSet::default();
        set.insert((1, 1, 0));
        set.insert((1, 2, 0));
        assert!(set.equals(2, |k| k.0 == 1));
        assert!(!set.equals(3, |k| k.0 == 1), "a member is missing");
        assert!(!set.equals(2, |k| k.1 == 1), "an unexpected member");
    }
}
