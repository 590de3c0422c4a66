//! Journal entry detail: the entry's fields and the §2.4 check for its reason, already
//! performed (annotation present? IR present with the same UID? history row?), from
//! `Analysis::clearing`.
//!
//! Owns: `journal_detail`, `clearing_lines`. Plain data; must not import `ratatui`, `tokio` or
//! `kube`.

use crate::app::detail::{DetailKind, DetailModel, Lines};
use crate::app::rows::age;
use crate::app::table::Tone;
use crate::engine::journal::clearing::{CheckResult, ClearingDecision, ClearingVerdict};
use crate::protocol::Feed;
use crate::report::rfc3339;

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
pub fn journal_detail(feed: &Feed, uuid: &str) -> Option<DetailModel> {
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
        "created {} ({}) · last attempt {} · acknowledged {} · completed {}",
        rfc3339(e.created_at),
        age(a.now, Some(e.created_at)),
        age(a.now, e.last_attempt),
        age(a.now, e.acknowledged_at),
        age(a.now, e.completed_at)
    ));
    out.heading("Clearing checks (alfred.md §2.4)");
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
