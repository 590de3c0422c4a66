//! "Alfred says" versus "ome-top computes": flags where Alfred's published `last-cycle.json`
//! rows and the rows ome-top computes from the same cluster disagree, and when Alfred's
//! publication is stale — the symptoms of a stuck Alfred or config drift.
//!
//! Owns: `compare_moves`. Pure.

use std::collections::BTreeMap;

use crate::engine::model::vocab::{AdvisoryReason, Outcome, RejectReason};
use crate::engine::model::Time;
use crate::engine::planning::MoveRow;
use crate::engine::recommendations::{freshness, Recommendations};

type Key = (String, String, String, i64, String);

/// Human-readable disagreements, sorted, plus a staleness note when Alfred's last pass is older
/// than 2 × `decision_loop_interval`.
pub fn compare_moves(
    published: &Recommendations,
    computed: &[MoveRow],
    decision_loop_interval: std::time::Duration,
    now: Time,
) -> Vec<String> {
    let mut out = Vec::new();
    let Some(Ok(cycle)) = &published.last_cycle else {
        return out;
    };
    if let Some(ts) = cycle.timestamp {
        let f = freshness(ts, decision_loop_interval, now);
        if f.stale {
            out.push(format!(
                "alfred-recommendations is stale: last pass {} minutes ago",
                f.age.num_minutes()
            ));
        }
    }
    let mut theirs: BTreeMap<Key, (Outcome, Option<String>)> = BTreeMap::new();
    for r in cycle.rows() {
        let key = (
            r.policy.to_string(),
            r.workload.clone(),
            r.component.clone(),
            i64::from(r.instance),
            r.reason.to_string(),
        );
        let why = r
            .advisory_reason
            .as_ref()
            .map(AdvisoryReason::to_string)
            .or_else(|| r.reject_reason.as_ref().map(RejectReason::to_string));
        theirs.insert(key, (r.outcome.clone(), why));
    }
    let mut ours: BTreeMap<Key, (Outcome, Option<String>)> = BTreeMap::new();
    for r in computed {
        let key = (
            r.policy.to_string(),
            r.workload.to_string(),
            r.component.to_string(),
            r.instance,
            r.reason.to_string(),
        );
        let why = r
            .advisory_reason
            .as_ref()
            .map(AdvisoryReason::to_string)
            .or_else(|| r.reject_reason.as_ref().map(RejectReason::to_string));
        ours.insert(key, (r.outcome.clone(), why));
    }
    let name = |k: &Key| format!("{} {}/{}#{} ({})", k.0, k.1, k.2, k.3, k.4);
    for (k, (outcome, why)) in &theirs {
        match ours.get(k) {
            None => out.push(format!("only Alfred publishes {}: {outcome}", name(k))),
            Some((o, w)) if advisory_differs(outcome, why, o, w) => out.push(format!(
                "{}: Alfred says {outcome} {}, ome-top computes {o} {}",
                name(k),
                why.as_deref().unwrap_or(""),
                w.as_deref().unwrap_or("")
            )),
            Some(_) => {}
        }
    }
    for (k, (outcome, _)) in &ours {
        if !theirs.contains_key(k) {
            out.push(format!("only ome-top computes {}: {outcome}", name(k)));
        }
    }
    out
}

/// Advice must agree on the reason; executable rows only on being executable (Alfred's
/// dispatch state is richer than what a client can compute).
fn advisory_differs(
    theirs: &Outcome,
    their_why: &Option<String>,
    ours: &Outcome,
    our_why: &Option<String>,
) -> bool {
    match (*theirs == Outcome::Advisory, *ours == Outcome::Advisory) {
        (true, true) => their_why != our_why,
        (false, false) => false,
        _ => true,
    }
}
