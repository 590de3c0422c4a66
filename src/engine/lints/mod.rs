//! Placement lints (product.md §3.8, the Gaudi scheduling guide): each finding names the rule
//! it breaks, the object, and the fix. Rules: host-pinned model pods, cordons without a
//! health or maintenance reason, two schedulers binding into one GPU pool, required pod
//! anti-affinity on model pods, CPU/memory requests not proportional per card, and small pods
//! holding otherwise empty nodes (the descheduler's `HighNodeUtilization` view).
//!
//! Owns: `Lint`, `LintRule`, `placement_lints` (and `placement_lints_after_node_edit`,
//! `placement_lints_after_unbound_pod_edit`: the incremental analysis's shares of them). Pod rules are in `pods`, pool and node rules in
//! `nodes` and `small_pods`. Pure.

mod nodes;
mod pods;
mod small_pods;

pub use nodes::reservation_cordons;

use crate::engine::gangs::PlacementOptions;
use crate::engine::index::SnapshotIndex;
use crate::engine::lints::nodes::mixed_schedulers;
use crate::engine::lints::pods::{
    disproportional_requests, has_anti_affinity, host_pin_lint, is_pod_rule_candidate, pod_rules,
};
use crate::engine::lints::small_pods::small_pods_on_empty_nodes;
use crate::engine::model::{ClusterSnapshot, OmeLabels, Pod};
use crate::engine::nodes::NodeState;
use rustc_hash::FxHashMap as FastMap;

/// A lint rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LintRule {
    /// A model pod pinned to hosts (`kubernetes.io/hostname` selector, required node affinity
    /// on a host list, or a user-set `nodeName` the scheduler never bound).
    HostPinnedPod,
    /// A cordoned node with no health reason and no maintenance trigger.
    ReservationCordon,
    /// Pods of two or more schedulers bound to one GPU pool.
    MixedSchedulers,
    /// Required (not preferred) pod anti-affinity on model pods.
    RequiredAntiAffinity,
    /// CPU or memory per card above the pool's per-card share.
    RequestsNotProportional,
    /// Small pods holding nodes below the `HighNodeUtilization` threshold.
    SmallPodsHoldEmptyNode,
}

