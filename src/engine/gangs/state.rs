//! The state of one gang (gangpack.md §7.2 steps 1–6): PodGroup facts and the PreFilter
//! preamble checks (§3.1) that block a gang, the placed-member scan per topology domain,
//! split detection, and the Pinned / BoundPartial / Forming / Waiting decision.
//!
//! Owns: `GangInputs`, `reconstruct`, `topology_key`. Pure.

use std::collections::BTreeSet;

use crate::engine::gangs::classify::{Reason, ReasonCode};
use crate::engine::gangs::reasons::{effective_scheduler, pod_reason, roll_up, EventIndex};
use crate::engine::gangs::scheduler_config::SchedulerConfig;
use crate::engine::gangs::{inferred, ns_key, Gang, GangState, PinSource, Reservation, UNLABELLED};
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, Name, Pod, PodGroup};
use rustc_hash::FxHashMap as FastMap;

/// What every gang's reconstruction reads.
#[derive(Debug)]
pub struct GangInputs<'a> {
    /// The snapshot.
    pub snap: &'a ClusterSnapshot,
    /// The effective scheduler configuration.
    pub config: &'a SchedulerConfig,
    /// The analysis's cross-references (pod → node, the pod lists).
    pub index: &'a SnapshotIndex,
    /// FailedScheduling events by pod.
    pub events: &'a EventIndex<'a>,
    /// PodGroups by `(namespace, name)`.
    pub pod_groups: &'a FastMap<(&'a str, &'a str), &'a PodGroup>,
}

/// The gang's topology key: the PodGroup annotation named by the plugin arg, else the arg
/// `topologyKey`; `None` when both are empty.
pub fn topology_key(pg: &PodGroup, cfg: &SchedulerConfig) -> Option<String> {
    let annotation = &cfg.gang_pack.pod_group_topology_key_annotation;
    let from_pg = (!annotation.is_empty())
        .then(|| pg.annotations.get(annotation.as_str()))
        .flatten()
        .filter(|v| !v.is_empty());
    from_pg
        .cloned()
        .or_else(|| Some(cfg.gang_pack.topology_key.clone()).filter(|k| !k.is_empty()))
}

/// Reconstructs one gang from its live members (sorted by name).
pub fn reconstruct(
    inputs: &GangInputs<'_>,
    ns: Name,
    name: Name,
    members: Vec<usize>,
    warnings: &mut Vec<String>,
) -> Gang {
    let snap = inputs.snap;
    let pods: Vec<&Pod> = members.iter().map(|&i| &snap.pods[i]).collect();
    let pg = inputs
        .pod_groups
        .get(&(ns.as_ref(), name.as_ref()))
        .copied();
    let scheduler = inputs.config.scheduler_name.as_str();
    let on_ome = pods.iter().all(|p| effective_scheduler(p) == scheduler);
    let mut gang = Gang {
        namespace: ns,
        name,
        min_member: pg.and_then(|g| g.min_member),
        topology_key: pg.and_then(|g| topology_key(g, inputs.config)),
        state: GangState::Waiting,
        domain: None,
        split_domains: Vec::new(),
        pin_source: None,
        pin_as_of: None,
        placed: count(pods.iter().filter(|p| p.node.is_some())),
        remaining: None,
        members,
        pending_reason: None,
        on_ome_scheduler: on_ome,
        reservation: None,
        prediction: None,
    };
    if !on_ome && pods.iter().any(|p| effective_scheduler(p) == scheduler) {
        warnings.push(format!(
            "gang {} mixes schedulers: only members with schedulerName {scheduler} reach OMEGangPack",
            gang.key()
        ));
    }
    gang.remaining = gang
        .min_member
        .map(|m| u32::try_from((m - i64::from(gang.placed)).max(0)).unwrap_or(u32::MAX));
    let unplaced: Vec<&Pod> = pods.iter().copied().filter(|p| p.node.is_none()).collect();
    let fresh_after = pods.iter().filter_map(|p| p.created).max();
    let reasons = unplaced
        .iter()
        .filter_map(|p| pod_reason(p, inputs.events))
        .collect();
    gang.pending_reason = roll_up(reasons, fresh_after);
    if let Some(block) = blocked(pg, inputs.config, &gang, &pods) {
        gang.state = GangState::Blocked;
        if gang.pending_reason.is_none() {
            gang.pending_reason = unplaced
                .first()
                .map(|p| inferred(ns_key(&p.namespace, &p.name), block.0, block.1));
        }
        return gang;
    }
    let key = gang.topology_key.clone().unwrap_or_default();
    placement_state(inputs, &mut gang, &pods, &key);
    gang
}

fn count<'a>(pods: impl Iterator<Item = &'a &'a Pod>) -> u32 {
    u32::try_from(pods.count()).unwrap_or(u32::MAX)
}

