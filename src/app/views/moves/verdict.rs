//! ome-top's own verdict on a merged move: whether the move can run now — would the migration
//! work, and may it happen now — in words, and the reason string an override records when the
//! operator approves one that cannot. A move can run when ome-top computes it admitted, a
//! candidate, withheld, rejected only by Alfred's own pacing (cooldowns, caps, the circuit
//! breaker, busy targets: the operator's request is theirs to make), advice that carries a
//! plan (Alfred only recommends), or advice that only does not pay off
//! (`NonExecutableObservedFragmentation`, or no computed move) while a target has room. It
//! cannot when ome-top computes advice that would make the migration fail (`NoSurgeHeadroom`,
//! `VolumePinned`, `ModelUnresolved`, an eligibility failure …), a gate that says the move
//! itself fails, or it is outside every maintenance window.
//!
//! Owns: `Verdict`, `verdict`. Plain data; must not import `ratatui`, `tokio` or `kube`.

use crate::app::views::moves::locate_instance;
use crate::app::views::moves::words::{advisory_words, outcome_words, reject_words};
use crate::app::views::moves::Merged;
use crate::engine::analysis::Analysis;
use crate::engine::model::vocab::{AdvisoryReason, Outcome, Policy, RejectReason};
use crate::engine::model::ClusterSnapshot;
use crate::engine::planning::MoveRow;

/// Whether the move can run now, as ome-top computes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It can: `words` says why.
    Executable {
        /// One sentence.
        words: String,
    },
    /// It cannot: `reason` is what an override records (a wire string such as
    /// `NoSurgeHeadroom`), `words` the sentence.
    Blocked {
        /// The reason string.
        reason: String,
        /// One sentence.
        words: String,
    },
}

impl Verdict {
    /// Whether the move can run.
    pub fn executable(&self) -> bool {
        matches!(self, Verdict::Executable { .. })
    }

    /// The sentence.
    pub fn words(&self) -> &str {
        match self {
            Verdict::Executable { words } | Verdict::Blocked { words, .. } => words,
        }
    }
}

/// Gates that only pace Alfred's own submissions: the move itself can run.
fn pacing(r: &RejectReason) -> bool {
    use RejectReason as R;
    matches!(
        r,
        R::CircuitBreakerOpen
            | R::Cooldown
            | R::PlacementCooldown
            | R::NodeCooldown
            | R::TargetUnderEvacuation
            | R::TargetNodeBusy
            | R::InFlightCap
            | R::HourlyCap
    )
}

/// Whether a target has room for the move's Instance now (the what-if places it).
fn room(snap: &ClusterSnapshot, a: &Analysis, m: &Merged<'_>) -> Option<bool> {
    let f = m.primary()?.fields();
    let (c, i) = locate_instance(snap, a, f.workload, f.component, f.instance)?;
    Some(a.what_if(snap, c, i)?.placements.is_some())
}

fn no_room() -> Verdict {
    let r = AdvisoryReason::NoSurgeHeadroom;
    Verdict::Blocked {
        reason: r.to_string(),
        words: format!("cannot run: {} ({r})", advisory_words(&r)),
    }
}

fn of_row(m: &MoveRow, room: impl FnOnce() -> Option<bool>) -> Verdict {
    let runs = |words: String| Verdict::Executable { words };
    match (&m.outcome, &m.advisory_reason, &m.reject_reason) {
        (Outcome::Advisory, Some(r), _) if m.plan.is_some() => runs(format!(
            "can run: a surge plan exists — {} ({r})",
            advisory_words(r)
        )),
        // Advice because it does not pay off, not because it would fail.
        (Outcome::Advisory, Some(r @ AdvisoryReason::NonExecutableObservedFragmentation), _) => {
            match room() {
                Some(true) => runs(format!(
                    "can run (a target has room), though {} ({r})",
                    advisory_words(r)
                )),
                _ => no_room(),
            }
        }
        (Outcome::Advisory, Some(r), _) => Verdict::Blocked {
            reason: r.to_string(),
            words: format!("cannot run: {} ({r})", advisory_words(r)),
        },
        (Outcome::Rejected, _, Some(r)) if pacing(r) => runs(format!(
            "can run: only Alfred's pacing holds it — {} ({r})",
            reject_words(r)
        )),
        (Outcome::Rejected, _, Some(r)) => Verdict::Blocked {
            reason: r.to_string(),
            words: format!("cannot run: {} ({r})", reject_words(r)),
        },
        (Outcome::Admitted | Outcome::Candidate | Outcome::Withheld, _, _) => {
            runs(format!("can run: {}", outcome_words(&m.outcome)))
        }
        (o, _, _) => Verdict::Blocked {
            reason: o.to_string(),
            words: format!("cannot run: {}", outcome_words(o)),
        },
    }
}

/// ome-top's verdict on `m` in analysis `a` of `snap`.
pub fn verdict(snap: &ClusterSnapshot, a: &Analysis, m: &Merged<'_>) -> Verdict {
    if let Some(row) = m.computed {
        return of_row(row, || room(snap, a, m));
    }
    let defrag = m
        .alfred
        .is_some_and(|r| r.policy == Policy::Defragmentation);
    if defrag && !a.config.defrag_window_open_at(a.now) {
        return Verdict::Blocked {
            reason: "OutsideMaintenanceWindow".into(),
            words: "cannot run now: outside every maintenance window, defragmentation waits".into(),
        };
    }
    match room(snap, a, m) {
        Some(true) => Verdict::Executable {
            words: "can run (a target has room), though ome-top computes no move for it now \
                    (its pool is below Alfred's threshold, or the Instance changed since \
                    Alfred's pass)"
                .into(),
        },
        Some(false) => no_room(),
        None => Verdict::Blocked {
            reason: "NoComputedMove".into(),
            words: "cannot run: ome-top finds no such Instance with GPUs in one pool now".into(),
        },
    }
}
