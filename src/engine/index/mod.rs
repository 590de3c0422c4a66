//! Cross-references of one snapshot, resolved once per analysis instead of once per stage:
//! each pod's node index, the pods any engine reads (live OME/GPU pods, gang members, unbound
//! pods, OME-managed pods outside `live`), node name ranks, and every InferenceService's
//! component modes.
//!
//! Owns: `SnapshotIndex`. A pod is scanned once here; later stages (workloads, pools, gangs, lints)
//! walk the short lists and small integers instead of re-hashing names over 100,000 pods. Pure.

use std::cmp::Ordering;

mod edit;

use crate::engine::fast::{NameRanks, TextIndex};
use crate::engine::model::{component_mode, DeploymentMode};
use crate::engine::model::{ClusterSnapshot, Pod};

/// `PodSlot::node` of a pod that is unbound or names no node.
const NO_NODE: u32 = u32::MAX;

/// Indices derived from a snapshot; valid only for the snapshot it was built from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SnapshotIndex {
    /// Each pod's node index and GPUs: filters and footprints read them here instead of
    /// loading the pod (several cache lines; a slot holds both in one, as the stages that
    /// walk Instance pods in workload order read both).
    pods: Vec<PodSlot>,
    /// Pods some engine reads, ascending: non-terminal with GPUs, an ISVC label or an
    /// `InferenceReplica` controller (`is_live`). Other pods (node agents, finished pods)
    /// count nowhere.
    pub live: Vec<usize>,
    /// Rank of each node's name (equal names share a rank).
    node_rank: Vec<u32>,
    /// Node indices sorted by name (ties by index, as a stable sort leaves them).
    pub node_order: Vec<usize>,
    /// Deployment mode of each component of each ISVC (`COMPONENTS` order).
    pub modes: Vec<[Option<DeploymentMode>; 3]>,
    /// Non-terminal pods with a pod-group label (gang members), ascending.
    pub grouped: Vec<usize>,
    /// Pods without `spec.nodeName` (any phase), ascending.
    pub unbound: Vec<usize>,
    /// Non-terminal pods outside `live` that carry OME's `managed-by` label, ascending: with
    /// `live` they hold every pod a placement lint can call a model pod.
    pub managed_only: Vec<usize>,
}

/// What the index keeps of one pod.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct PodSlot {
    /// Node index of the pod's `spec.nodeName` (`NO_NODE` when unbound or unknown).
    node: u32,
    /// `Pod::gpus`.
    gpus: u32,
}

/// The per-pod lists of one pass over the pods.
struct PodLists {
    pods: Vec<PodSlot>,
    live: Vec<usize>,
    grouped: Vec<usize>,
    unbound: Vec<usize>,
    managed_only: Vec<usize>,
}

/// Whether an engine reads this pod: non-terminal, and with GPUs, an ISVC label or an
/// `InferenceReplica` controller. Every pass over `live` wants one of those (routing to
/// workloads: the label or the replica owner; allocation, pools, health, lints: GPUs); a pod
/// with none — a node agent, whose DaemonSet controller names no replica, most of a fleet's
/// pods — is never loaded again after the index's one pass. A placement lint's model pod
/// without any of them carries OME's `managed-by` label and is in `managed_only`.
pub fn is_live(pod: &Pod) -> bool {
    !pod.phase.is_terminal()
        && (pod.gpus > 0
            || pod.ome.isvc.is_some()
            || pod
                .controller
                .as_ref()
                .is_some_and(|c| c.kind.as_ref() == "InferenceReplica"))
}

impl SnapshotIndex {
    /// Builds every index of `snap` (one pass over the pods).
    pub fn new(snap: &ClusterSnapshot) -> Self {
        let ranks = NameRanks::new(snap.nodes.iter().map(|n| n.name.as_ref()).collect());
        let lists = resolve_pods(snap, TextIndex::ranked(&ranks));
        let (node_order, node_rank) = ranks.into_parts();
        let modes = snap
            .isvcs
            .iter()
            .map(|w| std::array::from_fn(|c| component_mode(w, c)))
            .collect();
        SnapshotIndex {
            pods: lists.pods,
            live: lists.live,
            node_rank,
            node_order,
            modes,
            grouped: lists.grouped,
            unbound: lists.unbound,
            managed_only: lists.managed_only,
        }
    }

    /// The node index of pod `pod` (`None` when unbound or naming no node).
    pub fn node_of(&self, pod: usize) -> Option<usize> {
        match self.pods.get(pod) {
            Some(slot) if slot.node != NO_NODE => Some(slot.node as usize),
            _ => None,
        }
    }

