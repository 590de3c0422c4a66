//! The Alfred stand-in of the demo: its `alfred-config`, and a decision pass every
//! `decisionLoopInterval` that runs the engine's own `analyze` on the world and publishes the
//! result in `alfred-recommendations` in alfred.md's exact format (`last-cycle.json` §1.3 with
//! journal-only rows appended, `node.<name>` records §1.5), dispatching the move the arbiter
//! admits when nothing blocks it (journal entry + request annotation, §2 and §3.1), and the
//! Node Events of a repair or maintenance episode's start (§7.3). Because the
//! pass is published once per interval, "Alfred says" lags "computed" a little, as in a cluster.
//!
//! Owns: `AlfredState`, `config_yaml`. Pure.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::Duration;
use serde_json::{json, Map, Value};

use crate::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use crate::engine::gangs::PlacementOptions;
use crate::engine::migration::format_rfc3339_nano;
use crate::engine::migration::{annotation_key, parse_request_annotation};
use crate::engine::model::vocab::{DispatchReason, DispatchStatus, Outcome, Policy, Reason};
use crate::engine::model::{Event, Name, Time};
use crate::engine::nodes::HealthState;
use crate::engine::nodes::NodeState;
use crate::engine::planning::MoveRow;
use crate::sim::demo::build::MAINTENANCE_LABEL;
use crate::sim::demo::{DemoWorld, Source, DEMO_NAMESPACE};

/// The demo's `alfred-config` `config.yaml`: execute mode, a one-minute decision loop (so the
/// demo moves), a simulation profile for the default scheduler (so Alfred can dispatch), an
/// aggressive defragmentation cost, and one maintenance trigger on a node label.
pub fn config_yaml() -> String {
    format!(
        "schemaVersion: 1\nmode: execute\ndecisionLoopInterval: 1m\nscheduling:\n  profiles:\n    \
         default-scheduler:\n      backend: kube-v135\n      schedulerVersion: v1.35.4\n      \
         configurationID: sha256:5f1d0c3e\npolicies:\n  \
         defragmentation:\n    fragmentationThreshold: 0.2\n    aggressiveness: aggressive\n  nodeHealth:\n    maintenance:\n      \
         triggers:\n      - name: os-patching\n        label:\n          key: {MAINTENANCE_LABEL}\n"
    )
}

/// When a node's repair and maintenance episodes started (node record timestamps, §7.3).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Episode {
    pub signaled: Option<Time>,
    pub maintenance: Option<Time>,
}

/// Alfred's in-memory state between passes.
#[derive(Debug, Clone, PartialEq)]
pub struct AlfredState {
    /// When the next decision pass runs.
    pub next_pass: Time,
    /// Open episodes by node name.
    pub episodes: BTreeMap<Name, Episode>,
}

impl AlfredState {
    /// Nothing observed yet; the first pass runs at `start`.
    pub fn new(start: Time) -> Self {
        AlfredState {
            next_pass: start,
            episodes: BTreeMap::new(),
        }
    }
}

/// The analysis options the demo uses (Alfred's namespace, executor from the journal).
pub fn demo_options(now: Time) -> AnalysisOptions {
    AnalysisOptions {
        now,
        alfred_namespace: DEMO_NAMESPACE.into(),
        executor: ExecutorSetting::Auto,
        placement: PlacementOptions::default(),
        instance_types: Default::default(),
    }
}

fn time(t: Time) -> Value {
    format_rfc3339_nano(t).map_or(Value::Null, Value::String)
}

/// One `last-cycle.json` row; `dispatch` = (status, uuid, reason) of a dispatched row.
fn row_json(row: &MoveRow, dispatch: Option<(DispatchStatus, &str, DispatchReason)>) -> Value {
    let mut m = Map::new();
    m.insert("workload".into(), json!(row.workload.as_ref()));
    m.insert("component".into(), json!(row.component.as_ref()));
    m.insert("instance".into(), json!(row.instance));
    m.insert("policy".into(), json!(row.policy));
    m.insert("reason".into(), json!(row.reason));
    let outcome = match (&dispatch, &row.outcome) {
        (Some((status, _, _)), _) => Outcome::from_wire(status.as_str()),
        (None, Outcome::Admitted) => Outcome::Withheld,
        (None, o) => o.clone(),
    };
    m.insert("outcome".into(), json!(outcome));
    let mut opt = |k: &str, v: Option<&str>| {
        if let Some(v) = v {
            m.insert(k.into(), json!(v));
        }
    };
    opt(
        "advisoryReason",
        row.advisory_reason.as_ref().map(|r| r.as_str()),
    );
    opt(
        "rejectReason",
        row.reject_reason.as_ref().map(|r| r.as_str()),
    );
    opt("fromNode", row.from_node.as_deref());
    opt(
        "target",
        row.target.as_deref().filter(|_| dispatch.is_none()),
    );
    if !row.hint_targets.is_empty() {
        let hints: Vec<&str> = row.hint_targets.iter().map(|h| h.as_ref()).collect();
        m.insert("hintTargets".into(), json!(hints));
    }
    m.insert("score".into(), json!(row.score));
    if row.emergency {
        m.insert("emergency".into(), json!(true));
    }
    if row.cooldown_overridden {
        m.insert("cooldownOverridden".into(), json!(true));
    }
    if let Some((status, uuid, reason)) = dispatch {
        m.insert("dispatchStatus".into(), json!(status));
        m.insert("requestUUID".into(), json!(uuid));
        m.insert("dispatchReason".into(), json!(reason));
    } else if outcome == Outcome::Withheld {
        m.insert("dispatchStatus".into(), json!(DispatchStatus::Withheld));
        let reason = row.dispatch_reason.as_ref();
        let reason = reason.unwrap_or(&DispatchReason::SerialDispatchLimit);
        m.insert("dispatchReason".into(), json!(reason));
    }
    Value::Object(m)
}

