//! `ome-top explain POD -o table`: why the pod (or its gang) is Pending, the verdict groups
//! with their counts, each node's verdict, a gang's domains, and the unblock plan with each
//! move's hold and when it could run.
//!
//! Owns: `entry_table`. Reads engine results only.

use std::fmt::Write as _;

use crate::engine::analysis::Analysis;
use crate::engine::model::ClusterSnapshot;
use crate::engine::unblock::{PlanTarget, Unblock};
use crate::report::pending::PendingEntry;
use crate::report::rfc3339;

/// The entry as text.
pub fn entry_table(snap: &ClusterSnapshot, a: &Analysis, entry: &PendingEntry) -> String {
    let e = &entry.explanation;
    let pod = &snap.pods[e.pod];
    let mut out = String::new();
    let pool = e.pool.as_deref().unwrap_or("(no pool counts it)");
    let _ = writeln!(
        out,
        "POD   {}/{}  {} GPUs  pool {pool}",
        pod.namespace, pod.name, e.gpus
    );
    if let Some(g) = &e.gang {
        let key = g.topology_key.as_deref().unwrap_or("(none)");
        let _ = writeln!(
            out,
            "GANG  {}  {} members to place  topology key {key}",
            g.key, g.remaining
        );
        if let Some(d) = &g.pinned_domain {
            let _ = writeln!(out, "      pinned to domain {d}");
        }
        for d in &g.domains {
            let _ = writeln!(
                out,
                "      domain {:<20} {:>4} nodes  room for {}",
                d.value, d.nodes, d.room
            );
        }
    }
    let _ = writeln!(
        out,
        "\nWHY   (per node of the pool, the first check that refuses it)"
    );
    for g in &e.groups {
        let noun = if g.nodes == 1 { "node " } else { "nodes" };
        let _ = writeln!(out, "  {:>5} {noun}  {}", g.nodes, g.verdict.words());
    }
    let _ = writeln!(out, "\nNODE                             VERDICT");
    for n in &e.nodes {
        let health = if n.unhealthy {
            "  (Alfred: Unhealthy)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{:<32} {}{health}",
            snap.nodes[n.node].name,
            n.verdict.words()
        );
    }
    plan_lines(&mut out, snap, a, &entry.unblock);
    out
}

/// The plan, or why there is none.
fn plan_lines(out: &mut String, snap: &ClusterSnapshot, a: &Analysis, unblock: &Unblock) {
    let _ = writeln!(out, "\nPLAN");
    match unblock {
        Unblock::FitsNow => {
            let _ = writeln!(out, "  it fits now: the scheduler will place it");
        }
        Unblock::NoPlan(why) => {
            let _ = writeln!(out, "  no plan: {}", why.words());
        }
        Unblock::Plan(p) => {
            let target = match &p.target {
                PlanTarget::Node(n) => format!("node {}", snap.nodes[*n].name),
                PlanTarget::Domain(d) => format!("domain {d}"),
            };
            let _ = writeln!(out, "  {} move(s) free {target}:", p.moves.len());
            for (i, m) in p.moves.iter().enumerate() {
                let Some(row) = a.moves.get(m.row) else {
                    continue;
                };
                let hold = match (m.hold.reason(), m.hold.until()) {
                    (Some(r), Some(t)) => {
                        format!("{} ({r}), can run at {}", m.hold.code(), rfc3339(t))
                    }
                    (Some(r), None) => format!("{} ({r})", m.hold.code()),
                    (None, _) => m.hold.code().to_string(),
                };
                let _ = writeln!(
                    out,
                    "  {}. {} {} #{}  frees {} GPUs  {hold}",
                    i + 1,
                    row.workload,
                    row.component,
                    row.instance,
                    m.frees
                );
            }
        }
    }
}
