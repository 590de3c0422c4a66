//! The blocks and enums of Alfred's config schema (alfred.md §5) below the top level: mode,
//! early ticks, scheduling profiles, the defragmentation and node-health policies, maintenance
//! triggers, spot policy and TPU slice partitions. Plain data; matching lives in `matching`.

use std::collections::BTreeMap;

use serde::Serialize;

/// Alfred's operating mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mode {
    /// Policies, arbitration and reporting, never a migration request (the default).
    #[serde(rename = "recommend-only")]
    RecommendOnly,
    /// The dispatcher may write migration-request annotations.
    #[serde(rename = "execute")]
    Execute,
}

/// The events `earlyTickOn` may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum EarlyTick {
    /// A node's trigger conditions changed (count, type, status or lastTransitionTime).
    NodeConditionChange,
    /// The set of maintenance triggers matching a node changed.
    NodeMaintenanceChange,
}

/// A scoring knob, never a safety bypass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Aggressiveness {
    /// Move cost weight 1.5 (effective cost 0.225).
    Conservative,
    /// Move cost weight 1.0 (effective cost 0.15), the default.
    Balanced,
    /// Move cost weight 0.5 (effective cost 0.075).
    Aggressive,
}

impl Aggressiveness {
    /// Multiplier of the fixed move cost 0.15 in a defragmentation score: 1.5 / 1.0 / 0.5.
    #[must_use]
    pub fn cost_weight(self) -> f64 {
        match self {
            Self::Conservative => 1.5,
            Self::Balanced => 1.0,
            Self::Aggressive => 0.5,
        }
    }
}

/// `scheduling`: scheduler name → simulation profile. No entry = no simulation for it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Scheduling {
    /// Keys are DNS-1123 subdomains (the pods' `schedulerName`, `default-scheduler` if empty).
    pub profiles: BTreeMap<String, SchedulingProfile>,
}

/// One scheduler simulation profile; the three identity strings are non-blank and carry no
/// surrounding whitespace.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SchedulingProfile {
    /// Simulation backend identifier.
    pub backend: String,
    /// Scheduler version the backend reproduces.
    pub scheduler_version: String,
    /// Operator-supplied identity of the scheduler configuration.
    #[serde(rename = "configurationID")]
    pub configuration_id: String,
    /// Whether the profile simulates gangs (default false).
    pub gang_scheduling: bool,
}

/// `policies`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Policies {
    /// `policies.defragmentation`.
    pub defragmentation: Defragmentation,
    /// `policies.nodeHealth`.
    pub node_health: NodeHealth,
}

/// `policies.defragmentation`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Defragmentation {
    /// Default true.
    pub enabled: bool,
    /// In [0, 1], default 0.25; a pool acts when its score is strictly greater.
    pub fragmentation_threshold: f64,
    /// Default balanced; changes only the move cost weight.
    pub aggressiveness: Aggressiveness,
    /// Fragmentation score knobs.
    pub scoring: Scoring,
}

/// `policies.defragmentation.scoring`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Scoring {
    /// Demand sizes in GPUs, non-empty, positive, strictly ascending (default 1, 2, 4, 8).
    pub size_ladder: Vec<u32>,
    /// λ in [0, 1] blending observed demand (0) with the prior (1); default 0.3.
    pub demand_blend_lambda: f64,
    /// Prior weight per ladder size, normalised to sum 1 (as used); keys are ladder sizes,
    /// sizes without a key weigh 0. Default {1: 0.1, 2: 0.1, 4: 0.2, 8: 0.6}.
    pub size_prior: BTreeMap<u32, f64>,
    /// τ of the pending urgency `1 − exp(−age/τ)`, minutes, positive (default 30).
    pub pending_urgency_tau_minutes: u32,
}

impl Scoring {
    /// The normalised prior weight of `size` (0 when the prior has no such key).
    #[must_use]
    pub fn prior_weight(&self, size: u32) -> f64 {
        self.size_prior.get(&size).copied().unwrap_or(0.0)
    }
}

