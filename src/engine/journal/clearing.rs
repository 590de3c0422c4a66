//! The documented decision whether an operator may clear a stalled journal entry (alfred.md
//! §2.4 step 3), as a pure function of facts the client read, returning the verdict and a
//! checklist of every check with its result. A failed read is never taken as "gone".
//!
//! Pure.

use crate::engine::journal::facts::{ClearingFacts, Fact, RowSeen};
use crate::engine::journal::{JournalEntry, Phase};

/// Result of one check: whether its condition (phrased as a reason to clear) holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckResult {
    /// Verified true.
    Met,
    /// Verified false.
    NotMet,
    /// The read it needs failed.
    Unverified,
}

/// One line of the checklist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClearingCheck {
    /// The condition, e.g. `request annotation is gone from the InferenceService`.
    pub condition: String,
    /// Outcome.
    pub result: CheckResult,
    /// What was observed, e.g. `present`, `uid abc (recorded abc)`, `read failed: timeout`.
    pub observed: String,
}

/// The decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClearingDecision {
    /// Removing the entry (§2.4 step 4) is the documented action.
    Clearable,
    /// Do not clear; the text says what to wait for.
    Wait(String),
    /// The entry is not `stalled`; only stalled entries are ever cleared.
    NotStalled,
}

/// Decision plus every check performed, in order (for display as a checklist).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClearingVerdict {
    /// What to do.
    pub decision: ClearingDecision,
    /// The checks behind it (the first is always "entry is stalled").
    pub checks: Vec<ClearingCheck>,
}

/// Applies §2.4 step 3 to `entry`. Only `stalled` entries can be `Clearable`.
///
/// * `ConsumerDeadlineExceeded` → always wait (it resolves when the migration ends).
/// * `AcknowledgementTimeout` → annotation present ⇒ wait; annotation, history row and status
///   row all verified absent ⇒ clear; a row that shows the request ended ⇒ clear; a running
///   row ⇒ wait; any needed read failed ⇒ wait.
/// * `OwnerUnavailable`/`ReplicaUnavailable`/`ReplicaIdentityChanged` → clear once a verified
///   read shows the ISVC or IR gone or with a uid other than `workloadUID`/`irUID`.
/// * any other reason (or none) → clear once the audit history or IR status shows it ended.
pub fn clearing_check(entry: &JournalEntry, facts: &ClearingFacts) -> ClearingVerdict {
    let stalled = entry.phase == Phase::Stalled;
    let mut checks = vec![ClearingCheck {
        condition: "entry is stalled".into(),
        result: if stalled {
            CheckResult::Met
        } else {
            CheckResult::NotMet
        },
        observed: format!("phase {}", entry.phase),
    }];
    if !stalled {
        return ClearingVerdict {
            decision: ClearingDecision::NotStalled,
            checks,
        };
    }
    let decision = match entry.reason.as_deref() {
        Some("ConsumerDeadlineExceeded") => {
            checks.push(ClearingCheck {
                condition: "reason allows clearing".into(),
                result: CheckResult::NotMet,
                observed: "ConsumerDeadlineExceeded: the consumer is still migrating".into(),
            });
            ClearingDecision::Wait(
                "the migration passed its deadline but is still running; the entry resolves \
                 when the migration ends"
                    .into(),
            )
        }
        Some("AcknowledgementTimeout") => ack_timeout(facts, &mut checks),
        Some("OwnerUnavailable" | "ReplicaUnavailable" | "ReplicaIdentityChanged") => {
            identity(entry, facts, &mut checks)
        }
        _ => ended(facts, &mut checks),
    };
    ClearingVerdict { decision, checks }
}

fn ack_timeout(facts: &ClearingFacts, checks: &mut Vec<ClearingCheck>) -> ClearingDecision {
    let own = [
        gone_check(
            "request annotation is gone from the InferenceService",
            &facts.request_annotation,
        ),
        gone_check("no audit history row for the request", &facts.history_row),
        gone_check(
            "no IR status.migrations row for the request",
            &facts.status_row,
        ),
    ];
    checks.extend(own.iter().cloned());
    match facts.request_annotation {
        Fact::Present(()) => {
            return ClearingDecision::Wait(
                "the request annotation is still on the InferenceService; the request will \
                 proceed once the InferenceReplica controller runs"
                    .into(),
            )
        }
        // The annotation may be there: the "present ⇒ wait" rule comes first.
        Fact::Unreadable(_) => return unverified_wait(&own),
        Fact::Absent => {}
    }
    if own.iter().all(|c| c.result == CheckResult::Met) {
        return ClearingDecision::Clearable;
    }
    row_decision(facts).unwrap_or_else(|| unverified_wait(&own))
}

