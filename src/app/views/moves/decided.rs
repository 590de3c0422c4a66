//! Moves an operator has decided on: dismissed here (kept under "dismissed" until the move
//! changes) or whose workload is opted out of Alfred's moves (kept under "opted out" while the
//! annotation stays). Each row says who decided, why and when, and both groups say that `U`
//! undoes one. A maintenance evacuation of a workload is named before it is opted out.
//!
//! Owns: `DISMISSED_GROUP`, `OPTED_OUT_GROUP`, `decided_label`, `dismissed_cells`,
//! `opted_out_cells`, `opted_out_words`, `maintenance_evacuations`. Plain data.

use crate::app::table::{Cell, RowModel, Tone};
use crate::app::views::moves::{alfred_rows, Dismissed, MoveRef};
use crate::engine::analysis::Analysis;
use crate::engine::model::vocab::Reason;
use crate::engine::model::Time;
use crate::engine::workloads::OptOut;
use crate::fmt::relative;

/// The group key of the dismissed moves (no advisory reason is spelled so).
pub const DISMISSED_GROUP: &str = "dismissed";
/// The group key of the moves of opted-out workloads (no advisory reason is spelled so).
pub const OPTED_OUT_GROUP: &str = "opted out";

/// A decided group's (count word, label), `None` for an advisory reason.
pub fn decided_label(group: &str) -> Option<(&'static str, &'static str)> {
    match group {
        // Short, so that 80 columns keep the key: the count already says what the group is.
        DISMISSED_GROUP => Some(("dismissed", "U undoes one")),
        OPTED_OUT_GROUP => Some(("opted out", "U opts back in")),
        _ => None,
    }
}

/// WHY of an opted-out workload's move: the operator's reason, as the workload carries it.
pub fn opted_out_words(o: &OptOut<'_>) -> String {
    match o.reason {
        Some(r) => format!("opted out: {r}"),
        None => "opted out (no reason given)".to_string(),
    }
}

/// A dismissed move's row: WHY says who dismissed it, when and why; no `≠` (the operator
/// has decided).
pub fn dismissed_cells(row: &mut RowModel, d: &Dismissed, now: Time) {
    let by = d.by.as_deref().unwrap_or("you");
    let text = format!("dismissed by {by} {}: {}", relative(now, d.at), d.reason);
    decided_cells(row, text);
}

/// An opted-out workload's move: WHY names the opt-out and its reason; no `≠`.
pub fn opted_out_cells(row: &mut RowModel, o: &OptOut<'_>) {
    decided_cells(row, opted_out_words(o));
}

fn decided_cells(row: &mut RowModel, why: String) {
    if let Some(c) = row.cells.get_mut(0) {
        c.text.clear();
    }
    if let Some(c) = row.cells.get_mut(5) {
        *c = Cell::text(why).tone(Tone::Muted);
    }
    *row = RowModel::new(
        std::mem::take(&mut row.key),
        row.source,
        std::mem::take(&mut row.cells),
    );
}

/// The Instances of `workload` that Alfred or ome-top would evacuate for node maintenance:
/// `(component, instance, from node)`, each once, in Instance order.
pub fn maintenance_evacuations<'a>(
    a: &'a Analysis,
    workload: &str,
) -> Vec<(&'a str, i64, Option<&'a str>)> {
    let computed = a.moves.iter().map(MoveRef::Computed);
    let alfred = alfred_rows(a).iter().map(MoveRef::Alfred);
    let mut out: Vec<_> = computed
        .chain(alfred)
        .map(|m| m.fields())
        .filter(|f| f.workload == workload && *f.reason == Reason::NodeMaintenance)
        .map(|f| (f.component, f.instance, f.from_node))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}
