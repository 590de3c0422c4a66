//! Operator ops against the demo world (product.md §6), with the API server's semantics: every
//! write is a compare-and-swap on the resourceVersion the operator saw (a stale one is a
//! `Conflict`, never an overwrite); approvals are validated with the engine's request parser and
//! then run by the migration consumer; journal clearing uses the engine's checked one-entry
//! edit and only for `stalled` entries.
//!
//! Owns: `DemoWorld::apply`. Pure.

use std::sync::Arc;

use crate::engine::analysis::ALFRED_JOURNAL;
use crate::engine::journal::remove_entry_checked;
use crate::engine::journal::stalled_verdicts;
use crate::engine::journal::ClearingDecision;
use crate::engine::journal::{parse_journal, Phase};
use crate::engine::migration::{annotation_key, parse_request_annotation};
use crate::engine::model::{Event, Name, Time};
use crate::protocol::{Op, OpOutcome};
use crate::sim::demo::{DemoWorld, Source};

fn conflict(object: &str, seen: &str, now: &str) -> OpOutcome {
    OpOutcome::Conflict {
        message: format!(
            "changed since you looked: {object} is at resourceVersion {now}, you saw {seen}"
        ),
    }
}

fn refused(message: impl Into<String>) -> OpOutcome {
    OpOutcome::Refused {
        message: message.into(),
    }
}

fn done(message: String, rv: &Name) -> OpOutcome {
    OpOutcome::Done {
        message,
        resource_version: Some(rv.to_string()),
    }
}

/// The Event note of an operator's write, worded as the live path words it (the demo's
/// operator is `demo`): `<verb> by demo with ome-top[: <reason>]`.
fn operator_note(verb: &str, reason: Option<&str>) -> String {
    match reason.map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => format!("{verb} by demo with ome-top: {r}"),
        None => format!("{verb} by demo with ome-top"),
    }
}

impl DemoWorld {
    /// Applies an operator op at sim time `now` (the world's clock does not move).
    pub fn apply(&mut self, op: &Op, now: Time) -> OpOutcome {
        match op {
            Op::Cordon {
                node,
                resource_version,
                reason,
            } => self.set_cordon(node, resource_version, (true, reason.as_deref()), now),
            Op::Uncordon {
                node,
                resource_version,
                reason,
            } => self.set_cordon(node, resource_version, (false, reason.as_deref()), now),
            Op::ApproveMove {
                namespace,
                name,
                uid,
                resource_version,
                uuid,
                value,
                overrode,
            } => self.approve(
                (namespace, name, uid, resource_version),
                (uuid, value),
                overrode.as_deref(),
            ),
            Op::OptOut {
                namespace,
                name,
                uid,
                resource_version,
                reason,
            } => self.opt_out((namespace, name, uid, resource_version), reason, now),
            Op::OptIn {
                namespace,
                name,
                uid,
                resource_version,
            } => self.opt_in((namespace, name, uid, resource_version), now),
            Op::ClearJournalEntry {
                namespace,
                uuid,
                resource_version,
                override_checks,
            } => self.clear_entry(namespace, uuid, resource_version, *override_checks),
        }
    }

    /// Cordons or uncordons `node` and, as the live path does, records the Event
    /// `OmeTopCordon`/`OmeTopUncordon` whose note carries the operator's reason.
    fn set_cordon(
        &mut self,
        node: &str,
        seen: &str,
        (cordon, reason): (bool, Option<&str>),
        now: Time,
    ) -> OpOutcome {
        let Some(i) = self.snap.nodes.iter().position(|n| n.name.as_ref() == node) else {
            return OpOutcome::Failed {
                message: format!("nodes \"{node}\" not found"),
            };
        };
        let n = &self.snap.nodes[i];
        if n.resource_version.as_ref() != seen {
            return conflict(&format!("node/{node}"), seen, &n.resource_version);
        }
        let verb = if cordon { "cordoned" } else { "uncordoned" };
        if n.unschedulable == cordon {
            return done(format!("node/{node} already {verb}"), &n.resource_version);
        }
        let rv = self.bump();
        let n = &mut self.snap.nodes[i];
        n.unschedulable = cordon;
        n.resource_version = rv.clone();
        let involved = ("Node", Name::from(""), n.name.clone());
        self.touch(Source::Nodes);
        let event = if cordon {
            "OmeTopCordon"
        } else {
            "OmeTopUncordon"
        };
        self.operator_event(involved, event, operator_note(verb, reason), now);
        done(format!("node/{node} {verb}"), &rv)
    }

