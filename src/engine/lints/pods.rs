//! Pod-level placement lints: host-pinned model pods, required pod anti-affinity on model
//! pods, and requests not proportional per card.
//!
//! `nodeName` set by a user is only detectable while the kubelet has not accepted the pod: the
//! API server's binding (the scheduler's path) writes `PodScheduled=True` together with
//! `nodeName`, while a pod created with `nodeName` gets that condition only from the kubelet.
//! So a Pending pod with `nodeName` and no `PodScheduled` condition bypassed the scheduler —
//! typically pinned to a node that is gone or not ready, the harmful case. Once the kubelet
//! runs it, it is indistinguishable from a scheduled pod and is not reported.
//!
//! Owns: `pod_rules`, `disproportional_requests`. Pure.

use std::collections::BTreeMap;

use crate::engine::index::{is_live, SnapshotIndex};
use crate::engine::lints::{
    cores, gib, is_model_pod, owner_object, BoundGpuPod, Lint, LintRule, Pools,
};
use crate::engine::model::HOSTNAME_LABEL;
use crate::engine::model::{ClusterSnapshot, Pod, PodPhase, UNREPORTED};

const PIN_FIX: &str = "Pins go stale when nodes fail, defeat autoscaling and stall rollouts. \
Fix: remove the pin and let the scheduler place the pod; add capacity by raising the model's \
autoscaler floor, and make the pod check at start for what a node may lack.";

/// Host pins (one lint per pod) and required anti-affinity (one lint per owner). Only the
/// index's `live` and `managed_only` pods can be model pods (the rest are terminal, or have
/// no GPUs, no OME label and no `InferenceReplica` owner).
pub fn pod_rules(snap: &ClusterSnapshot, index: &SnapshotIndex) -> Vec<Lint> {
    let mut out = Vec::new();
    let mut anti: BTreeMap<String, Vec<&Pod>> = BTreeMap::new();
    let candidates = index.live.iter().chain(&index.managed_only);
    for pod in candidates.map(|&p| &snap.pods[p]) {
        out.extend(host_pin_lint(pod));
        if has_anti_affinity(pod) && is_model_pod(pod) {
            anti.entry(owner_object(pod)).or_default().push(pod);
        }
    }
    for (object, pods) in anti {
        let keys: Vec<&str> = pods
            .iter()
            .flat_map(|p| p.placement.as_deref().into_iter())
            .flat_map(|p| p.pod_anti_affinity.iter().map(|t| t.topology_key.as_ref()))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        out.push(Lint {
            rule: LintRule::RequiredAntiAffinity,
            object,
            message: format!(
                "{} model pod(s) carry required pod anti-affinity (topologyKey {}). A hard rule \
                 can leave replicas Pending on a fragmented fleet and outranks packing. Fix: use \
                 preferredDuringSchedulingIgnoredDuringExecution anti-affinity instead.",
                pods.len(),
                keys.join(", ")
            ),
        });
    }
    out
}

/// The host-pin finding of pod `pod`, which the caller has found among the lints' pods (the
/// index's `live` or `managed_only`: `is_pod_rule_candidate`).
pub fn host_pin_lint(pod: &Pod) -> Option<Lint> {
    // Cheap fields first: most pods have no pin and no placement facts at all.
    let maybe_pinned = !pod.node_selector.is_empty()
        || pod.placement.is_some()
        || (pod.node.is_some() && !pod.scheduled_condition);
    if !maybe_pinned || !is_model_pod(pod) {
        return None;
    }
    let how = host_pin(pod)?;
    Some(Lint {
        rule: LintRule::HostPinnedPod,
        object: pod_object(pod),
        message: format!("model pod is pinned to hosts by {how}. {PIN_FIX}"),
    })
}

/// The object a host-pin finding names.
fn pod_object(pod: &Pod) -> String {
    format!("Pod {}/{}", pod.namespace, pod.name)
}

/// Whether pod `pod` carries required pod anti-affinity terms (read by the owner's finding).
pub fn has_anti_affinity(pod: &Pod) -> bool {
    pod.placement
        .as_deref()
        .is_some_and(|p| !p.pod_anti_affinity.is_empty())
}

/// Whether the pod rules read pod `pod`: the index's `live` and `managed_only` pods, a
/// running pod that is live or carries OME's `managed-by` label.
pub fn is_pod_rule_candidate(pod: &Pod) -> bool {
    !pod.phase.is_terminal() && (is_live(pod) || pod.ome.managed_by.is_some())
}