fn identity(
    entry: &JournalEntry,
    facts: &ClearingFacts,
    checks: &mut Vec<ClearingCheck>,
) -> ClearingDecision {
    let ns_name = format!("{}/{}", entry.workload.namespace, entry.workload.name);
    let own = [
        uid_check(
            &format!("InferenceService {ns_name}"),
            &facts.isvc,
            &entry.workload_uid,
        ),
        uid_check(
            &format!("InferenceReplica {}", entry.ir_name),
            &facts.replica,
            &entry.ir_uid,
        ),
    ];
    checks.extend(own.iter().cloned());
    // One verified "gone or replaced" suffices: the request's target no longer exists.
    if own.iter().any(|c| c.result == CheckResult::Met) {
        return ClearingDecision::Clearable;
    }
    if own.iter().any(|c| c.result == CheckResult::Unverified) {
        return unverified_wait(&own);
    }
    ClearingDecision::Wait(
        "the InferenceService and InferenceReplica still exist with the recorded uids; Alfred \
         resolves the entry once the migration's status appears"
            .into(),
    )
}

fn ended(facts: &ClearingFacts, checks: &mut Vec<ClearingCheck>) -> ClearingDecision {
    let own = [
        ended_check("audit history shows the request ended", &facts.history_row),
        ended_check(
            "IR status.migrations shows the request ended",
            &facts.status_row,
        ),
    ];
    checks.extend(own.iter().cloned());
    if let Some(decision) = row_decision(facts) {
        return decision;
    }
    if own.iter().any(|c| c.result == CheckResult::Unverified) {
        return unverified_wait(&own);
    }
    ClearingDecision::Wait(
        "no history shows that the request ended; check `kubectl ome migration history`".into(),
    )
}

/// Clear if any verified row ended; wait if a verified row is still running; else undecided.
fn row_decision(facts: &ClearingFacts) -> Option<ClearingDecision> {
    let rows = [&facts.history_row, &facts.status_row];
    if rows
        .iter()
        .any(|r| matches!(r, Fact::Present(RowSeen { ended: true, .. })))
    {
        return Some(ClearingDecision::Clearable);
    }
    rows.iter().find_map(|r| match r {
        Fact::Present(row) => Some(ClearingDecision::Wait(format!(
            "the migration is in progress (phase {}); the entry resolves when it ends",
            row.phase
        ))),
        _ => None,
    })
}

fn unverified_wait(checks: &[ClearingCheck]) -> ClearingDecision {
    let failed: Vec<&str> = checks
        .iter()
        .filter(|c| c.result == CheckResult::Unverified)
        .map(|c| c.observed.as_str())
        .collect();
    ClearingDecision::Wait(format!(
        "cannot verify ({}); retry the reads",
        failed.join("; ")
    ))
}

fn gone_check<T>(condition: &str, fact: &Fact<T>) -> ClearingCheck {
    let (result, observed) = match fact {
        Fact::Present(_) => (CheckResult::NotMet, "present".to_owned()),
        Fact::Absent => (CheckResult::Met, "absent".to_owned()),
        Fact::Unreadable(why) => (CheckResult::Unverified, format!("read failed: {why}")),
    };
    ClearingCheck {
        condition: condition.to_owned(),
        result,
        observed,
    }
}

fn ended_check(condition: &str, fact: &Fact<RowSeen>) -> ClearingCheck {
    let (result, observed) = match fact {
        Fact::Present(row) if row.ended => (CheckResult::Met, format!("phase {}", row.phase)),
        Fact::Present(row) => (CheckResult::NotMet, format!("phase {}", row.phase)),
        Fact::Absent => (CheckResult::NotMet, "no row".to_owned()),
        Fact::Unreadable(why) => (CheckResult::Unverified, format!("read failed: {why}")),
    };
    ClearingCheck {
        condition: condition.to_owned(),
        result,
        observed,
    }
}

