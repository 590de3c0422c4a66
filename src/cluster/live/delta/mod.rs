//! What the snapshot task analyses per batch: the keys the stores changed since its last
//! drain, turned into the incremental analysis' changes straight from the stores (the pods'
//! `Arc`s, the nodes, the Events), without building, walking or copying a whole snapshot.
//! InferenceServices are changes too (the engine re-runs a service changed in place and
//! analyses the whole for one added, removed or reshaped). Anything the engine cannot take
//! one object at a time (replicas, PodGroups, ConfigMaps, models, claims, a relist, more than
//! `MAX_CHANGES` keys) is the whole snapshot instead, read and drained in one go.
//!
//! Why the changes are exact without change counts: each source is drained under the lock
//! its watcher takes for every event, so a drain returns that source's state at one instant
//! and starts a fresh record there; a change landing after it waits for the next batch.
//! Every source the analysed snapshot holds is then the state of its own last drain (or of
//! the whole snapshot's read), which the next drain's keys update.
//!
//! Owns: `Delta`, `Stores::take_delta`, `Stores::others_changed`, `is_news`.

use std::sync::Arc;

use crate::cluster::live::store::Drained;
use crate::cluster::live::stores::Stores;
use crate::engine::analysis::{Change, MAX_CHANGES};
use crate::engine::fast::{same_shared, PodKey};
use crate::engine::model::{ClusterSnapshot, InferenceService, Name, Node, Pod};

/// What changed in the stores since the snapshot task's last drain.
#[derive(Debug)]
pub enum Delta {
    /// Only pods, nodes, InferenceServices or Events changed: applied in order to the snapshot analysed last
    /// (the state of the last drain), these give the stores' state at this drain.
    Changes(Vec<Change>),
    /// Something else changed: every store's objects (`Stores::take_snapshot`).
    Whole(Box<ClusterSnapshot>),
}

impl Delta {
    /// The changes `last` does not already hold (a key touched and put back, a node resent
    /// unchanged, Events equal to the analysed ones): each would re-run parts for nothing.
    pub fn news(self, last: &ClusterSnapshot) -> Delta {
        match self {
            Delta::Changes(mut changes) => {
                changes.retain(|c| is_news(last, c));
                Delta::Changes(changes)
            }
            whole => whole,
        }
    }
}

impl Stores {
    /// Whether a source besides pods, nodes, InferenceServices and Events changed since the
    /// last drain.
    pub fn others_changed(&self) -> bool {
        self.replicas.changed_since_drain()
            || self.pod_groups.changed_since_drain()
            || self.named.iter().any(|s| s.changed_since_drain())
            || self.audit.changed_since_drain()
            || self.models.changed_since_drain()
            || self.cluster_models.changed_since_drain()
            || self.volume_claims.changed_since_drain()
    }

    /// Drains what changed since the last drain: changes of pods, nodes, InferenceServices
    /// and Events, or the
    /// whole snapshot when anything else changed. Either way the stores' record of changes
    /// starts afresh from what is returned.
    pub fn take_delta(&self) -> Delta {
        let whole = || Delta::Whole(Box::new(self.take_snapshot()));
        if self.others_changed() {
            return whole();
        }
        let Drained::Keys(nodes) = self.nodes.drain() else {
            return whole();
        };
        let Drained::Keys(pods) = self.pods.drain() else {
            return whole();
        };
        let Drained::Keys(isvcs) = self.isvcs.drain() else {
            return whole();
        };
        let count = nodes.len() + pods.len() + isvcs.len();
        if count > MAX_CHANGES {
            return whole();
        }
        let mut changes = Vec::with_capacity(count + 1);
        changes.extend(nodes.into_iter().map(node_change));
        // Services before pods: a pod's routing reads its service as the stores hold it.
        changes.extend(isvcs.into_iter().map(isvc_change));
        changes.extend(pods.into_iter().map(pod_change));
        if self.node_events.changed_since_drain() || self.pod_events.changed_since_drain() {
            // The engine takes Events as a whole; both sources are read as they are now.
            let mut events = Vec::new();
            self.node_events.drain_all(&mut events);
            self.pod_events.drain_all(&mut events);
            changes.push(Change::Events(events));
        }
        Delta::Changes(changes)
    }
}

