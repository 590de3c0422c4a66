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
//! This module is part of the pure engine: it must not import anything outside std, `serde`,
//! `serde_json`, `serde_yaml` and `chrono`, and does no I/O, reads no clock (time is an argument)
//! and uses no randomness. The decoder lives in `alfred_config_validate.rs`, a private child
//! module loaded by `#[path]`, so `engine/mod.rs` declares only `pub mod alfred_config;`.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use chrono::{DateTime, Datelike, Timelike, Utc, Weekday};
use serde::{Serialize, Serializer};

#[path = "alfred_config_validate.rs"]
mod validate;

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

/// What trigger matching needs to know about one Node at snapshot time.
#[derive(Debug, Clone, Copy)]
pub struct NodeFacts<'a> {
    /// `metadata.labels`, key → value.
    pub labels: &'a BTreeMap<String, String>,
    /// `status.conditions` as `(type, status)`, e.g. `("Ready", "True")`.
    pub conditions: &'a [(String, String)],
    /// `spec.taints` as `(key, value, effect)`; a taint without a value has `""`.
    pub taints: &'a [(String, String, String)],
}

impl MaintenanceTrigger {
    /// Whether this rule requests maintenance of `node` at `now_unix_seconds` (§7.1): condition
    /// type and status equal; label key present and value absent (any), equal, or — with
    /// `valueIsStartTime` — a Unix time ≤ now (a non-numeric value matches at once); taint key
    /// equal and value/effect equal when set.
    #[must_use]
    pub fn matches(&self, node: &NodeFacts<'_>, now_unix_seconds: i64) -> bool {
        match &self.matcher {
            TriggerMatcher::Condition {
                condition_type,
                status,
            } => node
                .conditions
                .iter()
                .any(|(t, s)| t == condition_type && s == status.as_str()),
            TriggerMatcher::Label {
                key,
                value,
                value_is_start_time,
            } => {
                let Some(actual) = node.labels.get(key) else {
                    return false;
                };
                if *value_is_start_time {
                    // Alfred: the key alone asks for maintenance; the time may only delay it.
                    return actual
                        .parse::<i64>()
                        .map_or(true, |start| now_unix_seconds >= start);
                }
                value.as_ref().is_none_or(|v| v == actual)
            }
            TriggerMatcher::Taint { key, value, effect } => node.taints.iter().any(|(k, v, e)| {
                k == key
                    && value.as_ref().is_none_or(|want| want == v)
                    && effect.is_none_or(|want| want.as_str() == e)
            }),
        }
    }
}

/// A weekly UTC window for defragmentation moves: `days` non-empty, `start < end` (no
/// midnight crossing), start inclusive, end exclusive.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaintenanceWindow {
    /// Days the window opens on (as written, duplicates kept). Printed as `Mon`..`Sun`.
    #[serde(serialize_with = "ser_days")]
    pub days: Vec<Weekday>,
    /// Opening minute after 00:00 UTC, 0..1439. Printed as "HH:MM".
    #[serde(rename = "start", serialize_with = "ser_hhmm")]
    pub start_minute: u32,
    /// Closing minute after 00:00 UTC, start < end ≤ 1439 (exclusive). Printed as "HH:MM".
    #[serde(rename = "end", serialize_with = "ser_hhmm")]
    pub end_minute: u32,
}

impl MaintenanceWindow {
    /// Whether the UTC `weekday` and `minute_of_day` (0..1439) fall inside this window.
    #[must_use]
    pub fn contains(&self, weekday: Weekday, minute_of_day: u32) -> bool {
        self.days.contains(&weekday)
            && self.start_minute <= minute_of_day
            && minute_of_day < self.end_minute
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

/// Why `config.yaml` was rejected: the key path (e.g.
/// `policies.defragmentation.scoring.sizePrior`, `""` for the whole document), what Alfred
/// expects there, and what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// Dotted key path; list items as `[i]`, map keys as `["key"]`.
    pub path: String,
    /// What Alfred accepts at that path.
    pub expected: String,
    /// What the document holds there.
    pub found: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(
                f,
                "config.yaml: expected {}, found {}",
                self.expected, self.found
            )
        } else {
            let (p, e, x) = (&self.path, &self.expected, &self.found);
            write!(f, "config.yaml: {p}: expected {e}, found {x}")
        }
    }
}

