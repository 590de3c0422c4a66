//! The demo's dispatch journal `alfred-dispatch-state` (alfred.md §2): entries in Alfred's exact
//! wire format (capitalised `workload` keys, RFC3339Nano times, the annotation payload as a
//! string), seeded with completed and failed history and exactly one `stalled` entry, and
//! updated by the Alfred stand-in's own dispatches.
//!
//! Owns: `DemoJournal`, `JournalRecord`. Pure.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::Duration;
use serde_json::{json, Value};

use crate::engine::journal::Phase;
use crate::engine::migration::Component;
use crate::engine::migration::{format_rfc3339_nano, MigrationRequest};
use crate::engine::model::vocab::Reason;
use crate::engine::model::{ConfigMap, Time};
use crate::sim::demo::{DemoWorld, Source, DEMO_NAMESPACE};

/// One journal entry (alfred.md §2.1).
#[derive(Debug, Clone, PartialEq)]
pub struct JournalRecord {
    pub uuid: String,
    pub namespace: String,
    pub name: String,
    pub workload_uid: String,
    pub ir_name: String,
    pub ir_uid: String,
    pub instance: i64,
    pub from_node: String,
    pub targets: Vec<String>,
    pub payload: String,
    pub fingerprint: String,
    pub created: Time,
    pub last_attempt: Option<Time>,
    pub acknowledged: Option<Time>,
    pub completed: Option<Time>,
    pub phase: Phase,
    pub reason: &'static str,
}

/// The journal document: entries in order and `backoffUntil`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DemoJournal {
    pub entries: Vec<JournalRecord>,
    pub backoff_until: Option<Time>,
}

fn time(t: Time) -> Value {
    format_rfc3339_nano(t).map_or(Value::Null, Value::String)
}

impl JournalRecord {
    fn to_json(&self) -> Value {
        let mut v = json!({
            "uuid": self.uuid,
            "workload": {"Namespace": self.namespace, "Name": self.name},
            "workloadUID": self.workload_uid,
            "irName": self.ir_name,
            "irUID": self.ir_uid,
            "component": "engine",
            "instance": self.instance,
            "fromNode": self.from_node,
            "targets": self.targets,
            "payload": self.payload,
            "sourceFingerprint": self.fingerprint,
            "createdAt": time(self.created),
        });
        let optional = [
            ("lastAttempt", self.last_attempt),
            ("acknowledgedAt", self.acknowledged),
            ("completedAt", self.completed),
        ];
        if let Some(obj) = v.as_object_mut() {
            for (key, t) in optional {
                if let Some(t) = t {
                    obj.insert(key.into(), time(t));
                }
            }
            obj.insert("phase".into(), json!(self.phase.as_str()));
            obj.insert("reason".into(), json!(self.reason));
        }
        v
    }
}

impl DemoJournal {
    /// `state.json`, compact.
    pub fn render(&self) -> String {
        let mut doc = json!({
            "version": "v1",
            "entries": self.entries.iter().map(JournalRecord::to_json).collect::<Vec<_>>(),
        });
        if let (Some(t), Some(obj)) = (self.backoff_until, doc.as_object_mut()) {
            obj.insert("backoffUntil".into(), time(t));
        }
        doc.to_string()
    }
}

