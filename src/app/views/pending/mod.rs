//! The Pending list (under Pools, `:pending`): one row per pending GPU pod or gang, what most
//! of its pool's nodes refuse it for and what its unblock plan says; the explanation pane of
//! one (`explain`) and the what-if pane of a change to a node (`what_if`) or to Alfred's
//! policy values (`policy`). Built from the
//! engine's answers (`report::pending`), never worded twice.
//!
//! Owns: `pending_rows`, `plan_summary`. Plain data.

pub mod explain;
pub mod hold;
pub mod policy;
pub mod what_if;

use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel, Tone};
use crate::engine::model::ClusterSnapshot;
use crate::engine::unblock::{PlanTarget, Unblock};
use crate::protocol::Feed;
use crate::report::pending::{pending_entries, PendingEntry};

/// A narrow terminal drops the pool first (the explanation names it), then cuts the pod's
/// name (the explanation's title shows it whole) before the reason and the plan.
fn columns() -> Vec<Column> {
    vec![
        Column::text("POD OR GANG", ColWidth::Min(20)).keep(),
        Column::num("GPUS", 4).keep(),
        Column::text("WHY IT WAITS (NODES)", ColWidth::Min(24)).keep(),
        Column::text("UNBLOCK PLAN", ColWidth::Min(24)).keep(),
        Column::text("POOL", ColWidth::Flex(10))
            .priority(4)
            .optional(),
    ]
}

/// What the plan says in a few words, and its tone.
pub fn plan_summary(snap: &ClusterSnapshot, u: &Unblock) -> (String, Tone) {
    match u {
        Unblock::FitsNow => ("fits now".into(), Tone::Ok),
        Unblock::NoPlan(why) => (format!("no plan: {}", no_plan_short(*why)), Tone::Failed),
        Unblock::Plan(p) => {
            let n = p.moves.len();
            let noun = if n == 1 { "move" } else { "moves" };
            let place = match &p.target {
                PlanTarget::Node(i) => snap.nodes.get(*i).map_or("", |n| n.name.as_ref()),
                PlanTarget::Domain(d) => d.as_str(),
            };
            (format!("{n} {noun} free {place}"), Tone::Accent)
        }
    }
}

fn no_plan_short(why: crate::engine::unblock::NoPlan) -> &'static str {
    use crate::engine::unblock::NoPlan as N;
    match why {
        N::TooFewGpus => "pool too small",
        N::Gated { .. } => "gated",
        N::PinnedWorkloads => "pinned",
    }
}

/// The row of one entry.
fn row(snap: &ClusterSnapshot, e: &PendingEntry) -> Option<RowModel> {
    let x = &e.explanation;
    let pod = snap.pods.get(x.pod)?;
    let name = match &x.gang {
        // A gang waits as a whole: its first pending member stands for it.
        Some(g) => format!("gang {}", g.key),
        None => pod.key(),
    };
    let why = x.groups.first().map_or_else(
        || "no node of its GPU kind".to_string(),
        |g| format!("{} ({})", g.verdict.words(), g.nodes),
    );
    let (plan, tone) = plan_summary(snap, &e.unblock);
    let cells = vec![
        Cell::text(name),
        Cell::num(f64::from(x.gpus), x.gpus.to_string()),
        Cell::text(why).tone(Tone::Degraded),
        Cell::text(plan).tone(tone),
        Cell::text(x.pool.clone().unwrap_or_else(|| "-".into())),
    ];
    Some(RowModel::new(pod.key(), x.pod, cells))
}

/// `1 node`, `12 nodes`.
pub fn nodes(n: usize) -> String {
    if n == 1 {
        "1 node".into()
    } else {
        format!("{n} nodes")
    }
}

/// One row per pending GPU pod or gang of the shown feed, pool by pool.
pub fn pending_rows(feed: &Feed) -> TableModel {
    let snap = &feed.snapshot;
    let rows = pending_entries(snap, &feed.analysis)
        .iter()
        .filter_map(|e| row(snap, e))
        .collect();
    TableModel {
        columns: columns(),
        rows,
    }
}
