//! The predicted pin (gangpack.md §7.3) and the reservation hints (§7.2 step 7).
//!
//! Prediction simulates PreFilter for a gang with nothing placed: templates = its unplaced,
//! non-terminating pods sorted by name (the first is "current"), `need = max(1, minMember)`,
//! capacity per domain (model C by default, A as an option), domains holding an inferred
//! reservation excluded (by node, so other topology keys count), then BestFit. It cannot see
//! assumed pods, the failed-domain memory or in-memory reservations, and the scheduler's
//! queue order decides which gang reserves first: it is labelled "predicted".
//!
//! Owns: `Prediction`, `PredictedOutcome`, `ReservationHint`, `predict_pins`, `reservation_hints`,
//! `DomainIndex`. Pure.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::gangs::capacity::{domain_capacity, fit_order, CapacityModel, TemplateClasses};
use crate::engine::gangs::classify::ReasonCode;
use crate::engine::gangs::fit::FitContext;
use crate::engine::gangs::reasons::pod_reason;
use crate::engine::gangs::state::GangInputs;
use crate::engine::gangs::{ns_key, Gang, GangState, PinSource, Reservation};
use crate::engine::model::{ClusterSnapshot, Pod};
use rustc_hash::FxHashMap as FastMap;

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
        let mut map: FastMap<&str, Vec<usize>> = FastMap::default();
        for (i, n) in snap.nodes.iter().enumerate() {
            if let Some(v) = n.labels.get(key).filter(|v| !v.is_empty()) {
                map.entry(v).or_default().push(i);
            }
        }
        let mut domains: Vec<(String, Vec<usize>)> =
            map.into_iter().map(|(v, n)| (v.to_string(), n)).collect();
        domains.sort_by(|a, b| a.0.cmp(&b.0));
        DomainIndex { domains }
    }

    /// The nodes of domain `value` (empty when no node carries it).
    pub fn nodes(&self, value: &str) -> &[usize] {
        self.domains
            .binary_search_by(|(v, _)| v.as_str().cmp(value))
            .map_or(&[][..], |i| &self.domains[i].1[..])
    }
}

/// Domain indices by topology key, shared by prediction and hints.
pub type DomainCache = FastMap<String, DomainIndex>;

static NO_DOMAINS: DomainIndex = DomainIndex {
    domains: Vec::new(),
};

/// The domain index of `key`, built on first use.
fn domains<'c>(cache: &'c mut DomainCache, snap: &ClusterSnapshot, key: &str) -> &'c DomainIndex {
    if !cache.contains_key(key) {
        cache.insert(key.to_string(), DomainIndex::new(snap, key));
    }
    cache.get(key).unwrap_or(&NO_DOMAINS)
}

/// One capacity table: for a key, template classes, need and per-node cap, the capacity of
/// every domain (aligned with the key's DomainIndex) and the BestFit order over it.
struct Table<'a> {
    key: String,
    classes: TemplateClasses<'a>,
    need: u32,
    per_node: u32,
    order: Vec<usize>,
    caps: Vec<(String, u32)>,
}

impl<'a> Table<'a> {
    fn matches(&self, key: &str, classes: &TemplateClasses<'_>, need: u32, per_node: u32) -> bool {
        self.key == key
            && self.need == need
            && self.per_node == per_node
            && self.classes.same_as(classes)
    }

    /// Capacities of every domain of `idx` and their BestFit order.
    fn compute(
        ctx: &FitContext<'_>,
        idx: &DomainIndex,
        key: String,
        classes: TemplateClasses<'a>,
        (need, per_node): (u32, u32),
        model: CapacityModel,
    ) -> Self {
        let caps: Vec<(String, u32)> = idx
            .domains
            .iter()
            .map(|(d, nodes)| {
                let cap = domain_capacity(ctx, nodes, &classes, need, per_node, model);
                (d.clone(), cap)
            })
            .collect();
        let order = fit_order(&caps, need);
        Table {
            key,
            classes,
            need,
            per_node,
            order,
            caps,
        }
    }
}

/// Whether `g` gets a predicted pin.
pub fn wanted(g: &Gang) -> bool {
    g.on_ome_scheduler
        && matches!(g.state, GangState::Forming | GangState::Waiting)
        && g.placed == 0
        && g.topology_key.is_some()
        && g.min_member.is_some()
}

/// Nodes of the domains of inferred reservations (any topology key).
fn reserved_nodes(snap: &ClusterSnapshot, gangs: &[Gang], cache: &mut DomainCache) -> Vec<bool> {
    let mut reserved = vec![false; snap.nodes.len()];
    for g in gangs
        .iter()
        .filter(|g| g.reservation == Some(Reservation::Inferred))
    {
        if let (Some(key), Some(d)) = (&g.topology_key, &g.domain) {
            for &n in domains(cache, snap, key).nodes(d) {
                reserved[n] = true;
            }
        }
    }
    reserved
}

