//! Text → position lookups that try the text's address first: node name → node (once per pod
//! when the analysis resolves its pods) and owner UID → InferenceReplica. Converters intern
//! names, so a pod's `spec.nodeName` is usually the very allocation of its node's name; after
//! an interner renewal, or in a hand-built snapshot, it may be a copy. A small open-addressing
//! table of `(address, length)` answers the first case with a multiply and a load or two; a
//! miss falls back to the text and then remembers the address, so a text is hashed about once
//! per distinct allocation, not once per lookup. Keys borrow their texts for the index's
//! lifetime, so an address in the table always names the text it was stored for.
//!
//! Owns: `TextIndex`, `NameRanks`. Pure.

use std::cell::OnceCell;

use rustc_hash::FxHashMap as FastMap;

use crate::engine::fast::name_order::name_order;

/// An empty slot of the address table (no text lives at address 0).
const EMPTY: usize = 0;
/// Position of a remembered address whose text is no key.
const ABSENT: u32 = u32::MAX;

/// Texts with their byte-order ranks: `order` lists positions in text order (ties by
/// position), equal texts share a rank, and comparing ranks compares texts. Built only from
/// the texts themselves, so the ranks always belong to these keys.
#[derive(Debug, Clone)]
pub struct NameRanks<'a> {
    keys: Vec<&'a str>,
    order: Vec<usize>,
    rank: Vec<u32>,
}

impl<'a> NameRanks<'a> {
    /// Ranks `keys` (their positions are the positions the ranks and the order refer to).
    pub fn new(keys: Vec<&'a str>) -> Self {
        let order = name_order(&keys);
        let mut rank = vec![0u32; keys.len()];
        let mut r = 0u32;
        for (k, &at) in order.iter().enumerate() {
            if k > 0 && keys[order[k - 1]] != keys[at] {
                r += 1;
            }
            rank[at] = r;
        }
        NameRanks { keys, order, rank }
    }

    /// Positions in text order, ties by position.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Each position's rank (aligned with the keys).
    pub fn ranks(&self) -> &[u32] {
        &self.rank
    }

    /// The order and the ranks, giving the ranked texts up.
    pub fn into_parts(self) -> (Vec<usize>, Vec<u32>) {
        (self.order, self.rank)
    }
}

/// Position lookup by text, address first (see the module doc). A repeated text answers its
/// last position, as a text → position map would.
#[derive(Debug, Default)]
pub struct TextIndex<'a> {
    /// `(address, length, position or ABSENT)`, open addressing with linear probing; a power
    /// of two long, at most half full.
    slots: Vec<(usize, usize, u32)>,
    /// Occupied slots.
    used: usize,
    /// `64 − log2(slots.len())`: the hash keeps the top bits of the product.
    shift: u32,
    keys: Vec<&'a str>,
    /// Text → last position, built on the first lookup the addresses cannot answer.
    by_text: OnceCell<FastMap<&'a str, u32>>,
}

fn texts_of<'a>(keys: &[&'a str]) -> FastMap<&'a str, u32> {
    let mut by_text: FastMap<&str, u32> =
        FastMap::with_capacity_and_hasher(keys.len(), Default::default());
    for (i, key) in keys.iter().enumerate() {
        by_text.insert(key, i as u32);
    }
    by_text
}

impl<'a> TextIndex<'a> {
    /// Indexes `keys`, hashing each text once to find each text's last position.
    pub fn new(keys: Vec<&'a str>) -> Self {
        let by_text = texts_of(&keys);
        let last: Vec<u32> = keys
            .iter()
            .map(|k| by_text.get(k).copied().unwrap_or(ABSENT))
            .collect();
        let index = Self::with_last(keys, &last);
        let _ = index.by_text.set(by_text);
        index
    }

    /// Indexes ranked texts: equal texts share a rank, so the last position of each text is
    /// found without hashing one.
    pub fn ranked(ranks: &NameRanks<'a>) -> Self {
        let mut last_of_rank = vec![0u32; ranks.keys.len()];
        for (i, &r) in ranks.rank.iter().enumerate() {
            if let Some(slot) = last_of_rank.get_mut(r as usize) {
                *slot = i as u32;
            }
        }
        let last: Vec<u32> = ranks
            .rank
            .iter()
            .map(|&r| last_of_rank.get(r as usize).copied().unwrap_or(ABSENT))
            .collect();
        Self::with_last(ranks.keys.clone(), &last)
    }

    /// The address table, each key's address pointing at `last[i]`.
    fn with_last(keys: Vec<&'a str>, last: &[u32]) -> Self {
        let len = (2 * keys.len()).next_power_of_two().max(16);
        let mut index = TextIndex {
            slots: vec![(EMPTY, 0, 0); len],
            used: 0,
            shift: 64 - len.trailing_zeros(),
            keys: Vec::new(),
            by_text: OnceCell::new(),
        };
        for (key, &at) in keys.iter().zip(last) {
            index.insert(key, at);
        }
        index.keys = keys;
        index
    }

