//! Node name → index into `snap.nodes`, looked up once per pod when the analysis builds its
//! `SnapshotIndex`. Converters intern names (one table per snapshot file, one shared by the
//! live stores), so a pod's `spec.nodeName` is usually the very `Arc` of its node's name; after
//! an interner renewal, or in a hand-built snapshot, a node's pods may share an `Arc` of their
//! own. So the index first tries the pointer in a small open-addressing table (a multiply, a
//! shift and one or two loads), and only then the string — after which it remembers the
//! pointer, so a string is hashed about once per node, not once per pod. Looked-up names
//! borrow from the snapshot for the index's lifetime: two live `Arc`s at one address are the
//! same allocation, so a pointer hit names the right text. A duplicated node name resolves to
//! its last node either way, as a name → index map would.
//!
//! Owns: `NodeIndex`. Pure; must not import anything outside `std` and `engine`.

use std::cell::OnceCell;

use crate::engine::fast::intern::address;
use crate::engine::model::{ClusterSnapshot, Name, Node};
use rustc_hash::FxHashMap as FastMap;

/// An empty slot of the address table (no allocation lives at address 0).
const EMPTY: usize = 0;
/// Node value of a remembered address whose name names no node.
const NO_NODE: u32 = u32::MAX;

/// Node lookup by name (see the module doc).
#[derive(Debug, Default)]
pub struct NodeIndex<'a> {
    /// `(name address, node index or NO_NODE)`, open addressing with linear probing; a power
    /// of two long, at most half full.
    slots: Vec<(usize, u32)>,
    /// Occupied slots.
    used: usize,
    /// `64 − log2(slots.len())`: the hash keeps the top bits of the product.
    shift: u32,
    nodes: &'a [Node],
    /// Name → last node with it, built on the first lookup the addresses cannot answer.
    by_name: OnceCell<FastMap<&'a str, u32>>,
}

fn names_of(nodes: &[Node]) -> FastMap<&str, u32> {
    let mut by_name: FastMap<&str, u32> =
        FastMap::with_capacity_and_hasher(nodes.len(), Default::default());
    for (i, node) in nodes.iter().enumerate() {
        by_name.insert(node.name.as_ref(), i as u32);
    }
    by_name
}

impl<'a> NodeIndex<'a> {
    /// Indexes `snap.nodes` (a duplicate name keeps the last node, as a map would).
    pub fn new(snap: &'a ClusterSnapshot) -> Self {
        let by_name = names_of(&snap.nodes);
        let last: Vec<u32> = snap
            .nodes
            .iter()
            .map(|n| by_name.get(n.name.as_ref()).copied().unwrap_or(0))
            .collect();
        let index = Self::with_last(&snap.nodes, &last);
        let _ = index.by_name.set(by_name);
        index
    }

    /// Indexes `snap.nodes` given each node's name rank (equal names share a rank, as
    /// `SnapshotIndex` ranks them): no name is hashed unless a lookup misses every address.
    pub fn with_ranks(snap: &'a ClusterSnapshot, ranks: &[u32]) -> Self {
        let mut last_of_rank = vec![0u32; snap.nodes.len()];
        for (i, r) in ranks.iter().enumerate() {
            if let Some(slot) = last_of_rank.get_mut(*r as usize) {
                *slot = i as u32;
            }
        }
        let last: Vec<u32> = (0..snap.nodes.len())
            .map(|i| {
                let r = ranks.get(i).copied().unwrap_or(u32::MAX) as usize;
                last_of_rank.get(r).copied().unwrap_or(i as u32)
            })
            .collect();
        Self::with_last(&snap.nodes, &last)
    }

    /// The address table, each node's address pointing at `last[i]`.
    fn with_last(nodes: &'a [Node], last: &[u32]) -> Self {
        // At most half full, so probes stay short.
        let len = (2 * nodes.len()).next_power_of_two().max(16);
        let mut index = NodeIndex {
            slots: vec![(EMPTY, 0); len],
            used: 0,
            shift: 64 - len.trailing_zeros(),
            nodes,
            by_name: OnceCell::new(),
        };
        for (node, &i) in nodes.iter().zip(last) {
            index.insert(address(&node.name), i);
        }
        index
    }