impl std::error::Error for ConfigError {}

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

impl AlfredConfig {
    /// Whether a node with these labels is preemptible: it carries any of
    /// `spotPolicy.preemptibleLabels` with a value other than `"false"`.
    #[must_use]
    pub fn is_preemptible(&self, labels: &BTreeMap<String, String>) -> bool {
        let labelled = |key: &String| labels.get(key).is_some_and(|v| v != "false");
        self.spot_policy.preemptible_labels.iter().any(labelled)
    }

    /// Names of the maintenance triggers matching `node` at `now_unix_seconds`, sorted (the
    /// node record's `triggers`); empty = maintenance not requested.
    #[must_use]
    pub fn matching_maintenance_triggers(
        &self,
        node: &NodeFacts<'_>,
        now_unix_seconds: i64,
    ) -> Vec<&str> {
        let triggers = &self.policies.node_health.maintenance.triggers;
        let mut names: Vec<&str> = triggers
            .iter()
            .filter(|t| t.matches(node, now_unix_seconds))
            .map(|t| t.name.as_str())
            .collect();
        names.sort_unstable();
        names
    }

    /// Whether defragmentation may act at this UTC weekday and minute of day: no windows
    /// configured, or inside one of them. Node health ignores windows.
    #[must_use]
    pub fn defrag_window_open(&self, weekday: Weekday, minute_of_day: u32) -> bool {
        self.maintenance_windows.is_empty()
            || self
                .maintenance_windows
                .iter()
                .any(|w| w.contains(weekday, minute_of_day))
    }

    /// [`Self::defrag_window_open`] at the instant `now`.
    #[must_use]
    pub fn defrag_window_open_at(&self, now: DateTime<Utc>) -> bool {
        self.defrag_window_open(now.weekday(), now.hour() * 60 + now.minute())
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

/// Three-letter English day name, the spelling `maintenanceWindows[].days` uses.
fn weekday_name(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Mon",
        Weekday::Tue => "Tue",
        Weekday::Wed => "Wed",
        Weekday::Thu => "Thu",
        Weekday::Fri => "Fri",
        Weekday::Sat => "Sat",
        Weekday::Sun => "Sun",
    }
}

/// Formats like Go's `time.Duration.String` ("5m0s", "1h30m0s", "1.5s", "250ms"), so the
/// printed config reads as Alfred's own YAML would.
fn go_duration_string(d: Duration) -> String {
    let nanos = d.as_nanos();
    if nanos == 0 {
        return "0s".to_owned();
    }
    if nanos < 1_000_000_000 {
        let (unit, scale) = match nanos {
            n if n < 1_000 => ("ns", 1),
            n if n < 1_000_000 => ("µs", 1_000),
            _ => ("ms", 1_000_000),
        };
        return format!("{}{}{unit}", nanos / scale, fraction(nanos % scale, scale));
    }
    let secs = d.as_secs();
    let sub = fraction(u128::from(d.subsec_nanos()), 1_000_000_000);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{s}{sub}s"),
        (0, _) => format!("{m}m{s}{sub}s"),
        _ => format!("{h}h{m}m{s}{sub}s"),
    }
}

/// ".5" for rest 5 of scale 10, trailing zeros trimmed; "" when rest is 0.
fn fraction(rest: u128, scale: u128) -> String {
    if rest == 0 {
        return String::new();
    }
    let width = scale.ilog10() as usize;
    let digits = format!("{rest:0width$}");
    format!(".{}", digits.trim_end_matches('0'))
}

fn ser_go_duration<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&go_duration_string(*d))
}

fn ser_days<S: Serializer>(days: &[Weekday], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(days.iter().map(|d| weekday_name(*d)))
}