/// The PreFilter preamble (§3.1 steps 3–7) as ome-top can check it: the message the
/// scheduler would report, or `None` when the gang can be planned.
fn blocked(
    pg: Option<&PodGroup>,
    cfg: &SchedulerConfig,
    gang: &Gang,
    pods: &[&Pod],
) -> Option<(Reason, String)> {
    let g = gang.key();
    let reason = |code| Reason::of(code).for_gang(&g);
    let Some(pg) = pg else {
        let message = ["PodGroup ", &g, " not resolvable yet"].concat();
        return Some((reason(ReasonCode::PodGroupNotResolvable), message));
    };
    if let Some(raw) = &pg.min_member_unreadable {
        let message = format!(
            "PodGroup {g}: spec.minMember {raw} is not a whole number the scheduler can read; \
             it cannot decode this PodGroup (\"not resolvable yet\")"
        );
        return Some((reason(ReasonCode::MinMemberNotAnInteger), message));
    }
    if gang.min_member.is_none() {
        let message = format!("PodGroup {g} must declare a positive minMember");
        return Some((reason(ReasonCode::MinMemberNotPositive), message));
    }
    let args = &cfg.gang_pack;
    let annotation = &args.pod_group_topology_key_annotation;
    if gang.topology_key.is_none() && annotation.is_empty() {
        let message =
            "scheduler must configure topologyKey or podGroupTopologyKeyAnnotation for gang pods";
        return Some((
            Reason::of(ReasonCode::TopologyNotConfigured),
            message.into(),
        ));
    }
    if gang.topology_key.is_none() {
        let message = format!(
            "PodGroup {g} must declare {annotation} or the scheduler must configure topologyKey"
        );
        let mut r = reason(ReasonCode::TopologyKeyMissing);
        r.detail = Some(annotation.clone());
        return Some((r, message));
    }
    let label = args.unsupported_placement_group_label.as_str();
    let on_pod = pods.iter().any(|p| {
        p.placement
            .as_deref()
            .is_some_and(|x| x.labels.get(label).is_some())
    });
    if !label.is_empty() && (on_pod || pg.labels.get(label).is_some()) {
        let message = "partner placement groups are not supported";
        return Some((
            Reason::of(ReasonCode::PlacementGroupUnsupported),
            message.into(),
        ));
    }
    let timeout = pg
        .schedule_timeout_seconds
        .filter(|t| *t > 0)
        .unwrap_or(args.default_permit_timeout_seconds);
    (timeout <= 0).then(|| {
        let message = format!(
            "PodGroup {g} must set scheduleTimeoutSeconds or the scheduler must configure \
             defaultPermitTimeoutSeconds"
        );
        (reason(ReasonCode::PermitTimeoutMissing), message)
    })
}

/// The domain value of placed pod `pod` (snapshot index) under `key` (`<unlabelled>` when the
/// node is missing or lacks the label).
fn placed_domain<'a>(inputs: &GangInputs<'a>, pod: usize, key: &str) -> &'a str {
    inputs
        .index
        .node_of(pod)
        .and_then(|i| inputs.snap.nodes[i].labels.get(key))
        .filter(|v| !v.is_empty())
        .unwrap_or(UNLABELLED)
}

/// §7.2 step 5 for a gang whose PodGroup facts allow a pin (`pods` aligned with
/// `gang.members`).
fn placement_state(inputs: &GangInputs<'_>, gang: &mut Gang, pods: &[&Pod], key: &str) {
    let domains: BTreeSet<&str> = pods
        .iter()
        .zip(&gang.members)
        .filter(|(p, _)| p.node.is_some())
        .map(|(_, &i)| placed_domain(inputs, i, key))
        .collect();
    let min = gang.min_member.unwrap_or(1);
    if domains.len() >= 2 || domains.contains(UNLABELLED) {
        gang.state = GangState::Split;
        gang.split_domains = domains.iter().map(|d| d.to_string()).collect();
        return;
    }
    if let Some(d) = domains.first() {
        gang.domain = Some(d.to_string());
        gang.pin_source = Some(PinSource::Bound);
        if i64::from(gang.placed) >= min {
            gang.state = GangState::Pinned;
        } else {
            gang.state = GangState::BoundPartial;
            gang.reservation = gang.on_ome_scheduler.then_some(Reservation::Inferred);
        }
        return;
    }
    let templates = pods
        .iter()
        .filter(|p| p.node.is_none() && !p.terminating)
        .count();
    let need = usize::try_from(min.max(1)).unwrap_or(usize::MAX);
    if templates < need {
        gang.state = GangState::Waiting;
        let first = pods
            .first()
            .map(|p| ns_key(&p.namespace, &p.name))
            .unwrap_or_default();
        let g = gang.key();
        let message = format!("waiting for all PodGroup member templates for {g}");
        let reason = Reason::of(ReasonCode::TemplatesIncomplete).for_gang(&g);
        gang.pending_reason = Some(inferred(first, reason, message));
        return;
    }
    let Some(reason) = &gang.pending_reason else {
        gang.state = GangState::Forming;
        return;
    };
    let named = reason.primary.domain.clone();
    match named.filter(|_| reason.primary.code.names_pinned_domain()) {
        Some(d) => {
            gang.state = GangState::Pinned;
            gang.domain = Some(d);
            gang.pin_source = Some(PinSource::Event);
            gang.pin_as_of = reason.at;
            gang.reservation = gang.on_ome_scheduler.then_some(Reservation::Inferred);
        }
        None => gang.state = GangState::Waiting,
    }
}
