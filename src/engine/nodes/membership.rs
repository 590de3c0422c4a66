//! Which GPU pool each node belongs to, resolved once per analysis from the node states: the
//! pool keys in name order (the order of the pool reports), each pool's nodes, and each
//! node's pool as a small integer, so later stages compare integers instead of pool strings.
//!
//! Owns: `PoolMembership`. Pure.

use std::collections::BTreeSet;

use crate::engine::fast::{ByAddress, LastAnswer};
use crate::engine::nodes::NodeState;

/// Pools of one set of node states.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PoolMembership<'a> {
    /// Pool keys sorted by name.
    pub names: Vec<&'a str>,
    /// Node indices of each pool (aligned with `names`), ascending.
    pub nodes: Vec<Vec<usize>>,
    /// Pool of each node (index into `names`), aligned with the states.
    of_node: Vec<Option<usize>>,
}

impl<'a> PoolMembership<'a> {
    /// Groups the nodes of `states` by pool key.
    pub fn new(states: &'a [NodeState]) -> Self {
        // The nodes of a pool share its key's text in a live snapshot and come in runs (node
        // name order): a key equal by address to the previous node's is not looked up again.
        let mut distinct: BTreeSet<&'a str> = BTreeSet::new();
        let mut last = LastAnswer::default();
        for key in states.iter().filter_map(|s| s.pool.as_ref()) {
            last.get(ByAddress(key), || {
                distinct.insert(key);
            });
        }
        let names: Vec<&'a str> = distinct.into_iter().collect();
        let mut nodes = vec![Vec::new(); names.len()];
        let mut of_node = Vec::with_capacity(states.len());
        let mut last = LastAnswer::default();
        for (i, s) in states.iter().enumerate() {
            let pool = s.pool.as_ref().and_then(|key| {
                last.get(ByAddress(key), || names.binary_search(&key.as_ref()).ok())
            });
            if let Some(k) = pool {
                nodes[k].push(i);
            }
            of_node.push(pool);
        }
        PoolMembership {
            names,
            nodes,
            of_node,
        }
    }

    /// The pool of node `node`.
    pub fn of_node(&self, node: usize) -> Option<usize> {
        self.of_node.get(node).copied().flatten()
    }

    /// Number of pools.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there is no pool.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nodes::health::HealthState;

    fn state(pool: Option<&str>) -> NodeState {
        NodeState {
            pool: pool.map(Into::into),
            health: HealthState::Clear,
            maintenance: Vec::new(),
            cordoned: false,
            to_be_deleted: false,
            preemptible: false,
            excluded_as_target: false,
            total: 8,
            allocated: 0,
            free: 8,
            ome_occupants: 0,
            reconciled: false,
        }
    }

    #[test]
    fn pools_in_name_order_with_their_nodes() {
        let states = vec![
            state(Some("H100")),
            state(None),
            state(Some("A100")),
            state(Some("H100")),
        ];
        let m = PoolMembership::new(&states);
        assert_eq!(m.names, vec!["A100", "H100"]);
        assert_eq!(m.nodes, vec![vec![2], vec![0, 3]]);
        let got: Vec<Option<usize>> = (0..5).map(|n| m.of_node(n)).collect();
        assert_eq!(got, vec![Some(1), None, Some(0), Some(1), None]);
        assert_eq!(m.len(), 2);
        assert!(!m.is_empty());
        assert!(PoolMembership::new(&[]).is_empty());
    }
}