    /// Records the Event an operator's write leaves on the object `(kind, namespace, name)`
    /// (`source` ome-top; a cluster-scoped object's in `default`); each write its own Event,
    /// as the live path creates one per write.
    fn operator_event(
        &mut self,
        (kind, namespace, name): (&str, Name, Name),
        reason: &str,
        message: String,
        now: Time,
    ) {
        let in_ns = if namespace.is_empty() {
            Arc::from("default")
        } else {
            namespace.clone()
        };
        self.snap.events.push(Event {
            namespace: in_ns,
            object_kind: Arc::from(kind),
            object_namespace: namespace,
            object_name: name,
            reason: Arc::from(reason),
            message,
            source: Arc::from("ome-top"),
            kind: Arc::from("Normal"),
            last_seen: Some(now),
            count: 1,
        });
    }

    /// The InferenceService `ns/name` after the uid and resourceVersion tests of a JSON Patch.
    fn patch_target(
        &self,
        (ns, name, uid, seen): (&str, &str, &str, &str),
    ) -> Result<usize, OpOutcome> {
        let Some(s) = self
            .snap
            .isvcs
            .iter()
            .position(|s| s.namespace().as_ref() == ns && s.name().as_ref() == name)
        else {
            return Err(OpOutcome::Failed {
                message: format!("inferenceservices.ome.io \"{ns}/{name}\" not found"),
            });
        };
        let isvc = &self.snap.isvcs[s];
        let object = format!("inferenceservice/{ns}/{name}");
        if isvc.uid.as_ref() != uid {
            return Err(OpOutcome::Conflict {
                message: format!(
                    "changed since you looked: {object} was recreated (uid {})",
                    isvc.uid
                ),
            });
        }
        if isvc.resource_version.as_ref() != seen {
            return Err(conflict(&object, seen, &isvc.resource_version));
        }
        Ok(s)
    }

    fn approve(
        &mut self,
        target: (&Name, &Name, &Name, &Name),
        (uuid, value): (&str, &str),
        overrode: Option<&str>,
    ) -> OpOutcome {
        let (ns, name, uid, seen) = target;
        let key = match annotation_key(uuid) {
            Ok(k) => k,
            Err(e) => return refused(format!("invalid request: {e}")),
        };
        let parsed = match parse_request_annotation(&key, value) {
            Ok(p) => p,
            Err(e) => return refused(format!("invalid request: {e}")),
        };
        let s = match self.patch_target((ns, name, uid, seen)) {
            Ok(s) => s,
            Err(outcome) => return outcome,
        };
        let rv = self.bump();
        let isvc = &mut self.snap.isvcs[s];
        isvc.annotations
            .insert(Arc::from(key.as_str()), value.to_string());
        isvc.resource_version = rv.clone();
        self.touch(Source::Services);
        self.start_migration((ns.clone(), name.clone()), &parsed, false);
        let over = overrode
            .map(|o| format!(" (override: {o})"))
            .unwrap_or_default();
        done(
            format!(
                "migration request {uuid} written on {ns}/{name} (instance {} from {}){over}",
                parsed.instance, parsed.from_node
            ),
            &rv,
        )
    }