    #[inline]
    fn slot_of(&self, addr: usize) -> usize {
        ((addr as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn insert(&mut self, addr: usize, node: u32) {
        if 2 * (self.used + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut s = self.slot_of(addr);
        loop {
            match self.slots.get_mut(s) {
                Some(slot) if slot.0 == EMPTY || slot.0 == addr => {
                    self.used += usize::from(slot.0 == EMPTY);
                    *slot = (addr, node);
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
        let old = std::mem::replace(&mut self.slots, vec![(EMPTY, 0); len]);
        self.shift = 64 - len.trailing_zeros();
        self.used = 0;
        for (addr, node) in old.into_iter().filter(|(a, _)| *a != EMPTY) {
            self.insert(addr, node);
        }
    }

    #[inline]
    fn by_address(&self, addr: usize) -> Option<u32> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut s = self.slot_of(addr);
        loop {
            let (a, node) = *self.slots.get(s)?;
            if a == addr {
                return Some(node);
            }
            if a == EMPTY {
                return None;
            }
            s = (s + 1) & mask;
        }
    }

    /// The index of the node named `name`; remembers `name`'s address for the next lookup.
    #[inline]
    pub fn get(&mut self, name: &'a Name) -> Option<usize> {
        let addr = address(name);
        let node = match self.by_address(addr) {
            Some(node) => node,
            None => {
                let node = self.get_str(name).map_or(NO_NODE, |i| i as u32);
                self.insert(addr, node);
                node
            }
        };
        (node != NO_NODE).then_some(node as usize)
    }

    /// The index of the node `name` (string lookup only).
    #[cold]
    pub fn get_str(&self, name: &str) -> Option<usize> {
        let by_name = self.by_name.get_or_init(|| names_of(self.nodes));
        by_name.get(name).copied().map(|i| i as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit;
    use std::sync::Arc;

    #[test]
    fn finds_nodes_by_shared_arc_and_by_equal_string() {
        let snap = ClusterSnapshot {
            nodes: vec![testkit::node("a", 8), testkit::node("b", 8)],
            ..Default::default()
        };
        let (a, c) = (Arc::from("a"), Arc::from("c"));
        let mut index = NodeIndex::new(&snap);
        assert_eq!(index.get(&snap.nodes[1].name), Some(1));
        assert_eq!(index.get(&a), Some(0));
        assert_eq!(index.get(&c), None);
        // Remembered addresses answer again, misses included.
        assert_eq!(index.get(&a), Some(0));
        assert_eq!(index.get(&c), None);
        assert_eq!(index.get_str("b"), Some(1));
    }

    #[test]
    fn many_nodes_and_duplicates_resolve_to_the_last_node() {
        let mut nodes: Vec<_> = (0..300)
            .map(|i| testkit::node(&format!("n{i}"), 8))
            .collect();
        nodes.push(testkit::node("n7", 4));
        let snap = ClusterSnapshot {
            nodes,
            ..Default::default()
        };
        let mut index = NodeIndex::new(&snap);
        for (i, n) in snap.nodes.iter().enumerate() {
            let want = if n.name.as_ref() == "n7" { 300 } else { i };
            assert_eq!(index.get(&n.name), Some(want), "{}", n.name);
        }
        let n1: Name = Arc::from("n1");
        assert_eq!(NodeIndex::default().get(&n1), None);
        let ranks: Vec<u32> = {
            let mut names: Vec<&str> = snap.nodes.iter().map(|n| n.name.as_ref()).collect();
            names.sort_unstable();
            names.dedup();
            let rank = |n: &str| names.binary_search(&n).unwrap() as u32;
            snap.nodes.iter().map(|n| rank(&n.name)).collect()
        };
        // Copies at other addresses (a pod store's own interned names): more than the table
        // was sized for, so it grows while remembering them.
        let copies: Vec<Name> = snap
            .nodes
            .iter()
            .chain(&snap.nodes)
            .map(|n| Arc::from(n.name.as_ref()))
            .collect();
        let mut ranked = NodeIndex::with_ranks(&snap, &ranks);
        for round in 0..2 {
            for (n, copy) in snap.nodes.iter().cycle().zip(&copies) {
                assert_eq!(ranked.get(&n.name), index.get(&n.name), "round {round}");
                assert_eq!(ranked.get(copy), index.get(&n.name), "round {round}");
            }
        }
        assert_eq!(ranked.get_str("nope"), None);
    }
}
