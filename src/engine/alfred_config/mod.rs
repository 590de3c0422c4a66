//! Alfred's configuration: the strict parser of the `alfred-config` ConfigMap (key
//! `config.yaml`), the effective config with every default applied, and the small matching
//! helpers the node-health and defragmentation engines need (maintenance triggers, maintenance
//! windows, preemptible nodes). Spec: alfred.md §5 (schema), §6.4 (windows), §7.1 (triggers).
//!
//! It parses as Alfred E2 does (`sigs.k8s.io/yaml` `UnmarshalStrict`, then defaults, then
//! validation): unknown, duplicate or mistyped keys fail; integer and duration 0 mean "use the
//! default"; floats and bools keep an explicit 0/false. The E3 extras (`label.valueIsStartTime`,
//! trigger `cordon`, `tpuSlice*`) are accepted; E1's `omenativeCapabilityLease*` keys are
//! rejected as unknown, as E2 rejects them.
//!
//! This module is part of the pure engine: it does no I/O, reads no clock (time is an argument)
//! and uses no randomness.
//!
//! Layout: this file owns the effective config ([`AlfredConfig`]), its defaults, the error type
//! and the two entry points; `policy` the policy blocks and enums, `matching` the trigger, window
//! and preemptible-node helpers, `printing` how durations, days and clock times print in the JSON
//! contract, and the private `validate` the strict decoder.

mod rules;

use std::time::Duration;

use serde::Serialize;

mod matching;
mod policy;
mod printing;
#[cfg(test)]
mod tests;
mod validate;

pub use rules::{
    health_rules, is_preemptible, maintenance_deadline, maintenance_triggers, ScoringRules,
};

pub use matching::{MaintenanceWindow, NodeFacts};
pub use policy::{
    Aggressiveness, ConditionStatus, Defragmentation, EarlyTick, Maintenance, MaintenanceTrigger,
    Mode, NodeHealth, Policies, Scheduling, SchedulingProfile, Scoring, SpotPolicy, TaintEffect,
    TpuSlicePartitions, TriggerMatcher,
};
use printing::ser_go_duration;

/// The effective Alfred config, every default applied. Keys serialize in camelCase exactly as
/// the YAML keys are spelled, so the JSON contract prints it as "the effective Alfred config".
/// Invariants (guaranteed by [`parse_alfred_config`] and [`Default`]): every count, minute value
/// and interval is positive, intervals are ≥ 1 s, the ladder is strictly ascending.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AlfredConfig {
    /// Always 1, the only schema Alfred understands.
    pub schema_version: u32,
    /// `recommend-only` (default) or `execute`.
    pub mode: Mode,
    /// Period of the decision loop; ≥ 1 s, default 5 min. Printed as a Go duration ("5m0s").
    #[serde(serialize_with = "ser_go_duration")]
    pub decision_loop_interval: Duration,
    /// Period of the observation loop; ≥ 1 s, default 30 s. Above 30 s simulations and
    /// dispatch fail `ObservationStale` (fixed 30 s freshness).
    #[serde(serialize_with = "ser_go_duration")]
    pub observation_loop_interval: Duration,
    /// Node events that request an extra decision pass; empty disables them.
    pub early_tick_on: Vec<EarlyTick>,
    /// Scheduler simulation profiles.
    pub scheduling: Scheduling,
    /// The defragmentation and node-health policy blocks.
    pub policies: Policies,
    /// Whether an InferenceService without `alfred.ome.io/movable` may be moved (default true).
    pub default_movable: bool,
    /// Minutes after an Instance's pods started during which it is not moved (default 10).
    pub recent_placement_cooldown_minutes: u32,
    /// Minutes after a workload's last migration ended during which it is not moved (default 30).
    pub per_workload_cooldown_minutes: u32,
    /// Minutes after one of Alfred's migrations used a node during which the node is neither
    /// source nor target (default 10).
    pub per_node_cooldown_minutes: u32,
    /// Reserved, no effect (default false; E1 chart: true).
    pub raw_deployment_migration_enabled: bool,
    /// false ⇒ OMENative rows get `MigrationSurfaceDisabled` (default true).
    pub omenative_migration_enabled: bool,
    /// false ⇒ LeaderWorkerSet rows are omitted (default true).
    pub lws_recommendations_enabled: bool,
    /// E3: TPU slice migration (default false).
    pub tpu_slice_migration_enabled: bool,
    /// E3: the node labels the TPU slice capacity check reads.
    pub tpu_slice_partitions: TpuSlicePartitions,
    /// Whether Alfred publishes the recommendations ConfigMap (default true).
    pub recommendations_config_map_enabled: bool,
    /// Name of the recommendations ConfigMap (default `alfred-recommendations`, never empty).
    pub recommendations_config_map_name: String,
    /// Cap on migrations in progress, everyone's (default 3).
    pub max_in_flight_migrations: u32,
    /// Cap on migrations started in the last hour, everyone's (default 10).
    pub max_migrations_per_hour: u32,
    /// A pending pod older than this many minutes makes a move an emergency (default 10).
    pub emergency_pending_age_minutes: u32,
    /// Weekly UTC windows for defragmentation moves; empty (default) = any time.
    pub maintenance_windows: Vec<MaintenanceWindow>,
    /// Spot/preemptible node handling.
    pub spot_policy: SpotPolicy,
    /// Emergency boost may cross namespaces within a tenant group (default true).
    pub allow_cross_tenant_optimization: bool,
    /// Accepted, no effect on decisions (default `info`, any string).
    pub log_level: String,
    /// Accepted, no effect on decisions (default true).
    pub structured_logging: bool,
}