    /// Opts the workload out and, as the live path does, records the Event `OmeTopOptOut`
    /// on the InferenceService with the operator's reason.
    fn opt_out(
        &mut self,
        target: (&Name, &Name, &Name, &Name),
        reason: &str,
        now: Time,
    ) -> OpOutcome {
        let (ns, name, uid, seen) = target;
        let s = match self.patch_target((ns, name, uid, seen)) {
            Ok(s) => s,
            Err(outcome) => return outcome,
        };
        let rv = self.bump();
        let isvc = &mut self.snap.isvcs[s];
        isvc.annotations
            .insert(Arc::from("alfred.ome.io/movable"), "false".into());
        isvc.annotations.insert(
            Arc::from("alfred.ome.io/opt-out-reason"),
            reason.to_string(),
        );
        isvc.resource_version = rv.clone();
        self.touch(Source::Services);
        let note = operator_note("opted out of Alfred's moves", Some(reason));
        let involved = ("InferenceService", ns.clone(), name.clone());
        self.operator_event(involved, "OmeTopOptOut", note, now);
        done(format!("{ns}/{name} opted out of Alfred's moves"), &rv)
    }

    /// Removes the opt-out annotations (the workload follows `defaultMovable` again) and, as
    /// the live path does, records the Event `OmeTopOptIn`.
    fn opt_in(&mut self, target: (&Name, &Name, &Name, &Name), now: Time) -> OpOutcome {
        let (ns, name, uid, seen) = target;
        let s = match self.patch_target((ns, name, uid, seen)) {
            Ok(s) => s,
            Err(outcome) => return outcome,
        };
        let isvc = &self.snap.isvcs[s];
        let keys = ["alfred.ome.io/movable", "alfred.ome.io/opt-out-reason"];
        if !keys.iter().any(|k| isvc.annotations.contains_key(*k)) {
            return OpOutcome::Refused {
                message: format!("{ns}/{name} is not opted out; nothing written"),
            };
        }
        let rv = self.bump();
        let isvc = &mut self.snap.isvcs[s];
        for k in keys {
            isvc.annotations.remove(k);
        }
        isvc.resource_version = rv.clone();
        self.touch(Source::Services);
        let note = operator_note("opted back in to Alfred's moves", None);
        let involved = ("InferenceService", ns.clone(), name.clone());
        self.operator_event(involved, "OmeTopOptIn", note, now);
        done(format!("{ns}/{name} opted back in to Alfred's moves"), &rv)
    }

    fn clear_entry(
        &mut self,
        ns: &str,
        uuid: &str,
        seen: &str,
        override_checks: bool,
    ) -> OpOutcome {
        let Some(cm) = self.snap.config_map(ns, ALFRED_JOURNAL) else {
            return OpOutcome::Failed {
                message: format!("configmaps \"{ns}/{ALFRED_JOURNAL}\" not found"),
            };
        };
        if cm.resource_version.as_ref() != seen {
            return conflict(
                &format!("configmap/{ns}/{ALFRED_JOURNAL}"),
                seen,
                &cm.resource_version,
            );
        }
        let Some(text) = cm.data.get("state.json").cloned() else {
            return refused("state.json is missing: nothing to clear");
        };
        let journal = match parse_journal(text.as_bytes()) {
            Ok(j) => j,
            Err(e) => return refused(format!("refusing to edit an unreadable journal: {e}")),
        };
        let Some(entry) = journal.entries.iter().find(|e| e.uuid == uuid) else {
            return refused(format!("no journal entry has uuid \"{uuid}\""));
        };
        if entry.phase != Phase::Stalled {
            return refused(format!(
                "only stalled entries can be cleared; {uuid} is {}",
                entry.phase
            ));
        }
        let verdicts = stalled_verdicts(&self.snap, &journal);
        let decision = verdicts
            .iter()
            .find(|(u, _)| u == uuid)
            .map(|(_, v)| &v.decision);
        if let (Some(ClearingDecision::Wait(why)), false) = (decision, override_checks) {
            return refused(format!("the §2.4 checks say wait: {why}"));
        }
        let out = match remove_entry_checked(&text, uuid) {
            Ok(out) => out,
            Err(e) => return refused(e.to_string()),
        };
        self.journal.entries.retain(|e| e.uuid != uuid);
        self.set_journal_text(out);
        let rv = self
            .snap
            .config_map(ns, ALFRED_JOURNAL)
            .map(|c| c.resource_version.clone())
            .unwrap_or_else(|| Arc::from(""));
        done(format!("journal entry {uuid} cleared"), &rv)
    }
}
