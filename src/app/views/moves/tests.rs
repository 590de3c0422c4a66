//! The Moves view never contradicts itself: `≠` on every pair of outcomes, the verdict's words
//! and tone on every verdict.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::app::table::Tone;
use crate::app::views::moves::{outcomes_disagree, verdict_line};
use crate::engine::model::vocab::{AdvisoryReason, Outcome, RejectReason};
use crate::engine::planning::{Blocker, CanRun, Verdict};

/// Outcomes that say the same of a move, written out: a pair agrees iff both sit in one group.
const SAME: &[&[&str]] = &[
    &["advisory"],
    &["rejected"],
    &[
        "admitted",
        "candidate",
        "withheld",
        "submitted",
        "acknowledged",
        "stalled",
        "completed",
    ],
    &["failed"],
];

fn group(o: &Outcome) -> usize {
    SAME.iter()
        .position(|g| g.contains(&o.as_str()))
        .unwrap_or_else(|| panic!("{o} is in no group"))
}

#[test]
fn every_pair_of_outcomes_disagrees_iff_they_say_different_things() {
    for a in Outcome::KNOWN {
        for b in Outcome::KNOWN {
            let want = group(a) != group(b);
            let got = outcomes_disagree((a, None), (b, None));
            assert_eq!(got, want, "Alfred {a} | ome-top {b}");
        }
    }
    let (admitted, rejected) = (&Outcome::Admitted, &Outcome::Rejected);
    assert!(outcomes_disagree((admitted, None), (rejected, None)));
    assert!(outcomes_disagree((rejected, None), (admitted, None)));
}

#[test]
fn advice_for_different_reasons_disagrees_and_for_the_same_agrees() {
    let adv = &Outcome::Advisory;
    let (x, y) = (Some("NoSurgeHeadroom"), Some("VolumePinned"));
    assert!(outcomes_disagree((adv, x), (adv, y)));
    assert!(!outcomes_disagree((adv, x), (adv, x)));
    // A reason on a non-advisory row says nothing of agreement.
    let rej = &Outcome::Rejected;
    assert!(!outcomes_disagree((rej, x), (rej, y)));
}

fn every_verdict() -> Vec<Verdict> {
    let adv = AdvisoryReason::NoSurgeHeadroom;
    let gate = RejectReason::InFlightCap;
    let mut out = vec![
        Verdict::CanRun(CanRun::PlannedAdvice(adv.clone())),
        Verdict::CanRun(CanRun::RoomDespite(adv.clone())),
        Verdict::CanRun(CanRun::OnlyPacing(gate.clone())),
        Verdict::CanRun(CanRun::RoomWithoutComputedMove),
        Verdict::Blocked(Blocker::Advice(adv)),
        Verdict::Blocked(Blocker::Gate(gate)),
        Verdict::Blocked(Blocker::OutsideMaintenanceWindow),
        Verdict::Blocked(Blocker::NoComputedMove),
    ];
    for o in Outcome::KNOWN {
        out.push(Verdict::CanRun(CanRun::Outcome(o.clone())));
        out.push(Verdict::Blocked(Blocker::Outcome(o.clone())));
    }
    out
}

#[test]
fn a_verdict_says_can_run_only_in_green_and_never_of_a_withheld_move() {
    for v in every_verdict() {
        let (words, tone) = verdict_line(&v);
        let can = words.starts_with("can run");
        assert_eq!(can, tone == Tone::Ok, "{v:?}: {words}");
        let withheld = matches!(
            &v,
            Verdict::CanRun(CanRun::Outcome(Outcome::Withheld))
                | Verdict::Blocked(Blocker::Outcome(Outcome::Withheld))
        );
        if withheld {
            assert!(!words.contains("can run"), "{v:?}: {words}");
        }
        if let Verdict::Blocked(_) = v {
            assert!(words.starts_with("cannot run"), "{v:?}: {words}");
        }
    }
}