    /// `Pod::gpus` of pod `pod` (0 for an index past the snapshot's pods).
    pub fn gpus(&self, pod: usize) -> u32 {
        self.pods.get(pod).map_or(0, |slot| slot.gpus)
    }

    /// The rank of node `node`'s name: comparing ranks compares names.
    pub fn node_rank(&self, node: usize) -> u32 {
        self.node_rank.get(node).copied().unwrap_or(u32::MAX)
    }

    /// Name ranks of every node (aligned with `snap.nodes`).
    pub fn node_ranks(&self) -> &[u32] {
        &self.node_rank
    }

    /// Compares two nodes by name.
    pub fn cmp_nodes(&self, a: usize, b: usize) -> Ordering {
        self.node_rank(a).cmp(&self.node_rank(b))
    }

    /// The mode of component `c` of ISVC `isvc`.
    pub fn mode(&self, isvc: usize, c: usize) -> Option<DeploymentMode> {
        self.modes.get(isvc)?.get(c).copied().flatten()
    }

    /// Whether component `c` of ISVC `isvc` is OMENative.
    pub fn is_omenative(&self, isvc: usize, c: usize) -> bool {
        self.mode(isvc, c) == Some(DeploymentMode::OMENative)
    }
}

/// Each pod's node index and the pod lists. A duplicated node name resolves to its last node,
/// as a name → index map would (`nodes`: the node names' index).
fn resolve_pods<'a>(snap: &'a ClusterSnapshot, mut nodes: TextIndex<'a>) -> PodLists {
    let mut lists = PodLists {
        pods: Vec::with_capacity(snap.pods.len()),
        // Sized for the worst case (every pod live): one allocation, no regrowth.
        live: Vec::with_capacity(snap.pods.len()),
        grouped: Vec::new(),
        unbound: Vec::new(),
        managed_only: Vec::new(),
    };
    for (p, pod) in snap.pods.iter().enumerate() {
        let node = match &pod.node {
            Some(name) => nodes.get(name.as_ref()).map_or(NO_NODE, |i| i as u32),
            None => {
                lists.unbound.push(p);
                NO_NODE
            }
        };
        // Only fields this pass loads anyway: a pending-GPU flag here (phase, binding,
        // deletion) made this pass slower than the filters it saved (`benches/stages.rs`,
        // stage `index`).
        lists.pods.push(PodSlot {
            node,
            gpus: pod.gpus,
        });
        if pod.phase.is_terminal() {
            continue;
        }
        if is_live(pod) {
            lists.live.push(p);
        } else if pod.ome.managed_by.is_some() {
            lists.managed_only.push(p);
        }
        if pod.ome.pod_group.is_some() {
            lists.grouped.push(p);
        }
    }
    lists
}

