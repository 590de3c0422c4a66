//! The node-fit predicate of gangpack.md §3.3 as the first check that refuses a pod on a node,
//! in the order the predicate is evaluated: cordon, `nodeName`, node selector and required
//! node affinity (a selector on the GPU product label is told apart: a pod asking another GPU
//! product), untolerated `NoSchedule`/`NoExecute` taints, then resources — a free pod slot,
//! CPU, memory, and every other counted request (the pod's GPU resource split into "the node
//! has too few GPUs at all" and "too few are free now"). `fits` is `first_refusal(..) ==
//! None`, so the boolean and the explanation are one rule.
//!
//! Owns: `FitCheck`, `first_refusal`, `first_placement_refusal`, `first_resource_refusal`.
//! Pure.

use crate::engine::gangs::fit::NodeFree;
use crate::engine::model::{counts_in_fit, node_matches, tolerates, Name, Node, Pod};

/// The label a pod's node selector names to ask for one GPU product.
pub const GPU_PRODUCT_LABEL: &str = "nvidia.com/gpu.product";

/// The first check of the node-fit predicate that refuses a pod on a node. A closed set: every
/// refusal the predicate can make is one of these.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FitCheck {
    /// `spec.unschedulable`: the node is cordoned.
    Cordoned,
    /// The pod's `nodeName` names another node.
    OtherNode,
    /// The pod's node selector asks for another GPU product than the node's.
    GpuProduct,
    /// The node selector or required node affinity does not match the node's labels.
    NodeAffinity,
    /// A `NoSchedule`/`NoExecute` taint the pod does not tolerate (its key).
    Taint(Name),
    /// Every pod slot of the node is taken.
    PodCount,
    /// Too little free CPU.
    Cpu,
    /// Too little free memory.
    Memory,
    /// The node has fewer GPUs of the pod's kind than the pod asks, even empty (another GPU
    /// resource, or a smaller shape).
    GpuShape,
    /// The node has the GPUs, but too few are free now.
    TooFewFreeGpus,
    /// Too little of another requested resource (its name).
    OtherResource(Name),
}

impl FitCheck {
    /// A stable lower-camel code for JSON.
    pub fn code(&self) -> &'static str {
        match self {
            FitCheck::Cordoned => "cordoned",
            FitCheck::OtherNode => "otherNode",
            FitCheck::GpuProduct => "gpuProduct",
            FitCheck::NodeAffinity => "nodeAffinity",
            FitCheck::Taint(_) => "taint",
            FitCheck::PodCount => "podCount",
            FitCheck::Cpu => "cpu",
            FitCheck::Memory => "memory",
            FitCheck::GpuShape => "gpuShape",
            FitCheck::TooFewFreeGpus => "tooFewFreeGpus",
            FitCheck::OtherResource(_) => "otherResource",
        }
    }

    /// What the check says, in the operator's words.
    pub fn words(&self) -> String {
        match self {
            FitCheck::Cordoned => "node cordoned".into(),
            FitCheck::OtherNode => "pod is bound by name to another node".into(),
            FitCheck::GpuProduct => "pod asks for another GPU product".into(),
            FitCheck::NodeAffinity => "node selector / affinity does not match".into(),
            FitCheck::Taint(key) => format!("taint {key} not tolerated"),
            FitCheck::PodCount => "no free pod slot".into(),
            FitCheck::Cpu => "too little free CPU".into(),
            FitCheck::Memory => "too little free memory".into(),
            FitCheck::GpuShape => "node has too few GPUs of that kind".into(),
            FitCheck::TooFewFreeGpus => "too few free GPUs".into(),
            FitCheck::OtherResource(name) => format!("too little free {name}"),
        }
    }

    /// Whether moving other workloads off the node can lift this refusal (it is about room,
    /// not about the node's identity or shape).
    pub fn is_room(&self) -> bool {
        matches!(
            self,
            FitCheck::PodCount
                | FitCheck::Cpu
                | FitCheck::Memory
                | FitCheck::TooFewFreeGpus
                | FitCheck::OtherResource(_)
        )
    }
}

/// The first check refusing `pod` on `node` with `free` left there; `None` = it fits.
pub fn first_refusal(node: &Node, free: &NodeFree, pod: &Pod) -> Option<FitCheck> {
    first_placement_refusal(node, pod).or_else(|| first_resource_refusal(free, node, pod))
}

/// The first check besides resources refusing `pod` on `node`.
pub fn first_placement_refusal(node: &Node, pod: &Pod) -> Option<FitCheck> {
    if node.unschedulable {
        return Some(FitCheck::Cordoned);
    }
    if pod.node.as_ref().is_some_and(|n| *n != node.name) {
        return Some(FitCheck::OtherNode);
    }
    if !node_matches(pod, node) {
        let product = pod
            .node_selector
            .iter()
            .find(|(k, _)| k.as_ref() == GPU_PRODUCT_LABEL);
        let other_product = product.is_some_and(|(k, v)| node.labels.get(k) != Some(v.as_ref()));
        return Some(if other_product {
            FitCheck::GpuProduct
        } else {
            FitCheck::NodeAffinity
        });
    }
    if !tolerates(pod, node) {
        let key = untolerated_taint(pod, node).unwrap_or_default();
        return Some(FitCheck::Taint(key));
    }
    None
}

