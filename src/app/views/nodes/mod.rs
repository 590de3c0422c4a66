//! The Nodes view: rows (name, pool, health as symbol + word, maintenance triggers, cordoned,
//! spot, GPUs used/total, OME occupants, age of the last condition change). The node detail is
//! `detail`'s (with `sections` and the health `timeline`).
//!
//! With the history store attached, two last columns from its health answers: FLAPS (the
//! node's health episodes in the window, `!` when it flaps) and, in the wide layout, MTTR (its
//! pool's mean time to repair).
//!
//! Owns: `node_rows`, `add_history_columns`, `NODE_POOL_COLUMN`. Plain data.

pub mod detail;
mod sections;
pub mod timeline;

use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel, Tone};
use crate::app::views::cells::health_cell;
use crate::engine::analysis::Analysis;
use crate::engine::model::ClusterSnapshot;
use crate::engine::timeline::NodesHealth;
use crate::fmt::span;
use crate::fmt::{age, age_secs};

/// Column of the pool name (Enter on a pool scopes the Nodes view by it).
pub const NODE_POOL_COLUMN: usize = 1;

fn columns() -> Vec<Column> {
    vec![
        Column::text("NAME", ColWidth::Min(18)).keep(),
        Column::text("POOL", ColWidth::Min(12)).priority(2),
        Column::text("HEALTH", ColWidth::Fixed(11)).keep(),
        Column::text("CORDON", ColWidth::Fixed(8)).keep(),
        Column::text("SPOT", ColWidth::Fixed(4)).priority(4),
        Column::num("GPU", 5).keep(),
        Column::num("OME", 4).priority(2),
        Column::num("COND", 5).priority(3),
        Column::text("RESOURCE", ColWidth::Min(8)).wide(),
        Column::num("AGE", 4).wide(),
        Column::text("MAINT", ColWidth::Flex(10)).priority(1),
    ]
}

/// The health cell, with what the kubelet says of a node not plainly ready ("✓ Clear ·
/// unreachable"): Alfred's health ignores it and still counts the node's free GPUs.
fn readiness(mut cell: Cell, node: &crate::engine::model::Node) -> Cell {
    if let Some(r) = crate::engine::nodes::not_ready(node) {
        cell.text = format!("{} · {}", cell.text, r.word());
        cell.tone = Tone::Degraded;
    }
    cell
}

/// One row per node, sorted by name.
pub fn node_rows(snap: &ClusterSnapshot, a: &Analysis) -> TableModel {
    let now = a.now;
    let rows = a
        .node_order
        .iter()
        .filter_map(|i| Some((*i, snap.nodes.get(*i)?, a.nodes.get(*i)?)))
        .map(|(i, node, st)| {
            let changed = node
                .conditions
                .iter()
                .filter_map(|c| c.last_transition)
                .max();
            let maint = if st.maintenance.is_empty() {
                Cell::text("-")
            } else {
                Cell::text(st.maintenance.join(",")).tone(Tone::Degraded)
            };
            let cordon = if st.cordoned {
                Cell::text("cordoned").tone(Tone::Danger)
            } else {
                Cell::text("-").tone(Tone::Muted)
            };
            let used = st.total.saturating_sub(st.free);
            let cells = vec![
                Cell::text(node.name.to_string()),
                Cell::text(st.pool.as_deref().unwrap_or("-")),
                readiness(health_cell(&st.health), node),
                cordon,
                Cell::text(if st.preemptible { "spot" } else { "-" }),
                Cell::num(f64::from(used), format!("{used}/{}", st.total)),
                Cell::num(f64::from(st.ome_occupants), st.ome_occupants.to_string()),
                Cell::num(age_secs(now, changed), age(now, changed)),
                Cell::text(node.gpu_resource.as_deref().unwrap_or("-")),
                Cell::num(age_secs(now, node.created), age(now, node.created)),
                maint,
            ];
            RowModel::new(node.name.to_string(), i, cells)
        })
        .collect();
    TableModel {
        columns: columns(),
        rows,
    }
}

/// Adds FLAPS and (wide) MTTR to the Nodes rows of `a` from the store's health answers, as
/// the last columns: on a narrow terminal they are the first to give way, before the
/// maintenance triggers.
pub fn add_history_columns(model: &mut TableModel, a: &Analysis, health: &NodesHealth) {
    model.columns.extend([
        Column::num("FLAPS", 5).priority(4),
        Column::num("MTTR", 6).wide(),
    ]);
    for row in &mut model.rows {
        let flaps = match health.nodes.get(&row.key) {
            Some(n) if n.flapping => {
                Cell::num(n.episodes as f64, format!("{}!", n.episodes)).tone(Tone::Danger)
            }
            Some(n) => Cell::num(n.episodes as f64, n.episodes.to_string()),
            None => Cell::num(0.0, "-").tone(Tone::Muted),
        };
        let pool = a.nodes.get(row.source).and_then(|st| st.pool.as_deref());
        let mean = pool.and_then(|p| health.pool(p)).and_then(|p| p.mean);
        let mttr = match mean {
            Some(d) => Cell::num(d.num_seconds() as f64, span(d)),
            None => Cell::num(-1.0, "-").tone(Tone::Muted),
        };
        row.cells.extend([flaps, mttr]);
    }
}