fn uid_check(object: &str, fact: &Fact<String>, recorded: &str) -> ClearingCheck {
    let (result, observed) = match fact {
        Fact::Present(uid) if uid == recorded => {
            (CheckResult::NotMet, format!("uid {uid} (recorded)"))
        }
        Fact::Present(uid) => (CheckResult::Met, format!("uid {uid}, recorded {recorded}")),
        Fact::Absent => (CheckResult::Met, "not found".to_owned()),
        Fact::Unreadable(why) => (CheckResult::Unverified, format!("read failed: {why}")),
    };
    let condition = format!("{object} is gone or has a different uid");
    ClearingCheck {
        condition,
        result,
        observed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::journal::fixtures as fx;
    use crate::engine::journal::parse_journal;
    use serde_json::json;
    use ClearingDecision::{Clearable, NotStalled, Wait};

    fn stalled(reason: &str) -> JournalEntry {
        let mut e = fx::entry(0, "stalled");
        e["reason"] = json!(reason);
        parse_journal(fx::journal(vec![e]).as_bytes())
            .unwrap()
            .entries
            .remove(0)
    }

    /// Everything still there, same uids, no annotation, no rows.
    fn quiet() -> ClearingFacts {
        ClearingFacts {
            isvc: Fact::Present("isvc-uid-1".into()),
            replica: Fact::Present("ir-uid-1".into()),
            request_annotation: Fact::Absent,
            history_row: Fact::Absent,
            status_row: Fact::Absent,
        }
    }

    fn row(phase: &str, ended: bool) -> Fact<RowSeen> {
        Fact::Present(RowSeen {
            phase: phase.into(),
            ended,
        })
    }

    fn failed() -> Fact<()> {
        Fact::Unreadable("connection refused".into())
    }

    fn is_wait(d: &ClearingDecision, needle: &str) -> bool {
        matches!(d, Wait(text) if text.contains(needle))
    }

    #[test]
    fn only_stalled_entries_are_clearable() {
        let j = parse_journal(fx::full().as_bytes()).unwrap();
        for e in j.entries.iter().filter(|e| e.phase != Phase::Stalled) {
            let v = clearing_check(e, &quiet());
            assert_eq!(v.decision, NotStalled);
            assert_eq!(v.checks.len(), 1);
            assert_eq!(v.checks[0].result, CheckResult::NotMet);
        }
    }

    #[test]
    fn consumer_deadline_exceeded_always_waits() {
        let mut facts = quiet();
        facts.history_row = row("Completed", true);
        let v = clearing_check(&stalled("ConsumerDeadlineExceeded"), &facts);
        assert!(is_wait(&v.decision, "resolves when the migration ends"));
        assert_eq!(v.checks.len(), 2);
    }

    #[test]
    fn acknowledgement_timeout() {
        let e = stalled("AcknowledgementTimeout");
        let v = clearing_check(&e, &quiet());
        assert_eq!(v.decision, Clearable);
        let results: Vec<CheckResult> = v.checks.iter().map(|c| c.result).collect();
        assert_eq!(results, [CheckResult::Met; 4]);
        let mut facts = quiet();
        facts.request_annotation = Fact::Present(());
        let v = clearing_check(&e, &facts);
        assert!(is_wait(
            &v.decision,
            "once the InferenceReplica controller runs"
        ));
        assert_eq!(v.checks[1].result, CheckResult::NotMet);
        facts.request_annotation = failed();
        assert!(is_wait(
            &clearing_check(&e, &facts).decision,
            "cannot verify (read failed: connection refused)"
        ));
        let mut facts = quiet();
        facts.history_row = Fact::Unreadable("forbidden".into());
        assert!(is_wait(&clearing_check(&e, &facts).decision, "forbidden"));
        facts.status_row = row("Draining", false);
        assert!(is_wait(
            &clearing_check(&e, &facts).decision,
            "in progress (phase Draining)"
        ));
        facts.history_row = row("Failed", true);
        assert_eq!(clearing_check(&e, &facts).decision, Clearable);
    }

    #[test]
    fn identity_reasons_need_verified_gone_or_replaced() {
        for reason in [
            "OwnerUnavailable",
            "ReplicaUnavailable",
            "ReplicaIdentityChanged",
        ] {
            let e = stalled(reason);
            assert!(is_wait(
                &clearing_check(&e, &quiet()).decision,
                "still exist"
            ));
            let mut facts = quiet();
            facts.isvc = Fact::Absent;
            assert_eq!(clearing_check(&e, &facts).decision, Clearable);
            let mut facts = quiet();
            facts.replica = Fact::Present("ir-uid-2".into());
            let v = clearing_check(&e, &facts);
            assert_eq!(v.decision, Clearable);
            assert_eq!(v.checks[2].observed, "uid ir-uid-2, recorded ir-uid-1");
            let mut facts = quiet();
            facts.isvc = Fact::Unreadable("timeout".into());
            facts.replica = Fact::Unreadable("timeout".into());
            let v = clearing_check(&e, &facts);
            assert!(
                is_wait(&v.decision, "cannot verify"),
                "{reason}: a failed read is not gone"
            );
            assert_eq!(v.checks[1].result, CheckResult::Unverified);
        }
    }

    #[test]
    fn other_reasons_need_history_showing_the_end() {
        for reason in [
            "AcknowledgedStatusMissing",
            "RequestPayloadChanged",
            "MigrationStatusInvalid",
            "Novel",
        ] {
            let e = stalled(reason);
            assert!(is_wait(
                &clearing_check(&e, &quiet()).decision,
                "no history shows"
            ));
            let mut facts = quiet();
            facts.history_row = row("Completed", true);
            assert_eq!(clearing_check(&e, &facts).decision, Clearable);
            let mut facts = quiet();
            facts.status_row = row("Failed", true);
            assert_eq!(clearing_check(&e, &facts).decision, Clearable);
            let mut facts = quiet();
            facts.history_row = row("Started", false);
            assert!(is_wait(
                &clearing_check(&e, &facts).decision,
                "phase Started"
            ));
            let mut facts = quiet();
            facts.history_row = Fact::Unreadable("audit ConfigMap: 500".into());
            let v = clearing_check(&e, &facts);
            assert!(is_wait(&v.decision, "cannot verify"));
            assert_eq!(v.checks[1].result, CheckResult::Unverified);
        }
    }
}
