//! What frees room for a pending GPU pod or gang: the smallest set of the planner's own
//! candidate moves (the decision pass's rows that carry a surge plan) that makes the pod fit
//! on some node of its pool, or the gang fit in some domain, by the explanation's fit
//! (`explain`). Only moves an operator may approve without an override count (ome-top's
//! verdict on the row, `planning::row_verdict`); each is annotated with what holds it back now
//! and when it could run. Without a plan, why: the pool's nodes cannot hold it even empty, the
//! moves that would free room are gated, or the GPUs are held by workloads the planner has
//! no move for (pinned, opted out, not OME).
//!
//! The search is greedy per place (a node, or a gang's domain): the moves freeing most GPUs
//! there first, until the pod fits. For a single pod the moves on one node add up, so taking
//! the largest first is the fewest moves when GPUs are what binds; `plan_by_brute_force` is
//! the plain reference the property test compares it with.
//!
//! Owns: `UnblockInput`, `Unblocker`, `Unblock`, `Plan`, `PlanMove`, `PlanTarget`, `NoPlan`,
//! `unblock`,
//! `apply_plan` (the search: `search`; holds: `hold`; the reference: `reference`). Pure.

mod hold;
mod reference;
mod search;

pub use hold::{hold_of, Hold};
pub use reference::plan_by_brute_force;

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::explain::{Explainer, Explanation};
use crate::engine::journal::Journal;
use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::planning::MoveRow;
use crate::engine::workloads::Workloads;

/// What the unblock plan reads besides the explanation.
#[derive(Debug, Clone, Copy)]
pub struct UnblockInput<'a> {
    /// The decision pass's rows.
    pub moves: &'a [MoveRow],
    /// Components and Instances.
    pub workloads: &'a Workloads,
    /// Alfred's dispatch journal, when readable.
    pub journal: Option<&'a Journal>,
    /// The effective Alfred config (cooldowns and caps).
    pub cfg: &'a AlfredConfig,
    /// Observation time.
    pub now: Time,
}

/// Where a plan makes room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanTarget {
    /// A node (index into `snap.nodes`).
    Node(usize),
    /// A gang's domain (the topology key's value).
    Domain(String),
}

/// One move of a plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanMove {
    /// Index of the row in the decision pass's rows.
    pub row: usize,
    /// GPUs it frees where the plan makes room.
    pub frees: u32,
    /// What holds it back now, and when it could run.
    pub hold: Hold,
}

/// The fewest moves that make room.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Where the room is made.
    pub target: PlanTarget,
    /// The moves, in the order to approve them.
    pub moves: Vec<PlanMove>,
}

/// Why no plan exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoPlan {
    /// No node (or domain) of the pool could hold it even with every other pod gone: too few
    /// GPUs in the pool for it, or every node refuses it for something besides room.
    TooFewGpus,
    /// Moves exist that would make room, but a gate refuses at least `gated` of them (approving
    /// one takes an override).
    Gated {
        /// Gated moves the smallest such plan needs.
        gated: usize,
    },
    /// The GPUs that would make room are held by workloads the planner has no move for
    /// (pinned, opted out, not OME).
    PinnedWorkloads,
}

impl NoPlan {
    /// A stable lower-camel code for JSON.
    pub fn code(self) -> &'static str {
        match self {
            NoPlan::TooFewGpus => "tooFewGpus",
            NoPlan::Gated { .. } => "gated",
            NoPlan::PinnedWorkloads => "pinnedWorkloads",
        }
    }

    /// Why, in the operator's words.
    pub fn words(self) -> String {
        match self {
            NoPlan::TooFewGpus => {
                "no node of the pool could hold it even empty: too few GPUs in the pool for it".into()
            }
            NoPlan::Gated { gated } => format!(
                "moves that would make room exist, but {gated} of them are refused by Alfred's gates (approving takes an override)"
            ),
            NoPlan::PinnedWorkloads => {
                "the GPUs that would make room are held by workloads with no possible move (pinned, opted out or not OME)".into()
            }
        }
    }
}

