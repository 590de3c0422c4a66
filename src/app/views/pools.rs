//! Pools view rows: one per pool with nodes, GPUs, the score against Alfred's threshold,
//! observed / best / reclaimable / stuck, pending pressure, whole free nodes and pending pods.
//!
//! Owns: `pool_rows`, `POOL_NAME_COLUMN`. Plain data.

use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel};
use crate::app::views::cells::{frag_tone, frag_word};
use crate::engine::analysis::Analysis;
use crate::fmt::span;

/// Column of the pool name (the Nodes view scopes by it).
pub const POOL_NAME_COLUMN: usize = 0;

/// A narrow terminal keeps the pool, its free GPUs, its score and its pending pods, and drops
/// the score's parts and the node count first.
fn columns() -> Vec<Column> {
    vec![
        Column::text("POOL", ColWidth::Min(16)).keep(),
        Column::num("NODES", 6).priority(4),
        Column::num("GPU USED", 11).priority(2),
        Column::num("FREE", 6).keep(),
        Column::num("WHOLE", 6).priority(3),
        Column::text("SCORE", ColWidth::Fixed(13)).keep(),
        Column::num("OBS", 6).priority(3),
        Column::num("BEST", 6).priority(3),
        Column::num("RECL", 6).priority(4),
        Column::num("STUCK", 6).priority(4),
        Column::num("PRESS", 6).priority(4),
        Column::num("PENDING", 12).keep(),
    ]
}

fn f3(x: f64) -> String {
    format!("{x:.3}")
}

/// One row per pool, in the engine's (name) order.
pub fn pool_rows(a: &Analysis) -> TableModel {
    let threshold = a.config.policies.defragmentation.fragmentation_threshold;
    let rows = a
        .pools
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let used = p.total_gpus.saturating_sub(p.free_gpus_all_nodes);
            let tone = frag_tone(p.score, threshold);
            let marker = if p.above_threshold { "▲" } else { " " };
            let pending = if p.pending_pods == 0 {
                "0".to_string()
            } else {
                let oldest = chrono::Duration::seconds((p.oldest_pending_minutes * 60.0) as i64);
                format!("{} ({})", p.pending_pods, span(oldest))
            };
            let cells = vec![
                Cell::text(p.name.clone()),
                Cell::num(p.nodes.len() as f64, p.nodes.len().to_string()),
                Cell::num(used as f64, format!("{used}/{}", p.total_gpus)),
                Cell::num(p.free_gpus as f64, p.free_gpus.to_string()),
                Cell::num(p.whole_free_nodes as f64, p.whole_free_nodes.to_string()),
                Cell::num(
                    p.score,
                    format!("{:.3}{marker}{}", p.score, frag_word(tone)),
                )
                .tone(tone),
                Cell::num(p.observed, f3(p.observed)),
                Cell::num(p.best, f3(p.best)),
                Cell::num(p.reclaimable, f3(p.reclaimable)),
                Cell::num(p.stuck, f3(p.stuck)),
                Cell::num(p.pending_pressure, f3(p.pending_pressure)),
                Cell::num(p.pending_pods as f64, pending),
            ];
            RowModel::new(p.name.clone(), i, cells)
        })
        .collect();
    TableModel {
        columns: columns(),
        rows,
    }
}