/// A node key's change: the node, or its deletion.
fn node_change((key, node): (Box<str>, Option<Node>)) -> Change {
    match node {
        Some(node) => Change::Node(node),
        None => Change::NodeDeleted(Name::from(key)),
    }
}

/// A pod key's (`namespace/name`) change: the store's pod, or its deletion.
fn pod_change((key, pod): (Box<str>, Option<Arc<Pod>>)) -> Change {
    match pod {
        Some(pod) => Change::Pod(pod),
        None => {
            let (namespace, name) = split_key(&key);
            Change::PodDeleted { namespace, name }
        }
    }
}

/// An InferenceService key's (`namespace/name`) change: the service, or its deletion.
fn isvc_change((key, isvc): (Box<str>, Option<InferenceService>)) -> Change {
    match isvc {
        Some(isvc) => Change::Isvc(Box::new(isvc)),
        None => {
            let (namespace, name) = split_key(&key);
            Change::IsvcDeleted { namespace, name }
        }
    }
}

/// A `namespace/name` key's two names. Names and namespaces hold no '/': the first one
/// splits the key (an object without a namespace is keyed by its name alone).
fn split_key(key: &str) -> (Name, Name) {
    let (namespace, name) = key.split_once('/').unwrap_or(("", key));
    (Name::from(namespace), Name::from(name))
}

/// Whether `change` would change `last` (a deletion of a key it does not hold, an object
/// equal to the one it holds, would not).
pub fn is_news(last: &ClusterSnapshot, change: &Change) -> bool {
    match change {
        Change::Pod(pod) => {
            held_pod(last, &pod.namespace, &pod.name).is_none_or(|old| !same_shared(old, pod))
        }
        Change::PodDeleted { namespace, name } => held_pod(last, namespace, name).is_some(),
        Change::Node(node) => held_node(last, &node.name).is_none_or(|old| old != node),
        Change::NodeDeleted(name) => held_node(last, name).is_some(),
        Change::Isvc(isvc) => {
            held_isvc(last, isvc.namespace(), isvc.name()).is_none_or(|old| old != &**isvc)
        }
        Change::IsvcDeleted { namespace, name } => held_isvc(last, namespace, name).is_some(),
        Change::Events(events) => *last.events != *events,
        Change::Snapshot(_) => true,
    }
}

/// The pod `namespace/name` of `snap` (pods are in key order: `ClusterSnapshot`'s edits and
/// the stores keep them so).
fn held_pod<'a>(snap: &'a ClusterSnapshot, namespace: &str, name: &str) -> Option<&'a Arc<Pod>> {
    let key = PodKey::of_names(namespace, name);
    let pods = snap.pods.shared();
    let at = pods.partition_point(|p| PodKey::of(p) < key);
    pods.get(at).filter(|p| PodKey::of(p) == key)
}

/// The InferenceService `namespace/name` of `snap` (services are in joined-key order, as
/// `ClusterSnapshot::upsert_isvc` keeps them).
fn held_isvc<'a>(
    snap: &'a ClusterSnapshot,
    namespace: &str,
    name: &str,
) -> Option<&'a InferenceService> {
    let at = snap.isvc_position(namespace, name).ok()?;
    snap.isvcs.get(at)
}

/// The node `name` of `snap` (nodes are in name order).
fn held_node<'a>(snap: &'a ClusterSnapshot, name: &str) -> Option<&'a Node> {
    let at = snap.nodes.partition_point(|n| n.name.as_ref() < name);
    snap.nodes.get(at).filter(|n| n.name.as_ref() == name)
}

#[cfg(test)]
pub mod testkit;
#[cfg(test)]
mod tests;