/// `policies.nodeHealth`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeHealth {
    /// false ⇒ no markers, no node records, no evacuations (default true).
    pub enabled: bool,
    /// Validated, no effect (default balanced).
    pub aggressiveness: Aggressiveness,
    /// Node condition types that define health; qualified names, unique, non-empty
    /// (default `[GpuUnhealthy]`).
    pub trigger_conditions: Vec<String>,
    /// Markers, records and events only, no evacuation candidates (default false).
    pub signal_only: bool,
    /// Cooldown floor in minutes for moves off Unhealthy nodes (default 5).
    pub health_cooldown_floor_minutes: u32,
    /// Minutes a recovered trigger condition keeps a node Suspect (default 30).
    pub node_suspicion_window_minutes: u32,
    /// Planned-maintenance signals.
    pub maintenance: Maintenance,
}

/// `policies.nodeHealth.maintenance`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Maintenance {
    /// ORed rules with unique names; empty (default) disables maintenance observation.
    pub triggers: Vec<MaintenanceTrigger>,
}

/// One maintenance rule: a unique trimmed non-empty name and exactly one matcher.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaintenanceTrigger {
    /// Stable rule name, reported in node records (`triggers`, sorted).
    pub name: String,
    /// What the rule matches; serialized as the YAML's `condition`/`label`/`taint` key.
    #[serde(flatten)]
    pub matcher: TriggerMatcher,
    /// E3: Alfred may cordon a node matched by this rule (default false).
    pub cordon: bool,
}

/// The single matcher of a maintenance trigger.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TriggerMatcher {
    /// A node condition with this type (a qualified name) and exactly this status.
    Condition {
        /// Condition type, e.g. `Patching`.
        #[serde(rename = "type")]
        condition_type: String,
        /// Required status.
        status: ConditionStatus,
    },
    /// A node label with this key (a qualified name).
    Label {
        /// Label key.
        key: String,
        /// `None` = any value; `Some("")` matches only an explicitly empty value.
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<String>,
        /// E3: the value is a Unix time in whole seconds; the rule matches once now ≥ it, and
        /// at once when the value is not a whole number. Never combined with `value`.
        #[serde(rename = "valueIsStartTime")]
        value_is_start_time: bool,
    },
    /// A node taint with this key (a qualified name).
    Taint {
        /// Taint key.
        key: String,
        /// `None` = any value.
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<String>,
        /// `None` = any effect.
        #[serde(skip_serializing_if = "Option::is_none")]
        effect: Option<TaintEffect>,
    },
}

/// Kubernetes condition status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ConditionStatus {
    /// `True`.
    True,
    /// `False`.
    False,
    /// `Unknown`.
    Unknown,
}

impl ConditionStatus {
    /// The API spelling (`True`, `False`, `Unknown`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::True => "True",
            Self::False => "False",
            Self::Unknown => "Unknown",
        }
    }
}

/// Kubernetes taint effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TaintEffect {
    /// `NoSchedule`.
    NoSchedule,
    /// `PreferNoSchedule`.
    PreferNoSchedule,
    /// `NoExecute`.
    NoExecute,
}

impl TaintEffect {
    /// The API spelling.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NoSchedule => "NoSchedule",
            Self::PreferNoSchedule => "PreferNoSchedule",
            Self::NoExecute => "NoExecute",
        }
    }
}

/// `spotPolicy`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpotPolicy {
    /// Preemptible nodes are neither targets nor counted free capacity (default true).
    pub avoid_as_target: bool,
    /// Moves off preemptible nodes score ×1.25 (default true).
    pub prefer_as_source: bool,
    /// Label keys that mark a node preemptible (value ≠ "false"); `[]` = none.
    pub preemptible_labels: Vec<String>,
}

/// E3 `tpuSlicePartitions`: label keys, `idLabel`/`stateLabel` with exactly one `%s`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TpuSlicePartitions {
    /// Pod nodeSelector key holding the slice topology.
    pub topology_label: String,
    /// Node label key format of a partition id, `%s` = topology.
    pub id_label: String,
    /// Node label key format of a partition state, `%s` = topology.
    pub state_label: String,
    /// State label value of a usable partition.
    pub healthy_state: String,
}
