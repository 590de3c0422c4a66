//! The predicted pin (gangpack.md §7.3) and the reservation hints (§7.2 step 7).
//!
//! Prediction simulates PreFilter for a gang with nothing placed: templates = its unplaced,
//! non-terminating pods sorted by name (the first is "current"), `need = max(1, minMember)`,
//! capacity per domain (model C by default, A as an option), domains holding an inferred
//! reservation excluded (by node, so other topology keys count), then BestFit. It cannot see
//! assumed pods, the failed-domain memory or in-memory reservations, and the scheduler's
//! queue order decides which gang reserves first: it is labelled "predicted".
//!
//! Owns: `Prediction`, `PredictedOutcome`, `ReservationHint`, `predict_pins`,
//! `reservation_hints`, `DomainIndex`. Pure; must not import anything outside `std` and
//! `engine`.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::engine::gang::{Gang, GangState, PinSource, Reservation};
use crate::engine::gang_capacity::{best_fit, domain_capacity, CapacityModel, TemplateClasses};
use crate::engine::gang_classify::ReasonCode;
use crate::engine::gang_fit::FitContext;
use crate::engine::gang_reasons::{effective_scheduler, pod_reason};
use crate::engine::gang_state::GangInputs;
use crate::engine::model::{ClusterSnapshot, Pod};

/// What the simulated PreFilter would conclude.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PredictedOutcome {
    /// BestFit found `domain`.
    Fits,
    /// Only reserved domains fit (lineage C message #18).
    AllReserved,
    /// No domain fits (message #17).
    NoFit,
}

impl PredictedOutcome {
    /// `fits`, `allReserved` or `noFit`.
    pub fn name(self) -> &'static str {
        match self {
            PredictedOutcome::Fits => "fits",
            PredictedOutcome::AllReserved => "allReserved",
            PredictedOutcome::NoFit => "noFit",
        }
    }
}

/// A predicted pin. Never an observation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prediction {
    /// Capacity model used.
    pub model: CapacityModel,
    /// `ns/pod` of the "current" template (the lexicographically first pending member).
    pub current: String,
    /// Members to place, `max(1, minMember − placed)`.
    pub need: u32,
    /// The BestFit domain, when one fits.
    pub domain: Option<String>,
    /// Its capacity (members or nodes, by model); 0 when none fits.
    pub capacity: u32,
    /// Outcome.
    pub outcome: PredictedOutcome,
}

/// Evidence that some forming gang holds a reservation (standalone pods told `node is
/// reserved for a forming gang`, gangs told `every fitting domain is reserved`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReservationHint {
    /// The reserved node count the messages report (#21), when they report one.
    pub nodes: Option<u32>,
    /// `ns/pod` of standalone pods and `ns/name` of gangs reporting it, sorted.
    pub evidence: Vec<String>,
    /// Gangs that may hold it (Forming or BoundPartial on the OME scheduler), sorted.
    pub candidates: Vec<String>,
    /// The one candidate it is attributed to, when exactly one fits the evidence.
    pub attributed: Option<String>,
}

/// Nodes grouped by their value of one label key (values sorted byte-wise; unlabelled and
/// empty values are in no domain).
#[derive(Debug, Clone, Default)]
pub struct DomainIndex {
    /// `(value, node indices)`.
    pub domains: Vec<(String, Vec<usize>)>,
}

impl DomainIndex {
    /// Indexes `snap.nodes` by `key`.
    pub fn new(snap: &ClusterSnapshot, key: &str) -> Self {
        let mut map: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, n) in snap.nodes.iter().enumerate() {
            if let Some(v) = n.labels.get(key).filter(|v| !v.is_empty()) {
                map.entry(v).or_default().push(i);
            }
        }
        DomainIndex {
            domains: map.into_iter().map(|(v, n)| (v.to_string(), n)).collect(),
        }
    }

    /// The nodes of domain `value` (empty when no node carries it).
    pub fn nodes(&self, value: &str) -> &[usize] {
        self.domains
            .binary_search_by(|(v, _)| v.as_str().cmp(value))
            .map_or(&[][..], |i| &self.domains[i].1[..])
    }
}

type Cached<'a> = (String, TemplateClasses<'a>, u32, u32, Vec<(String, u32)>);

