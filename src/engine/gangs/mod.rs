//! Gang pins reconstructed from outside the scheduler (gangpack.md §7.2): gangs from the
//! pod-group label, PodGroup facts, placed members per topology domain, and one state per
//! gang — Blocked, Split, Pinned (bound or from an event), BoundPartial (reservation
//! inferred), Forming or Waiting — with the classified Pending reason, the predicted pin of
//! §7.3 (`predict`) and the reservation hints of step 7.
//!
//! Pins live only in the scheduler leader's memory; everything here is a reconstruction or a
//! prediction and is labelled as such (`PinSource`).
//!
//! Owns: `Gang`, `GangState`, `PinSource`, `GangReport`, `PlacementOptions`, `compute_gangs` (a
//! pool's topology key: `domains`). Pure.

mod capacity;
mod classify;
mod config_error;
mod domains;
mod fit;
mod fit_check;
mod inputs;
mod predict;
mod reasons;
mod scheduler_config;
mod score;
mod state;

pub use capacity::CapacityModel;
pub use classify::{classify, primary, Reason, ReasonCode};
pub use config_error::SchedulerConfigError;
pub use domains::{pool_topology_key, topology_key_among};
pub use fit::{FitContext, NodeFree};
pub use fit_check::{first_refusal, FitCheck, GPU_PRODUCT_LABEL};
pub use inputs::{reads_node_capacity, same_gang_inputs};
pub use predict::PredictedOutcome;
pub use reasons::{effective_scheduler, PendingReason, ReasonSource};
pub use scheduler_config::SCHEDULER_CONFIG_MAP;
pub use score::gaudi_binpack_score;

use std::collections::HashSet;

use crate::engine::fast::{ByAddress, LastAnswer};
use crate::engine::index::SnapshotIndex;

use crate::engine::gangs::predict::{
    predict_pins, reservation_hints, DomainCache, Prediction, ReservationHint,
};
use crate::engine::gangs::reasons::EventIndex;

use crate::engine::gangs::scheduler_config::{load_scheduler_config, SchedulerConfig};
use crate::engine::gangs::state::{reconstruct, GangInputs};
use crate::engine::model::{ClusterSnapshot, InferenceReplica, Name, PodGroup, Time};
use rustc_hash::FxHashMap as FastMap;

/// Options of the gang and lint engines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacementOptions {
    /// Namespace of the scheduler's ConfigMap `ome-scheduler-config` (default `ome`).
    pub scheduler_namespace: String,
    /// Capacity unit of the predicted pin (default C, member room).
    pub capacity_model: CapacityModel,
    /// GPU utilisation in percent below which a node counts as underutilised for the
    /// descheduler's `HighNodeUtilization` view (default 40, i.e. ≤ 3 of 8 cards).
    pub repack_threshold_percent: u32,
}

impl Default for PlacementOptions {
    fn default() -> Self {
        PlacementOptions {
            scheduler_namespace: "ome".into(),
            capacity_model: CapacityModel::default(),
            repack_threshold_percent: 40,
        }
    }
}

/// A gang's reconstructed state (gangpack.md §7.2 step 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum GangState {
    /// PodGroup facts or the scheduler config make a pin impossible (missing PodGroup, bad
    /// minMember, no topology key, placement-group label, no permit timeout).
    Blocked,
    /// Placed members sit in ≥ 2 domains or on a node without the label.
    Split,
    /// Pinned to `domain`: all `minMember` placed (source bound), or a Pending message names
    /// the domain the scheduler committed to (source event).
    Pinned,
    /// Some but fewer than `minMember` members placed in one domain; the scheduler adopts that
    /// domain and reserves it (reservation inferred).
    BoundPartial,
    /// Members complete, nothing placed, no current FailedScheduling: most likely waiting at
    /// Permit (invisible in the API).
    Forming,
    /// Nothing placed and a current Pending reason (or too few member pods).
    Waiting,
}

impl GangState {
    /// The state's name as written in JSON.
    pub fn name(self) -> &'static str {
        match self {
            GangState::Blocked => "Blocked",
            GangState::Split => "Split",
            GangState::Pinned => "Pinned",
            GangState::BoundPartial => "BoundPartial",
            GangState::Forming => "Forming",
            GangState::Waiting => "Waiting",
        }
    }
}

/// Where a gang's `domain` comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinSource {
    /// Bound members' nodes and their labels (ground truth after bind).
    Bound,
    /// A Pending message naming the domain (#15, #16, #20, #22), as of `pin_as_of`.
    Event,
    /// ome-top's simulation of PreFilter (§7.3): a prediction, not an observation.
    Predicted,
}

impl PinSource {
    /// `bound`, `event` or `predicted`.
    pub fn name(self) -> &'static str {
        match self {
            PinSource::Bound => "bound",
            PinSource::Event => "event",
            PinSource::Predicted => "predicted",
        }
    }
}

