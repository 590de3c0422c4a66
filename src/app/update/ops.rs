//! The operator's writes as two-step flows: an action opens a confirm dialog that states the
//! exact change (refused up front with the permission's reason when not allowed); `confirm`
//! turns it into a `Command`; `OpDone` closes the loop with a notice and an audit effect.
//!
//! Owns: `start_cordon`, `start_reject`, `start_opt_out`, `confirm`, `op_done` (`update::approve`
//! owns approving, `update::journal` clearing). Plain data.

use crate::app::dialogs::{ConfirmDialog, Modal};
use crate::app::effect::Effect;
use crate::app::state::{AppState, NoticeLevel, PendingOp, View};
use crate::app::table::Tone;
use crate::app::views::moves::decided::maintenance_evacuations;
use crate::app::views::moves::{action_move, Merged};
use crate::app::views::nodes::detail::uncordon_warning;
use crate::engine::analysis::Analysis;
use crate::protocol::{Capability, Command, Op, OpOutcome};

pub(crate) fn allowed(state: &mut AppState, cap: Capability, what: &str) -> bool {
    let Some(feed) = state.shown() else {
        return false;
    };
    match feed.permissions.check(cap) {
        Ok(()) => true,
        Err(why) => {
            state.notices.push(
                format!("{what} refused: {why}"),
                NoticeLevel::Error,
                state.session.now,
            );
            false
        }
    }
}

pub(crate) fn dialog(title: String, lines: Vec<(String, Tone)>, op: Option<Op>) -> ConfirmDialog {
    ConfirmDialog {
        title,
        lines,
        op,
        blocked: None,
        reason_allowed: false,
        reason: None,
        overridable: false,
        override_armed: false,
        tracks: None,
        scroll: 0,
    }
}

/// `cordon-node` / `uncordon-node` on the selected node.
pub fn start_cordon(state: &mut AppState, cordon: bool) {
    let what = if cordon { "cordon" } else { "uncordon" };
    let Some(i) = state.action_source(View::Nodes) else {
        return state.notices.push(
            format!("{what}: no node selected"),
            NoticeLevel::Error,
            state.session.now,
        );
    };
    start_cordon_at(state, i, cordon);
}

/// `cordon-node` / `uncordon-node` on node `i` of the shown snapshot (the Nodes selection, or
/// the node a lint's fix names): the same guarded, audited op.
pub fn start_cordon_at(state: &mut AppState, i: usize, cordon: bool) {
    let what = if cordon { "cordon" } else { "uncordon" };
    if !allowed(state, Capability::CordonNode, what) {
        return;
    }
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    let Some(node) = feed.snapshot.nodes.get(i) else {
        return;
    };
    if node.unschedulable == cordon {
        let is = if cordon {
            "already cordoned"
        } else {
            "not cordoned"
        };
        return state.notices.push(
            format!("{what}: node/{} is {is}", node.name),
            NoticeLevel::Error,
            state.session.now,
        );
    }
    let (node_name, rv) = (node.name.clone(), node.resource_version.clone());
    let warning = (!cordon)
        .then(|| uncordon_warning(&feed, i, state.settings.utc_offset))
        .flatten();
    let mut lines = vec![
        (
            format!(
                "node/{node_name}: spec.unschedulable {} → {cordon}",
                !cordon
            ),
            Tone::Danger,
        ),
        (
            format!("compare-and-swap on resourceVersion {rv}"),
            Tone::Normal,
        ),
        (
            "an Event with reportingController ome-top records it".into(),
            Tone::Muted,
        ),
    ];
    // Right under the change: the body ends with the lines least needed to decide.
    if let Some(w) = warning {
        lines.insert(1, w);
    }
    let op = if cordon {
        Op::Cordon {
            node: node_name.clone(),
            resource_version: rv,
            reason: None,
        }
    } else {
        Op::Uncordon {
            node: node_name.clone(),
            resource_version: rv,
            reason: None,
        }
    };
    let title = format!(
        "{} node {node_name}",
        if cordon { "Cordon" } else { "Uncordon" }
    );
    let mut d = dialog(title, lines, Some(op));
    d.reason_allowed = true;
    state.overlays.modals.push(Modal::Confirm(Box::new(d)));
}

/// `reject-move`: choose dismiss (local) or opt out (annotation).
pub fn start_reject(state: &mut AppState) {
    let Some(pair) = action_move(state) else {
        return state.notices.push(
            "reject: select a move (a group row holds many)",
            NoticeLevel::Error,
            state.session.now,
        );
    };
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    let Some(m) = Merged::of(&feed.analysis, pair).and_then(|m| m.primary()) else {
        return;
    };
    let f = m.fields();
    let Some(key) = state
        .action_source(View::Moves)
        .and_then(|i| state.views.models.moves.rows.iter().find(|r| r.source == i))
        .map(|r| r.key.clone())
    else {
        return;
    };
    state.overlays.modals.push(Modal::RejectChoice {
        key,
        workload: f.workload.to_string(),
    });
}

