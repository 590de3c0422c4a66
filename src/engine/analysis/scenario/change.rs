//! The hypothetical changes a what-if applies to a copy of the snapshot: a cordon, a
//! drain-like evacuation (cordoned, every live pod on the nodes unbound and Pending again, as
//! the scheduler would see them before they land elsewhere), a maintenance label, or new
//! values of Alfred's policy (threshold, caps, windows) written into the copy's
//! `alfred-config`. Nothing leaves the copy.
//!
//! Owns: `Change`, `PolicyValues`, `apply_change`. Pure.

use std::sync::Arc;

use crate::engine::alfred_config::{AlfredConfig, MaintenanceWindow};
use crate::engine::analysis::ALFRED_CONFIG;
use crate::engine::model::{ClusterSnapshot, ConfigMap, Labels, PodPhase};

/// New values of Alfred's policy; `None` keeps the current one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PolicyValues {
    /// `policies.defragmentation.fragmentationThreshold`, in [0, 1].
    pub threshold: Option<f64>,
    /// `maxInFlightMigrations`.
    pub max_in_flight: Option<u32>,
    /// `maxMigrationsPerHour`.
    pub max_per_hour: Option<u32>,
    /// `maintenanceWindows` (empty: any time).
    pub windows: Option<Vec<MaintenanceWindow>>,
}

impl PolicyValues {
    /// `cfg` with these values.
    pub fn applied_to(&self, cfg: &AlfredConfig) -> AlfredConfig {
        let mut out = cfg.clone();
        if let Some(t) = self.threshold {
            out.policies.defragmentation.fragmentation_threshold = t.clamp(0.0, 1.0);
        }
        if let Some(c) = self.max_in_flight {
            out.max_in_flight_migrations = c;
        }
        if let Some(c) = self.max_per_hour {
            out.max_migrations_per_hour = c;
        }
        if let Some(w) = &self.windows {
            out.maintenance_windows = w.clone();
        }
        out
    }
}

/// One hypothetical change.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Cordon the named nodes.
    Cordon(Vec<String>),
    /// Cordon the named nodes and put every live pod on them back to Pending.
    Evacuate(Vec<String>),
    /// Set the label `key=value` on the named nodes (a maintenance trigger, when one matches).
    MaintenanceLabel {
        /// Node names.
        nodes: Vec<String>,
        /// Label key.
        key: String,
        /// Label value.
        value: String,
    },
    /// New values of Alfred's policy.
    Policy(PolicyValues),
}

impl Change {
    /// The named nodes (none for a policy change).
    pub fn nodes(&self) -> &[String] {
        match self {
            Change::Cordon(n) | Change::Evacuate(n) => n,
            Change::MaintenanceLabel { nodes, .. } => nodes,
            Change::Policy(_) => &[],
        }
    }
}

/// A copy of `snap` with `change` applied; `cfg` is the effective config the policy values
/// change, `namespace` Alfred's.
pub fn apply_change(
    snap: &ClusterSnapshot,
    change: &Change,
    cfg: &AlfredConfig,
    namespace: &str,
) -> ClusterSnapshot {
    let mut out = snap.clone();
    let named = |name: &str| change.nodes().iter().any(|n| n == name);
    match change {
        Change::Cordon(_) | Change::Evacuate(_) => {
            for node in out.nodes.iter_mut().filter(|n| named(&n.name)) {
                node.unschedulable = true;
            }
        }
        Change::MaintenanceLabel { key, value, .. } => {
            for node in out.nodes.iter_mut().filter(|n| named(&n.name)) {
                let mut pairs = node.labels.0.clone();
                pairs.retain(|(k, _)| k.as_ref() != key);
                pairs.push((Arc::from(key.as_str()), Arc::from(value.as_str())));
                node.labels = Labels::from_pairs(pairs);
            }
        }
        Change::Policy(values) => write_config(&mut out, &values.applied_to(cfg), namespace),
    }
    if let Change::Evacuate(_) = change {
        unbind_pods(&mut out, &named);
    }
    out
}

/// Puts every live pod bound to a node `named` accepts back to Pending.
fn unbind_pods(snap: &mut ClusterSnapshot, named: &dyn Fn(&str) -> bool) {
    for i in 0..snap.pods.len() {
        let Some(p) = snap.pods.get(i) else { continue };
        let on_named = p.node.as_deref().is_some_and(named);
        if !on_named || p.phase.is_terminal() {
            continue;
        }
        let mut pending = p.clone();
        pending.node = None;
        pending.phase = PodPhase::Pending;
        pending.ready = false;
        pending.scheduled_condition = false;
        snap.pods.replace(i, Arc::new(pending));
    }
}

/// Writes `cfg` as `config.yaml` of Alfred's ConfigMap (JSON is YAML; the strict reader reads
/// back exactly what Alfred's printing writes).
fn write_config(snap: &mut ClusterSnapshot, cfg: &AlfredConfig, namespace: &str) {
    let Ok(text) = serde_json::to_string(cfg) else {
        return;
    };
    let maps = &mut snap.config_maps;
    let at = maps
        .iter()
        .position(|c| c.namespace.as_ref() == namespace && c.name.as_ref() == ALFRED_CONFIG);
    match at {
        Some(i) => {
            maps[i].data.insert("config.yaml".into(), text);
        }
        None => maps.push(ConfigMap {
            namespace: Arc::from(namespace),
            name: Arc::from(ALFRED_CONFIG),
            resource_version: Arc::from("what-if"),
            data: [("config.yaml".to_string(), text)].into_iter().collect(),
        }),
    }
}