/// The first `NoSchedule`/`NoExecute` taint of `node` that `pod` does not tolerate.
fn untolerated_taint(pod: &Pod, node: &Node) -> Option<Name> {
    let tolerations = pod
        .placement
        .as_deref()
        .map_or(&[][..], |p| &p.tolerations[..]);
    node.taints
        .iter()
        .filter(|t| matches!(t.effect.as_ref(), "NoSchedule" | "NoExecute"))
        .find(|t| !tolerations.iter().any(|tol| tol.tolerates(t)))
        .map(|t| t.key.clone())
}

/// The first resource check refusing `pod` on `node` with `free` left: a pod slot, CPU,
/// memory, then every other counted request in the pod's order.
pub fn first_resource_refusal(free: &NodeFree, node: &Node, pod: &Pod) -> Option<FitCheck> {
    if free.pods < 1 {
        return Some(FitCheck::PodCount);
    }
    if free.cpu_milli < pod.cpu_milli {
        return Some(FitCheck::Cpu);
    }
    if free.memory < pod.memory {
        return Some(FitCheck::Memory);
    }
    let gpu = pod.gpu_resource.as_ref().filter(|_| pod.gpus > 0);
    pod.scalar_requests()
        .filter(|(r, _)| counts_in_fit(r))
        .find_map(|(r, want)| {
            if free.of(node, r) >= want {
                return None;
            }
            Some(match gpu {
                Some(g) if g == r && node.allocatable_of(r) < want => FitCheck::GpuShape,
                Some(g) if g == r => FitCheck::TooFewFreeGpus,
                _ => FitCheck::OtherResource(r.clone()),
            })
        })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::model::testkit::{node, pod};
    use crate::engine::model::Taint;

    fn free_of(n: &Node, used_gpus: u64) -> NodeFree {
        NodeFree {
            cpu_milli: n.allocatable.cpu_milli,
            memory: n.allocatable.memory,
            pods: n.allocatable.pods,
            used: vec![(Arc::from("nvidia.com/gpu"), used_gpus)],
        }
    }

    #[test]
    fn the_first_refusing_check_follows_the_predicates_order() {
        // gangpack.md §3.3: all must hold; the cordon is read before the GPUs.
        let mut n = node("gpu-a", 8);
        n.unschedulable = true;
        let want = pod("ml", "p", None, 4);
        assert_eq!(
            first_refusal(&n, &free_of(&n, 6), &want),
            Some(FitCheck::Cordoned)
        );
        n.unschedulable = false;
        n.taints = vec![Taint {
            key: Arc::from("maintenance"),
            value: Arc::from(""),
            effect: Arc::from("NoSchedule"),
        }];
        assert_eq!(
            first_refusal(&n, &free_of(&n, 6), &want),
            Some(FitCheck::Taint(Arc::from("maintenance")))
        );
        n.taints.clear();
        assert_eq!(
            first_refusal(&n, &free_of(&n, 6), &want),
            Some(FitCheck::TooFewFreeGpus)
        );
        assert_eq!(first_refusal(&n, &free_of(&n, 4), &want), None);
    }

    #[test]
    fn another_product_shape_or_node_name_is_told_apart_from_room() {
        let n = node("gpu-a", 8);
        let mut a100 = pod("ml", "p", None, 1);
        a100.node_selector = vec![(Arc::from(GPU_PRODUCT_LABEL), Arc::from("A100"))];
        assert_eq!(
            first_refusal(&n, &free_of(&n, 0), &a100),
            Some(FitCheck::GpuProduct)
        );
        let mut zone = pod("ml", "p", None, 1);
        zone.node_selector = vec![(Arc::from("zone"), Arc::from("z1"))];
        assert_eq!(
            first_refusal(&n, &free_of(&n, 0), &zone),
            Some(FitCheck::NodeAffinity)
        );
        let big = pod("ml", "p", None, 16);
        let refusal = first_refusal(&n, &free_of(&n, 0), &big);
        assert_eq!(refusal, Some(FitCheck::GpuShape));
        assert!(!FitCheck::GpuShape.is_room() && FitCheck::TooFewFreeGpus.is_room());
        let mut named = pod("ml", "p", None, 1);
        named.node = Some(Arc::from("gpu-b"));
        assert_eq!(
            first_refusal(&n, &free_of(&n, 0), &named),
            Some(FitCheck::OtherNode)
        );
        let mut full = free_of(&n, 0);
        full.pods = 0;
        let small = pod("ml", "p", None, 1);
        assert_eq!(first_refusal(&n, &full, &small), Some(FitCheck::PodCount));
    }
}
