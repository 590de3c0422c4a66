//! The Moves view: one row per (Instance, policy) merging what Alfred published in
//! `last-cycle.json` with what ome-top computes from the same cluster, both outcomes side by
//! side and a `≠` where they disagree. Rows that can be acted on lead (admitted, candidate,
//! withheld, a recommend-only move with a plan, requested or in progress, rejected); advisory
//! rows follow in one group per reason, collapsed until opened (all of them listed while a
//! filter or a sort is on). The detail (`detail`) and the approve dialog read the same merged
//! move and ome-top's verdict on it (`verdict`).
//!
//! Owns: `MoveRef`, `MoveFields`, `MovePair`, `Merged`, `MoveEntry`, `MoveIndex`, `MoveOptions`,
//! `move_rows`, `merged_at`, `dismissal`, identity keys and content fingerprints (what a dismissal
//! remembers). Plain data.

mod columns;
pub mod decided;
mod detail;
pub mod flight;
pub mod held;
pub mod landing;
mod merge;
pub mod pacing;
mod requested;
mod rows;
mod verdict;
pub mod words;

pub use detail::move_detail;
pub use rows::move_rows;
pub use verdict::{blocker_words, instance_of, verdict, verdict_line, verdict_words};

use std::collections::{BTreeSet, HashMap};

use crate::app::detail::DetailKind;
pub use crate::app::model::moves::{Dismissed, MoveEntry, MoveIndex, MovePair};
use crate::app::state::{AppState, RequestedMove, View};
use crate::engine::analysis::Analysis;
use crate::engine::model::vocab::{Outcome, Policy, Reason};
use crate::engine::model::MigrationPhase;
use crate::engine::planning::MoveRow;
use crate::engine::recommendations::Row;

/// A move row of either origin.
#[derive(Debug, Clone, Copy)]
pub enum MoveRef<'a> {
    /// Published by Alfred.
    Alfred(&'a Row),
    /// Computed by ome-top for this snapshot.
    Computed(&'a MoveRow),
}

/// The common fields of a move row, borrowed.
#[derive(Debug, Clone)]
pub struct MoveFields<'a> {
    /// `alfred` or `computed`.
    pub source: &'static str,
    /// `ns/name`.
    pub workload: &'a str,
    /// Component name.
    pub component: &'a str,
    /// Instance index.
    pub instance: i64,
    /// Policy.
    pub policy: &'a Policy,
    /// Reason.
    pub reason: &'a Reason,
    /// Outcome.
    pub outcome: &'a Outcome,
    /// Advisory, reject or dispatch reason (first present), as its wire string.
    pub why: Option<&'a str>,
    /// Source node.
    pub from_node: Option<&'a str>,
    /// Target node.
    pub target: Option<&'a str>,
    /// Hint targets.
    pub hints: Vec<&'a str>,
    /// Score.
    pub score: f64,
}

impl<'a> MoveRef<'a> {
    /// The shared fields.
    pub fn fields(&self) -> MoveFields<'a> {
        match *self {
            MoveRef::Alfred(r) => MoveFields {
                source: "alfred",
                workload: &r.workload,
                component: &r.component,
                instance: i64::from(r.instance),
                policy: &r.policy,
                reason: &r.reason,
                outcome: &r.outcome,
                why: text(&r.advisory_reason)
                    .or(text(&r.reject_reason))
                    .or(text(&r.dispatch_reason)),
                from_node: r.from_node.as_deref(),
                target: r.target.as_deref(),
                hints: r.hint_targets.iter().map(String::as_str).collect(),
                score: r.score,
            },
            MoveRef::Computed(m) => MoveFields {
                source: "computed",
                workload: &m.workload,
                component: &m.component,
                instance: m.instance,
                policy: &m.policy,
                reason: &m.reason,
                outcome: &m.outcome,
                why: text(&m.advisory_reason)
                    .or(text(&m.reject_reason))
                    .or(text(&m.dispatch_reason)),
                from_node: m.from_node.as_deref(),
                target: m.target.as_deref(),
                hints: m.hint_targets.iter().map(|h| h.as_ref()).collect(),
                score: m.score,
            },
        }
    }
}

