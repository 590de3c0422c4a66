//! The topology key a GPU pool's nodes fall into domains by: the node label gangs pin to
//! (gangpack.md §3: a gang's domain is the value of its topology key on the nodes). A pool
//! has one when the cluster's gangs (their PodGroup annotation, else the plugin arg
//! `topologyKey`) or the scheduler's `topologyKey` (the label of standalone packing) name a
//! label that some of the pool's nodes carry.
//!
//! Owns: `pool_topology_key`, `topology_key_among`. Pure.

use crate::engine::gangs::GangReport;
use crate::engine::model::ClusterSnapshot;

/// The topology key of the pool whose nodes are `nodes` (indices into `snap.nodes`): among
/// the topology keys of `gangs`' gangs and the scheduler's `topologyKey`, the one the most of
/// the pool's nodes carry (ties: the key more gangs use, then byte order); `None` when no
/// node of the pool carries any of them.
pub fn pool_topology_key(
    snap: &ClusterSnapshot,
    gangs: &GangReport,
    nodes: &[usize],
) -> Option<String> {
    let keys = gangs.gangs.iter().filter_map(|g| g.topology_key.as_deref());
    topology_key_among(snap, nodes, keys, &gangs.config.gang_pack.topology_key)
}

/// `pool_topology_key` over the gangs' keys `gang_keys` (one per gang, repeats count) and the
/// scheduler's `scheduler_key` (empty = none).
pub fn topology_key_among<'a>(
    snap: &ClusterSnapshot,
    nodes: &[usize],
    gang_keys: impl Iterator<Item = &'a str>,
    scheduler_key: &'a str,
) -> Option<String> {
    // (key, gangs using it): a fleet has a handful of distinct keys.
    let mut keys: Vec<(&str, usize)> = Vec::new();
    for k in gang_keys
        .chain(Some(scheduler_key))
        .filter(|k| !k.is_empty())
    {
        match keys.iter_mut().find(|(seen, _)| *seen == k) {
            Some((_, n)) => *n += 1,
            None => keys.push((k, 1)),
        }
    }
    if let Some(entry) = keys.iter_mut().find(|(k, _)| *k == scheduler_key) {
        // The scheduler's own key is a candidate, not a gang.
        entry.1 -= 1;
    }
    let labelled = |key: &str| {
        nodes
            .iter()
            .filter_map(|n| snap.nodes.get(*n))
            .filter(|n| n.labels.get(key).is_some())
            .count()
    };
    keys.into_iter()
        .map(|(k, gangs)| (labelled(k), gangs, k))
        .filter(|(nodes, _, _)| *nodes > 0)
        .max_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(b.2.cmp(a.2)))
        .map(|(_, _, k)| k.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::node;
    use crate::engine::model::{Labels, Node};
    use std::sync::Arc;

    fn labelled(name: &str, labels: &[(&str, &str)]) -> Node {
        let mut n = node(name, 8);
        let mut pairs = n.labels.0.clone();
        pairs.extend(labels.iter().map(|(k, v)| (Arc::from(*k), Arc::from(*v))));
        n.labels = Labels::from_pairs(pairs);
        n
    }

    fn fleet() -> ClusterSnapshot {
        ClusterSnapshot {
            nodes: vec![
                labelled("a", &[("ome.io/rack", "r1"), ("zone", "z1")]),
                labelled("b", &[("ome.io/rack", "r1"), ("zone", "z1")]),
                labelled("c", &[("zone", "z2")]),
                labelled("d", &[]),
            ]
            .into(),
            ..Default::default()
        }
    }

    #[test]
    fn the_key_most_of_the_pools_nodes_carry_wins() {
        let snap = fleet();
        let all = [0, 1, 2, 3];
        // Three gangs pin by rack, one by zone: zone labels 3 nodes, rack 2.
        let gangs = ["ome.io/rack", "ome.io/rack", "ome.io/rack", "zone"];
        let got = topology_key_among(&snap, &all, gangs.into_iter(), "");
        assert_eq!(got.as_deref(), Some("zone"));
        // Among the nodes a and b both keys label every node: more gangs use the rack.
        let got = topology_key_among(&snap, &[0, 1], gangs.into_iter(), "");
        assert_eq!(got.as_deref(), Some("ome.io/rack"));
        // An equal count of nodes and gangs: byte order.
        let got = topology_key_among(&snap, &[0, 1], ["zone", "ome.io/rack"].into_iter(), "");
        assert_eq!(got.as_deref(), Some("ome.io/rack"));
    }

    #[test]
    fn the_schedulers_key_counts_without_gangs_and_unlabelled_pools_have_none() {
        let snap = fleet();
        let got = topology_key_among(&snap, &[0, 1, 2], std::iter::empty(), "zone");
        assert_eq!(got.as_deref(), Some("zone"));
        // With a gang on the rack and nodes labelled equally, the gang's key wins the tie.
        let got = topology_key_among(&snap, &[0, 1], ["ome.io/rack"].into_iter(), "zone");
        assert_eq!(got.as_deref(), Some("ome.io/rack"));
        // Node d carries neither label; no key at all.
        assert_eq!(
            topology_key_among(&snap, &[3], ["ome.io/rack"].into_iter(), "zone"),
            None
        );
        assert_eq!(
            topology_key_among(&snap, &[0], std::iter::empty(), ""),
            None
        );
    }
}
