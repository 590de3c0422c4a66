//! The approval of a move in the operator's words: the pre-checks `kubectl ome migration start`
//! runs, ome-top's verdict on the move and the annotation value (`requested_by: "ome-top"`),
//! as the confirm dialog shows them. The engine decides: it locates the Instance, runs the
//! checks and says which failures refuse the approval outright and which an explicit override
//! passes over (`engine::planning::{PreCheck, Refusal, OverrideReason}`); the op carries the
//! overrides' wire strings for the Event and the audit row.

use crate::app::detail::check_line;
use crate::app::dialogs::Modal;
use crate::app::model::moves::MovePair;
use crate::app::state::{AppState, NoticeLevel, RequestedMove};
use crate::app::table::Tone;
use crate::app::update::ops::{allowed, dialog};
use crate::app::views::moves::words::{precheck_words, refusal_words};
use crate::app::views::moves::{
    action_move, instance_of, verdict, verdict_line, Merged, MoveFields,
};
use crate::engine::analysis::Analysis;
use crate::engine::migration::{DraftError, RequestDraft};
use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::planning::{
    first_refusal, override_reasons, CheckResult, OverrideReason, Refusal, Verdict,
};
use crate::protocol::{Capability, Op};

/// Who writes the request.
pub const REQUESTED_BY: &str = "ome-top";

/// What approving a move would do, and whether it may.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalPlan {
    /// The pre-checks and their results.
    pub checks: Vec<CheckResult>,
    /// ome-top's verdict on the move.
    pub verdict: Verdict,
    /// The annotation key and value, or why it cannot be built.
    pub annotation: Result<(String, String), DraftError>,
    /// Why the move cannot be approved at all (no override): the Instance is gone or not
    /// OMENative (nothing would run the request), a request is already in flight, or the
    /// request cannot be built.
    pub refused: Option<Refusal>,
    /// What confirming overrides (e.g. `NoSurgeHeadroom`); empty when ome-top says the move
    /// can run and every overridable pre-check passes.
    pub overrides: Vec<OverrideReason>,
    /// The op to send (carrying `overrides` as its override), unless `refused`.
    pub op: Option<Op>,
}

/// The overrides' wire strings, comma-separated (the op's, the Event's and the audit row's).
fn overrides_text(overrides: &[OverrideReason]) -> String {
    let words: Vec<&str> = overrides.iter().map(OverrideReason::as_str).collect();
    words.join(", ")
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
    let at = instance_of(m).and_then(|i| a.locate_instance(snap, i));
    let isvc = at.and_then(|(c, _)| snap.isvcs.get(a.workloads.components[c].isvc));
    let checks = a.approval_checks(snap, at);
    let verdict = verdict(snap, a, m);
    let overrides = override_reasons(&checks, &verdict);
    let annotation = draft(&f).annotation(uuid, now, REQUESTED_BY);
    let refused = first_refusal(&checks).or_else(|| {
        let why = annotation.as_ref().err()?;
        Some(Refusal::RequestCannotBeBuilt(why.clone()))
    });
    let op = match (&annotation, isvc, &refused) {
        (Ok((_, value)), Some(w), None) => Some(Op::ApproveMove {
            namespace: w.namespace().clone(),
            name: w.name().clone(),
            uid: w.uid.clone(),
            resource_version: w.resource_version.clone(),
            uuid: uuid.to_string(),
            value: value.clone(),
            overrode: (!overrides.is_empty()).then(|| overrides_text(&overrides)),
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

/// The request a move's row names.
fn draft<'a>(f: &'a MoveFields<'a>) -> RequestDraft<'a> {
    RequestDraft {
        component: f.component,
        instance: f.instance,
        from_node: f.from_node,
        target: f.target,
        hints: &f.hints,
        reason: f.reason.as_str(),
    }
}

/// The first lines of the dialog: ome-top's verdict, and what Alfred published when it
/// disagrees.
fn verdict_lines(plan: &ApprovalPlan, m: &Merged<'_>, published: bool) -> Vec<(String, Tone)> {
    let (words, tone) = verdict_line(&plan.verdict);
    let mut lines = vec![(format!("ome-top: {words}"), tone)];
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
    lines.extend(
        plan.checks
            .iter()
            .map(|c| check_line(c.passed, &precheck_words(&c.check))),
    );
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
            state.session.now,
        );
    };
    start_approve_pair(state, pair);
}

/// The approve dialog of the merged move `pair` (the Moves view's selection, or a step of an
/// unblock plan's walk), pushed on the modal stack; nothing when it may not be approved here.
pub fn start_approve_pair(state: &mut AppState, pair: MovePair) {
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
    let uuid = state.ops.ids.next_uuid();
    let Some(plan) = plan_approval(&feed.snapshot, &feed.analysis, &m, &uuid, state.session.now)
    else {
        return;
    };
    let lines = dialog_lines(&plan, &m, &f, state.views.models.move_index.published);
    let blocked = match (&plan.refused, plan.overrides.is_empty()) {
        (Some(why), _) => Some(format!("cannot be approved: {}", refusal_words(why))),
        (None, false) => Some(format!(
            "ome-top says it cannot run as it stands ({})",
            overrides_text(&plan.overrides)
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
        policy: f.policy.clone(),
        from_node: f.from_node.map(str::to_string),
        at: state.session.now,
    });
    state.overlays.modals.push(Modal::Confirm(Box::new(d)));
}