/// How a pod is pinned to hosts, if it is.
fn host_pin(pod: &Pod) -> Option<String> {
    if let Some((_, host)) = pod
        .node_selector
        .iter()
        .find(|(k, _)| k.as_ref() == HOSTNAME_LABEL)
    {
        return Some(format!("nodeSelector {HOSTNAME_LABEL}={host}"));
    }
    if let Some(hosts) = pod.placement.as_deref().and_then(|p| p.required_hosts()) {
        let list: Vec<&str> = hosts.iter().map(|h| h.as_ref()).collect();
        return Some(format!(
            "required node affinity on the host list [{}]",
            list.join(", ")
        ));
    }
    let bypassed = pod.phase == PodPhase::Pending && !pod.scheduled_condition;
    match &pod.node {
        Some(node) if bypassed => Some(format!(
            "nodeName {node} set without the scheduler (Pending, no PodScheduled condition)"
        )),
        _ => None,
    }
}

/// The per-card share of each pool (by pool id): median over its GPU nodes of allocatable ÷
/// cards, for CPU (millicores) and memory (bytes); `None` when no node reports it.
fn per_card_shares(snap: &ClusterSnapshot, pools: &Pools<'_>) -> Vec<(Option<f64>, Option<f64>)> {
    let mut cpu = vec![Vec::new(); pools.names.len()];
    let mut mem = vec![Vec::new(); pools.names.len()];
    for (node, id) in snap.nodes.iter().zip(&pools.of_node) {
        let Some(id) = *id else {
            continue;
        };
        if node.gpu_allocatable == 0 {
            continue;
        }
        let cards = f64::from(node.gpu_allocatable);
        if node.allocatable.cpu_milli != UNREPORTED {
            cpu[id].push(node.allocatable.cpu_milli as f64 / cards);
        }
        if node.allocatable.memory != UNREPORTED {
            mem[id].push(node.allocatable.memory as f64 / cards);
        }
    }
    cpu.into_iter()
        .zip(mem)
        .map(|(c, m)| (median(c), median(m)))
        .collect()
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

/// Pods (grouped by owner) whose CPU or memory per card exceeds the per-card share of their
/// pool's nodes: mixed with proportional pods they exhaust a node's CPU or memory before its
/// cards, so packing fails and cards strand (Gaudi guide, caveats).
pub fn disproportional_requests(
    snap: &ClusterSnapshot,
    pools: &Pools<'_>,
    bound: &[BoundGpuPod<'_>],
) -> Vec<Lint> {
    // The shares sort every node's figures: computed only when some pod requests CPU or memory.
    let mut shares: Option<Vec<(Option<f64>, Option<f64>)>> = None;
    let mut worst: BTreeMap<(String, String), (f64, f64, u32, usize)> = BTreeMap::new();
    for &(pod, node) in bound {
        let Some(id) = pools.of_node[node] else {
            continue;
        };
        if pod.cpu_milli == 0 && pod.memory == 0 {
            continue;
        }
        let (cpu_share, mem_share) = shares.get_or_insert_with(|| per_card_shares(snap, pools))[id];
        let cards = f64::from(pod.gpus);
        let cpu = pod.cpu_milli as f64 / cards;
        let mem = pod.memory as f64 / cards;
        let over = cpu_share.is_some_and(|s| cpu > s) || mem_share.is_some_and(|s| mem > s);
        if over {
            let e = worst
                .entry((pools.names[id].to_string(), owner_object(pod)))
                .or_insert((0.0, 0.0, 0, id));
            e.0 = e.0.max(cpu);
            e.1 = e.1.max(mem);
            e.2 += 1;
        }
    }
    let shares = shares.unwrap_or_default();
    worst
        .into_iter()
        .map(|((pool, object), (cpu, mem, count, p))| {
            let (cpu_share, mem_share) = shares.get(p).copied().unwrap_or((None, None));
            Lint {
                rule: LintRule::RequestsNotProportional,
                object,
                message: format!(
                    "{count} pod(s) request up to {} CPU and {} memory per card in pool {pool}, \
                     whose nodes have {} CPU and {} per card: packed nodes run out of CPU or \
                     memory before cards, so cards strand. Fix: request CPU and memory in \
                     proportion to cards (at most the node's allocatable ÷ cards per card).",
                    cores(cpu),
                    gib(mem),
                    cpu_share.map_or("unreported".into(), cores),
                    mem_share.map_or("unreported".into(), gib),
                ),
            }
        })
        .collect()
}