impl LintRule {
    /// The rule's stable id (JSON `rule`).
    pub fn id(self) -> &'static str {
        match self {
            LintRule::HostPinnedPod => "host-pinned-pod",
            LintRule::ReservationCordon => "reservation-cordon",
            LintRule::MixedSchedulers => "mixed-schedulers-pool",
            LintRule::RequiredAntiAffinity => "required-pod-anti-affinity",
            LintRule::RequestsNotProportional => "requests-not-proportional",
            LintRule::SmallPodsHoldEmptyNode => "small-pods-hold-empty-node",
        }
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Lint {
    /// The rule broken.
    pub rule: LintRule,
    /// `Kind name` or `Kind ns/name` of the object (Pod, Node, Pool, or a pod's controller).
    pub object: String,
    /// What is wrong, the rule, and the fix.
    pub message: String,
}

/// Every placement lint of the snapshot, sorted by (rule, object, message). `index` is the
/// analysis's [`SnapshotIndex`] of the snapshot; `states` are its node states (aligned with
/// `snap.nodes`).
pub fn placement_lints(
    snap: &ClusterSnapshot,
    index: &SnapshotIndex,
    states: &[NodeState],
    opts: &PlacementOptions,
) -> Vec<Lint> {
    let pools = Pools::new(states);
    let bound = bound_gpu_pods(snap, index);
    let mut out = pod_rules(snap, index);
    out.extend(reservation_cordons(snap, states));
    out.extend(mixed_schedulers(&pools, &bound));
    out.extend(disproportional_requests(snap, &pools, &bound));
    out.sort_unstable();
    // Already in (object, message) order, and the last rule: appended unsorted.
    out.extend(small_pods_on_empty_nodes(
        snap,
        index,
        (states, &pools),
        &bound,
        opts.repack_threshold_percent,
    ));
    out
}

/// `placement_lints` after nodes changed in place, from `previous`, the lints before: no pod,
/// no node's pool and no node's allocation changed since, so the rules that read only pods,
/// pools and the pods' nodes (host pins, anti-affinity, mixed schedulers) keep their findings;
/// so do the per-card requests unless `per_card` (some node's GPU, CPU or memory allocatable
/// changed). The rules that read node states run again, each by its own function, so the
/// result is `placement_lints` of the edited snapshot.
pub fn placement_lints_after_node_edit(
    (snap, index, states): (&ClusterSnapshot, &SnapshotIndex, &[NodeState]),
    opts: &PlacementOptions,
    mut previous: Vec<Lint>,
    per_card: bool,
) -> Vec<Lint> {
    let pools = Pools::new(states);
    let bound = bound_gpu_pods(snap, index);
    previous.retain(|l| match l.rule {
        LintRule::HostPinnedPod | LintRule::RequiredAntiAffinity => true,
        LintRule::MixedSchedulers => true,
        LintRule::RequestsNotProportional => !per_card,
        LintRule::ReservationCordon | LintRule::SmallPodsHoldEmptyNode => false,
    });
    previous.extend(reservation_cordons(snap, states));
    if per_card {
        previous.extend(disproportional_requests(snap, &pools, &bound));
    }
    previous.sort_unstable();
    previous.extend(small_pods_on_empty_nodes(
        snap,
        index,
        (states, &pools),
        &bound,
        opts.repack_threshold_percent,
    ));
    previous
}

/// Two versions of one pod, before and after an edit (`None`: absent then).
pub type PodVersions<'a> = (Option<&'a Pod>, Option<&'a Pod>);

/// `placement_lints` after pods none of whose versions is bound to a known node changed, from
/// `previous`, the lints before: the bound GPU pods, the nodes and their states are those
/// `previous` was computed from, so only the pod rules (host pins, anti-affinity) change. The
/// host pins are per pod: each edited pod's old finding is taken out and its new one put in,
/// by the rule's own function. The anti-affinity findings are per owner and count every pod of it, so when
/// a version of an edited pod carries anti-affinity, the pod rules run again over every pod.
/// The result is `placement_lints` of the edited snapshot.
pub fn placement_lints_after_unbound_pod_edit(
    snap: &ClusterSnapshot,
    index: &SnapshotIndex,
    mut previous: Vec<Lint>,
    edits: &[PodVersions<'_>],
) -> Vec<Lint> {
    // The small-pods findings are the unsorted tail; the rest is sorted.
    let tail = previous.partition_point(|l| l.rule != LintRule::SmallPodsHoldEmptyNode);
    let small = previous.split_off(tail);
    let versions = || edits.iter().flat_map(|(old, new)| old.iter().chain(new));
    if versions().any(|p| has_anti_affinity(p)) {
        previous.retain(|l| {
            !matches!(
                l.rule,
                LintRule::HostPinnedPod | LintRule::RequiredAntiAffinity
            )
        });
        previous.extend(pod_rules(snap, index));
        previous.sort_unstable();
    } else {
        // The host pins are one finding per pod version (two pods may share a name in a
        // file): the old version's finding leaves, the new one's comes in, in order.
        let linted = |p: &&&Pod| is_pod_rule_candidate(p);
        let olds = edits
            .iter()
            .filter_map(|(old, _)| old.as_ref())
            .filter(linted);
        for lint in olds.filter_map(|p| host_pin_lint(p)) {
            if let Ok(at) = previous.binary_search(&lint) {
                previous.remove(at);
            }
        }
        let news = edits
            .iter()
            .filter_map(|(_, new)| new.as_ref())
            .filter(linted);
        for lint in news.filter_map(|p| host_pin_lint(p)) {
            let at = previous.partition_point(|l| *l < lint);
            previous.insert(at, lint);
        }
    }
    previous.extend(small);
    previous
}

/// Every non-terminal GPU pod bound to a known node (`live` holds them, in pod order).
fn bound_gpu_pods<'a>(snap: &'a ClusterSnapshot, index: &SnapshotIndex) -> Vec<BoundGpuPod<'a>> {
    index
        .live
        .iter()
        .filter(|&&p| index.gpus(p) > 0)
        .filter_map(|&p| Some((&snap.pods[p], index.node_of(p)?)))
        .collect()
}