impl DemoWorld {
    /// One decision pass at `now`: analyse, maybe dispatch, publish.
    pub(crate) fn alfred_pass(&mut self, now: Time) {
        let analysis = analyze(&self.snap, &demo_options(now));
        let interval = Duration::from_std(analysis.config.decision_loop_interval)
            .unwrap_or_else(|_| Duration::minutes(5))
            .max(Duration::seconds(1));
        self.alfred.next_pass = now + interval;
        let dispatched = self.dispatch(&analysis, now);
        let mut rows: Vec<Value> = analysis
            .moves
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let d = dispatched.as_ref().filter(|(k, _)| *k == i);
                let submitted = DispatchStatus::Submitted;
                let d = d.map(|(_, u)| (submitted, u.as_str(), DispatchReason::RequestSubmitted));
                row_json(r, d)
            })
            .collect();
        rows.extend(self.journal_rows(dispatched.as_ref().map(|(_, u)| u.as_str())));
        let recommendations = if rows.is_empty() {
            Value::Null
        } else {
            Value::Array(rows)
        };
        let cycle =
            json!({"timestamp": time(now), "mode": "execute", "recommendations": recommendations});
        let mut data = BTreeMap::new();
        data.insert("last-cycle.json".to_string(), cycle.to_string());
        for (key, record) in self.node_records(&analysis, now) {
            data.insert(key, record.to_string());
        }
        let rv = self.bump();
        let name = crate::engine::analysis::ALFRED_RECOMMENDATIONS;
        if let Some(cm) = self
            .snap
            .config_maps
            .iter_mut()
            .find(|c| c.name.as_ref() == name)
        {
            cm.data = data;
            cm.resource_version = rv;
        }
        self.touch(Source::Recommendations);
    }

    /// Rows of unresolved journal entries (other than one dispatched this pass): phase as
    /// outcome, score 0, no `target` (alfred.md §1.3).
    fn journal_rows(&self, skip: Option<&str>) -> Vec<Value> {
        self.journal
            .entries
            .iter()
            .filter(|e| !e.phase.is_terminal() && Some(e.uuid.as_str()) != skip)
            .map(|e| {
                let reason = serde_json::from_str::<Value>(&e.payload)
                    .ok()
                    .and_then(|p| {
                        p.get("reason")
                            .and_then(Value::as_str)
                            .map(Reason::from_wire)
                    })
                    .unwrap_or(Reason::Fragmentation);
                let policy = if reason == Reason::Fragmentation {
                    Policy::Defragmentation
                } else {
                    Policy::NodeHealth
                };
                let hints: Vec<&String> = e.targets.iter().take(3).collect();
                json!({
                    "workload": format!("{}/{}", e.namespace, e.name),
                    "component": "engine", "instance": e.instance, "policy": policy,
                    "reason": reason, "outcome": e.phase.as_str(), "fromNode": e.from_node,
                    "hintTargets": hints, "score": 0.0, "dispatchStatus": e.phase.as_str(),
                    "requestUUID": e.uuid, "dispatchReason": e.reason,
                })
            })
            .collect()
    }

    /// Dispatches the admitted row, if any: journal entry `submitted`, then the annotation.
    /// Returns (row index, uuid).
    fn dispatch(&mut self, analysis: &Analysis, now: Time) -> Option<(usize, String)> {
        let (i, row) = analysis
            .moves
            .iter()
            .enumerate()
            .find(|(_, r)| r.outcome == Outcome::Admitted && r.plan.is_some())?;
        let (ns, name) = row.workload.split_once('/')?;
        let from = row.from_node.as_deref()?.to_string();
        let targets: Vec<String> = row.hint_targets.iter().map(|h| h.to_string()).collect();
        let record = self.journal_record(
            (ns, name),
            (row.instance, from, targets),
            (&row.reason, now),
        )?;
        let key = annotation_key(&record.uuid).ok()?;
        let parsed = parse_request_annotation(&key, &record.payload).ok()?;
        let uuid = record.uuid.clone();
        let payload = record.payload.clone();
        // Alfred prunes terminal entries older than an hour when it appends (alfred.md §2.3).
        let horizon = now - Duration::hours(1);
        self.journal
            .entries
            .retain(|e| e.completed.is_none_or(|done| done >= horizon));
        self.journal.entries.push(record);
        self.write_journal_cm();
        let s = self
            .snap
            .isvcs
            .iter()
            .position(|s| s.namespace().as_ref() == ns && s.name().as_ref() == name)?;
        self.snap.isvcs[s]
            .annotations
            .insert(Arc::from(key.as_str()), payload);
        self.snap.isvcs[s].resource_version = self.bump();
        self.touch(Source::Services);
        let id = (
            self.snap.isvcs[s].namespace().clone(),
            self.snap.isvcs[s].name().clone(),
        );
        self.start_migration(id, &parsed, true);
        Some((i, uuid))
    }

    /// `node.<name>` records for nodes not Clear or under maintenance (§1.5), with the
    /// episode timestamps kept across passes.
    fn node_records(&mut self, analysis: &Analysis, now: Time) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        let mut open = BTreeMap::new();
        for (i, state) in analysis.nodes.iter().enumerate() {
            let maintenance = !state.maintenance.is_empty();
            if state.health == HealthState::Clear && !maintenance {
                continue;
            }
            let node = &self.snap.nodes[i];
            let mut ep = self
                .alfred
                .episodes
                .get(&node.name)
                .cloned()
                .unwrap_or_default();
            let concern = matches!(state.health, HealthState::Unhealthy | HealthState::Unknown);
            let name = node.name.clone();
            if concern && ep.signaled.is_none() {
                ep.signaled = Some(now);
                let text = format!(
                    "node {name} has an observed health concern; repair investigation requested"
                );
                self.node_event(&name, ("NodeRepairNeeded", "Warning"), text, now);
            }
            if maintenance && ep.maintenance.is_none() {
                ep.maintenance = Some(now);
                let text = format!(
                    "node {name}: planned maintenance requested; no hardware damage is implied"
                );
                self.node_event(&name, ("NodeMaintenanceRequested", "Normal"), text, now);
            }
            let node = &self.snap.nodes[i];
            let record = self.node_record(i, state, &ep, now);
            out.push((format!("node.{}", node.name), record));
            open.insert(node.name.clone(), ep);
        }
        self.alfred.episodes = open;
        out
    }

    /// Records Alfred's Event `(reason, type)` on node `name` in `default`; a repeat of the
    /// same reason on the same node is merged into it (count, last seen), as the API server
    /// merges repeated Events.
    fn node_event(
        &mut self,
        name: &Name,
        (reason, kind): (&str, &str),
        message: String,
        now: Time,
    ) {
        let events = &mut self.snap.events;
        let same = |e: &&mut Event| e.object_name == *name && e.reason.as_ref() == reason;
        if let Some(e) = events.iter_mut().find(same) {
            e.count += 1;
            e.last_seen = Some(now);
            e.message = message;
            return;
        }
        events.push(Event {
            namespace: Arc::from("default"),
            object_kind: Arc::from("Node"),
            object_namespace: Arc::from(""),
            object_name: name.clone(),
            reason: Arc::from(reason),
            message,
            source: Arc::from("alfred"),
            kind: Arc::from(kind),
            last_seen: Some(now),
            count: 1,
        });
    }

    /// One node record in the key order of alfred.md §1.5.
    fn node_record(&self, i: usize, state: &NodeState, ep: &Episode, now: Time) -> Value {
        let node = &self.snap.nodes[i];
        let mut workloads: Vec<String> = self
            .snap
            .pods
            .iter()
            .filter(|p| p.node.as_ref() == Some(&node.name) && p.is_ome_gpu_occupant())
            .filter_map(|p| Some(format!("{}/{}", p.namespace, p.ome.isvc.as_deref()?)))
            .collect();
        workloads.sort();
        workloads.dedup();
        let conditions: Vec<Value> = node
            .conditions
            .iter()
            .filter(|c| c.kind.as_ref() == "GpuUnhealthy")
            .map(|c| {
                let ltt = c.last_transition.map_or(Value::Null, |t| {
                    json!(t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
                });
                json!({"type": c.kind.as_ref(), "status": c.status.as_ref(), "lastTransitionTime": ltt})
            })
            .collect();
        let maintenance = !state.maintenance.is_empty();
        let mut m = Map::new();
        m.insert("nodeUID".into(), json!(node.uid.as_ref()));
        m.insert("state".into(), json!(state.health.name()));
        m.insert("conditions".into(), json!(conditions));
        if let Some(until) = state.health.suspect_until() {
            m.insert("suspectUntil".into(), time(until));
        }
        if maintenance {
            let triggers = json!({"requested": true, "triggers": state.maintenance});
            m.insert("maintenance".into(), triggers);
        }
        let occupied = !workloads.is_empty();
        m.insert("workloads".into(), json!(workloads));
        m.insert("omeGpuOccupantsPresent".into(), json!(occupied));
        m.insert("observedAt".into(), time(now));
        if let Some(t) = ep.signaled.filter(|_| state.health != HealthState::Clear) {
            m.insert("signaledAt".into(), time(t));
        }
        if let Some(t) = ep.maintenance.filter(|_| maintenance) {
            m.insert("maintenanceRequestedAt".into(), time(t));
        }
        Value::Object(m)
    }
}
