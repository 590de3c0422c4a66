//! Journal view rows (entries of `alfred-dispatch-state` with phase, reason, ages, whether
//! each blocks Alfred and its clearing verdict), the blocking banner text, and Lints rows.
//!
//! Owns: `journal_rows`, `blocking_text`, `lint_rows`, `clearing_word`. Plain data; must not
//! import `ratatui`, `tokio` or `kube`.

use crate::app::rows::{age, age_secs};
use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel, Tone};
use crate::engine::analysis::Analysis;
use crate::engine::journal::blocking::Blocking;
use crate::engine::journal::clearing::{ClearingDecision, ClearingVerdict};
use crate::engine::journal::Phase;
use crate::engine::planning::pass::JournalView;

/// Whether entry `uuid` blocks Alfred's submissions.
pub fn blocks(blocking: &Blocking, uuid: &str) -> bool {
    match blocking {
        Blocking::None => false,
        Blocking::MultipleUnresolvedRequests { blockers } => {
            blockers.iter().any(|b| b.uuid == uuid)
        }
        Blocking::UnresolvedRequest { uuid: u, .. } | Blocking::PreparedRetry { uuid: u } => {
            u == uuid
        }
    }
}

/// The banner shown over the journal when it blocks every submission, if it does.
pub fn blocking_text(a: &Analysis) -> Option<String> {
    match &a.journal {
        JournalView::Absent => None,
        JournalView::MissingKey => {
            Some("⊘ journal has no state.json: Alfred withholds every submission".into())
        }
        JournalView::Unreadable(why) => Some(format!(
            "⊘ journal unreadable ({why}): Alfred withholds every submission"
        )),
        JournalView::Valid(_, blocking) => blocking.withhold_reason().map(|r| {
            format!("⊘ {r}: a stalled or unresolved entry blocks all of Alfred's submissions")
        }),
    }
}

/// The verdict of `uuid` as one word or phrase.
pub fn clearing_word(clearing: &[(String, ClearingVerdict)], uuid: &str) -> (String, Tone) {
    match clearing
        .iter()
        .find(|(u, _)| u == uuid)
        .map(|(_, v)| &v.decision)
    {
        Some(ClearingDecision::Clearable) => ("clearable".into(), Tone::Ok),
        Some(ClearingDecision::Wait(why)) => (format!("wait: {why}"), Tone::Degraded),
        Some(ClearingDecision::NotStalled) | None => ("-".into(), Tone::Muted),
    }
}

fn phase_tone(p: Phase) -> Tone {
    match p {
        Phase::Completed => Tone::Ok,
        Phase::Failed => Tone::Failed,
        Phase::Stalled => Tone::Danger,
        Phase::Prepared | Phase::Submitted | Phase::Acknowledged => Tone::Degraded,
    }
}

/// One row per journal entry, in document order.
pub fn journal_rows(a: &Analysis) -> TableModel {
    let columns = vec![
        Column::text("UUID", ColWidth::Fixed(8)),
        Column::text("WORKLOAD", ColWidth::Min(16)),
        Column::text("INST", ColWidth::Fixed(9)),
        Column::text("PHASE", ColWidth::Fixed(12)),
        Column::text("REASON", ColWidth::Min(14)),
        Column::num("AGE", 5),
        Column::text("BLOCKS", ColWidth::Fixed(8)),
        Column::text("CLEARING", ColWidth::Min(12)),
    ];
    let JournalView::Valid(journal, blocking) = &a.journal else {
        return TableModel {
            columns,
            rows: Vec::new(),
        };
    };
    let rows = journal
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let (clearing, tone) = clearing_word(&a.clearing, &e.uuid);
            let blocking = blocks(blocking, &e.uuid);
            let cells = vec![
                Cell::text(e.uuid.chars().take(8).collect::<String>()),
                Cell::text(format!("{}/{}", e.workload.namespace, e.workload.name)),
                Cell::text(format!("{}/{}", e.component.as_str(), e.instance)),
                Cell::text(e.phase.shown_as()).tone(phase_tone(e.phase)),
                Cell::text(e.reason.as_deref().unwrap_or("-")),
                Cell::num(
                    age_secs(a.now, Some(e.created_at)),
                    age(a.now, Some(e.created_at)),
                ),
                if blocking {
                    Cell::text("⊘ blocks").tone(Tone::Danger)
                } else {
                    Cell::text("-").tone(Tone::Muted)
                },
                Cell::text(clearing).tone(tone),
            ];
            RowModel::new(e.uuid.clone(), i, cells)
        })
        .collect();
    TableModel { columns, rows }
}

/// One row per placement lint: the rule it breaks, the object, the message (with the fix).
pub fn lint_rows(a: &Analysis) -> TableModel {
    let rows = a
        .lints
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let cells = vec![
                Cell::text(l.rule.id()).tone(Tone::Degraded),
                Cell::text(l.object.clone()),
                Cell::text(l.message.clone()),
            ];
            RowModel::new(
                format!("{}|{}|{}", l.rule.id(), l.object, l.message),
                i,
                cells,
            )
        })
        .collect();
    TableModel {
        columns: vec![
            Column::text("RULE", ColWidth::Fixed(22)),
            Column::text("OBJECT", ColWidth::Min(18)),
            Column::text("MESSAGE", ColWidth::Min(24)),
        ],
        rows,
    }
}
