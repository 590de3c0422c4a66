//! Where a move this session requested ended: read from the InferenceReplica's
//! `status.migrations[]` row of the request (its phase, `surgeInstance`, times and message)
//! and from the pods of the Instance that replaced the source (their nodes now). The Moves
//! row and the move's detail both say it, so an operator sees the node the workload runs on
//! after the move, how long the move took, and when it failed, came back to the source node or
//! is gone again.
//!
//! Owns: `Landing`, `landing`, `landing_words`. Plain data.

use chrono::Duration;

use crate::app::model::moves::RequestedMove;
use crate::engine::model::vocab::MigrationPhase;
use crate::engine::model::{ClusterSnapshot, InferenceReplica as Replica, MigrationStatus, Time};
use crate::fmt::{relative, span};

/// How a request of this session stands, read from the cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Landing {
    /// OME has not recorded the request on the InferenceReplica yet.
    Unacknowledged,
    /// The migration runs; `phase` is the IR row's.
    Moving {
        /// The IR row's phase.
        phase: MigrationPhase,
    },
    /// The migration completed and the Instance that replaced the source runs on `to`.
    Moved(Ended),
    /// The migration failed: the source Instance stays (on `stays`, its nodes now).
    Failed {
        /// OME's message on the row, if any.
        message: Option<String>,
        /// How long it ran before it failed.
        took: Option<Duration>,
        /// When it failed.
        at: Option<Time>,
        /// The nodes the source Instance runs on now (empty when it is gone too).
        stays: Vec<String>,
    },
}

/// A completed move: where its new Instance runs now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    /// The node the source Instance ran on (the request's `from_node`).
    pub from: Option<String>,
    /// The Instance index that replaced the source (`surgeInstance`), if OME recorded it.
    pub surge: Option<i64>,
    /// The nodes the new Instance's pods run on now (sorted, no repeats).
    pub to: Vec<String>,
    /// Pods of the new Instance that have no node yet.
    pub unplaced: usize,
    /// Whether the new Instance still exists (has pods).
    pub exists: bool,
    /// From the start of the migration to its end.
    pub took: Option<Duration>,
    /// When it completed.
    pub at: Option<Time>,
}

impl Landing {
    /// Whether the request has ended (completed or failed).
    pub fn ended(&self) -> bool {
        matches!(self, Landing::Moved(_) | Landing::Failed { .. })
    }
}

/// The IR row of request `uuid`, and its InferenceReplica.
fn row_of<'a>(snap: &'a ClusterSnapshot, uuid: &str) -> Option<(&'a Replica, &'a MigrationStatus)> {
    snap.replicas.iter().find_map(|ir| {
        ir.status
            .migrations
            .iter()
            .find(|m| *m.request_uuid == *uuid)
            .map(|m| (ir, m))
    })
}

/// The nodes the pods of Instance `index` of `ir` run on (sorted, unique), and how many of its
/// pods have no node; `None` when the Instance has no pod.
fn instance_nodes(
    snap: &ClusterSnapshot,
    ir: &Replica,
    index: i64,
) -> Option<(Vec<String>, usize)> {
    let pods = snap.pods.iter().filter(|p| {
        p.controller.as_ref().is_some_and(|o| o.uid == ir.uid)
            && p.ome.instance_index.value() == Some(index)
            && !p.terminating
    });
    let (mut nodes, mut unplaced, mut any) = (Vec::new(), 0, false);
    for p in pods {
        any = true;
        match p.node.as_deref() {
            Some(n) => nodes.push(n.to_string()),
            None => unplaced += 1,
        }
    }
    nodes.sort();
    nodes.dedup();
    any.then_some((nodes, unplaced))
}