/// The wire string of an optional reason.
fn text<T: AsRef<str>>(reason: &Option<T>) -> Option<&str> {
    reason.as_ref().map(AsRef::as_ref)
}

/// Alfred's published rows (empty when absent or unreadable).
pub fn alfred_rows(a: &Analysis) -> &[Row] {
    a.published
        .as_ref()
        .and_then(|p| p.last_cycle.as_ref())
        .and_then(|c| c.as_ref().ok())
        .map_or(&[][..], |c| c.rows())
}

/// A merged move, borrowed from one analysis.
#[derive(Debug, Clone, Copy)]
pub struct Merged<'a> {
    /// What Alfred published.
    pub alfred: Option<&'a Row>,
    /// What ome-top computes now.
    pub computed: Option<&'a MoveRow>,
}

impl<'a> Merged<'a> {
    /// The rows of `pair` in `a` (`None` when neither is there any more).
    pub fn of(a: &'a Analysis, pair: MovePair) -> Option<Self> {
        let m = Merged {
            alfred: pair.alfred.and_then(|i| alfred_rows(a).get(i)),
            computed: pair.computed.and_then(|i| a.moves.get(i)),
        };
        (m.alfred.is_some() || m.computed.is_some()).then_some(m)
    }

    /// The row whose content the view shows, an approval writes and a dismissal remembers:
    /// ome-top's (computed from the snapshot shown) when it names a target, else Alfred's when
    /// it does (its hints are the recommendation), else whichever exists, ome-top's first.
    pub fn primary(&self) -> Option<MoveRef<'a>> {
        let ours = self.computed.map(MoveRef::Computed);
        let theirs = self.alfred.map(MoveRef::Alfred);
        let aims = |m: &MoveRef<'_>| {
            let f = m.fields();
            f.target.is_some() || !f.hints.is_empty()
        };
        ours.filter(aims)
            .or(theirs.filter(aims))
            .or(ours)
            .or(theirs)
    }

    /// Whether Alfred and ome-top disagree (`≠`): see [`outcomes_disagree`].
    pub fn disagree(&self) -> bool {
        match (self.alfred, self.computed) {
            (Some(r), Some(m)) => outcomes_disagree(
                (&r.outcome, text(&r.advisory_reason)),
                (&m.outcome, text(&m.advisory_reason)),
            ),
            _ => true,
        }
    }
}

/// What an outcome says of a move, for comparing Alfred's with ome-top's.
#[derive(Debug, PartialEq, Eq)]
enum Stance {
    /// Advice only.
    Advice,
    /// Stopped by a safety gate.
    Rejected,
    /// Would run, runs or ran (Alfred's dispatch state is richer than a client computes, so
    /// these agree with one another).
    Runs,
    /// A failed move.
    Failed,
    /// An outcome this build does not know.
    Other,
}

fn stance(o: &Outcome) -> Stance {
    match o {
        Outcome::Advisory => Stance::Advice,
        Outcome::Rejected => Stance::Rejected,
        Outcome::Admitted
        | Outcome::Candidate
        | Outcome::Withheld
        | Outcome::Submitted
        | Outcome::Acknowledged
        | Outcome::Stalled
        | Outcome::Completed => Stance::Runs,
        Outcome::Failed => Stance::Failed,
        _ => Stance::Other,
    }
}

/// Whether Alfred's outcome (and advisory reason) and ome-top's disagree: a different stance
/// (advice, rejected by a gate, runs, failed), or advice for different reasons. The one rule
/// behind every `≠`.
pub fn outcomes_disagree(alfred: (&Outcome, Option<&str>), ours: (&Outcome, Option<&str>)) -> bool {
    let (theirs, mine) = (stance(alfred.0), stance(ours.0));
    theirs != mine || (theirs == Stance::Advice && alfred.1 != ours.1)
}

