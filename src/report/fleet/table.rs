//! `ome-top fleet -o table`: the fleet's rows as aligned text, most urgent first, then the
//! "where does it fit" line of each request size and the errors of the contexts that did not
//! answer.
//!
//! Owns: `fleet_table`. Pure (waits are worded by `crate::fmt::wait`).

use std::fmt::Write;

use crate::engine::alfred_config::Mode;
use crate::fmt::wait;
use crate::report::fleet::{FitsLine, FleetRow, RowStatus};

/// The PENDING cell: `0`, or `count×≤largest oldest-wait` (`3×≤8 12m`).
pub fn pending_words(r: &FleetRow) -> String {
    match r.pending.pods {
        0 => "0".to_string(),
        n => format!(
            "{n}×≤{} {}",
            r.pending.largest_gpus,
            wait(r.pending.oldest_minutes)
        ),
    }
}

/// The NOT CLEAR cell: `unhealthy (unknown counted in)/suspect/maintenance`.
pub fn not_clear_words(r: &FleetRow) -> String {
    let nc = &r.not_clear;
    format!(
        "{}/{}/{}",
        nc.unhealthy + nc.unknown,
        nc.suspect,
        nc.maintenance
    )
}

const HEADER: [&str; 14] = [
    "NODES",
    "GPUS",
    "FREE",
    "WHOLE",
    "SCORE",
    "FIT",
    "REPACK",
    "PENDING",
    "NOT-CLEAR",
    "ALFRED",
    "STALLED",
    "AGE",
    "RO",
    "ATTENTION",
];

/// The rows (in the order given), then `fits`, then each failed context's error.
pub fn fleet_table(rows: &[FleetRow], fits: &[FitsLine]) -> String {
    let cw = column(rows.iter().map(|r| r.context.len()), "CONTEXT");
    let pw = column(
        rows.iter().map(|r| r.pool.as_deref().map_or(1, str::len)),
        "POOL",
    );
    let mut out = String::new();
    let _ = write!(out, "{:<cw$} {:<pw$}", "CONTEXT", "POOL");
    for (h, w) in HEADER.iter().zip(WIDTHS) {
        let _ = write!(out, " {h:>w$}");
    }
    let _ = writeln!(out);
    for r in rows {
        let _ = write!(
            out,
            "{:<cw$} {:<pw$}",
            r.context,
            r.pool.as_deref().unwrap_or("-")
        );
        for (cell, w) in cells(r).iter().zip(WIDTHS) {
            let _ = write!(out, " {cell:>w$}");
        }
        let _ = writeln!(out);
    }
    if !rows.is_empty() {
        let _ = writeln!(out, "{LEGEND}");
    }
    if !fits.is_empty() {
        let _ = writeln!(
            out,
            "\nwhere a request fits (room for that many, one node each):"
        );
        for line in fits {
            let _ = writeln!(out, "  {line}");
        }
    }
    let mut troubles: Vec<String> = Vec::new();
    for t in rows.iter().filter_map(trouble) {
        if !troubles.contains(&t) {
            troubles.push(t);
        }
    }
    if !troubles.is_empty() {
        let _ = writeln!(out, "\nnot answering:");
        for t in troubles {
            let _ = writeln!(out, "  - {t}");
        }
    }
    out
}

/// What the terse columns mean, printed under the rows.
const LEGEND: &str =
    "\nGPUS used/total · FREE on schedulable nodes · WHOLE free nodes · SCORE ! above \
                      threshold · FIT, REPACK: largest request one node fits now, after the repack \
                      · PENDING pods×≤largest request, longest wait · NOT-CLEAR failing/suspect/\
                      maintenance nodes · AGE of the data · RO read-only";

const WIDTHS: [usize; 14] = [5, 9, 6, 5, 6, 4, 6, 14, 11, 14, 7, 6, 3, 14];

fn column(lens: impl Iterator<Item = usize>, header: &str) -> usize {
    lens.max().unwrap_or(0).max(header.len())
}

/// The cells after CONTEXT and POOL, aligned with `HEADER`.
fn cells(r: &FleetRow) -> [String; 14] {
    let dash = || "-".to_string();
    if matches!(r.status, RowStatus::Failed(_) | RowStatus::Connecting) {
        let mut out: [String; 14] = std::array::from_fn(|_| dash());
        out[13] = r.attention.words().to_string();
        return out;
    }
    let (pending, not_clear) = (pending_words(r), not_clear_words(r));
    let alfred = r.alfred.map_or_else(dash, |a| {
        let mode = match a.mode {
            None => "absent",
            Some(Mode::Execute) => "execute",
            Some(Mode::RecommendOnly) => "recommend",
        };
        if a.breaker_open {
            format!("{mode},breaker")
        } else {
            mode.to_string()
        }
    });
    let pooled = r.pool.is_some();
    let num = |n: u64| if pooled { n.to_string() } else { dash() };
    [
        r.nodes.to_string(),
        if pooled {
            format!("{}/{}", r.gpus_used, r.gpus_total)
        } else {
            dash()
        },
        num(r.schedulable_free),
        num(r.whole_free_nodes),
        if pooled {
            format!("{:.3}{}", r.score, if r.above_threshold { "!" } else { "" })
        } else {
            dash()
        },
        num(u64::from(r.largest_fit_now)),
        num(u64::from(r.largest_fit_after_repack)),
        pending,
        not_clear,
        alfred,
        r.alfred.map_or(0, |a| a.stalled_entries).to_string(),
        wait(r.age_seconds as f64 / 60.0),
        if r.read_only { "yes" } else { "no" }.to_string(),
        r.attention.words().to_string(),
    ]
}

/// `context: error` for a row that did not answer or whose data is stale (once a context).
fn trouble(r: &FleetRow) -> Option<String> {
    match &r.status {
        RowStatus::Failed(e) => Some(format!("{}: {e}", r.context)),
        RowStatus::Connecting => Some(format!("{}: initial lists not complete", r.context)),
        RowStatus::Stale { error, .. } => Some(format!("{}: reconnecting: {error}", r.context)),
        _ => None,
    }
}
