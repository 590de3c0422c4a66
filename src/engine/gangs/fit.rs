//! The OMEGangPack node-fit predicate (gangpack.md §3.3 "Node-fit predicate") over the
//! compact model: cordon, untolerated `NoSchedule`/`NoExecute` taints, `nodeName`, node
//! selector and required node affinity, and free CPU, memory, GPUs and pod slots left by every
//! non-terminal pod bound to the node (any scheduler, terminating pods included).
//!
//! Owns: `NodeFree`, `FitContext`, `fits`, `same_fit`. Not modelled (the model does not carry
//! them): ephemeral storage, extended resources other than the node's GPU resource, pod overhead
//! beyond what the converter adds. Pure.

use crate::engine::fast::same_opt;
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{node_matches, tolerates, NodeTerm, Toleration};
use crate::engine::model::{ClusterSnapshot, Node, Pod};

/// What is left on one node: allocatable minus the requests of its pods (never negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeFree {
    /// Free CPU, millicores (`u64::MAX`-ish when the node reports no CPU allocatable).
    pub cpu_milli: u64,
    /// Free memory, bytes.
    pub memory: u64,
    /// Free devices of the node's GPU resource.
    pub gpus: u32,
    /// Free pod slots (`allocatable.pods − pods on the node`).
    pub pods: u64,
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
        let mut used = vec![(0u64, 0u64, 0u32, 0u64); snap.nodes.len()];
        for (p, pod) in snap.pods.iter().enumerate() {
            if pod.phase.is_terminal() {
                continue;
            }
            let Some(i) = index.node_of(p) else {
                continue;
            };
            let node = &snap.nodes[i];
            let u = &mut used[i];
            u.0 = u.0.saturating_add(pod.cpu_milli);
            u.1 = u.1.saturating_add(pod.memory);
            if same_opt(pod.gpu_resource.as_ref(), node.gpu_resource.as_ref()) {
                u.2 = u.2.saturating_add(pod.gpus);
            }
            u.3 += 1;
        }
        let free = snap
            .nodes
            .iter()
            .zip(used)
            .map(|(n, (cpu, mem, gpus, pods))| NodeFree {
                cpu_milli: n.allocatable.cpu_milli.saturating_sub(cpu),
                memory: n.allocatable.memory.saturating_sub(mem),
                gpus: n.gpu_allocatable.saturating_sub(gpus),
                pods: n.allocatable.pods.saturating_sub(pods),
            })
            .collect();
        FitContext { snap, free }
    }

    /// `fits(node, pod)` of gangpack.md §3.3 for node index `n`.
    pub fn fits(&self, n: usize, pod: &Pod) -> bool {
        let node = &self.snap.nodes[n];
        placement_fits(node, pod) && resources_fit(&self.free[n], node, pod)
    }
}

/// Everything of the predicate except resources.
pub fn placement_fits(node: &Node, pod: &Pod) -> bool {
    !node.unschedulable
        && pod.node.as_ref().is_none_or(|n| *n == node.name)
        && node_matches(pod, node)
        && tolerates(pod, node)
}

/// `free ≥ request` on every modelled dimension and a free pod slot.
pub fn resources_fit(free: &NodeFree, node: &Node, pod: &Pod) -> bool {
    let gpus_ok = pod.gpus == 0
        || (same_opt(pod.gpu_resource.as_ref(), node.gpu_resource.as_ref())
            && free.gpus >= pod.gpus);
    free.pods >= 1 && free.cpu_milli >= pod.cpu_milli && free.memory >= pod.memory && gpus_ok
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
        && same_opt(a.node.as_ref(), b.node.as_ref())
        && a.node_selector == b.node_selector
        && placement(a) == placement(b)
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(ctx.free[0].gpus, 4);
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
        assert!(!resources_fit(&ctx.free[0], &snap.nodes[0], &gaudi));
    }
}