/// Why `config.yaml` was rejected: the key path (e.g.
/// `policies.defragmentation.scoring.sizePrior`, `""` for the whole document), what Alfred
/// expects there, and what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("config.yaml: {}expected {expected}, found {found}", at(path))]
pub struct ConfigError {
    /// Dotted key path; list items as `[i]`, map keys as `["key"]`.
    pub path: String,
    /// What Alfred accepts at that path.
    pub expected: String,
    /// What the document holds there.
    pub found: String,
}

/// `path: ` before the message, nothing for the whole document.
fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    }
}

/// Parses `config.yaml` strictly, as Alfred does, and returns the effective config.
///
/// # Errors
/// The first problem found (YAML syntax, unknown or duplicate key, wrong type, failed
/// validation), as Alfred would reject the document.
pub fn parse_alfred_config(yaml: &str) -> Result<AlfredConfig, ConfigError> {
    validate::parse(yaml)
}

/// The config Alfred runs with when it starts from this ConfigMap value: `None` (missing key)
/// ⇒ defaults and no error; invalid ⇒ defaults plus the error (Alfred keeps its last good
/// config, which at startup is the defaults).
pub fn effective_alfred_config(yaml: Option<&str>) -> (AlfredConfig, Option<ConfigError>) {
    match yaml.map(parse_alfred_config) {
        None => (AlfredConfig::default(), None),
        Some(Ok(config)) => (config, None),
        Some(Err(error)) => (AlfredConfig::default(), Some(error)),
    }
}

impl Default for AlfredConfig {
    /// The built-in defaults of alfred.md §5 (E2 values).
    fn default() -> Self {
        Self {
            schema_version: 1,
            mode: Mode::RecommendOnly,
            decision_loop_interval: Duration::from_secs(5 * 60),
            observation_loop_interval: Duration::from_secs(30),
            early_tick_on: vec![
                EarlyTick::NodeConditionChange,
                EarlyTick::NodeMaintenanceChange,
            ],
            scheduling: Scheduling::default(),
            policies: Policies {
                defragmentation: default_defrag(),
                node_health: default_health(),
            },
            default_movable: true,
            recent_placement_cooldown_minutes: 10,
            per_workload_cooldown_minutes: 30,
            per_node_cooldown_minutes: 10,
            raw_deployment_migration_enabled: false,
            omenative_migration_enabled: true,
            lws_recommendations_enabled: true,
            tpu_slice_migration_enabled: false,
            tpu_slice_partitions: TpuSlicePartitions {
                topology_label: "cloud.google.com/gke-tpu-topology".to_owned(),
                id_label: "cloud.google.com/gke-tpu-partition-%s-id".to_owned(),
                state_label: "cloud.google.com/gke-tpu-partition-%s-state".to_owned(),
                healthy_state: "HEALTHY".to_owned(),
            },
            recommendations_config_map_enabled: true,
            recommendations_config_map_name: "alfred-recommendations".to_owned(),
            max_in_flight_migrations: 3,
            max_migrations_per_hour: 10,
            emergency_pending_age_minutes: 10,
            maintenance_windows: Vec::new(),
            spot_policy: SpotPolicy {
                avoid_as_target: true,
                prefer_as_source: true,
                preemptible_labels: vec![
                    "node.kubernetes.io/preemptible".to_owned(),
                    "cloud.google.com/gke-preemptible".to_owned(),
                ],
            },
            allow_cross_tenant_optimization: true,
            log_level: "info".to_owned(),
            structured_logging: true,
        }
    }
}

/// The default size ladder, GPUs.
const DEFAULT_LADDER: [u32; 4] = [1, 2, 4, 8];
/// The default prior, already summing to 1.
const DEFAULT_PRIOR: [(u32, f64); 4] = [(1, 0.1), (2, 0.1), (4, 0.2), (8, 0.6)];

fn default_defrag() -> Defragmentation {
    Defragmentation {
        enabled: true,
        fragmentation_threshold: 0.25,
        aggressiveness: Aggressiveness::Balanced,
        scoring: Scoring {
            size_ladder: DEFAULT_LADDER.to_vec(),
            demand_blend_lambda: 0.3,
            size_prior: DEFAULT_PRIOR.into_iter().collect(),
            pending_urgency_tau_minutes: 30,
        },
    }
}

fn default_health() -> NodeHealth {
    NodeHealth {
        enabled: true,
        aggressiveness: Aggressiveness::Balanced,
        trigger_conditions: vec!["GpuUnhealthy".to_owned()],
        signal_only: false,
        health_cooldown_floor_minutes: 5,
        node_suspicion_window_minutes: 30,
        maintenance: Maintenance::default(),
    }
}
