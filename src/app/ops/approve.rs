//! The approval of a move: the pre-checks `kubectl ome migration start` runs (Instance still
//! Ready, no in-flight request for the workload, workload not opted out, eligibility baseline)
//! and the annotation value built by the engine with `requested_by: "ome-top"`.
//!
//! Owns: `locate_instance`, `ApprovalPlan`, `plan_approval`. Plain data; must not import
//! `ratatui`, `tokio` or `kube`.

use crate::app::views::moves::MoveFields;
use crate::engine::analysis::Analysis;
use crate::engine::migration::MigrationRequest;
use crate::engine::migration::{annotation_key, Component};
use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::workloads::is_movable;
use crate::protocol::Op;

/// Who writes the request.
pub const REQUESTED_BY: &str = "ome-top";

/// `(component index, instance index)` in `Analysis::workloads` for a move's identity.
pub fn locate_instance(
    snap: &ClusterSnapshot,
    a: &Analysis,
    workload: &str,
    component: &str,
    instance: i64,
) -> Option<(usize, usize)> {
    a.workloads
        .components
        .iter()
        .enumerate()
        .find_map(|(c, comp)| {
            let isvc = snap.isvcs.get(comp.isvc)?;
            if comp.name() != component || isvc.key() != workload {
                return None;
            }
            let i = comp.instances.iter().position(|x| x.index == instance)?;
            Some((c, i))
        })
}

/// What approving a move would do, and whether it may.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalPlan {
    /// `(passed, text)` per pre-check; `None` = could not be verified.
    pub checks: Vec<(Option<bool>, String)>,
    /// The annotation key and value, or why it cannot be built.
    pub annotation: Result<(String, String), String>,
    /// The op to send when every check passes.
    pub op: Option<Op>,
}

fn ready_check(
    snap: &ClusterSnapshot,
    a: &Analysis,
    at: Option<(usize, usize)>,
) -> (Option<bool>, String) {
    let Some((c, i)) = at else {
        return (
            Some(false),
            "the Instance exists in the current snapshot".into(),
        );
    };
    let inst = &a.workloads.components[c].instances[i];
    let ready = !inst.pods.is_empty()
        && inst.ready_pods == inst.pods.len() as i64
        && inst.observation.is_ok();
    let _ = snap;
    (
        Some(ready),
        format!(
            "the Instance is still Ready ({}/{} pods ready)",
            inst.ready_pods,
            inst.pods.len()
        ),
    )
}

/// Plans the approval of move `f` at `now` with request `uuid`.
pub fn plan_approval(
    snap: &ClusterSnapshot,
    a: &Analysis,
    f: &MoveFields<'_>,
    uuid: &str,
    now: Time,
) -> ApprovalPlan {
    let at = locate_instance(snap, a, f.workload, f.component, f.instance);
    let isvc_idx = at.map(|(c, _)| a.workloads.components[c].isvc);
    let isvc = isvc_idx.and_then(|i| snap.isvcs.get(i));
    let mut checks = vec![ready_check(snap, a, at)];
    let in_flight = isvc_idx.and_then(|i| a.workloads.migrations.get(i));
    checks.push(match in_flight {
        Some(m) => (
            Some(m.active == 0),
            format!(
                "no in-flight request for the workload ({} active)",
                m.active
            ),
        ),
        None => (None, "no in-flight request for the workload".into()),
    });
    checks.push(match isvc {
        Some(w) => (
            Some(is_movable(w, a.config.default_movable)),
            "the workload is not opted out (alfred.ome.io/movable)".into(),
        ),
        None => (None, "the workload is not opted out".into()),
    });
    let verdict = at.and_then(|(c, i)| {
        a.verdicts
            .iter()
            .find(|v| v.component == c && v.instance == i)
    });
    checks.push(match verdict.map(|v| &v.baseline) {
        Some(Ok(())) => (Some(true), "OMENative eligibility baseline".into()),
        Some(Err(why)) => (
            Some(false),
            format!("OMENative eligibility baseline: {why}"),
        ),
        None => (
            Some(false),
            "the Instance is OMENative (only those can move)".into(),
        ),
    });
    let annotation = build_annotation(f, uuid, now);
    let all_pass = checks.iter().all(|(ok, _)| *ok == Some(true));
    let op = match (&annotation, isvc, all_pass) {
        (Ok((_, value)), Some(w), true) => Some(Op::ApproveMove {
            namespace: w.namespace().clone(),
            name: w.name().clone(),
            uid: w.uid.clone(),
            resource_version: w.resource_version.clone(),
            uuid: uuid.to_string(),
            value: value.clone(),
        }),
        _ => None,
    };
    ApprovalPlan {
        checks,
        annotation,
        op,
    }
}

fn build_annotation(f: &MoveFields<'_>, uuid: &str, now: Time) -> Result<(String, String), String> {
    let component = Component::parse(f.component)
        .ok_or_else(|| format!("unknown component {:?}", f.component))?;
    let instance = i32::try_from(f.instance).map_err(|_| "instance out of range".to_string())?;
    let from_node = f
        .from_node
        .ok_or("the move names no source node")?
        .to_string();
    let mut hints: Vec<String> = f.target.iter().map(|t| t.to_string()).collect();
    for h in &f.hints {
        if !hints.iter().any(|x| x == h) && Some(*h) != f.from_node {
            hints.push(h.to_string());
        }
    }
    hints.truncate(8);
    let request = MigrationRequest {
        component,
        instance,
        from_node,
        hint_target_nodes: hints,
        reason: f.reason.to_string(),
        requested_at: now,
        requested_by: REQUESTED_BY.to_string(),
    };
    let value = request.to_annotation_value().map_err(|e| e.to_string())?;
    let key = annotation_key(uuid).map_err(|e| e.to_string())?;
    Ok((key, value))
}