/// The answer for one pending pod or gang.
#[derive(Debug, Clone, PartialEq)]
pub enum Unblock {
    /// It fits now: the scheduler will place it; nothing to move.
    FitsNow,
    /// The fewest moves that make room.
    Plan(Plan),
    /// No plan, and why.
    NoPlan(NoPlan),
}

/// Answers unblock questions against one explanation context; the rows' effects are read
/// once.
#[derive(Debug)]
pub struct Unblocker<'e, 'a> {
    ex: &'e Explainer<'a>,
    input: UnblockInput<'e>,
    effects: Vec<Option<search::Effect>>,
    approvable: search::Candidates,
    all: search::Candidates,
}

impl<'e, 'a> Unblocker<'e, 'a> {
    /// Reads the rows of `input` against `ex`'s snapshot.
    pub fn new(ex: &'e Explainer<'a>, input: UnblockInput<'e>) -> Self {
        let effects = search::effects(ex, input.moves);
        let all: Vec<usize> = (0..input.moves.len())
            .filter(|r| effects[*r].is_some())
            .collect();
        let approvable: Vec<usize> = all
            .iter()
            .copied()
            .filter(|r| hold::approvable(&input.moves[*r]))
            .collect();
        Unblocker {
            ex,
            input,
            approvable: search::Candidates::new(&effects, &approvable),
            all: search::Candidates::new(&effects, &all),
            effects,
        }
    }

    /// The unblock answer for the pending pod `pod` (for a gang member: the gang); `None`
    /// when it is not a pending GPU pod.
    pub fn unblock(&self, pod: usize) -> Option<Unblock> {
        Some(self.unblock_explained(&self.ex.explain(pod)?))
    }

    /// The unblock answer for the pod `e` explains.
    pub fn unblock_explained(&self, e: &Explanation) -> Unblock {
        let ex = self.ex;
        let pod = e.pod;
        if e.fits_somewhere() {
            return Unblock::FitsNow;
        }
        let places = search::places(ex, e);
        if places.iter().all(|p| !p.holds_when_empty(ex, pod)) {
            return Unblock::NoPlan(NoPlan::TooFewGpus);
        }
        if let Some((place, rows)) =
            search::fewest(ex, pod, &places, &self.effects, &self.approvable)
        {
            let moves = rows
                .iter()
                .map(|(row, frees)| PlanMove {
                    row: *row,
                    frees: *frees,
                    hold: hold_of(ex.fit.snap, &self.input, *row),
                })
                .collect();
            return Unblock::Plan(Plan {
                target: place.target(),
                moves,
            });
        }
        let moves = self.input.moves;
        Unblock::NoPlan(
            match search::fewest(ex, pod, &places, &self.effects, &self.all) {
                Some((_, rows)) => NoPlan::Gated {
                    gated: rows
                        .iter()
                        .filter(|(r, _)| !hold::approvable(&moves[*r]))
                        .count(),
                },
                None => NoPlan::PinnedWorkloads,
            },
        )
    }
}

/// The unblock answer for one pending pod (`Unblocker::unblock` for a single question).
pub fn unblock(ex: &Explainer<'_>, input: &UnblockInput<'_>, pod: usize) -> Option<Unblock> {
    Unblocker::new(ex, *input).unblock(pod)
}

/// The snapshot after the plan's moves: every planned pod bound to its planned target (what
/// the scheduler pass would do once the moves ran).
pub fn apply_plan(snap: &ClusterSnapshot, moves: &[MoveRow], plan: &Plan) -> ClusterSnapshot {
    let mut out = snap.clone();
    for m in &plan.moves {
        let Some(planned) = moves.get(m.row).and_then(|r| r.plan.as_deref()) else {
            continue;
        };
        for (pod, target) in &planned.placements {
            let (Some(p), Some(node)) = (out.pods.get(*pod), snap.nodes.get(*target)) else {
                continue;
            };
            let mut moved = p.clone();
            moved.node = Some(node.name.clone());
            out.pods.replace(*pod, std::sync::Arc::new(moved));
        }
    }
    out
}

#[cfg(test)]
mod tests;
