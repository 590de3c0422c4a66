//! ome-top's verdict on a merged move in the operator's words: the engine decides whether the
//! move can run now (`Analysis::move_verdict`, its rules beside the arbiter's gates in
//! `engine::planning`); this module asks it for the merged move and words the answer for the
//! Moves detail and the approve dialog.

use crate::app::table::Tone;
use crate::app::views::moves::words::{advisory_words, outcome_words, reject_words};
use crate::app::views::moves::Merged;
use crate::engine::analysis::{Analysis, InstanceRef, MoveQuery};
use crate::engine::model::vocab::Outcome;
use crate::engine::model::ClusterSnapshot;
use crate::engine::planning::{Blocker, CanRun, Verdict};

/// The Instance a merged move names (its primary row's), for the engine's queries.
pub fn instance_of<'a>(m: &Merged<'a>) -> Option<InstanceRef<'a>> {
    let f = m.primary()?.fields();
    Some(InstanceRef {
        workload: f.workload,
        component: f.component,
        instance: f.instance,
    })
}

/// ome-top's verdict on `m` in analysis `a` of `snap`.
pub fn verdict(snap: &ClusterSnapshot, a: &Analysis, m: &Merged<'_>) -> Verdict {
    let q = MoveQuery {
        computed: m.computed,
        published: m.alfred.map(|r| &r.policy),
        instance: instance_of(m),
    };
    a.move_verdict(snap, q)
}

/// The verdict in one sentence.
pub fn verdict_words(v: &Verdict) -> String {
    verdict_line(v).0
}

/// The verdict in one sentence and its tone: the one place that words a verdict, so the
/// detail and the approve dialog never say "can run" of a move Alfred's dispatcher holds back.
pub fn verdict_line(v: &Verdict) -> (String, Tone) {
    match v {
        // Withheld: every gate passed, the dispatcher holds it; an approval here writes the
        // request itself, but calling that "can run" contradicts the row's own outcome.
        Verdict::CanRun(CanRun::Outcome(Outcome::Withheld)) => (
            "held back: it passed every safety gate, but Alfred's dispatcher holds it until \
             the journal entry in the way clears (approving writes the request anyway)"
                .into(),
            Tone::Degraded,
        ),
        Verdict::CanRun(why) => (can_run_words(why), Tone::Ok),
        Verdict::Blocked(why) => (blocker_words(why), Tone::Failed),
    }
}

fn can_run_words(why: &CanRun) -> String {
    match why {
        CanRun::PlannedAdvice(r) => {
            format!("can run: a surge plan exists — {} ({r})", advisory_words(r))
        }
        CanRun::RoomDespite(r) => format!(
            "can run (a target has room), though {} ({r})",
            advisory_words(r)
        ),
        CanRun::OnlyPacing(r) => format!(
            "can run: only Alfred's pacing holds it — {} ({r})",
            reject_words(r)
        ),
        CanRun::Outcome(o) => format!("can run: {}", outcome_words(o)),
        CanRun::RoomWithoutComputedMove => {
            "can run (a target has room), though ome-top computes no move for it now \
             (its pool is below Alfred's threshold, or the Instance changed since \
             Alfred's pass)"
                .into()
        }
    }
}

/// Why the move cannot run, in one sentence.
pub fn blocker_words(why: &Blocker) -> String {
    match why {
        Blocker::Advice(r) => format!("cannot run: {} ({r})", advisory_words(r)),
        Blocker::Gate(r) => format!("cannot run: {} ({r})", reject_words(r)),
        Blocker::Outcome(o) => format!("cannot run: {}", outcome_words(o)),
        Blocker::OutsideMaintenanceWindow => {
            "cannot run now: outside every maintenance window, defragmentation waits".into()
        }
        Blocker::NoComputedMove => {
            "cannot run: ome-top finds no such Instance with GPUs in one pool now".into()
        }
    }
}
