//! What the dispatch journal does to Alfred's next submission (alfred.md §2.3 "Unresolved",
//! §8.4 pass-wide withhold reasons): which entries block, and the operator-facing text for an
//! unreadable journal (`JournalUnavailable`).
//!
//! Pure.

use crate::engine::journal::{Journal, JournalError, Phase};
use crate::engine::model::vocab::DispatchReason;

/// One unresolved entry that holds Alfred back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocker {
    /// Index in `journal.entries`.
    pub index: usize,
    /// Request UUID.
    pub uuid: String,
    /// Its phase (never terminal).
    pub phase: Phase,
    /// True for `stalled`: no timeout will ever resolve it and Alfred never cancels; only an IR
    /// terminal status or an operator removing the entry (§2.4) unblocks Alfred.
    pub stalled: bool,
}

/// Effect of the journal on dispatch (§2.3). Invariant: every blocker listed is unresolved, and
/// the variant follows from their count and phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocking {
    /// No unresolved entry: the journal does not hold Alfred back.
    None,
    /// ≥ 2 unresolved entries: every admitted move is withheld `MultipleUnresolvedRequests`.
    MultipleUnresolvedRequests {
        /// All unresolved entries, in journal order (≥ 2).
        blockers: Vec<Blocker>,
    },
    /// Exactly one unresolved entry and it is not `prepared`: every admitted move is withheld
    /// `UnresolvedRequest`; Alfred only waits.
    UnresolvedRequest {
        /// The entry's UUID.
        uuid: String,
        /// Its phase (`submitted`, `acknowledged` or `stalled`).
        phase: Phase,
        /// True if `stalled` (needs an IR terminal status or an operator; never times out).
        stalled: bool,
    },
    /// Exactly one unresolved entry and it is `prepared`: Alfred retries that same UUID and
    /// payload after a full fresh preflight (only within the acknowledgement timeout); no other
    /// move is submitted meanwhile (they meet `InFlightCap`).
    PreparedRetry {
        /// The prepared entry's UUID.
        uuid: String,
    },
}

impl Blocking {
    /// Whether entry `uuid` is one that holds Alfred's submissions back.
    pub fn blocks(&self, uuid: &str) -> bool {
        match self {
            Blocking::None => false,
            Blocking::MultipleUnresolvedRequests { blockers } => {
                blockers.iter().any(|b| b.uuid == uuid)
            }
            Blocking::UnresolvedRequest { uuid: u, .. } | Blocking::PreparedRetry { uuid: u } => {
                u == uuid
            }
        }
    }

    /// The pass-wide withhold reason Alfred applies to every admitted row, if any.
    /// `PreparedRetry` has none: the retry itself goes through preflight.
    pub fn withhold_reason(&self) -> Option<DispatchReason> {
        match self {
            Blocking::None | Blocking::PreparedRetry { .. } => None,
            Blocking::MultipleUnresolvedRequests { .. } => {
                Some(DispatchReason::MultipleUnresolvedRequests)
            }
            Blocking::UnresolvedRequest { .. } => Some(DispatchReason::UnresolvedRequest),
        }
    }
}

/// Unresolved entries (phase ∈ prepared/submitted/acknowledged/stalled) in journal order.
pub fn blockers(journal: &Journal) -> Vec<Blocker> {
    journal
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.is_unresolved())
        .map(|(index, e)| Blocker {
            index,
            uuid: e.uuid.clone(),
            phase: e.phase,
            stalled: e.phase == Phase::Stalled,
        })
        .collect()
}

/// Classifies the journal per §2.3.
pub fn blocking_state(journal: &Journal) -> Blocking {
    let mut found = blockers(journal);
    match found.len() {
        0 => Blocking::None,
        1 => match found.pop() {
            Some(b) if b.phase == Phase::Prepared => Blocking::PreparedRetry { uuid: b.uuid },
            Some(b) => Blocking::UnresolvedRequest {
                uuid: b.uuid,
                phase: b.phase,
                stalled: b.stalled,
            },
            None => Blocking::None,
        },
        _ => Blocking::MultipleUnresolvedRequests { blockers: found },
    }
}

