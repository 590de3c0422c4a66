//! The changes that turn one snapshot into another, as watch events would have said them:
//! what the live snapshot task hands the incremental analysis when the stores moved on. Pods
//! and nodes are walked together in key order (both snapshots hold them sorted, as every
//! store and `ClusterSnapshot` edit keeps them; checked, not assumed); an unchanged pod is the same allocation the
//! store handed out before, so most compares read no field. A change outside pods, nodes and
//! Events, or more changes than a full analysis costs, is one `Change::Snapshot`.
//!
//! Owns: `changes_between`, `changes_in`, `Changed`, `MAX_CHANGES`. Pure.

use std::cmp::Ordering;

use crate::engine::analysis::incremental::Change;
use crate::engine::fast::{same_shared, PodKey};
use crate::engine::model::ClusterSnapshot;

/// More changes than this at once (a relist, a rollout, a burst of pods turning Running) make
/// one full analysis instead. Each change re-runs its parts: a cheap one (a readiness flip)
/// costs about 1/64 of the whole pass, one that moves a pool's profile re-scores that pool's
/// rows and costs a tenth of it or more. Past this many, the whole pass is the cheaper one,
/// and a burst cannot queue a batch that takes seconds behind the next.
pub const MAX_CHANGES: usize = 64;

/// Which parts of a snapshot may differ from the one analysed last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Changed {
    /// Pods.
    pub pods: bool,
    /// Nodes.
    pub nodes: bool,
    /// Events.
    pub events: bool,
}

/// The changes that, applied in order by `Incremental::apply` to `old`, leave `new`. Invariant:
/// `old` edited by each returned change equals `new` (the property test in
/// tests/engine/incremental checks it, and the analysis after them against the full one).
pub fn changes_between(old: &ClusterSnapshot, new: &ClusterSnapshot) -> Vec<Change> {
    if !same_outside_pods_nodes_events(old, new) {
        return vec![Change::Snapshot(Box::new(new.clone()))];
    }
    let all = Changed {
        pods: true,
        nodes: true,
        events: true,
    };
    changes_in(old, new, all)
}

/// `changes_between` for snapshots known to be equal outside the parts `changed` names (the
/// live stores count their changes, `cluster::live::sources::ChangeCounts`): those parts
/// alone are walked, so a batch of pod events reads neither the nodes nor the workloads.
pub fn changes_in(old: &ClusterSnapshot, new: &ClusterSnapshot, changed: Changed) -> Vec<Change> {
    let whole = || vec![Change::Snapshot(Box::new(new.clone()))];
    let nodes_sorted = |s: &ClusterSnapshot| s.nodes.windows(2).all(|w| w[0].name < w[1].name);
    if changed.nodes && !(nodes_sorted(old) && nodes_sorted(new)) {
        return whole();
    }
    if changed.pods && !(pods_in_key_order(old) && pods_in_key_order(new)) {
        return whole();
    }
    let mut changes = Vec::new();
    if changed.nodes && !node_changes(old, new, &mut changes) {
        return whole();
    }
    if changed.pods && !pod_changes(old, new, &mut changes) {
        return whole();
    }
    if changed.events && old.events != new.events {
        changes.push(Change::Events(Vec::clone(&new.events)));
    }
    changes
}

/// Whether everything but pods, nodes and Events is equal.
fn same_outside_pods_nodes_events(old: &ClusterSnapshot, new: &ClusterSnapshot) -> bool {
    old.isvcs == new.isvcs
        && old.replicas == new.replicas
        && old.replicas_listed == new.replicas_listed
        && old.pod_groups == new.pod_groups
        && old.config_maps == new.config_maps
        && old.models == new.models
        && old.models_listed == new.models_listed
        && old.volume_claims == new.volume_claims
}

/// Whether the pods are in strictly increasing key order (what the walk needs; a snapshot
/// not so kept gets a full analysis instead of a wrong walk).
fn pods_in_key_order(snap: &ClusterSnapshot) -> bool {
    let pods = snap.pods.shared();
    pods.windows(2)
        .all(|w| PodKey::of(&w[0]) < PodKey::of(&w[1]))
}

/// Node changes in name order; `false` when there are more than `MAX_CHANGES`.
fn node_changes(old: &ClusterSnapshot, new: &ClusterSnapshot, out: &mut Vec<Change>) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < old.nodes.len() || j < new.nodes.len() {
        let order = match (old.nodes.get(i), new.nodes.get(j)) {
            (Some(a), Some(b)) => a.name.cmp(&b.name),
            (Some(_), None) => Ordering::Less,
            (None, _) => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                out.push(Change::NodeDeleted(old.nodes[i].name.clone()));
                i += 1;
            }
            Ordering::Greater => {
                out.push(Change::Node(new.nodes[j].clone()));
                j += 1;
            }
            Ordering::Equal => {
                if old.nodes[i] != new.nodes[j] {
                    out.push(Change::Node(new.nodes[j].clone()));
                }
                i += 1;
                j += 1;
            }
        }
        if out.len() > MAX_CHANGES {
            return false;
        }
    }
    true
}

/// Pod changes in `namespace/name` order; `false` when there are more than `MAX_CHANGES`.
fn pod_changes(old: &ClusterSnapshot, new: &ClusterSnapshot, out: &mut Vec<Change>) -> bool {
    let (a, b) = (old.pods.shared(), new.pods.shared());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let order = match (a.get(i), b.get(j)) {
            (Some(p), Some(q)) => PodKey::of(p).cmp(&PodKey::of(q)),
            (Some(_), None) => Ordering::Less,
            (None, _) => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                out.push(Change::PodDeleted {
                    namespace: a[i].namespace.clone(),
                    name: a[i].name.clone(),
                });
                i += 1;
            }
            Ordering::Greater => {
                out.push(Change::Pod(b[j].clone()));
                j += 1;
            }
            Ordering::Equal => {
                if !same_shared(&a[i], &b[j]) {
                    out.push(Change::Pod(b[j].clone()));
                }
                i += 1;
                j += 1;
            }
        }
        if out.len() > MAX_CHANGES {
            return false;
        }
    }
    true
}