/// Why a gang's domain counts as reserved for other gangs and standalone pods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reservation {
    /// BoundPartial or event-pinned: the scheduler holds (or will adopt) a commitment there.
    Inferred,
    /// Attributed from `node is reserved` / `every fitting domain is reserved` evidence.
    Hinted,
}

/// The domain marker for placed members on nodes without the label (or missing nodes).
pub const UNLABELLED: &str = "<unlabelled>";

/// One gang: the pods of one `namespace/pod-group` label value.
#[derive(Debug, Clone, PartialEq)]
pub struct Gang {
    /// Namespace.
    pub namespace: Name,
    /// PodGroup name (the label value).
    pub name: Name,
    /// `spec.minMember` of the PodGroup; `None` when missing, absent or < 1.
    pub min_member: Option<i64>,
    /// The effective topology key (annotation, else the plugin arg); `None` when neither.
    pub topology_key: Option<String>,
    /// State.
    pub state: GangState,
    /// The domain value (pinned, bound-partial or predicted).
    pub domain: Option<String>,
    /// The domains of a Split gang, sorted (`<unlabelled>` for nodes without the label).
    pub split_domains: Vec<String>,
    /// Source of `domain`.
    pub pin_source: Option<PinSource>,
    /// Time of the message an event pin comes from.
    pub pin_as_of: Option<Time>,
    /// Members bound to a node (terminating included, terminal excluded).
    pub placed: u32,
    /// `max(0, minMember − placed)`; `None` without a valid minMember.
    pub remaining: Option<u32>,
    /// Snapshot indices of the live members (not Succeeded/Failed), sorted by pod name.
    pub members: Vec<usize>,
    /// The rolled-up reason the gang's unplaced members are Pending.
    pub pending_reason: Option<PendingReason>,
    /// Every member uses the OME scheduler's profile name (else OMEGangPack never sees them).
    pub on_ome_scheduler: bool,
    /// Whether (and why) the gang's domain is considered reserved.
    pub reservation: Option<Reservation>,
    /// The predicted pin (§7.3) for gangs with nothing placed.
    pub prediction: Option<Prediction>,
}

impl Gang {
    /// `ns/name`.
    pub fn key(&self) -> String {
        ns_key(&self.namespace, &self.name)
    }
}

/// `ns/name`, built without the formatting machinery (it runs once per gang and pod).
pub fn ns_key(ns: &str, name: &str) -> String {
    let mut s = String::with_capacity(ns.len() + 1 + name.len());
    s.push_str(ns);
    s.push('/');
    s.push_str(name);
    s
}

/// Everything the gang engine computed for one snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct GangReport {
    /// The effective scheduler configuration.
    pub config: SchedulerConfig,
    /// Gangs sorted by `ns/name`.
    pub gangs: Vec<Gang>,
    /// Cluster-level evidence of reservations held by forming gangs.
    pub hints: Vec<ReservationHint>,
    /// Config and data oddities (malformed config, mixed schedulers, key drift).
    pub warnings: Vec<String>,
    /// Why `ome-scheduler-config` exists but was not read (chart defaults are then in force).
    pub config_error: Option<String>,
}

/// Reconstructs every gang of the snapshot (gangpack.md §7.2) and predicts pins (§7.3).
/// `index` is the analysis's [`SnapshotIndex`] of the snapshot.
pub fn compute_gangs(
    snap: &ClusterSnapshot,
    index: &SnapshotIndex,
    opts: &PlacementOptions,
) -> GangReport {
    let (config, mut warnings) = load_scheduler_config(snap, &opts.scheduler_namespace);
    // The loader warns only when the ConfigMap is there and cannot be read.
    let config_error = warnings.first().cloned();
    let events = EventIndex::new(snap);
    let pod_groups: FastMap<(&str, &str), &PodGroup> = snap
        .pod_groups
        .iter()
        .map(|g| ((g.namespace.as_ref(), g.name.as_ref()), g))
        .collect();
    let inputs = GangInputs {
        snap,
        config: &config,
        index,
        events: &events,
        pod_groups: &pod_groups,
    };
    let (groups, standalone) = scan_pods(snap, index, &config.scheduler_name);
    let mut gangs: Vec<Gang> = groups
        .into_iter()
        .map(|((ns, name), members)| reconstruct(&inputs, ns, name, members, &mut warnings))
        .collect();
    let mut domains = DomainCache::default();
    predict_pins(&inputs, opts.capacity_model, &mut gangs, &mut domains);
    let hints = reservation_hints(&inputs, &standalone, &mut gangs, &mut domains);
    warnings.extend(drift_warnings(snap, &pod_groups, &gangs));
    GangReport {
        config,
        gangs,
        hints,
        warnings,
        config_error,
    }
}