/// How the request `r` stands in `snap`; `seen` is the phase the app saw last (an IR row of a
/// terminal request is pruned after OME's capacity window, and the answer must not go back to
/// "not acknowledged").
pub fn landing(
    snap: &ClusterSnapshot,
    r: &RequestedMove,
    seen: Option<&MigrationPhase>,
) -> Landing {
    let Some((ir, row)) = row_of(snap, &r.uuid) else {
        return match seen {
            Some(p) if p.is_terminal() => pruned(p),
            Some(p) => Landing::Moving { phase: p.clone() },
            None => Landing::Unacknowledged,
        };
    };
    let took = row
        .started_at
        .zip(row.completed_at)
        .map(|(start, end)| end - start);
    match &row.phase {
        MigrationPhase::Completed | MigrationPhase::Relocated => {
            let now = row.surge_instance.and_then(|s| instance_nodes(snap, ir, s));
            let (to, unplaced) = now.clone().unwrap_or_default();
            Landing::Moved(Ended {
                from: r.from_node.clone(),
                surge: row.surge_instance,
                to,
                unplaced,
                exists: now.is_some(),
                took,
                at: row.completed_at,
            })
        }
        MigrationPhase::Failed => Landing::Failed {
            message: row.message.as_deref().map(str::to_string),
            took,
            at: row.completed_at,
            stays: instance_nodes(snap, ir, r.instance)
                .map(|(nodes, _)| nodes)
                .unwrap_or_default(),
        },
        p => Landing::Moving { phase: p.clone() },
    }
}

/// A terminal request whose row OME has pruned: what the app saw is all there is.
fn pruned(p: &MigrationPhase) -> Landing {
    match p {
        MigrationPhase::Failed => Landing::Failed {
            message: None,
            took: None,
            at: None,
            stays: Vec::new(),
        },
        _ => Landing::Moved(Ended {
            from: None,
            surge: None,
            to: Vec::new(),
            unplaced: 0,
            exists: false,
            took: None,
            at: None,
        }),
    }
}

/// `in 35s` when the duration is known.
fn took_words(took: Option<Duration>) -> String {
    took.map_or_else(String::new, |d| format!(" in {}", span(d)))
}

/// The landing in one line, for the Moves row's WHY and the detail: where the workload runs
/// now, against where it ran.
pub fn landing_words(l: &Landing, now: Time) -> String {
    match l {
        Landing::Unacknowledged => "requested here: OME has not recorded it yet".into(),
        Landing::Moving { phase } => format!("moving: phase {phase}"),
        Landing::Moved(e) => moved_words(e, now),
        Landing::Failed {
            message,
            took,
            at,
            stays,
        } => {
            let why = message
                .as_deref()
                .map_or_else(String::new, |m| format!(": {m}"));
            let when = at.map_or_else(String::new, |t| format!(" ({})", relative(now, t)));
            let stays = match stays.is_empty() {
                true => "the source Instance is gone".to_string(),
                false => format!("the Instance stays on {}", stays.join(", ")),
            };
            format!("failed{}{why}{when}; {stays}", took_words(*took))
        }
    }
}

fn moved_words(e: &Ended, now: Time) -> String {
    let when =
        e.at.map_or_else(String::new, |t| format!(", {}", relative(now, t)));
    let took = took_words(e.took);
    let from = e.from.as_deref().unwrap_or("its node");
    let Some(s) = e.surge else {
        return format!("moved{took}{when}; OME did not record the new Instance's index");
    };
    if !e.exists {
        return format!(
            "moved{took}{when}, but its new Instance {s} is gone now (scaled in, or moved again)"
        );
    }
    if e.to.is_empty() {
        return format!(
            "moved{took}{when}, but its new Instance {s} has no node now: its pods are Pending"
        );
    }
    if e.from.as_ref().is_some_and(|f| e.to.contains(f)) {
        return format!("back on the source: its new Instance {s} runs on {from}, the node it left (moved{took}{when})");
    }
    format!(
        "moved {from} → {}{took}{when}; it runs as Instance {s}",
        e.to.join(", ")
    )
}

/// The landing in a few words for the Moves row's WHY (FROM and TARGETS name the nodes).
pub fn landing_short(l: &Landing) -> String {
    match l {
        Landing::Unacknowledged => "▸ requested here".into(),
        Landing::Moving { phase } => format!("▸ {phase}"),
        Landing::Moved(e) => {
            let took = took_words(e.took);
            match e.surge {
                None => format!("moved{took}"),
                Some(s) if !e.exists => format!("moved{took}; Instance {s} gone"),
                Some(s) if e.to.is_empty() => format!("moved{took}; Instance {s} Pending"),
                Some(_) if e.from.as_ref().is_some_and(|f| e.to.contains(f)) => {
                    format!("back on the source{took}")
                }
                Some(s) => format!("moved{took} (Instance {s})"),
            }
        }
        Landing::Failed { message, .. } => match message {
            Some(m) => format!("failed: {m}"),
            None => "failed".into(),
        },
    }
}
