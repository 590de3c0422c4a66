//! `ome-top analyze -o table`: the analysis as aligned text for a terminal or a ticket: the
//! pools, what each pool answers about its pending GPU pods (per size: how many, the oldest
//! wait, room now and after the repack, in the pool map's words, `report::room`) and the free
//! GPUs its excluded nodes hold, the nodes excluded as targets, the warnings.
//!
//! Owns: `analysis_table`. Reads engine results only.

use std::fmt::Write;

use crate::engine::analysis::Analysis;
use crate::engine::model::ClusterSnapshot;
use crate::engine::pools::PoolReport;

use crate::fmt::count;
use crate::report::room::{gpus, room_of};

/// Renders pools, non-Clear or excluded nodes, and warnings as plain text.
pub fn analysis_table(snap: &ClusterSnapshot, analysis: &Analysis, extra: &[String]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<24} {:>6} {:>7} {:>6} {:>6} {:>8} {:>6} {:>11} {:>6} {:>8} {:>7}  THRESHOLD",
        "POOL",
        "NODES",
        "GPUS",
        "FREE",
        "WHOLE",
        "OBSERVED",
        "BEST",
        "RECLAIMABLE",
        "STUCK",
        "PRESSURE",
        "SCORE"
    );
    let threshold =
        crate::engine::alfred_config::ScoringRules::from_config(&analysis.config).threshold;
    for p in &analysis.pools {
        let _ = writeln!(
            out,
            "{:<24} {:>6} {:>7} {:>6} {:>6} {:>8.4} {:>6.4} {:>11.4} {:>6.4} {:>8.4} {:>7.4}  {}",
            p.name,
            p.nodes.len(),
            p.total_gpus,
            p.free_gpus,
            p.whole_free_nodes,
            p.observed,
            p.best,
            p.reclaimable,
            p.stuck,
            p.pending_pressure,
            p.score,
            if p.above_threshold {
                format!("above {threshold}")
            } else {
                format!("below {threshold}")
            }
        );
    }
    pending_answers(analysis, &mut out);
    let flagged: Vec<usize> = analysis
        .node_order
        .iter()
        .copied()
        .filter(|i| analysis.nodes[*i].excluded_as_target)
        .collect();
    let _ = writeln!(
        out,
        "\n{} of {} nodes excluded as targets",
        flagged.len(),
        snap.nodes.len()
    );
    for i in flagged {
        let s = &analysis.nodes[i];
        let mut why = vec![s.health.name().to_string()];
        why.extend(s.maintenance.iter().map(|m| format!("maintenance:{m}")));
        if s.cordoned {
            why.push("cordoned".into());
        }
        if s.to_be_deleted {
            why.push("to-be-deleted".into());
        }
        let _ = writeln!(
            out,
            "  {:<32} {:<24} {}/{} free  {}",
            snap.nodes[i].name,
            s.pool.as_deref().unwrap_or("-"),
            s.free,
            s.total,
            why.join(", ")
        );
    }
    let warnings = crate::report::all_warnings(snap, analysis, extra);
    if !warnings.is_empty() {
        let _ = writeln!(out, "\nwarnings:");
        for w in warnings {
            let _ = writeln!(out, "  - {w}");
        }
    }
    out
}

/// Per pool, as the pool map answers it: its free GPUs and those on nodes that take no new
/// pod, then its pending GPU pods by size with their room now and after the repack.
fn pending_answers(analysis: &Analysis, out: &mut String) {
    let _ = writeln!(out, "\npending GPU pods per pool (room: pods of that size the schedulable nodes can run, one node each)");
    for p in &analysis.pools {
        let _ = writeln!(out, "{}: {}", p.name, free_words(analysis, p));
        if p.pending_sizes.is_empty() {
            let _ = writeln!(out, "  no pending GPU pods");
            continue;
        }
        let _ = writeln!(
            out,
            "  {:<9} {:>6} {:>8} {:>9} {:>13}  ANSWER",
            "SIZE", "PODS", "OLDEST", "ROOM NOW", "AFTER REPACK"
        );
        for s in &p.pending_sizes {
            let _ = writeln!(
                out,
                "  {:<9} {:>6} {:>8} {:>9} {:>13}  {}",
                gpus(u64::from(s.gpus)),
                count(s.pods),
                crate::fmt::wait(s.oldest_minutes),
                count(s.room_now),
                count(s.room_after),
                room_of(s, p.largest_node_gpus)
            );
        }
    }
}

/// "9 GPUs free, +46 on excluded nodes, +8 on spot nodes Alfred avoids": the FREE column's
/// GPUs (on the nodes that take new pods), then the free GPUs the others hold.
fn free_words(analysis: &Analysis, p: &PoolReport) -> String {
    let excluded: u64 = (analysis.nodes.iter())
        .filter(|n| n.excluded_as_target && n.pool.as_deref() == Some(p.name.as_str()))
        .map(|n| u64::from(n.free))
        .sum();
    let outside = p.free_gpus_all_nodes.saturating_sub(p.free_gpus);
    let spot = outside.saturating_sub(excluded);
    let mut words = format!("{} free", gpus(p.free_gpus));
    if excluded > 0 {
        words.push_str(&format!(", +{} on excluded nodes", count(excluded)));
    }
    if spot > 0 {
        words.push_str(&format!(", +{} on spot nodes Alfred avoids", count(spot)));
    }
    words
}