/// Gang members (snapshot indices, sorted by pod name) by `(namespace, pod-group label)`,
/// sorted by key.
type Groups = Vec<((Name, Name), Vec<usize>)>;

/// From the index's pod lists: live pods (not Succeeded/Failed) with a pod-group label by
/// `(namespace, label)`, each list sorted by pod name; and the unplaced standalone pods of
/// the OME scheduler (reservation evidence).
fn scan_pods(
    snap: &ClusterSnapshot,
    index: &SnapshotIndex,
    scheduler: &str,
) -> (Groups, Vec<usize>) {
    // Groups in first-seen order: pods come in store order, so that is nearly key order and
    // the final sort has little to do. A gang's pods sit side by side: the previous pod's
    // key, equal by address, is not hashed again.
    let mut slot_of: FastMap<(&str, &str), usize> = FastMap::default();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut last = LastAnswer::default();
    for &i in &index.grouped {
        let pod = &snap.pods[i];
        let Some(group) = pod.ome.pod_group.as_ref() else {
            continue;
        };
        let at = (ByAddress(&pod.namespace), ByAddress(group));
        let slot = last.get(at, || {
            let next = groups.len();
            let key = (pod.namespace.as_ref(), group.as_ref());
            let slot = *slot_of.entry(key).or_insert(next);
            if slot == next {
                groups.push(Vec::new());
            }
            slot
        });
        groups[slot].push(i);
    }
    let standalone = index
        .unbound
        .iter()
        .copied()
        .filter(|&i| {
            let pod = &snap.pods[i];
            pod.ome.pod_group.is_none() && effective_scheduler(pod) == scheduler
        })
        .collect();
    let mut out: Groups = groups
        .into_iter()
        .map(|mut members| {
            members.sort_by(|a, b| snap.pods[*a].name.cmp(&snap.pods[*b].name));
            let first = &snap.pods[members[0]];
            let group = first.ome.pod_group.clone().unwrap_or_default();
            ((first.namespace.clone(), group), members)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    (out, standalone)
}

/// Topology drift (§7.2 step 8): a PodGroup key that differs from its InferenceReplica's
/// `spec.topologyKey` (a key change in progress), and event pins on a domain no node carries.
fn drift_warnings(
    snap: &ClusterSnapshot,
    pod_groups: &FastMap<(&str, &str), &PodGroup>,
    gangs: &[Gang],
) -> Vec<String> {
    // Built on first use: only a gang whose PodGroup names its replica reads it, and hashing
    // every replica's name for none was a visible share of this pass (`benches/stages.rs`, stage `gangs`).
    let mut replicas: Option<FastMap<(&str, &str), &InferenceReplica>> = None;
    let mut values: FastMap<&str, HashSet<&str>> = FastMap::default();
    let mut out = Vec::new();
    for g in gangs {
        let Some(key) = g.topology_key.as_deref() else {
            continue;
        };
        let pg = pod_groups.get(&(g.namespace.as_ref(), g.name.as_ref()));
        let ir_name = pg.and_then(|pg| {
            let isvc = pg.labels.get("ome.io/inferenceservice")?;
            Some(format!("{isvc}-{}", pg.labels.get("component")?))
        });
        let ir = ir_name.as_deref().and_then(|n| {
            let replicas = replicas.get_or_insert_with(|| {
                snap.replicas
                    .iter()
                    .map(|r| ((r.namespace.as_ref(), r.name.as_ref()), r))
                    .collect()
            });
            replicas.get(&(g.namespace.as_ref(), n)).copied()
        });
        if let Some(ir_key) = ir.and_then(|ir| ir.topology_key.as_deref()) {
            if ir_key != key {
                out.push(format!(
                    "gang {}: PodGroup topology key {key} differs from the InferenceReplica's \
                     spec.topologyKey {ir_key}: the key is changing; a pin under the old key is \
                     released at the next attempt (topology_replan)",
                    g.key()
                ));
            }
        }
        let Some(d) = g
            .domain
            .as_deref()
            .filter(|_| g.pin_source == Some(PinSource::Event))
        else {
            continue;
        };
        let carried = values.entry(key).or_insert_with(|| {
            snap.nodes
                .iter()
                .filter_map(|n| n.labels.get(key))
                .collect()
        });
        if !carried.contains(d) {
            out.push(format!(
                "gang {}: pinned domain {d} has no node labelled {key}; the scheduler replans \
                 at the next attempt (stale_replan)",
                g.key()
            ));
        }
    }
    out
}

/// An inferred reason: ome-top's own reading of the snapshot, worded as the scheduler would
/// word it (not classified again: the reason is known).
pub fn inferred(pod: String, reason: Reason, message: String) -> PendingReason {
    PendingReason {
        pod,
        source: ReasonSource::Inferred,
        at: None,
        message,
        reasons: vec![reason.clone()],
        primary: reason,
    }
}
