//! `ome-top analyze -o table`: the analysis as aligned text for a terminal or a ticket.
//!
//! Owns: `analysis_table`. Reads engine results only.

use std::fmt::Write;

use crate::engine::analysis::Analysis;
use crate::engine::model::ClusterSnapshot;

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