/// Operator text for a journal that fails the strict reader. Alfred's own log does not say why,
/// so the TUI names the rule that failed.
pub fn journal_unavailable_message(err: &JournalError) -> String {
    format!("journal unreadable: {err} — Alfred withholds every move (JournalUnavailable)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::journal::fixtures as fx;
    use crate::engine::journal::{parse_journal, INITIAL_STATE_JSON};

    fn journal_of(phases: &[&str]) -> Journal {
        let entries = phases
            .iter()
            .enumerate()
            .map(|(i, p)| fx::entry(i, p))
            .collect();
        parse_journal(fx::journal(entries).as_bytes()).unwrap()
    }

    #[test]
    fn nothing_unresolved_is_none() {
        let empty = parse_journal(INITIAL_STATE_JSON.as_bytes()).unwrap();
        assert_eq!(blocking_state(&empty), Blocking::None);
        let done = journal_of(&["completed", "failed", "completed"]);
        assert_eq!(blocking_state(&done), Blocking::None);
        assert_eq!(blocking_state(&done).withhold_reason(), None);
    }

    #[test]
    fn single_prepared_is_retried() {
        let j = journal_of(&["completed", "prepared"]);
        let b = blocking_state(&j);
        assert_eq!(b, Blocking::PreparedRetry { uuid: fx::uuid(1) });
        assert_eq!(b.withhold_reason(), None);
    }

    #[test]
    fn single_non_prepared_withholds_everything() {
        for (phase, p, stalled) in [
            ("submitted", Phase::Submitted, false),
            ("acknowledged", Phase::Acknowledged, false),
            ("stalled", Phase::Stalled, true),
        ] {
            let b = blocking_state(&journal_of(&["failed", phase]));
            assert_eq!(
                b,
                Blocking::UnresolvedRequest {
                    uuid: fx::uuid(1),
                    phase: p,
                    stalled
                }
            );
            assert_eq!(b.withhold_reason(), Some(DispatchReason::UnresolvedRequest));
        }
    }

    #[test]
    fn two_or_more_unresolved_lists_every_blocker() {
        let j = parse_journal(fx::full().as_bytes()).unwrap();
        let Blocking::MultipleUnresolvedRequests { blockers } = blocking_state(&j) else {
            panic!("expected MultipleUnresolvedRequests");
        };
        let got: Vec<(usize, Phase, bool)> = blockers
            .iter()
            .map(|b| (b.index, b.phase, b.stalled))
            .collect();
        let want = vec![
            (0, Phase::Prepared, false),
            (1, Phase::Submitted, false),
            (2, Phase::Acknowledged, false),
            (5, Phase::Stalled, true),
        ];
        assert_eq!(got, want);
        assert_eq!(blockers[3].uuid, fx::uuid(5));
        let two_prepared = blocking_state(&journal_of(&["prepared", "prepared"]));
        assert_eq!(
            two_prepared.withhold_reason(),
            Some(DispatchReason::MultipleUnresolvedRequests)
        );
    }

    #[test]
    fn an_entry_blocks_only_when_it_holds_alfred_back() {
        let done = blocking_state(&journal_of(&["completed", "failed"]));
        assert!(!done.blocks(&fx::uuid(0)));
        let one = blocking_state(&journal_of(&["completed", "stalled"]));
        assert!(one.blocks(&fx::uuid(1)) && !one.blocks(&fx::uuid(0)));
        let retry = blocking_state(&journal_of(&["prepared"]));
        assert!(retry.blocks(&fx::uuid(0)));
        let many = blocking_state(&journal_of(&["submitted", "completed", "acknowledged"]));
        assert!(many.blocks(&fx::uuid(0)) && many.blocks(&fx::uuid(2)));
        assert!(!many.blocks(&fx::uuid(1)));
    }

    #[test]
    fn unavailable_message() {
        let err = parse_journal(br#"{"version":"v1","entries":null}"#).unwrap_err();
        assert_eq!(
            journal_unavailable_message(&err),
            "journal unreadable: entries: must be an array, found null — Alfred withholds every \
             move (JournalUnavailable)"
        );
    }
}
