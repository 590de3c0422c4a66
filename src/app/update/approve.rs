//! The approval of a move: the pre-checks `kubectl ome migration start` runs (Instance still
//! Ready, no in-flight request for the workload, workload not opted out, eligibility baseline),
//! ome-top's verdict on the move, and the annotation value built by the engine with
//! `requested_by: "ome-top"`. A move ome-top says cannot run (or whose Ready, opt-out or
//! eligibility check fails) can still be approved, but only with the explicit override, which
//! the op carries for the Event and the audit row; a move nothing would run (not OMENative, a
//! request already in flight, the Instance gone) cannot.
//!
//! Owns: `locate_instance`, `ApprovalPlan`, `plan_approval`, `start_approve`. Plain data; must not import
//! `ratatui`, `tokio` or `kube`.

use crate::app::detail::check_line;
use crate::app::dialogs::Modal;
use crate::app::state::{AppState, NoticeLevel, RequestedMove};
use crate::app::table::Tone;
use crate::app::update::ops::{allowed, dialog};
use crate::app::views::moves::words::advisory_words;
use crate::app::views::moves::{
    action_move, locate_instance, verdict, Merged, MoveFields, Verdict,
};
use crate::engine::analysis::Analysis;
use crate::engine::migration::MigrationRequest;
use crate::engine::migration::{annotation_key, Component};
use crate::engine::model::{ClusterSnapshot, InferenceService, Time};
use crate::engine::workloads::{is_movable, DeploymentMode};
use crate::protocol::{Capability, Op};

/// Who writes the request.
pub const REQUESTED_BY: &str = "ome-top";

/// What approving a move would do, and whether it may.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalPlan {
    /// `(passed, text)` per pre-check; `None` = could not be verified.
    pub checks: Vec<(Option<bool>, String)>,
    /// ome-top's verdict on the move.
    pub verdict: Verdict,
    /// The annotation key and value, or why it cannot be built.
    pub annotation: Result<(String, String), String>,
    /// Why the move cannot be approved at all (no override): the Instance is gone or not
    /// OMENative (nothing would run the request), a request is already in flight, or the
    /// request cannot be built.
    pub refused: Option<String>,
    /// What confirming overrides (reason strings, e.g. `NoSurgeHeadroom`); empty when ome-top
    /// says the move can run and every overridable pre-check passes.
    pub overrides: Vec<String>,
    /// The op to send (carrying `overrides` as its override), unless `refused`.
    pub op: Option<Op>,
}

fn ready_check(a: &Analysis, at: Option<(usize, usize)>) -> (Option<bool>, String) {
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
    (
        Some(ready),
        format!(
            "the Instance is still Ready ({}/{} pods ready)",
            inst.ready_pods,
            inst.pods.len()
        ),
    )
}

/// The checks nothing overrides: `(result, text)`, and the refusal when one fails.
fn hard_checks(
    snap: &ClusterSnapshot,
    a: &Analysis,
    at: Option<(usize, usize)>,
) -> (Vec<(Option<bool>, String)>, Option<String>) {
    let Some((c, _)) = at else {
        let text = "the Instance exists in the current snapshot";
        return (vec![(Some(false), text.into())], Some(text.into()));
    };
    let comp = &a.workloads.components[c];
    let mut checks = Vec::new();
    let mut refused = None;
    let omenative = comp.mode == DeploymentMode::OMENative;
    let text = if omenative {
        "the Instance runs in OMENative mode (only those migrate)".to_string()
    } else {
        format!(
            "the Instance runs in OMENative mode (this one is {:?}: nothing would run the request)",
            comp.mode
        )
    };
    if !omenative {
        refused = Some(text.clone());
    }
    checks.push((Some(omenative), text));
    let in_flight = snap
        .isvcs
        .get(comp.isvc)
        .and(a.workloads.migrations.get(comp.isvc));
    let (ok, text) = match in_flight {
        Some(m) => (
            Some(m.active == 0),
            format!(
                "no in-flight request for the workload ({} active)",
                m.active
            ),
        ),
        None => (None, "no in-flight request for the workload".to_string()),
    };
    if ok == Some(false) {
        refused = refused.or(Some(text.clone()));
    }
    checks.push((ok, text));
    (checks, refused)
}

/// The pre-checks an override may pass over: Ready, not opted out, the eligibility baseline;
/// each failure adds its reason string to `overrides`.
fn soft_checks(
    a: &Analysis,
    at: Option<(usize, usize)>,
    isvc: Option<&InferenceService>,
    overrides: &mut Vec<String>,
) -> Vec<(Option<bool>, String)> {
    let ready = ready_check(a, at);
    if ready.0 != Some(true) {
        overrides.push("InstanceNotReady".into());
    }
    let movable = isvc.map(|w| is_movable(w, a.config.default_movable));
    if movable != Some(true) {
        overrides.push("NotMovable".into());
    }
    let movable = (
        movable,
        "the workload is not opted out (alfred.ome.io/movable)".to_string(),
    );
    let baseline = at.and_then(|(c, i)| {
        a.verdicts
            .iter()
            .find(|v| v.component == c && v.instance == i)
            .map(|v| &v.baseline)
    });
    let baseline = match baseline {
        Some(Ok(())) => (Some(true), "OMENative eligibility baseline".into()),
        Some(Err(why)) => {
            overrides.push(why.to_string());
            let text = format!(
                "OMENative eligibility baseline: {} ({why})",
                advisory_words(why)
            );
            (Some(false), text)
        }
        None => (None, "OMENative eligibility baseline".into()),
    };
    vec![ready, movable, baseline]
}

