//! Node name → index into `snap.nodes`, looked up once per pod by the gang and lint engines.
//! The converter interns names, so a pod's `spec.nodeName` is usually the very `Arc` of its
//! node's name: the index first tries the pointer (one multiply to hash, no string compare),
//! then the string. Two live `Arc`s at one address are the same allocation, so a pointer hit
//! is always the right node.
//!
//! Owns: `NodeIndex`. Pure; must not import anything outside `std` and `engine`.

use std::sync::Arc;

use crate::engine::model::{ClusterSnapshot, Name};
use rustc_hash::FxHashMap as FastMap;

/// Node lookup by name (see the module doc).
#[derive(Debug, Default)]
pub struct NodeIndex<'a> {
    by_ptr: FastMap<usize, usize>,
    by_name: FastMap<&'a str, usize>,
}

fn address(name: &Name) -> usize {
    Arc::as_ptr(name).cast::<u8>() as usize
}

impl<'a> NodeIndex<'a> {
    /// Indexes `snap.nodes` (a duplicate name keeps the last node, as a map would).
    pub fn new(snap: &'a ClusterSnapshot) -> Self {
        let n = snap.nodes.len();
        let mut index = NodeIndex {
            by_ptr: FastMap::with_capacity_and_hasher(n, Default::default()),
            by_name: FastMap::with_capacity_and_hasher(n, Default::default()),
        };
        for (i, node) in snap.nodes.iter().enumerate() {
            index.by_ptr.insert(address(&node.name), i);
            index.by_name.insert(node.name.as_ref(), i);
        }
        index
    }

    /// The index of the node named `name`.
    pub fn get(&self, name: &Name) -> Option<usize> {
        self.by_ptr
            .get(&address(name))
            .or_else(|| self.by_name.get(name.as_ref()))
            .copied()
    }

    /// The index of the node `name` (string lookup only).
    pub fn get_str(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testkit;

    #[test]
    fn finds_nodes_by_shared_arc_and_by_equal_string() {
        let snap = ClusterSnapshot {
            nodes: vec![testkit::node("a", 8), testkit::node("b", 8)],
            ..Default::default()
        };
        let index = NodeIndex::new(&snap);
        assert_eq!(index.get(&snap.nodes[1].name), Some(1));
        assert_eq!(index.get(&Arc::from("a")), Some(0));
        assert_eq!(index.get(&Arc::from("c")), None);
        assert_eq!(index.get_str("b"), Some(1));
    }
}