/// The confirm dialog of opting `workload` out with `reason`.
pub fn start_opt_out(state: &mut AppState, workload: &str, reason: String) {
    if !allowed(state, Capability::OptOut, "opt out") {
        return;
    }
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    let Some(w) = feed.snapshot.isvcs.iter().find(|w| w.key() == workload) else {
        return state.notices.push(
            format!("opt out: {workload} is gone"),
            NoticeLevel::Error,
            state.session.now,
        );
    };
    let mut lines = maintenance_warning(&feed.analysis, workload);
    lines.extend([
        (
            format!("inferenceservice/{workload}: alfred.ome.io/movable = \"false\""),
            Tone::Danger,
        ),
        (
            format!("alfred.ome.io/opt-out-reason = {reason:?}"),
            Tone::Danger,
        ),
        (
            format!(
                "JSON Patch with test on uid {} and resourceVersion {}",
                w.uid, w.resource_version
            ),
            Tone::Normal,
        ),
    ]);
    let op = Op::OptOut {
        namespace: w.namespace().clone(),
        name: w.name().clone(),
        uid: w.uid.clone(),
        resource_version: w.resource_version.clone(),
        reason,
    };
    state.overlays.modals.push(Modal::Confirm(Box::new(dialog(
        format!("Opt {workload} out"),
        lines,
        Some(op),
    ))));
}

/// The opt-out dialog's warning, first, when Alfred or ome-top would evacuate an Instance of
/// `workload` for node maintenance: opting out leaves it on the node under maintenance.
fn maintenance_warning(a: &Analysis, workload: &str) -> Vec<(String, Tone)> {
    let evacuations = maintenance_evacuations(a, workload);
    if evacuations.is_empty() {
        return Vec::new();
    }
    let list: Vec<String> = evacuations
        .iter()
        .map(|(c, i, from)| format!("{c}/{i} from {}", from.unwrap_or("its node")))
        .collect();
    vec![(
        format!(
            "⚠ being evacuated for node maintenance ({}): opting out keeps it there and holds \
             the maintenance up",
            list.join(", ")
        ),
        Tone::Degraded,
    )]
}

fn with_reason(op: Op, reason: Option<String>, override_armed: bool) -> Op {
    match op {
        Op::Cordon {
            node,
            resource_version,
            ..
        } => Op::Cordon {
            node,
            resource_version,
            reason,
        },
        Op::Uncordon {
            node,
            resource_version,
            ..
        } => Op::Uncordon {
            node,
            resource_version,
            reason,
        },
        Op::ClearJournalEntry {
            namespace,
            uuid,
            resource_version,
            ..
        } => Op::ClearJournalEntry {
            namespace,
            uuid,
            resource_version,
            override_checks: override_armed,
        },
        other => other,
    }
}

/// Confirms the top dialog: sends its op, or says why it cannot.
pub fn confirm(state: &mut AppState) -> Vec<Effect> {
    let Some(Modal::Confirm(d)) = state.overlays.modals.last().cloned() else {
        return Vec::new();
    };
    if let Some(to) = state
        .clusters
        .contexts
        .switching
        .as_ref()
        .map(|s| s.to.clone())
    {
        // The reply would come back from a session about to be replaced.
        let text = format!("switching to context {to}: confirm once it is done");
        state
            .notices
            .push(text, NoticeLevel::Error, state.session.now);
        return vec![Effect::Redraw];
    }
    if !d.can_confirm() {
        let why = d.blocked.clone().unwrap_or_else(|| "nothing to do".into());
        let hint = if d.overridable {
            " (press o to override)"
        } else {
            ""
        };
        state.notices.push(
            format!("cannot confirm: {why}{hint}"),
            NoticeLevel::Error,
            state.session.now,
        );
        return vec![Effect::Redraw];
    }
    state.overlays.modals.pop();
    let Some(op) = d.op else { return Vec::new() };
    let op = with_reason(op, d.reason, d.override_armed);
    let id = state.ops.next_op_id;
    state.ops.next_op_id += 1;
    if let Some(t) = d.tracks {
        state.ops.requested.push(t);
    }
    state.notices.push(
        format!("sent: {} {}", op_verb(&op), op.object()),
        NoticeLevel::Info,
        state.session.now,
    );
    state.ops.pending.insert(
        id,
        PendingOp {
            op: op.clone(),
            sent_at: state.session.now,
        },
    );
    vec![Effect::Send(Command { id, op }), Effect::Redraw]
}

fn op_verb(op: &Op) -> &'static str {
    match op {
        Op::Cordon { .. } => "cordon",
        Op::Uncordon { .. } => "uncordon",
        Op::ApproveMove { .. } => "approve",
        Op::OptOut { .. } => "opt out",
        Op::OptIn { .. } => "opt in",
        Op::ClearJournalEntry { .. } => "clear",
    }
}

/// A command finished: notice and audit; unknown ids (stale replies) are ignored.
pub fn op_done(state: &mut AppState, id: u64, outcome: OpOutcome) -> Vec<Effect> {
    let Some(p) = state.ops.pending.remove(&id) else {
        return Vec::new();
    };
    let verb = op_verb(&p.op);
    let (text, level) = match &outcome {
        OpOutcome::Done { message, .. } => (format!("{verb} done: {message}"), NoticeLevel::Info),
        OpOutcome::Conflict { message } => (
            format!("{verb} conflict: {message} — review and retry"),
            NoticeLevel::Error,
        ),
        OpOutcome::Refused { message } => {
            (format!("{verb} refused: {message}"), NoticeLevel::Error)
        }
        OpOutcome::Failed { message } => (format!("{verb} failed: {message}"), NoticeLevel::Error),
    };
    if let (Op::ApproveMove { uuid, .. }, false) =
        (&p.op, matches!(outcome, OpOutcome::Done { .. }))
    {
        let uuid = uuid.clone();
        state.ops.requested.retain(|r| r.uuid != uuid);
    }
    state.notices.push(text, level, state.session.now);
    vec![
        Effect::RecordAudit {
            op: p.op,
            outcome,
            at: state.session.now,
        },
        Effect::Redraw,
    ]
}