    #[inline]
    fn slot_of(&self, addr: usize) -> usize {
        ((addr as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn insert(&mut self, key: &str, at: u32) {
        if 2 * (self.used + 1) > self.slots.len() {
            self.grow();
        }
        let (addr, len) = (key.as_ptr() as usize, key.len());
        let mask = self.slots.len() - 1;
        let mut s = self.slot_of(addr);
        loop {
            match self.slots.get_mut(s) {
                Some(slot) if slot.0 == EMPTY || (slot.0 == addr && slot.1 == len) => {
                    self.used += usize::from(slot.0 == EMPTY);
                    *slot = (addr, len, at);
                    return;
                }
                Some(_) => s = (s + 1) & mask,
                None => return,
            }
        }
    }

    /// Doubles the table (rehashing every remembered address).
    fn grow(&mut self) {
        let len = (2 * self.slots.len()).max(16);
        let old = std::mem::replace(&mut self.slots, vec![(EMPTY, 0, 0); len]);
        self.shift = 64 - len.trailing_zeros();
        self.used = 0;
        for (addr, klen, at) in old.into_iter().filter(|s| s.0 != EMPTY) {
            // Re-inserting by address alone: the text is not needed to place a slot.
            let mask = self.slots.len() - 1;
            let mut s = self.slot_of(addr);
            while self.slots.get(s).is_some_and(|slot| slot.0 != EMPTY) {
                s = (s + 1) & mask;
            }
            if let Some(slot) = self.slots.get_mut(s) {
                *slot = (addr, klen, at);
                self.used += 1;
            }
        }
    }

    #[inline]
    fn by_address(&self, key: &str) -> Option<u32> {
        let (addr, len) = (key.as_ptr() as usize, key.len());
        let mask = self.slots.len().checked_sub(1)?;
        let mut s = self.slot_of(addr);
        loop {
            let (a, l, at) = *self.slots.get(s)?;
            if a == addr && l == len {
                return Some(at);
            }
            if a == EMPTY {
                return None;
            }
            s = (s + 1) & mask;
        }
    }

    /// The last position of `key`'s text; remembers `key`'s address for the next lookup.
    #[inline]
    pub fn get(&mut self, key: &'a str) -> Option<usize> {
        let at = match self.by_address(key) {
            Some(at) => at,
            None => {
                let at = self.get_text(key).map_or(ABSENT, |i| i as u32);
                self.insert(key, at);
                at
            }
        };
        (at != ABSENT).then_some(at as usize)
    }

    /// The last position of `key`'s text, by text only.
    #[cold]
    pub fn get_text(&self, key: &str) -> Option<usize> {
        let by_text = self.by_text.get_or_init(|| texts_of(&self.keys));
        by_text.get(key).copied().map(|i| i as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// The plain implementation: a text → last position map.
    fn reference<'k>(keys: &[&'k str]) -> HashMap<&'k str, usize> {
        keys.iter().enumerate().map(|(i, k)| (*k, i)).collect()
    }

    #[test]
    fn a_prefix_at_the_same_address_is_another_text() {
        let whole = String::from("gpu-h100");
        let mut index = TextIndex::new(vec![&whole[..3], &whole[..]]);
        assert_eq!(index.get(&whole[..]), Some(1));
        assert_eq!(index.get(&whole[..3]), Some(0));
        assert_eq!(index.get(&whole[..4]), None);
    }

    #[test]
    fn ranks_follow_byte_order_and_equal_texts_share_one() {
        let ranks = NameRanks::new(vec!["b", "a", "c", "a"]);
        assert_eq!(ranks.ranks(), &[1, 0, 2, 0]);
        assert_eq!(ranks.order(), &[1, 3, 0, 2]);
    }

    proptest! {
        /// Both constructions answer what a text map answers, for the keys' own texts, for
        /// copies of them in other allocations (more than the table was sized for, so it
        /// grows) and for absent texts, asked repeatedly and in any order.
        #[test]
        fn lookups_are_the_text_map(
            picks in proptest::collection::vec(0u8..12, 0..60),
            asks in proptest::collection::vec((0u8..16, any::<bool>()), 0..120),
        ) {
            let texts: Vec<String> = picks.iter().map(|p| format!("node-{p:02}")).collect();
            let keys: Vec<&str> = texts.iter().map(String::as_str).collect();
            let copies: Vec<String> = (0..16).map(|p| format!("node-{p:02}")).collect();
            let want = reference(&keys);
            let ranks = NameRanks::new(keys.clone());
            let mut plain = TextIndex::new(keys.clone());
            let mut ranked = TextIndex::ranked(&ranks);
            for (round, &(p, copy)) in asks.iter().enumerate() {
                let key: &str = match (copy, keys.get(usize::from(p))) {
                    (false, Some(k)) => k,
                    _ => &copies[usize::from(p)],
                };
                let expected = want.get(key).copied();
                prop_assert_eq!(plain.get(key), expected, "round {}", round);
                prop_assert_eq!(ranked.get(key), expected, "round {}", round);
                prop_assert_eq!(ranked.get_text(key), expected);
            }
        }

        /// Ranks compare exactly like the texts.
        #[test]
        fn ranks_compare_like_texts(picks in proptest::collection::vec(0u8..12, 0..40)) {
            let texts: Vec<String> = picks.iter().map(|p| format!("n{p}")).collect();
            let keys: Vec<&str> = texts.iter().map(String::as_str).collect();
            let ranks = NameRanks::new(keys.clone());
            for a in 0..keys.len() {
                for b in 0..keys.len() {
                    prop_assert_eq!(ranks.ranks()[a].cmp(&ranks.ranks()[b]), keys[a].cmp(keys[b]));
                }
            }
        }
    }
}
