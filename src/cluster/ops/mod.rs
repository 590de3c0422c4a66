//! The write side of the cluster layer: executes the operator's confirmed [`Op`]s against the
//! API server as compare-and-swap writes, records a Kubernetes Event for each, and answers with
//! an [`OpOutcome`]. The rules per action (request, CAS rule, Event, refusals) are in
//! docs/actions.md.
//!
//! Owns: `OpContext`, `execute`, `spawn_ops_worker`. Files: `node` (cordon/uncordon), `isvc`
//! (approve a move, opt out), `journal` (clear a stalled entry), `event`, `patches` (pure bodies),
//! `outcome` (error mapping).

pub mod event;
pub mod isvc;
pub mod journal;
pub mod node;
pub mod outcome;
pub mod patches;
pub mod reread;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::engine::model::Time;
use crate::protocol::{Command, Op, OpOutcome, Update};
use event::{record_event, EventTarget, EventText};

/// Everything an op needs besides the op itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpContext {
    /// Alfred's namespace: the only namespace whose `alfred-dispatch-state` may be edited.
    pub alfred_namespace: String,
    /// Who acts (e.g. `alice@laptop`): the Event's `reportingInstance` and note.
    pub actor: String,
    /// When `Some`, every op is refused with this reason before any request is sent
    /// (`--readonly`, `--snapshot`): zero requests, mutating or not.
    pub read_only: Option<String>,
    /// The clock value for this op: the `eventTime` of a hand-written Event (`event::build_event`;
    /// the Recorder stamps its Events from its own clock). This module reads no clock.
    pub now: Time,
}

/// Executes one op. Never panics and never retries a conflict: a conflict is reported so the
/// operator can look again. Requests sent: at most one read, one write and one Event create
/// (plus one read after a conflict, to report the current resourceVersion).
pub async fn execute(client: &kube::Client, op: &Op, ctx: &OpContext) -> OpOutcome {
    let (action, object) = (op_name(op), op.object());
    log_request(op, action, &object, &ctx.actor);
    let outcome = send(client, op, ctx).await;
    log_outcome(action, &object, &outcome);
    outcome
}

fn log_request(op: &Op, action: &str, object: &str, actor: &str) {
    tracing::info!(action, object, actor, "write requested");
    tracing::debug!(?op, "write requested in full");
}

fn log_outcome(action: &str, object: &str, outcome: &OpOutcome) {
    match outcome {
        OpOutcome::Done {
            message,
            resource_version,
        } => tracing::info!(action, object, ?resource_version, "written: {message}"),
        OpOutcome::Conflict { message } => log_not_written(action, object, "conflict", message),
        OpOutcome::Refused { message } => log_not_written(action, object, "refused", message),
        OpOutcome::Failed { message } => tracing::error!(action, object, "failed: {message}"),
    }
}

fn log_not_written(action: &str, object: &str, why: &str, message: &str) {
    tracing::warn!(action, object, "{why}: {message}");
}

/// The op's name in the log (the palette's action names; opting out is one way to reject).
fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Cordon { .. } => "cordon-node",
        Op::Uncordon { .. } => "uncordon-node",
        Op::ApproveMove { .. } => "approve-move",
        Op::OptOut { .. } => "opt-out",
        Op::OptIn { .. } => "opt-in",
        Op::ClearJournalEntry { .. } => "clear-journal-entry",
    }
}

/// `execute` without the log lines.
async fn send(client: &kube::Client, op: &Op, ctx: &OpContext) -> OpOutcome {
    if let Some(why) = &ctx.read_only {
        return OpOutcome::Refused {
            message: format!("read-only ({why}): {} not changed", op.object()),
        };
    }
    match op {
        Op::Cordon {
            node,
            resource_version,
            reason,
        }
        | Op::Uncordon {
            node,
            resource_version,
            reason,
        } => {
            let w = node::NodeWrite {
                node,
                seen_rv: resource_version,
                unschedulable: matches!(op, Op::Cordon { .. }),
                reason: reason.as_deref(),
            };
            node::set_unschedulable(client, ctx, w).await
        }
        Op::ApproveMove { .. } | Op::OptOut { .. } | Op::OptIn { .. } => {
            isvc::annotate(client, ctx, op).await
        }
        Op::ClearJournalEntry {
            namespace,
            uuid,
            resource_version,
            override_checks,
        } => {
            let clear = journal::Clear {
                namespace,
                uuid,
                seen_rv: resource_version,
                override_checks: *override_checks,
            };
            journal::clear_entry(client, ctx, clear).await
        }
    }
}

/// Runs ops one at a time, in arrival order, until `rx` closes or the app stops listening.
/// `clock` is read once per op (it is the composition root's clock; this module reads none).
pub fn spawn_ops_worker<C>(
    client: kube::Client,
    ctx: OpContext,
    clock: C,
    mut rx: mpsc::Receiver<Command>,
    tx: mpsc::Sender<Update>,
) -> JoinHandle<()>
where
    C: Fn() -> Time + Send + 'static,
{
    tokio::spawn(async move {
        while let Some(command) = rx.recv().await {
            let op_ctx = OpContext {
                now: clock(),
                ..ctx.clone()
            };
            let outcome = execute(&client, &command.op, &op_ctx).await;
            let update = Update::OpDone {
                id: command.id,
                outcome,
            };
            if tx.send(update).await.is_err() {
                break;
            }
        }
    })
}

/// After a successful write: records the Event and builds `Done`. A failed Event create is
/// appended to the message; the write stands.
pub(crate) async fn finish(
    client: &kube::Client,
    ctx: &OpContext,
    target: &EventTarget,
    text: &EventText,
    done: String,
    resource_version: Option<String>,
) -> OpOutcome {
    let rv_text = resource_version
        .as_deref()
        .map(|rv| format!(" (resourceVersion {rv})"))
        .unwrap_or_default();
    let message = match record_event(client, target, text, &ctx.actor, ctx.now).await {
        Ok(()) => format!("{done}{rv_text}"),
        Err(why) => {
            tracing::warn!("the Event was not recorded: {why}");
            format!("{done}{rv_text}; the Event was not recorded: {why}")
        }
    };
    OpOutcome::Done {
        message,
        resource_version,
    }
}

/// The field manager every write names, so a cluster's managedFields and audit log tell
/// ome-top's changes apart.
pub const FIELD_MANAGER: &str = "ome-top";

/// Patch parameters of every write (`fieldManager: ome-top`).
pub(crate) fn patch_params() -> kube::api::PatchParams {
    kube::api::PatchParams {
        field_manager: Some(FIELD_MANAGER.to_string()),
        ..kube::api::PatchParams::default()
    }
}

/// Create/replace parameters of every write (`fieldManager: ome-top`).
pub(crate) fn post_params() -> kube::api::PostParams {
    kube::api::PostParams {
        field_manager: Some(FIELD_MANAGER.to_string()),
        ..kube::api::PostParams::default()
    }
}
