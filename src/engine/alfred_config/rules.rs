//! Adapters from the effective Alfred config to the rule sets the engines take: scoring
//! (ladder, prior, λ, τ, threshold, spot), eligibility switches and node rules. Keeping them in
//! one place means the engines never depend on the config's layout.
//!
//! Owns: `ScoringRules`, the `from_config` constructors, node-rule adapters. Pure.

use std::collections::BTreeMap;

use crate::engine::alfred_config::{AlfredConfig, NodeFacts, TriggerMatcher};
use crate::engine::model::{Labels, Node, Time};

/// Inputs of the per-pool score.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoringRules {
    /// Size ladder, ascending, GPUs.
    pub ladder: Vec<u32>,
    /// Size prior aligned with `ladder`, summing to 1.
    pub prior: Vec<f64>,
    /// Demand blend λ in [0, 1].
    pub lambda: f64,
    /// Pending urgency τ, minutes (> 0).
    pub tau_minutes: f64,
    /// Fragmentation threshold in [0, 1] (strict `>`).
    pub threshold: f64,
    /// `spotPolicy.avoidAsTarget`: spot nodes are not bins.
    pub avoid_spot: bool,
}

impl ScoringRules {
    /// The scoring rules of `cfg`.
    pub fn from_config(cfg: &AlfredConfig) -> Self {
        let defrag = &cfg.policies.defragmentation;
        let scoring = &defrag.scoring;
        ScoringRules {
            ladder: scoring.size_ladder.clone(),
            prior: scoring
                .size_ladder
                .iter()
                .map(|s| scoring.prior_weight(*s))
                .collect(),
            lambda: scoring.demand_blend_lambda,
            tau_minutes: f64::from(scoring.pending_urgency_tau_minutes),
            threshold: defrag.fragmentation_threshold,
            avoid_spot: cfg.spot_policy.avoid_as_target,
        }
    }
}

/// `(triggerConditions, nodeSuspicionWindowMinutes)`.
pub fn health_rules(cfg: &AlfredConfig) -> (&[String], i64) {
    let h = &cfg.policies.node_health;
    (
        &h.trigger_conditions,
        i64::from(h.node_suspicion_window_minutes),
    )
}

/// The first instant after `now` at which `maintenance_triggers(cfg, node, ·)` can answer
/// otherwise: the earliest `valueIsStartTime` label start still ahead (the only rule that reads
/// the time; it compares whole seconds, so the instant is that second).
pub fn maintenance_deadline(cfg: &AlfredConfig, node: &Node, now: Time) -> Option<Time> {
    let triggers = &cfg.policies.node_health.maintenance.triggers;
    let starts = triggers.iter().filter_map(|t| match &t.matcher {
        TriggerMatcher::Label {
            key,
            value_is_start_time: true,
            ..
        } => super::matching::label_start(node.labels.get(key)?),
        _ => None,
    });
    starts
        .filter(|start| *start > now.timestamp())
        .min()
        .and_then(|start| Time::from_timestamp(start, 0))
}

/// Names of the maintenance triggers matching `node` at `now`, sorted.
pub fn maintenance_triggers(cfg: &AlfredConfig, node: &Node, now: Time) -> Vec<String> {
    if cfg.policies.node_health.maintenance.triggers.is_empty() {
        // The common case: no node facts to build.
        return Vec::new();
    }
    let labels: BTreeMap<String, String> = node
        .labels
        .0
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let conditions: Vec<(String, String)> = node
        .conditions
        .iter()
        .map(|c| (c.kind.to_string(), c.status.to_string()))
        .collect();
    let taints: Vec<(String, String, String)> = node
        .taints
        .iter()
        .map(|t| (t.key.to_string(), t.value.to_string(), t.effect.to_string()))
        .collect();
    let facts = NodeFacts {
        labels: &labels,
        conditions: &conditions,
        taints: &taints,
    };
    cfg.matching_maintenance_triggers(&facts, now.timestamp())
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// Whether a node is preemptible: it has one of `spotPolicy.preemptibleLabels` with a value
/// other than `"false"` (the rule of `AlfredConfig::is_preemptible`, on compact labels).
pub fn is_preemptible(cfg: &AlfredConfig, labels: &Labels) -> bool {
    cfg.spot_policy
        .preemptible_labels
        .iter()
        .any(|key| labels.get(key).is_some_and(|v| v != "false"))
}
