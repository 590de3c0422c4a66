//! The Journal view: rows (entries of `alfred-dispatch-state` with phase, reason, ages, whether
//! each blocks Alfred and its clearing verdict), the blocking banner text, and the entry detail
//! with the clearing check for its reason.
//!
//! Owns: `journal_rows`, `blocking_text`, `clearing_word`, the entry detail. Plain data.

use crate::app::detail::{DetailKind, DetailModel, Lines};
use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel, Tone};
use crate::app::views::context::ViewContext;
use crate::engine::analysis::Analysis;
use crate::engine::journal::Phase;
use crate::engine::journal::{CheckResult, ClearingDecision, ClearingVerdict};
use crate::engine::model::Time;
use crate::engine::planning::JournalView;
use crate::fmt::{age, age_secs};
use crate::fmt::{relative, when_opt};
use crate::protocol::Feed;

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
        Column::text("UUID", ColWidth::Fixed(8)).keep(),
        Column::text("WORKLOAD", ColWidth::Min(16)).keep(),
        Column::text("INST", ColWidth::Fixed(9)).priority(4),
        Column::text("PHASE", ColWidth::Fixed(12)).keep(),
        Column::text("REASON", ColWidth::Min(14)).priority(3),
        Column::num("AGE", 5).priority(2),
        Column::text("BLOCKS", ColWidth::Fixed(8)).keep(),
        Column::text("CLEARING", ColWidth::Flex(12)).keep(),
    ];
    let JournalView::Valid(journal, blocking) = &a.journal else {
        return TableModel {
            columns,
            rows: Vec::new(),
        };
    };
    let holds = crate::app::views::moves::held::holder(a).map(|e| e.uuid.as_str());
    let withheld = crate::app::views::moves::held::withheld_count(a);
    let rows = journal
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let (clearing, tone) = clearing_word(&a.clearing, &e.uuid);
            let blocking = blocking.blocks(&e.uuid);
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
                if blocking && withheld > 0 && holds == Some(e.uuid.as_str()) {
                    // How many moves clearing it releases.
                    Cell::text(format!("⊘ blocks {withheld}")).tone(Tone::Danger)
                } else if blocking {
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

/// The checklist of a clearing verdict, one line per check, plus the decision.
pub fn clearing_lines(v: &ClearingVerdict) -> Vec<(String, Tone)> {
    let mut out: Vec<(String, Tone)> = v
        .checks
        .iter()
        .map(|c| {
            let (mark, tone) = match c.result {
                CheckResult::Met => ("[✓ met]       ", Tone::Ok),
                CheckResult::NotMet => ("[✗ not met]   ", Tone::Failed),
                CheckResult::Unverified => ("[? unverified]", Tone::Unknown),
            };
            (
                format!("{mark} {} — observed: {}", c.condition, c.observed),
                tone,
            )
        })
        .collect();
    out.push(match &v.decision {
        ClearingDecision::Clearable => ("decision: clearable".into(), Tone::Ok),
        ClearingDecision::Wait(why) => (format!("decision: wait — {why}"), Tone::Degraded),
        ClearingDecision::NotStalled => {
            ("decision: not stalled (never cleared)".into(), Tone::Muted)
        }
    });
    out
}

/// The detail pane of journal entry `uuid`.
pub fn journal_detail(cx: &ViewContext<'_>, feed: &Feed, uuid: &str) -> Option<DetailModel> {
    let a = &feed.analysis;
    let e = a
        .journal
        .journal()?
        .entries
        .iter()
        .find(|e| e.uuid == uuid)?;
    let mut out = Lines::default();
    out.heading("Entry");
    out.line(format!("uuid {}", e.uuid));
    out.line(format!(
        "workload {}/{} (uid {}) · IR {} (uid {})",
        e.workload.namespace, e.workload.name, e.workload_uid, e.ir_name, e.ir_uid
    ));
    out.line(format!(
        "{} / instance {} · from {} → [{}]",
        e.component.as_str(),
        e.instance,
        e.from_node,
        e.targets.join(", ")
    ));
    out.line(format!(
        "phase {} · reason {}",
        e.phase.shown_as(),
        e.reason.as_deref().unwrap_or("-")
    ));
    out.line(format!(
        "created {}",
        when_opt(a.now, Some(e.created_at), cx.utc_offset)
    ));
    let ago = |t: Option<Time>| t.map_or_else(|| "-".to_string(), |t| relative(a.now, t));
    out.line(format!(
        "last attempt {} · acknowledged {} · completed {}",
        ago(e.last_attempt),
        ago(e.acknowledged_at),
        ago(e.completed_at)
    ));
    if let Some(text) = crate::app::views::moves::held::releases_words(a, uuid) {
        out.push(text, Tone::Danger);
    }
    out.heading("Checks before clearing this entry");
    match a.clearing.iter().find(|(u, _)| u == uuid) {
        Some((_, v)) => {
            for (text, tone) in clearing_lines(v) {
                out.push(text, tone);
            }
        }
        None => out.push("only stalled entries are checked and cleared", Tone::Muted),
    }
    Some(DetailModel {
        kind: DetailKind::Journal(uuid.to_string()),
        title: format!(
            "journal entry {}",
            e.uuid.chars().take(8).collect::<String>()
        ),
        lines: out.0,
    })
}
