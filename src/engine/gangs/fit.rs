//! The OMEGangPack node-fit predicate (gangpack.md §3.3 "Node-fit predicate") over the
//! compact model: cordon, untolerated `NoSchedule`/`NoExecute` taints, `nodeName`, node
//! selector and required node affinity (terms ORed), and every resource the pod requests —
//! CPU, memory, its GPUs, ephemeral storage, hugepages, extended resources (each by name, a
//! resource the node does not list has 0 allocatable) — against what every non-terminal pod
//! bound to the node (any scheduler, terminating pods included) leaves, plus a free pod slot.
//! Requests are the scheduler's effective pod requests (init and sidecar containers, overhead),
//! as the converter computes them. Host ports, volumes, inter-pod affinity and spread are left
//! to the framework's other filters, as the plugin does.
//!
//! Owns: `NodeFree`, `FitContext`, `fits`, `same_fit`; the checks themselves and their order
//! are `fit_check`'s. Pure.

use crate::engine::fast::same_opt;
use crate::engine::gangs::fit_check::{first_refusal, FitCheck};
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, Name, Node, Pod};
use crate::engine::model::{NodeTerm, Toleration};

/// What is left on one node: allocatable minus the requests of its pods (never negative).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodeFree {
    /// Free CPU, millicores (`u64::MAX`-ish when the node reports no CPU allocatable).
    pub cpu_milli: u64,
    /// Free memory, bytes.
    pub memory: u64,
    /// Free pod slots (`allocatable.pods − pods on the node`).
    pub pods: u64,
    /// Requests of every other resource by the node's pods (GPUs included), by name; empty on
    /// a node without such pods.
    pub used: Vec<(Name, u64)>,
}

impl NodeFree {
    /// Free amount of `resource` (anything but CPU, memory and pods) on `node`.
    pub fn of(&self, node: &Node, resource: &str) -> u64 {
        let used = self
            .used
            .iter()
            .find(|(n, _)| n.as_ref() == resource)
            .map_or(0, |(_, u)| *u);
        node.allocatable_of(resource).saturating_sub(used)
    }

    /// Counts `pod`'s requests as placed here (a pod bound, or a member tried on the node).
    pub fn take(&mut self, pod: &Pod) {
        self.cpu_milli = self.cpu_milli.saturating_sub(pod.cpu_milli);
        self.memory = self.memory.saturating_sub(pod.memory);
        self.pods = self.pods.saturating_sub(1);
        for (resource, amount) in pod.scalar_requests() {
            self.add(resource, amount);
        }
    }

    /// Gives `pod`'s requests back (the pod moved away).
    pub fn release(&mut self, pod: &Pod) {
        self.cpu_milli = self.cpu_milli.saturating_add(pod.cpu_milli);
        self.memory = self.memory.saturating_add(pod.memory);
        self.pods = self.pods.saturating_add(1);
        for (resource, amount) in pod.scalar_requests() {
            if let Some((_, u)) = self.used.iter_mut().find(|(n, _)| n == resource) {
                *u = u.saturating_sub(amount);
            }
        }
    }

    fn add(&mut self, resource: &Name, amount: u64) {
        match self.used.iter_mut().find(|(n, _)| n == resource) {
            Some((_, u)) => *u = u.saturating_add(amount),
            None => self.used.push((resource.clone(), amount)),
        }
    }
}

/// The free resources of every node, indexed like `snap.nodes`.
#[derive(Debug)]
pub struct FitContext<'a> {
    /// The snapshot.
    pub snap: &'a ClusterSnapshot,
    /// Free resources per node (same order as `snap.nodes`).
    pub free: Vec<NodeFree>,
}

impl<'a> FitContext<'a> {
    /// Sums the requests of every non-terminal pod bound to a known node. One pass over pods,
    /// their nodes read from `index` (the snapshot's [`SnapshotIndex`]).
    pub fn new(snap: &'a ClusterSnapshot, index: &SnapshotIndex) -> Self {
        let mut free: Vec<NodeFree> = snap
            .nodes
            .iter()
            .map(|n| NodeFree {
                cpu_milli: n.allocatable.cpu_milli,
                memory: n.allocatable.memory,
                pods: n.allocatable.pods,
                used: Vec::new(),
            })
            .collect();
        for (p, pod) in snap.pods.iter().enumerate() {
            if pod.phase.is_terminal() {
                continue;
            }
            let Some(f) = index.node_of(p).and_then(|i| free.get_mut(i)) else {
                continue;
            };
            f.take(pod);
        }
        FitContext { snap, free }
    }