/// Index of a component name in `COMPONENTS`.
pub fn component_index(name: &str) -> Option<usize> {
    // A `match` on the literals compiles to length and integer comparisons (no `memcmp`
    // call): it runs for every labelled pod. The test below keeps it equal to `COMPONENTS`.
    match name {
        "engine" => Some(0),
        "decoder" => Some(1),
        "router" => Some(2),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::{PodPhase, COMPONENTS};

    #[test]
    fn component_index_is_the_position_in_components() {
        for (i, c) in COMPONENTS.iter().enumerate() {
            assert_eq!(component_index(c), Some(i));
        }
        assert_eq!(component_index("Engine"), None);
        assert_eq!(component_index(""), None);
    }
    use crate::engine::model::testkit::{isvc, node, pod};
    use std::sync::Arc;

    fn snap() -> ClusterSnapshot {
        let nodes = vec![node("b", 8), node("a", 8), node("c", 8), node("a", 4)];
        let mut pods = vec![
            pod("ns", "p0", Some("a"), 1),
            pod("ns", "p1", Some("zz"), 1),
            pod("ns", "p2", None, 2),
            pod("kube-system", "agent", Some("b"), 0),
            pod("ns", "done", Some("c"), 4),
        ];
        pods[4].phase = PodPhase::Succeeded;
        // Shares the node's interned name: resolved by address.
        pods.push(pod("ns", "p5", None, 1));
        pods[5].node = Some(nodes[2].name.clone());
        ClusterSnapshot {
            nodes: nodes.into(),
            pods: pods.into(),
            isvcs: vec![isvc("ns", "chat")].into(),
            ..Default::default()
        }
    }

    #[test]
    fn pods_resolve_to_nodes_last_duplicate_wins() {
        let s = snap();
        let idx = SnapshotIndex::new(&s);
        let got: Vec<Option<usize>> = (0..s.pods.len()).map(|p| idx.node_of(p)).collect();
        assert_eq!(got, vec![Some(3), None, None, Some(0), Some(2), Some(2)]);
        assert_eq!(idx.node_of(99), None);
        let addr = crate::engine::fast::same_allocation(
            s.pods[5].node.as_ref().unwrap(),
            &s.nodes[2].name,
        );
        assert!(addr);
    }

    #[test]
    fn gpus_are_the_pods_own() {
        let s = snap();
        let idx = SnapshotIndex::new(&s);
        let got: Vec<u32> = (0..s.pods.len()).map(|p| idx.gpus(p)).collect();
        let want: Vec<u32> = s.pods.iter().map(|p| p.gpus).collect();
        assert_eq!(got, want);
        assert_eq!(idx.gpus(99), 0);
    }

    #[test]
    fn live_pods_skip_agents_and_finished_pods() {
        let idx = SnapshotIndex::new(&snap());
        assert_eq!(idx.live, vec![0, 1, 2, 5]);
    }

    #[test]
    fn live_pods_are_gpu_labelled_or_replica_owned_never_daemon_set_agents() {
        let owner = |kind: &str| {
            Arc::new(crate::engine::model::OwnerRef {
                api_version: Arc::from("v1"),
                kind: Arc::from(kind),
                name: Arc::from("owner"),
                uid: Arc::from("u1"),
            })
        };
        let mut s = snap();
        s.pods[3].controller = Some(owner("DaemonSet"));
        let mut replica_pod = pod("ns", "r", Some("a"), 0);
        replica_pod.controller = Some(owner("InferenceReplica"));
        let mut labelled = pod("ns", "l", Some("a"), 0);
        labelled.ome.isvc = Some(Arc::from("chat"));
        let mut managed = pod("kube-system", "m", Some("a"), 0);
        managed.controller = Some(owner("DaemonSet"));
        managed.ome.managed_by = Some(Arc::from("OMENative"));
        s.pods.extend([replica_pod, labelled, managed]);
        let idx = SnapshotIndex::new(&s);
        assert_eq!(
            idx.live,
            vec![0, 1, 2, 5, 6, 7],
            "the DaemonSet agent (3) is not live"
        );
        assert_eq!(
            idx.managed_only,
            vec![8],
            "a managed pod outside live is listed apart"
        );
        for (p, pod) in s.pods.iter().enumerate() {
            assert_eq!(is_live(pod), idx.live.contains(&p), "pod {p}");
        }
    }

    #[test]
    fn gang_members_unbound_and_managed_pods_are_listed() {
        let mut s = snap();
        s.pods[0].ome.pod_group = Some(Arc::from("g"));
        s.pods[4].ome.pod_group = Some(Arc::from("g"));
        s.pods[3].ome.managed_by = Some(Arc::from("OMENative"));
        let mut finished = pod("ns", "gone", None, 0);
        finished.phase = PodPhase::Failed;
        finished.ome.managed_by = Some(Arc::from("OMENative"));
        s.pods.push(finished);
        let idx = SnapshotIndex::new(&s);
        assert_eq!(idx.grouped, vec![0], "the Succeeded member is not listed");
        assert_eq!(idx.unbound, vec![2, 6], "unbound pods of any phase");
        assert_eq!(idx.managed_only, vec![3]);
    }

    #[test]
    fn ranks_follow_names_and_order_is_stable() {
        let s = snap();
        let idx = SnapshotIndex::new(&s);
        assert_eq!(idx.node_order, vec![1, 3, 0, 2]);
        assert_eq!(idx.node_ranks(), &[1, 0, 2, 0]);
        assert_eq!(idx.cmp_nodes(1, 3), Ordering::Equal);
        assert_eq!(idx.cmp_nodes(0, 2), Ordering::Less);
        let mut by_name: Vec<usize> = (0..s.nodes.len()).collect();
        by_name.sort_by(|a, b| s.nodes[*a].name.cmp(&s.nodes[*b].name));
        assert_eq!(by_name, idx.node_order);
    }

    #[test]
    fn modes_are_the_component_modes() {
        let s = snap();
        let idx = SnapshotIndex::new(&s);
        for c in 0..COMPONENTS.len() {
            assert_eq!(idx.mode(0, c), component_mode(&s.isvcs[0], c));
        }
        assert_eq!(idx.mode(7, 0), None);
        assert_eq!(component_index("decoder"), Some(1));
        assert_eq!(component_index("sidecar"), None);
    }
}