/// A random RFC 4122 version-4 UUID, lowercase.
pub fn uuid(rng: &mut crate::sim::rng::Rng) -> String {
    let (a, b) = (rng.next_u64(), rng.next_u64());
    let hex = format!("{a:016x}{b:016x}");
    format!(
        "{}-{}-4{}-8{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

impl DemoWorld {
    /// The journal record of a request on Instance `instance` of `(ns, name)`'s engine, from
    /// `from_node`, created at `created`; `None` when the workload or its IR is gone.
    pub(crate) fn journal_record(
        &mut self,
        (ns, name): (&str, &str),
        (instance, from_node, targets): (i64, String, Vec<String>),
        (reason, created): (&Reason, Time),
    ) -> Option<JournalRecord> {
        let isvc = self
            .snap
            .isvcs
            .iter()
            .find(|s| s.namespace().as_ref() == ns && s.name().as_ref() == name)?;
        let ir = self
            .snap
            .replicas
            .iter()
            .find(|r| r.namespace.as_ref() == ns && r.parent.as_deref() == Some(name))?;
        let request = MigrationRequest {
            component: Component::Engine,
            instance: i32::try_from(instance).ok()?,
            from_node: from_node.clone(),
            hint_target_nodes: targets.iter().take(3).cloned().collect(),
            reason: reason.to_string(),
            requested_at: created,
            requested_by: "alfred".into(),
        };
        let payload = request.to_annotation_value().ok()?;
        let mut sorted = targets;
        sorted.sort();
        let (workload_uid, ir_name, ir_uid) = (
            isvc.uid.to_string(),
            ir.name.to_string(),
            ir.uid.to_string(),
        );
        let fingerprint = format!(
            "{:016x}{:016x}{:016x}{:016x}",
            self.rng.next_u64(),
            self.rng.next_u64(),
            self.rng.next_u64(),
            self.rng.next_u64()
        );
        Some(JournalRecord {
            uuid: uuid(&mut self.rng),
            namespace: ns.to_string(),
            name: name.to_string(),
            workload_uid,
            ir_name,
            ir_uid,
            instance,
            from_node,
            targets: sorted,
            payload,
            fingerprint,
            created,
            last_attempt: Some(created),
            acknowledged: None,
            completed: None,
            phase: Phase::Submitted,
            reason: "RequestSubmitted",
        })
    }

    /// Seeds history: two completed entries, one failed, and exactly one `stalled`
    /// (`AcknowledgementTimeout`, nothing left behind: clearable by §2.4).
    pub(crate) fn seed_journal(&mut self, start: Time) {
        let candidates: Vec<usize> = (0..self.catalog.len())
            .filter(|c| self.catalog[*c].omenative && !self.catalog[*c].fixed)
            .collect();
        let history: [(i64, Phase, &'static str); 4] = [
            (55, Phase::Completed, "TerminalStatusObserved"),
            (48, Phase::Completed, "TerminalStatusObserved"),
            (41, Phase::Failed, "TerminalStatusObserved"),
            (25, Phase::Stalled, "AcknowledgementTimeout"),
        ];
        for (k, (minutes, phase, reason)) in history.into_iter().enumerate() {
            let Some(c) = candidates.get(k * candidates.len().max(1) / 4) else {
                continue;
            };
            self.catalog[*c].fixed = true;
            let (ns, name) = (self.catalog[*c].ns.clone(), self.catalog[*c].name.clone());
            let nodes = self.seed_nodes(&ns, &name);
            let created = start - Duration::minutes(minutes);
            let why = if k == 3 {
                Reason::NodeMaintenance
            } else {
                Reason::Fragmentation
            };
            let Some(mut rec) =
                self.journal_record((&ns, &name), (0, nodes.0, nodes.1), (&why, created))
            else {
                continue;
            };
            rec.phase = phase;
            rec.reason = reason;
            if phase != Phase::Stalled {
                rec.acknowledged = Some(created + Duration::seconds(12));
                rec.completed = Some(created + Duration::minutes(6));
            }
            self.journal.entries.push(rec);
        }
        // Set when the stalled entry turned stalled: createdAt + ack timeout + failure backoff.
        self.journal.backoff_until = Some(start - Duration::minutes(25 - 2 - 5));
        self.write_journal_cm();
    }

    /// `(from node, two target nodes)` for a seeded entry of `(ns, name)`.
    fn seed_nodes(&self, ns: &str, name: &str) -> (String, Vec<String>) {
        let from = self
            .snap
            .pods
            .iter()
            .find(|p| p.namespace.as_ref() == ns && p.ome.isvc.as_deref() == Some(name))
            .and_then(|p| p.node.as_deref())
            .unwrap_or("gpu-h100-000")
            .to_string();
        let others: Vec<String> = self
            .snap
            .nodes
            .iter()
            .map(|n| n.name.to_string())
            .filter(|n| *n != from && n.get(..8) == from.get(..8))
            .take(2)
            .collect();
        (from, others)
    }

    /// Writes the journal document into `alfred-dispatch-state` (creating it once), bumping its
    /// resourceVersion.
    pub(crate) fn write_journal_cm(&mut self) {
        let text = self.journal.render();
        self.set_journal_text(text);
    }

    /// Stores `text` as `state.json`.
    pub(crate) fn set_journal_text(&mut self, text: String) {
        let rv = self.bump();
        let name = crate::engine::analysis::ALFRED_JOURNAL;
        match self
            .snap
            .config_maps
            .iter_mut()
            .find(|c| c.name.as_ref() == name && c.namespace.as_ref() == DEMO_NAMESPACE)
        {
            Some(cm) => {
                cm.data.insert("state.json".into(), text);
                cm.resource_version = rv;
            }
            None => {
                let mut data = BTreeMap::new();
                data.insert("state.json".to_string(), text);
                self.snap.config_maps.push(ConfigMap {
                    namespace: Arc::from(DEMO_NAMESPACE),
                    name: Arc::from(name),
                    resource_version: rv,
                    data,
                });
            }
        }
        self.touch(Source::Journal);
    }
}