    /// `fits(node, pod)` of gangpack.md §3.3 for node index `n`.
    pub fn fits(&self, n: usize, pod: &Pod) -> bool {
        self.first_refusal(n, pod).is_none()
    }

    /// The first check of `fits` refusing `pod` on node index `n`; `None` = it fits.
    pub fn first_refusal(&self, n: usize, pod: &Pod) -> Option<FitCheck> {
        first_refusal(&self.snap.nodes[n], &self.free[n], pod)
    }
}

/// Whether two pods are interchangeable for the fit predicate (same requests, node name,
/// selector, node affinity and tolerations), so gang templates can be grouped into classes.
pub fn same_fit(a: &Pod, b: &Pod) -> bool {
    fn placement(p: &Pod) -> (&[NodeTerm], &[Toleration]) {
        p.placement
            .as_deref()
            .map(|x| (&x.node_terms[..], &x.tolerations[..]))
            .unwrap_or((&[], &[]))
    }
    a.cpu_milli == b.cpu_milli
        && a.memory == b.memory
        && a.gpus == b.gpus
        && same_opt(a.gpu_resource.as_ref(), b.gpu_resource.as_ref())
        && a.other_requests == b.other_requests
        && same_opt(a.node.as_ref(), b.node.as_ref())
        && a.node_selector == b.node_selector
        && placement(a) == placement(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gangs::fit_check::first_resource_refusal;
    use crate::engine::model::testkit;

    #[test]
    fn free_resources_count_every_bound_non_terminal_pod() {
        let mut snap = ClusterSnapshot {
            nodes: vec![testkit::node("n1", 8)].into(),
            ..Default::default()
        };
        snap.pods.push(testkit::pod("ns", "a", Some("n1"), 3));
        let mut done = testkit::pod("ns", "b", Some("n1"), 4);
        done.phase = crate::engine::model::PodPhase::Succeeded;
        snap.pods.push(done);
        let mut terminating = testkit::pod("ns", "c", Some("n1"), 1);
        terminating.terminating = true;
        snap.pods.push(terminating);
        let index = SnapshotIndex::new(&snap);
        let ctx = FitContext::new(&snap, &index);
        assert_eq!(ctx.free[0].of(&snap.nodes[0], "nvidia.com/gpu"), 4);
        assert!(ctx.fits(0, &testkit::pod("ns", "d", None, 4)));
        assert!(!ctx.fits(0, &testkit::pod("ns", "e", None, 5)));
        snap.nodes[0].unschedulable = true;
        let index = SnapshotIndex::new(&snap);
        let ctx = FitContext::new(&snap, &index);
        assert!(!ctx.fits(0, &testkit::pod("ns", "d", None, 1)));
    }

    #[test]
    fn pod_slots_and_gpu_resource_must_match() {
        let mut node = testkit::node("n1", 8);
        node.allocatable.pods = 1;
        let snap = ClusterSnapshot {
            nodes: vec![node].into(),
            pods: vec![testkit::pod("ns", "a", Some("n1"), 0)].into(),
            ..Default::default()
        };
        let index = SnapshotIndex::new(&snap);
        let ctx = FitContext::new(&snap, &index);
        assert!(!ctx.fits(0, &testkit::pod("ns", "b", None, 0)));
        let mut gaudi = testkit::pod("ns", "g", None, 1);
        gaudi.gpu_resource = Some("habana.ai/gaudi".into());
        assert_eq!(
            first_resource_refusal(
                &NodeFree {
                    pods: 1,
                    ..ctx.free[0].clone()
                },
                &snap.nodes[0],
                &gaudi
            ),
            Some(FitCheck::GpuShape),
            "a node without the pod's GPU resource has no GPUs of its kind"
        );
    }
}