/// Fills `prediction` (and a predicted `domain`) of every Forming/Waiting gang on the OME
/// scheduler with nothing placed, and marks reserved domains. Builds the fit context only
/// when some gang needs it.
pub fn predict_pins(inputs: &GangInputs<'_>, model: CapacityModel, gangs: &mut [Gang]) {
    let snap = inputs.snap;
    let mut indices: HashMap<String, DomainIndex> = HashMap::new();
    let mut reserved = vec![false; snap.nodes.len()];
    for g in gangs
        .iter()
        .filter(|g| g.reservation == Some(Reservation::Inferred))
    {
        if let (Some(key), Some(d)) = (&g.topology_key, &g.domain) {
            let idx = indices
                .entry(key.clone())
                .or_insert_with(|| DomainIndex::new(snap, key));
            idx.nodes(d).iter().for_each(|&n| reserved[n] = true);
        }
    }
    let wanted = |g: &Gang| {
        g.on_ome_scheduler
            && matches!(g.state, GangState::Forming | GangState::Waiting)
            && g.placed == 0
            && g.topology_key.is_some()
            && g.min_member.is_some()
    };
    if !gangs.iter().any(wanted) {
        return;
    }
    let ctx = FitContext::new(snap, inputs.index);
    let mut cache: Vec<Cached<'_>> = Vec::new();
    for g in gangs.iter_mut().filter(|g| wanted(g)) {
        let key = g.topology_key.clone().unwrap_or_default();
        let idx = indices
            .entry(key.clone())
            .or_insert_with(|| DomainIndex::new(snap, &key));
        let templates: Vec<&Pod> = g
            .members
            .iter()
            .map(|&i| &snap.pods[i])
            .filter(|p| p.node.is_none() && !p.terminating)
            .collect();
        let need = u32::try_from(g.min_member.unwrap_or(1).max(1)).unwrap_or(u32::MAX);
        if templates.len() < need as usize {
            continue;
        }
        let classes = TemplateClasses::new(&templates);
        let per_node = if anti_affinity_within(snap, &g.members) {
            1
        } else {
            need
        };
        let hit = cache.iter().position(|(k, c, n, p, _)| {
            *k == key && *n == need && *p == per_node && c.same_as(&classes)
        });
        let pos = hit.unwrap_or_else(|| {
            let caps = idx
                .domains
                .iter()
                .map(|(d, nodes)| {
                    (
                        d.clone(),
                        domain_capacity(&ctx, nodes, &classes, need, per_node, model),
                    )
                })
                .collect();
            cache.push((key.clone(), classes, need, per_node, caps));
            cache.len() - 1
        });
        let caps = &cache[pos].4;
        let blocked = |d: &str| idx.nodes(d).iter().any(|&n| reserved[n]);
        let chosen = best_fit(caps, need, blocked);
        let outcome = match chosen {
            Some(_) => PredictedOutcome::Fits,
            None if model == CapacityModel::MemberRoom
                && best_fit(caps, need, |_| false).is_some() =>
            {
                PredictedOutcome::AllReserved
            }
            None => PredictedOutcome::NoFit,
        };
        g.prediction = Some(Prediction {
            model,
            current: templates[0].key(),
            need,
            domain: chosen.map(|c| c.0.clone()),
            capacity: chosen.map_or(0, |c| c.1),
            outcome,
        });
        if let Some(c) = chosen {
            g.domain = Some(c.0.clone());
            g.pin_source = Some(PinSource::Predicted);
        }
    }
}

/// Whether a member's required pod anti-affinity term matches any member (itself included):
/// lineage C then allows one member per node.
fn anti_affinity_within(snap: &ClusterSnapshot, members: &[usize]) -> bool {
    let labelled = |i: usize| {
        let p = &snap.pods[i];
        (p, p.placement.as_deref())
    };
    members.iter().any(|&a| {
        let (pod, placement) = labelled(a);
        placement.is_some_and(|x| {
            x.pod_anti_affinity.iter().any(|term| {
                members.iter().any(|&b| {
                    let (other, op) = labelled(b);
                    op.is_some_and(|o| term.matches(&pod.namespace, other, &o.labels))
                })
            })
        })
    })
}

/// §7.2 step 7: groups the evidence by reported node count, lists the candidate gangs and
/// attributes a hint when exactly one candidate fits (one candidate overall, or one whose
/// known/predicted domain has exactly the reported node count).
pub fn reservation_hints(inputs: &GangInputs<'_>, gangs: &mut [Gang]) -> Vec<ReservationHint> {
    let snap = inputs.snap;
    let scheduler = inputs.config.scheduler_name.as_str();
    let mut evidence: BTreeMap<Option<u32>, BTreeSet<String>> = BTreeMap::new();
    for pod in snap.pods.iter().filter(|p| {
        p.ome.pod_group.is_none() && p.node.is_none() && effective_scheduler(p) == scheduler
    }) {
        let Some(reason) = pod_reason(pod, inputs.events) else {
            continue;
        };
        if let Some(r) = reason
            .reasons
            .iter()
            .find(|r| r.code == ReasonCode::NodeReserved)
        {
            evidence.entry(r.nodes).or_default().insert(pod.key());
        }
    }
    for g in gangs.iter().filter(|g| {
        g.pending_reason
            .as_ref()
            .is_some_and(|r| r.primary.code == ReasonCode::DomainsReserved)
    }) {
        evidence.entry(None).or_default().insert(g.key());
    }
    let candidates: Vec<usize> = (0..gangs.len())
        .filter(|&i| {
            let g = &gangs[i];
            g.on_ome_scheduler && matches!(g.state, GangState::Forming | GangState::BoundPartial)
        })
        .collect();
    let mut indices: HashMap<String, DomainIndex> = HashMap::new();
    let mut hints = Vec::new();
    for (nodes, pods) in evidence {
        let sized: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| {
                let g = &gangs[i];
                let (Some(key), Some(d), Some(n)) = (&g.topology_key, &g.domain, nodes) else {
                    return false;
                };
                let idx = indices
                    .entry(key.clone())
                    .or_insert_with(|| DomainIndex::new(snap, key));
                idx.nodes(d).len() == n as usize
            })
            .collect();
        let attributed = match (candidates.len(), sized.len()) {
            (1, _) => Some(candidates[0]),
            (_, 1) => Some(sized[0]),
            _ => None,
        };
        if let Some(i) = attributed {
            gangs[i].reservation.get_or_insert(Reservation::Hinted);
        }
        hints.push(ReservationHint {
            nodes,
            evidence: pods.into_iter().collect(),
            candidates: candidates.iter().map(|&i| gangs[i].key()).collect(),
            attributed: attributed.map(|i| gangs[i].key()),
        });
    }
    hints
}
