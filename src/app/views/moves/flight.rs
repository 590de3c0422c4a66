//! A move in flight: one ome-top itself requested this session, or one whose migration the
//! InferenceReplica's `status.migrations` reports running. While it flies, the Instance is
//! migrating, so a fresh verdict ("cannot run", "≠ disagree") would only describe our own
//! request; the row and the detail say what is happening instead: the request id, since when,
//! its phase and what comes next.
//!
//! Owns: `Flight`, `flight`, `next_words`, `flight_words`, `progress_lines` (the detail's
//! Progress section). Plain data.

use std::collections::HashMap;

use crate::app::detail::Lines;
use crate::app::model::moves::RequestedMove;
use crate::app::table::Tone;
use crate::app::views::context::ViewContext;
use crate::engine::model::vocab::MigrationPhase;
use crate::engine::model::Time;
use crate::fmt::relative;
use crate::protocol::Feed;

/// A migration of the move's Instance that has not ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flight {
    /// The request UUID.
    pub uuid: String,
    /// Requested by this session.
    pub mine: bool,
    /// When it was requested (ours) or started (the IR's row).
    pub since: Option<Time>,
    /// The IR's phase, `None` until OME accepts the request.
    pub phase: Option<MigrationPhase>,
}

/// The Instance of a move: workload, component, Instance index.
pub type InstanceKey<'a> = (&'a str, &'a str, i64);

/// The migration of the Instance, if any: ours first (from the IR's row, else the last phase
/// seen; ended ones too), else a running row of any IR for that Instance of the workload.
pub fn flight(
    requested: &[RequestedMove],
    phases: &HashMap<String, MigrationPhase>,
    feed: &Feed,
    (workload, component, instance): InstanceKey<'_>,
) -> Option<Flight> {
    let rows = || {
        feed.snapshot
            .replicas
            .iter()
            .flat_map(|ir| ir.status.migrations.iter())
    };
    let mine = requested
        .iter()
        .rev()
        .find(|r| r.workload == workload && r.component == component && r.instance == instance);
    if let Some(r) = mine {
        let phase = rows()
            .find(|m| *m.request_uuid == *r.uuid)
            .map(|m| m.phase.clone())
            .or_else(|| phases.get(&r.uuid).cloned());
        // Ours stays told, ended too: a verdict on the Instance it moved away would mislead.
        return Some(Flight {
            uuid: r.uuid.clone(),
            mine: true,
            since: Some(r.at),
            phase,
        });
    }
    let (ns, name) = workload.split_once('/')?;
    feed.snapshot
        .replicas
        .iter()
        .filter(|ir| {
            ir.namespace.as_ref() == ns
                && ir.parent.as_deref() == Some(name)
                && ir.component.as_ref() == component
        })
        .flat_map(|ir| ir.status.migrations.iter())
        .find(|m| m.source_instance == Some(instance) && !m.phase.is_terminal())
        .map(|m| Flight {
            uuid: m.request_uuid.to_string(),
            mine: false,
            since: m.started_at,
            phase: Some(m.phase.clone()),
        })
}

/// What comes next after `phase` (`None`: OME has not accepted the request yet).
pub fn next_words(phase: Option<&MigrationPhase>) -> &'static str {
    match phase {
        None => "OME accepts it on the InferenceReplica (status.migrations)",
        Some(MigrationPhase::Accepted) => "OME places the surge copy on a target (SurgePending)",
        Some(MigrationPhase::SurgePending) => "the surge copy becomes Ready (SurgeReady)",
        Some(MigrationPhase::SurgeReady) => "the source pods drain (Draining)",
        Some(MigrationPhase::Draining) => "the source Instance goes away (Completed)",
        Some(_) => "nothing: it ended",
    }
}

impl Flight {
    /// Whether it ended (`Completed`, `Failed`, `Relocated`).
    pub fn ended(&self) -> bool {
        self.phase.as_ref().is_some_and(MigrationPhase::is_terminal)
    }
}

/// `in flight: requested here as 3f2a… 2m ago · phase Accepted · next: …` in one line.
pub fn flight_words(f: &Flight, now: Time) -> String {
    let who = if f.mine {
        "requested here"
    } else {
        "migration running"
    };
    let since = f
        .since
        .map_or_else(String::new, |t| format!(" {}", relative(now, t)));
    let phase = f
        .phase
        .as_ref()
        .map_or_else(|| "not yet accepted".to_string(), |p| format!("phase {p}"));
    if f.ended() {
        return format!("ended: {who} as {}{since} · {phase}", f.uuid);
    }
    format!(
        "in flight: {who} as {}{since} · {phase} · next: {}",
        f.uuid,
        next_words(f.phase.as_ref())
    )
}

/// The Progress section of a move's detail: every `status.migrations` row of its
/// InferenceReplica (ours starred) and our requests OME has not acknowledged yet.
pub fn progress_lines(
    cx: &ViewContext<'_>,
    feed: &Feed,
    (at, workload): (Option<(usize, usize)>, &str),
    out: &mut Lines,
) {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    let ir = at
        .and_then(|(c, _)| a.workloads.components[c].ir)
        .and_then(|i| snap.replicas.get(i));
    let Some(ir) = ir else {
        out.push("no InferenceReplica", Tone::Muted);
        return;
    };
    let mine = |u: &str| cx.requested.iter().any(|r| r.uuid == u);
    if ir.status.migrations.is_empty() {
        out.push("no migrations in status", Tone::Muted);
    }
    for m in &ir.status.migrations {
        let tone = match m.phase {
            MigrationPhase::Completed | MigrationPhase::Relocated => Tone::Ok,
            MigrationPhase::Failed => Tone::Failed,
            _ => Tone::Degraded,
        };
        let ago = |t: Option<Time>| t.map_or_else(|| "-".to_string(), |t| relative(a.now, t));
        // A deadline only bounds a migration that still runs.
        let end = match m.is_terminal() {
            true => format!("ended {}", ago(m.completed_at)),
            false => format!("deadline {}", ago(m.deadline)),
        };
        out.push(
            format!(
                "{} {} phase {} · trigger {} · started {} · {end}{}",
                if mine(&m.request_uuid) { "★" } else { "·" },
                m.request_uuid,
                m.phase,
                m.trigger,
                ago(m.started_at),
                if mine(&m.request_uuid) {
                    " (requested here)"
                } else {
                    ""
                }
            ),
            tone,
        );
    }
    for r in cx.requested.iter().filter(|r| {
        r.workload == workload
            && !ir
                .status
                .migrations
                .iter()
                .any(|m| *m.request_uuid == *r.uuid)
    }) {
        out.push(
            format!(
                "★ {} requested here: waiting for the IR to acknowledge",
                r.uuid
            ),
            Tone::Degraded,
        );
    }
}