/// What the rows are built from besides the feed.
#[derive(Debug, Clone, Copy)]
pub struct MoveOptions<'a> {
    /// Dismissed moves: dismissal key → the dismissal.
    pub dismissed: &'a HashMap<String, crate::app::model::moves::Dismissed>,
    /// Open advisory groups (reasons).
    pub open: &'a BTreeSet<String>,
    /// List every row, no groups.
    pub flat: bool,
    /// The terminal has 120 columns or more: WHY is wide enough for every reason string.
    pub wide: bool,
    /// Requests this session wrote.
    pub requested: &'a [RequestedMove],
    /// Their last seen phases.
    pub phases: &'a HashMap<String, MigrationPhase>,
    /// The `:ns` scope: only its workloads' moves are listed (and counted in the groups).
    pub namespace: Option<&'a str>,
    /// The reducer's time: ages of what the operator did (a dismissal) are measured from it,
    /// not from the analysis's `now` (the newest time the snapshot holds).
    pub now: crate::engine::model::Time,
}

/// Whether the merged move `pair` belongs to a workload of `namespace` (every move does
/// without a scope).
pub fn in_namespace(a: &Analysis, pair: MovePair, namespace: Option<&str>) -> bool {
    namespace.is_none_or(|ns| {
        Merged::of(a, pair)
            .and_then(|m| m.primary())
            .and_then(|m| m.fields().workload.split_once('/').map(|(n, _)| n == ns))
            .unwrap_or(false)
    })
}

/// The merged move at `source` in the shown Moves rows (`None` for a group row).
pub fn merged_at(state: &AppState, source: usize) -> Option<MovePair> {
    state.views.models.move_index.pair(source)
}

/// The row key of a group.
pub fn group_key(reason: &str) -> String {
    format!("advisory|{reason}")
}

/// The selection key of a merged move: policy, workload, component, Instance.
pub fn row_key(f: &MoveFields<'_>) -> String {
    format!("{}|{}|{}|{}", f.policy, f.workload, f.component, f.instance)
}

/// What a dismissal remembers a move by: policy, workload, component, instance, from node,
/// reason (the history store reads workload, component and Instance from fields 2–4).
pub fn identity_key(f: &MoveFields<'_>) -> String {
    format!(
        "move|{}|{}|{}|{}|{}|{}",
        f.policy,
        f.workload,
        f.component,
        f.instance,
        f.from_node.unwrap_or("-"),
        f.reason
    )
}

/// The content a dismissal hides: where the move goes (the set of its target and hint targets,
/// in any order) and what it says of itself (advice, stopped by a gate, or a move that runs). A
/// change there shows the move again. Its score, the order of its hints and which of Alfred's
/// or ome-top's rows names the targets are left out: they move every pass without the
/// recommendation changing for the operator (the identity key already holds the workload,
/// Instance, policy, reason and source node).
pub fn fingerprint(f: &MoveFields<'_>) -> String {
    let mut places: Vec<&str> = f
        .target
        .into_iter()
        .chain(f.hints.iter().copied())
        .collect();
    places.sort_unstable();
    places.dedup();
    format!("{}|{:?}", places.join(","), stance(f.outcome))
}

/// The dismissal key and fingerprint of the move on the Moves row keyed `row_key`.
pub fn dismissal(state: &AppState, row_key: &str) -> Option<(String, String)> {
    let feed = state.shown()?;
    let pair = state
        .views
        .models
        .move_index
        .pair_of_key(&state.views.models.moves.rows, row_key)?;
    let m = Merged::of(&feed.analysis, pair)?.primary()?;
    let f = m.fields();
    Some((identity_key(&f), fingerprint(&f)))
}

/// The merged move an action in the Moves view applies to (the open detail's, else the
/// selected row's); `None` on a group row or without a selection.
pub fn action_move(state: &AppState) -> Option<MovePair> {
    if let Some(p) = state
        .action_source(View::Moves)
        .and_then(|s| merged_at(state, s))
    {
        return Some(p);
    }
    // The open detail's move may sit in a closed advisory group.
    match state.detail().as_ref().map(|d| &d.kind) {
        Some(DetailKind::Move(k)) => state.views.models.move_index.hidden.get(k).copied(),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