/// Whether the lints read the same of pods `a` and `b` (two versions of one pod): they differ
/// at most in fields no lint reads (readiness, deletion, times, UID, GPU resource name, the
/// OME labels other than the ISVC and `managed-by`). The node states are read apart. Every
/// field is named, so a new `Pod` field does not compile here until it is sorted in.
pub fn same_lint_inputs(a: &Pod, b: &Pod) -> bool {
    let Pod {
        node,
        phase,
        namespace,
        gpus,
        ready: _,
        terminating: _,
        scheduled_condition,
        ome,
        controller,
        placement,
        node_selector,
        other_requests: _,
        scheduler_name,
        cpu_milli,
        memory,
        name,
        gpu_resource: _,
        created: _,
        started: _,
        unschedulable_since: _,
    } = a;
    let OmeLabels {
        isvc,
        component: _,
        managed_by,
        pod_group: _,
        runner: _,
        instance_index: _,
        incarnation: _,
        pod_ordinal: _,
    } = ome;
    (node, phase, namespace, gpus, scheduled_condition)
        == (
            &b.node,
            &b.phase,
            &b.namespace,
            &b.gpus,
            &b.scheduled_condition,
        )
        && (controller, placement, node_selector, scheduler_name)
            == (
                &b.controller,
                &b.placement,
                &b.node_selector,
                &b.scheduler_name,
            )
        && (cpu_milli, memory, name, isvc, managed_by)
            == (
                &b.cpu_milli,
                &b.memory,
                &b.name,
                &b.ome.isvc,
                &b.ome.managed_by,
            )
}

/// A non-terminal GPU pod and the index of the known node it is bound to.
pub type BoundGpuPod<'a> = (&'a Pod, usize);

/// Pools found by a scan of the first names before the map is asked.
const FEW_POOLS: usize = 8;

/// Pool names as small integers, so per-pod work indexes arrays instead of hashing names.
#[derive(Debug)]
pub struct Pools<'a> {
    /// Pool names, by pool id.
    pub names: Vec<&'a str>,
    /// Pool id per node (aligned with `snap.nodes`); `None` for nodes without a pool.
    pub of_node: Vec<Option<usize>>,
}

impl<'a> Pools<'a> {
    /// Numbers the pools of `states` in order of first appearance.
    pub fn new(states: &'a [NodeState]) -> Self {
        let mut ids: FastMap<&str, usize> = FastMap::default();
        let mut names: Vec<&str> = Vec::new();
        let mut last: Option<(&str, usize)> = None;
        let of_node = states
            .iter()
            .map(|s| {
                let name = s.pool.as_deref()?;
                // Fleets have a few pools: a repeat or a short scan avoids hashing the name.
                let id = match last {
                    Some((l, id)) if l == name => id,
                    _ => match names.iter().take(FEW_POOLS).position(|n| *n == name) {
                        Some(id) => id,
                        None => *ids.entry(name).or_insert_with(|| {
                            names.push(name);
                            names.len() - 1
                        }),
                    },
                };
                last = Some((name, id));
                Some(id)
            })
            .collect();
        Pools { names, of_node }
    }
}

/// Whether a pod serves a model: it requests GPUs or carries OME's identity (ISVC label,
/// OMENative management, InferenceReplica owner). DaemonSet and static (mirror) pods never
/// count: they are node agents by design.
pub fn is_model_pod(p: &Pod) -> bool {
    let agent = p
        .controller
        .as_ref()
        .is_some_and(|c| matches!(c.kind.as_ref(), "DaemonSet" | "Node"));
    let ome = p.ome.isvc.is_some()
        || p.ome.managed_by.as_deref() == Some("OMENative")
        || p.controller
            .as_ref()
            .is_some_and(|c| c.kind.as_ref() == "InferenceReplica");
    !agent && (p.gpus > 0 || ome)
}

/// `Kind ns/name` of the pod's controller, else `Pod ns/name`: the object a fix is applied to.
pub fn owner_object(p: &Pod) -> String {
    match &p.controller {
        Some(c) => format!("{} {}/{}", c.kind, p.namespace, c.name),
        None => format!("Pod {}/{}", p.namespace, p.name),
    }
}

/// Bytes as GiB with up to one decimal (`128Gi`, `0.5Gi`).
pub fn gib(bytes: f64) -> String {
    let g = bytes / f64::from(1u32 << 30);
    let rounded = (g * 10.0).round() / 10.0;
    if rounded.fract() == 0.0 {
        format!("{rounded:.0}Gi")
    } else {
        format!("{rounded:.1}Gi")
    }
}

/// Millicores as cores (`12`, `1.5`).
pub fn cores(milli: f64) -> String {
    let c = (milli / 100.0).round() / 10.0;
    if c.fract() == 0.0 {
        format!("{c:.0}")
    } else {
        format!("{c:.1}")
    }
}