/// Plans the approval of the merged move `m` at `now` with request `uuid`.
pub fn plan_approval(
    snap: &ClusterSnapshot,
    a: &Analysis,
    m: &Merged<'_>,
    uuid: &str,
    now: Time,
) -> Option<ApprovalPlan> {
    let f = m.primary()?.fields();
    let at = locate_instance(snap, a, f.workload, f.component, f.instance);
    let isvc = at.and_then(|(c, _)| snap.isvcs.get(a.workloads.components[c].isvc));
    let (mut checks, mut refused) = hard_checks(snap, a, at);
    let mut overrides: Vec<String> = Vec::new();
    checks.extend(soft_checks(a, at, isvc, &mut overrides));
    let verdict = verdict(snap, a, m);
    if let Verdict::Blocked { reason, .. } = &verdict {
        overrides.push(reason.clone());
    }
    let mut seen = std::collections::HashSet::new();
    overrides.retain(|o| seen.insert(o.clone()));
    let annotation = build_annotation(&f, uuid, now);
    if let Err(why) = &annotation {
        refused = refused.or(Some(format!("the request cannot be built: {why}")));
    }
    let op = match (&annotation, isvc, &refused) {
        (Ok((_, value)), Some(w), None) => Some(Op::ApproveMove {
            namespace: w.namespace().clone(),
            name: w.name().clone(),
            uid: w.uid.clone(),
            resource_version: w.resource_version.clone(),
            uuid: uuid.to_string(),
            value: value.clone(),
            overrode: (!overrides.is_empty()).then(|| overrides.join(", ")),
        }),
        _ => None,
    };
    Some(ApprovalPlan {
        checks,
        verdict,
        annotation,
        refused,
        overrides,
        op,
    })
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

/// The first lines of the dialog: ome-top's verdict, and what Alfred published when it
/// disagrees.
fn verdict_lines(plan: &ApprovalPlan, m: &Merged<'_>, published: bool) -> Vec<(String, Tone)> {
    let tone = if plan.verdict.executable() {
        Tone::Ok
    } else {
        Tone::Failed
    };
    let mut lines = vec![(format!("ome-top: {}", plan.verdict.words()), tone)];
    if let (Some(r), true) = (m.alfred, published && m.disagree()) {
        let why = r
            .advisory_reason
            .as_ref()
            .map(|x| x.to_string())
            .or(r.reject_reason.as_ref().map(|x| x.to_string()))
            .or(r.dispatch_reason.as_ref().map(|x| x.to_string()))
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        lines.push((
            format!("≠ Alfred published {}{why}: they disagree", r.outcome),
            Tone::Degraded,
        ));
    }
    lines
}

/// Every line of the approve dialog: the verdict first, then the pre-checks, the warning, the
/// exact change (the body of a short terminal loses its last lines first).
fn dialog_lines(
    plan: &ApprovalPlan,
    m: &Merged<'_>,
    f: &MoveFields<'_>,
    published: bool,
) -> Vec<(String, Tone)> {
    let mut lines = verdict_lines(plan, m, published);
    lines.push((
        format!(
            "Pre-checks for {} {}/{}",
            f.workload, f.component, f.instance
        ),
        Tone::Accent,
    ));
    lines.extend(plan.checks.iter().map(|(ok, text)| check_line(*ok, text)));
    lines.push((
        "⚠ a request counts against Alfred's in-flight cap (InFlightCap) and starts the workload's cooldown".into(),
        Tone::Degraded,
    ));
    match &plan.annotation {
        Ok((key, value)) => {
            lines.push((format!("add annotation {key}"), Tone::Danger));
            lines.push((format!("  = {value}"), Tone::Normal));
        }
        Err(why) => lines.push((format!("cannot build the request: {why}"), Tone::Failed)),
    }
    if let Some(Op::ApproveMove {
        uid,
        resource_version,
        ..
    }) = &plan.op
    {
        lines.push((
            format!("JSON Patch with test on uid {uid} and resourceVersion {resource_version}"),
            Tone::Normal,
        ));
    }
    lines
}

/// `approve-move` on the selected move: ome-top's verdict, the pre-checks, the annotation,
/// the warning; an override when the verdict or a pre-check says the move cannot run.
pub fn start_approve(state: &mut AppState) {
    let Some(pair) = action_move(state) else {
        return state.notices.push(
            "approve: select a move (a group row holds many)",
            NoticeLevel::Error,
            state.now,
        );
    };
    if !allowed(state, Capability::ApproveMove, "approve") {
        return;
    }
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    let Some(m) = Merged::of(&feed.analysis, pair) else {
        return;
    };
    let Some(f) = m.primary().map(|p| p.fields()) else {
        return;
    };
    let uuid = state.ids.next_uuid();
    let Some(plan) = plan_approval(&feed.snapshot, &feed.analysis, &m, &uuid, state.now) else {
        return;
    };
    let lines = dialog_lines(&plan, &m, &f, state.models.move_index.published);
    let blocked = match (&plan.refused, plan.overrides.is_empty()) {
        (Some(why), _) => Some(format!("cannot be approved: {why}")),
        (None, false) => Some(format!(
            "ome-top says it cannot run as it stands ({})",
            plan.overrides.join(", ")
        )),
        (None, true) => None,
    };
    let mut d = dialog(format!("Approve move of {}", f.workload), lines, plan.op);
    d.overridable = plan.refused.is_none() && !plan.overrides.is_empty();
    d.blocked = blocked;
    d.tracks = Some(RequestedMove {
        uuid,
        workload: f.workload.to_string(),
        component: f.component.to_string(),
        instance: f.instance,
    });
    state.modals.push(Modal::Confirm(Box::new(d)));
}