/// Fills `prediction` (and a predicted `domain`) of every Forming/Waiting gang on the OME
/// scheduler with nothing placed. Builds the fit context only when some gang needs it;
/// capacity tables are shared by gangs of the same shape.
pub fn predict_pins(
    inputs: &GangInputs<'_>,
    model: CapacityModel,
    gangs: &mut [Gang],
    cache: &mut DomainCache,
) {
    let snap = inputs.snap;
    let reserved = reserved_nodes(snap, gangs, cache);
    if !gangs.iter().any(wanted) {
        return;
    }
    let ctx = FitContext::new(snap, inputs.index);
    let mut tables: Vec<Table<'_>> = Vec::new();
    // Per key: whether each domain (aligned with its DomainIndex) holds a reserved node.
    let mut blocked: FastMap<String, Vec<bool>> = FastMap::default();
    for g in gangs.iter_mut().filter(|g| wanted(g)) {
        let key = g.topology_key.clone().unwrap_or_default();
        let idx = domains(cache, snap, &key);
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
        let table = match tables
            .iter()
            .position(|t| t.matches(&key, &classes, need, per_node))
        {
            Some(i) => &tables[i],
            None => {
                let t = Table::compute(&ctx, idx, key.clone(), classes, (need, per_node), model);
                tables.push(t);
                &tables[tables.len() - 1]
            }
        };
        if !blocked.contains_key(&key) {
            let flags = idx
                .domains
                .iter()
                .map(|(_, nodes)| nodes.iter().any(|&n| reserved[n]))
                .collect();
            blocked.insert(key.clone(), flags);
        }
        let blocked = blocked.get(&key).map_or(&[][..], |b| &b[..]);
        let current = ns_key(&templates[0].namespace, &templates[0].name);
        apply(g, table, blocked, model, current);
    }
}

/// BestFit from a table with reserved domains excluded, written into the gang.
fn apply(g: &mut Gang, t: &Table<'_>, blocked: &[bool], model: CapacityModel, current: String) {
    let chosen = t.order.iter().find(|&&i| !blocked[i]).map(|&i| &t.caps[i]);
    let outcome = match chosen {
        Some(_) => PredictedOutcome::Fits,
        // Lineage C tells a gang blocked only by reservations apart (#18); A says #17.
        None if model == CapacityModel::MemberRoom && !t.order.is_empty() => {
            PredictedOutcome::AllReserved
        }
        None => PredictedOutcome::NoFit,
    };
    g.prediction = Some(Prediction {
        model,
        current,
        need: t.need,
        domain: chosen.map(|c| c.0.clone()),
        capacity: chosen.map_or(0, |c| c.1),
        outcome,
    });
    if let Some(c) = chosen {
        g.domain = Some(c.0.clone());
        g.pin_source = Some(PinSource::Predicted);
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

/// Evidence by reported node count: standalone pods told #21, gangs told #18 (count unknown).
fn reservation_evidence(
    inputs: &GangInputs<'_>,
    standalone: &[usize],
    gangs: &[Gang],
) -> BTreeMap<Option<u32>, BTreeSet<String>> {
    let mut evidence: BTreeMap<Option<u32>, BTreeSet<String>> = BTreeMap::new();
    for pod in standalone.iter().map(|&i| &inputs.snap.pods[i]) {
        let Some(reason) = pod_reason(pod, inputs.events) else {
            continue;
        };
        if let Some(r) = reason
            .reasons
            .iter()
            .find(|r| r.code == ReasonCode::NodeReserved)
        {
            evidence
                .entry(r.nodes)
                .or_default()
                .insert(ns_key(&pod.namespace, &pod.name));
        }
    }
    for g in gangs.iter().filter(|g| {
        g.pending_reason
            .as_ref()
            .is_some_and(|r| r.primary.code == ReasonCode::DomainsReserved)
    }) {
        evidence.entry(None).or_default().insert(g.key());
    }
    evidence
}

/// §7.2 step 7: groups the evidence by reported node count, lists the candidate gangs and
/// attributes a hint when exactly one candidate fits (one candidate overall, or one whose
/// known/predicted domain has exactly the reported node count).
/// `standalone` are the unplaced standalone pods of the OME scheduler (snapshot indices).
pub fn reservation_hints(
    inputs: &GangInputs<'_>,
    standalone: &[usize],
    gangs: &mut [Gang],
    cache: &mut DomainCache,
) -> Vec<ReservationHint> {
    let snap = inputs.snap;
    let evidence = reservation_evidence(inputs, standalone, gangs);
    let candidates: Vec<usize> = (0..gangs.len())
        .filter(|&i| {
            let g = &gangs[i];
            g.on_ome_scheduler && matches!(g.state, GangState::Forming | GangState::BoundPartial)
        })
        .collect();
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
                domains(cache, snap, key).nodes(d).len() == n as usize
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
