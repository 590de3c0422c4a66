//! A gang-heavy variant of a generated cluster, for the gang and lint benchmarks and the
//! analysis identity test: racks of 16 nodes under `ome.io/rack`, a PodGroup per gang, gang
//! pods on the OME scheduler, and every fifth gang's pods unbound (Pending) so that pins are
//! predicted.
//!
//! Owns: `make_gang_heavy`. Deterministic; no I/O and no clock.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::model::{ClusterSnapshot, Labels, Name, PodGroup, PodPhase};

/// Nodes per rack (`ome.io/rack` value `rack-{node / 16}`).
pub const RACK_SIZE: usize = 16;

/// Turns `snap` gang-heavy (see the module doc). Gangs are numbered in `(namespace, group)`
/// order; gang `n` with `n % 5 == 0` has all its pods unbound and Pending.
pub fn make_gang_heavy(snap: &mut ClusterSnapshot) {
    for (i, node) in snap.nodes.iter_mut().enumerate() {
        let mut pairs = node.labels.0.clone();
        pairs.push((
            Arc::from("ome.io/rack"),
            Arc::from(format!("rack-{}", i / RACK_SIZE)),
        ));
        node.labels = Labels::from_pairs(pairs);
    }
    let mut groups: BTreeMap<(Name, Name), i64> = BTreeMap::new();
    for pod in &snap.pods {
        if let Some(g) = &pod.ome.pod_group {
            *groups
                .entry((pod.namespace.clone(), g.clone()))
                .or_default() += 1;
        }
    }
    for (n, ((ns, name), members)) in groups.iter().enumerate() {
        let mut annotations = BTreeMap::new();
        annotations.insert(Arc::from("ome.io/topology-key"), "ome.io/rack".to_string());
        snap.pod_groups.push(PodGroup {
            namespace: ns.clone(),
            name: name.clone(),
            uid: Arc::from(format!("uid-pg-{n}")),
            min_member: Some(*members),
            min_member_unreadable: None,
            schedule_timeout_seconds: Some(600),
            annotations,
            labels: Labels::default(),
        });
    }
    let order: BTreeMap<(Name, Name), usize> = groups
        .keys()
        .cloned()
        .enumerate()
        .map(|(i, k)| (k, i))
        .collect();
    let scheduler: Name = Arc::from("ome-scheduler");
    for pod in &mut snap.pods {
        let Some(g) = pod.ome.pod_group.clone() else {
            continue;
        };
        pod.scheduler_name = scheduler.clone();
        if order
            .get(&(pod.namespace.clone(), g))
            .is_some_and(|n| n % 5 == 0)
        {
            pod.node = None;
            pod.phase = PodPhase::Pending;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::cluster::{generate_cluster, ClusterSpec};
    use chrono::{TimeZone, Utc};

    #[test]
    fn every_gang_gets_a_podgroup_and_every_fifth_is_unbound() {
        let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap();
        let spec = ClusterSpec {
            seed: 3,
            nodes: 64,
            pods: 600,
        };
        let mut snap = generate_cluster(&spec, now);
        make_gang_heavy(&mut snap);
        assert!(!snap.pod_groups.is_empty());
        assert_eq!(snap.nodes[17].labels.get("ome.io/rack"), Some("rack-1"));
        let first = &snap.pod_groups[0];
        let members: Vec<_> = snap
            .pods
            .iter()
            .filter(|p| {
                p.namespace == first.namespace && p.ome.pod_group == Some(first.name.clone())
            })
            .collect();
        assert_eq!(first.min_member, Some(members.len() as i64));
        assert!(members
            .iter()
            .all(|p| p.node.is_none() && p.phase == PodPhase::Pending));
        assert!(members
            .iter()
            .all(|p| p.scheduler_name.as_ref() == "ome-scheduler"));
    }
}