fn ser_hhmm<S: Serializer>(minute: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{:02}:{:02}", minute / 60, minute % 60))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;
    use proptest::prelude::*;
    use serde_json::json;

    fn parse_ok(yaml: &str) -> AlfredConfig {
        parse_alfred_config(yaml).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn minimal_config_gives_every_default_of_the_table() {
        let c = parse_ok("schemaVersion: 1\n");
        assert_eq!(c, AlfredConfig::default());
        // alfred.md §5, row by row, as the JSON contract prints it.
        let table = json!({
            "schemaVersion": 1,
            "mode": "recommend-only",
            "decisionLoopInterval": "5m0s",
            "observationLoopInterval": "30s",
            "earlyTickOn": ["NodeConditionChange", "NodeMaintenanceChange"],
            "scheduling": {"profiles": {}},
            "policies": {
                "defragmentation": {
                    "enabled": true,
                    "fragmentationThreshold": 0.25,
                    "aggressiveness": "balanced",
                    "scoring": {
                        "sizeLadder": [1, 2, 4, 8],
                        "demandBlendLambda": 0.3,
                        "sizePrior": {"1": 0.1, "2": 0.1, "4": 0.2, "8": 0.6},
                        "pendingUrgencyTauMinutes": 30
                    }
                },
                "nodeHealth": {
                    "enabled": true,
                    "aggressiveness": "balanced",
                    "triggerConditions": ["GpuUnhealthy"],
                    "signalOnly": false,
                    "healthCooldownFloorMinutes": 5,
                    "nodeSuspicionWindowMinutes": 30,
                    "maintenance": {"triggers": []}
                }
            },
            "defaultMovable": true,
            "recentPlacementCooldownMinutes": 10,
            "perWorkloadCooldownMinutes": 30,
            "perNodeCooldownMinutes": 10,
            "rawDeploymentMigrationEnabled": false,
            "omenativeMigrationEnabled": true,
            "lwsRecommendationsEnabled": true,
            "tpuSliceMigrationEnabled": false,
            "tpuSlicePartitions": {
                "topologyLabel": "cloud.google.com/gke-tpu-topology",
                "idLabel": "cloud.google.com/gke-tpu-partition-%s-id",
                "stateLabel": "cloud.google.com/gke-tpu-partition-%s-state",
                "healthyState": "HEALTHY"
            },
            "recommendationsConfigMapEnabled": true,
            "recommendationsConfigMapName": "alfred-recommendations",
            "maxInFlightMigrations": 3,
            "maxMigrationsPerHour": 10,
            "emergencyPendingAgeMinutes": 10,
            "maintenanceWindows": [],
            "spotPolicy": {
                "avoidAsTarget": true,
                "preferAsSource": true,
                "preemptibleLabels": [
                    "node.kubernetes.io/preemptible",
                    "cloud.google.com/gke-preemptible"
                ]
            },
            "allowCrossTenantOptimization": true,
            "logLevel": "info",
            "structuredLogging": true
        });
        assert_eq!(serde_json::to_value(&c).unwrap(), table);
        // The typed values behind the strings.
        assert_eq!(c.decision_loop_interval, Duration::from_secs(300));
        assert_eq!(c.observation_loop_interval, Duration::from_secs(30));
        assert_eq!(c.policies.defragmentation.scoring.prior_weight(8), 0.6);
        assert_eq!(c.policies.defragmentation.scoring.prior_weight(3), 0.0);
    }

    #[test]
    fn effective_config_falls_back_to_defaults() {
        assert_eq!(
            effective_alfred_config(None),
            (AlfredConfig::default(), None)
        );
        let (c, e) = effective_alfred_config(Some("schemaVersion: 1\nmode: dry-run"));
        assert_eq!(
            (c, e.map(|e| e.path)),
            (AlfredConfig::default(), Some("mode".into()))
        );
        let (c, e) = effective_alfred_config(Some("schemaVersion: 1\nmode: execute"));
        assert_eq!((c.mode, e), (Mode::Execute, None));
    }

    #[test]
    fn error_display_names_path_expected_and_found() {
        let e = ConfigError {
            path: "a.b".into(),
            expected: "x".into(),
            found: "y".into(),
        };
        assert_eq!(e.to_string(), "config.yaml: a.b: expected x, found y");
        let e = ConfigError {
            path: String::new(),
            ..e
        };
        assert_eq!(e.to_string(), "config.yaml: expected x, found y");
    }

    #[test]
    fn json_keys_are_exactly_the_yaml_keys() {
        let v = serde_json::to_value(AlfredConfig::default()).unwrap();
        let mut got: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        let mut want = validate::TOP_KEYS.to_vec();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
    }

    const RICH: &str = r#"
schemaVersion: 1
mode: execute
decisionLoopInterval: 1h30m
scheduling:
  profiles:
    default-scheduler: {backend: b, schedulerVersion: v1, configurationID: c, gangScheduling: true}
policies:
  defragmentation: {scoring: {sizeLadder: [1, 2, 4], sizePrior: {"1": 0.25, "2": 0.25, "4": 0.5}}}
  nodeHealth:
    maintenance:
      triggers:
        - {name: patch, condition: {type: Patching, status: "True"}}
        - {name: start-at, label: {key: example.com/start-at, valueIsStartTime: true}, cordon: true}
        - {name: swap, taint: {key: example.com/swap, effect: NoExecute}}
maintenanceWindows:
  - {days: [Sat, Sun], start: "1:00", end: "05:30"}
"#;

    #[test]
    fn json_of_triggers_windows_and_profiles_reads_like_the_yaml() {
        let v = serde_json::to_value(parse_ok(RICH)).unwrap();
        let triggers = &v["policies"]["nodeHealth"]["maintenance"]["triggers"];
        let condition = json!({"type": "Patching", "status": "True"});
        assert_eq!(
            triggers[0],
            json!({"name": "patch", "condition": condition, "cordon": false})
        );
        let label = json!({"key": "example.com/start-at", "valueIsStartTime": true});
        assert_eq!(
            triggers[1],
            json!({"name": "start-at", "label": label, "cordon": true})
        );
        let taint = json!({"key": "example.com/swap", "effect": "NoExecute"});
        assert_eq!(
            triggers[2],
            json!({"name": "swap", "taint": taint, "cordon": false})
        );
        let window = json!({"days": ["Sat", "Sun"], "start": "01:00", "end": "05:30"});
        assert_eq!(v["maintenanceWindows"], json!([window]));
        let profile = &v["scheduling"]["profiles"]["default-scheduler"];
        assert_eq!(
            (&profile["configurationID"], &profile["gangScheduling"]),
            (&json!("c"), &json!(true))
        );
        assert_eq!(v["decisionLoopInterval"], "1h30m0s");
    }

    #[test]
    fn printed_json_parses_back_to_the_same_config() {
        // JSON is YAML, so the printed effective config must be a valid config.yaml.
        for config in [AlfredConfig::default(), parse_ok(RICH)] {
            let text = serde_json::to_string(&config).unwrap();
            assert_eq!(parse_ok(&text), config, "{text}");
        }
    }

    #[test]
    fn examples_from_the_alfred_policies_page_parse() {
        let c = parse_ok(
            r#"
schemaVersion: 1
policies:
  nodeHealth:
    maintenance:
      triggers:
        - name: os-patching
          label:
            key: maintenance.example.com/state
            value: patching
        - name: hardware-swap
          taint:
            key: maintenance.example.com/hardware-swap
            effect: NoSchedule
maintenanceWindows:
  - days: [Sat, Sun]
    start: "01:00"
    end: "05:00"
"#,
        );
        let triggers = &c.policies.node_health.maintenance.triggers;
        let label = TriggerMatcher::Label {
            key: "maintenance.example.com/state".into(),
            value: Some("patching".into()),
            value_is_start_time: false,
        };
        assert_eq!(
            (triggers[0].name.as_str(), &triggers[0].matcher),
            ("os-patching", &label)
        );
        let taint = TriggerMatcher::Taint {
            key: "maintenance.example.com/hardware-swap".into(),
            value: None,
            effect: Some(TaintEffect::NoSchedule),
        };
        assert_eq!(
            (triggers[1].name.as_str(), &triggers[1].matcher),
            ("hardware-swap", &taint)
        );
        let w = &c.maintenance_windows[0];
        assert_eq!(
            (w.days.as_slice(), w.start_minute, w.end_minute),
            (&[Weekday::Sat, Weekday::Sun][..], 60, 300)
        );
    }

    #[test]
    fn window_start_is_inclusive_and_end_exclusive() {
        let w = MaintenanceWindow {
            days: vec![Weekday::Sat, Weekday::Sun],
            start_minute: 60,
            end_minute: 300,
        };
        assert!(!w.contains(Weekday::Sat, 59));
        assert!(w.contains(Weekday::Sat, 60));
        assert!(w.contains(Weekday::Sun, 299));
        assert!(!w.contains(Weekday::Sun, 300));
        assert!(!w.contains(Weekday::Mon, 120));
        let mut c = AlfredConfig::default();
        assert!(
            c.defrag_window_open(Weekday::Wed, 720),
            "no windows = always open"
        );
        c.maintenance_windows = vec![w];
        assert!(!c.defrag_window_open(Weekday::Wed, 120));
        assert!(c.defrag_window_open(Weekday::Sat, 120));
        let at = |h, m| {
            NaiveDate::from_ymd_opt(2026, 5, 2)
                .unwrap()
                .and_hms_opt(h, m, 0)
                .unwrap()
                .and_utc()
        };
        assert_eq!(at(1, 0).weekday(), Weekday::Sat);
        assert!(!c.defrag_window_open_at(at(0, 59)));
        assert!(c.defrag_window_open_at(at(1, 0)));
        assert!(c.defrag_window_open_at(at(4, 59)));
        assert!(!c.defrag_window_open_at(at(5, 0)));
    }

    fn node_facts_match(trigger: &str, node: &NodeFacts<'_>, now: i64) -> bool {
        let yaml = format!("schemaVersion: 1\npolicies: {{nodeHealth: {{maintenance: {{triggers: [{trigger}]}}}}}}");
        let config = parse_ok(&yaml);
        config.policies.node_health.maintenance.triggers[0].matches(node, now)
    }

    #[test]
    fn trigger_matching() {
        let labels: BTreeMap<String, String> = [
            ("state", "patching"),
            ("empty", ""),
            ("start", "1000"),
            ("when", "soon"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .into();
        let conditions = [("Patching".to_owned(), "True".to_owned())];
        let taints = [("swap".to_owned(), "now".to_owned(), "NoSchedule".to_owned())];
        let node = NodeFacts {
            labels: &labels,
            conditions: &conditions,
            taints: &taints,
        };
        let cases = [
            (
                "{name: t, condition: {type: Patching, status: \"True\"}}",
                0,
                true,
            ),
            (
                "{name: t, condition: {type: Patching, status: \"False\"}}",
                0,
                false,
            ),
            (
                "{name: t, condition: {type: Draining, status: \"True\"}}",
                0,
                false,
            ),
            ("{name: t, label: {key: state}}", 0, true),
            ("{name: t, label: {key: state, value: patching}}", 0, true),
            ("{name: t, label: {key: state, value: done}}", 0, false),
            ("{name: t, label: {key: absent}}", 0, false),
            ("{name: t, label: {key: empty, value: \"\"}}", 0, true),
            ("{name: t, label: {key: state, value: \"\"}}", 0, false),
            (
                "{name: t, label: {key: start, valueIsStartTime: true}}",
                999,
                false,
            ),
            (
                "{name: t, label: {key: start, valueIsStartTime: true}}",
                1000,
                true,
            ),
            (
                "{name: t, label: {key: when, valueIsStartTime: true}}",
                0,
                true,
            ),
            (
                "{name: t, label: {key: empty, valueIsStartTime: true}}",
                0,
                true,
            ),
            (
                "{name: t, label: {key: absent, valueIsStartTime: true}}",
                i64::MAX,
                false,
            ),
            ("{name: t, taint: {key: swap}}", 0, true),
            (
                "{name: t, taint: {key: swap, value: now, effect: NoSchedule}}",
                0,
                true,
            ),
            ("{name: t, taint: {key: swap, value: later}}", 0, false),
            ("{name: t, taint: {key: swap, effect: NoExecute}}", 0, false),
            ("{name: t, taint: {key: other}}", 0, false),
        ];
        for (trigger, now, want) in cases {
            assert_eq!(
                node_facts_match(trigger, &node, now),
                want,
                "{trigger} at {now}"
            );
        }
    }

    #[test]
    fn matching_trigger_names_are_sorted() {
        let c = parse_ok(
            "schemaVersion: 1\npolicies: {nodeHealth: {maintenance: {triggers: [\
             {name: zeta, label: {key: a}}, {name: alpha, label: {key: a}}, \
             {name: mid, label: {key: b}}]}}}",
        );
        let labels = BTreeMap::from([("a".to_owned(), "x".to_owned())]);
        let node = NodeFacts {
            labels: &labels,
            conditions: &[],
            taints: &[],
        };
        assert_eq!(c.matching_maintenance_triggers(&node, 0), ["alpha", "zeta"]);
    }

    #[test]
    fn preemptible_means_a_listed_label_not_false() {
        let c = AlfredConfig::default();
        let labels = |k: &str, v: &str| BTreeMap::from([(k.to_owned(), v.to_owned())]);
        assert!(c.is_preemptible(&labels("node.kubernetes.io/preemptible", "true")));
        assert!(c.is_preemptible(&labels("cloud.google.com/gke-preemptible", "")));
        assert!(!c.is_preemptible(&labels("cloud.google.com/gke-preemptible", "false")));
        assert!(!c.is_preemptible(&labels("cloud.google.com/gke-spot", "true")));
        let none = parse_ok("schemaVersion: 1\nspotPolicy: {preemptibleLabels: []}");
        assert!(!none.is_preemptible(&labels("node.kubernetes.io/preemptible", "true")));
    }

    #[test]
    fn aggressiveness_cost_weights() {
        assert_eq!(Aggressiveness::Conservative.cost_weight(), 1.5);
        assert_eq!(Aggressiveness::Balanced.cost_weight(), 1.0);
        assert_eq!(Aggressiveness::Aggressive.cost_weight(), 0.5);
    }

    #[test]
    fn durations_print_like_go() {
        let cases = [
            (Duration::ZERO, "0s"),
            (Duration::from_secs(300), "5m0s"),
            (Duration::from_secs(30), "30s"),
            (Duration::from_secs(5400), "1h30m0s"),
            (Duration::from_secs(7200), "2h0m0s"),
            (Duration::from_millis(1500), "1.5s"),
            (Duration::from_millis(250), "250ms"),
            (Duration::from_micros(1), "1µs"),
            (Duration::from_nanos(1_500), "1.5µs"),
            (Duration::from_nanos(61_000_000_001), "1m1.000000001s"),
        ];
        for (d, text) in cases {
            assert_eq!(go_duration_string(d), text);
        }
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in ".*") {
            let _ = parse_alfred_config(&text);
            let _ = effective_alfred_config(Some(&text));
        }

        #[test]
        fn arbitrary_values_in_known_places_never_panic(
            key in prop::sample::select(validate::TOP_KEYS.to_vec()),
            value in prop_oneof![
                ".{0,12}",
                "-?[0-9]{1,25}(\\.[0-9]{0,5})?(e[+-]?[0-9]{1,3})?",
                "[-+]?[0-9.]{0,6}(ns|us|µs|ms|s|m|h){0,2}[0-9.]{0,4}(s|m|h)?",
                Just("{a: [1, {b: ~}]}".to_owned()),
                Just("[~, 1, x]".to_owned()),
            ],
        ) {
            let nested = format!("schemaVersion: 1\n{key}: {value}\n");
            let _ = parse_alfred_config(&nested);
            let deep = format!("schemaVersion: 1\npolicies: {{defragmentation: {{scoring: {{sizePrior: {{{value}: 1}}}}}}}}");
            let _ = parse_alfred_config(&deep);
        }
    }
}
