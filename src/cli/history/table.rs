//! `ome-top history` as text for people: per cluster, the episodes (state, from, to, duration,
//! reason, sources; an open episode reads "since …" and lasts "so far"), the audit rows (with
//! the reason the operator wrote), and
//! without a target the health answers. A demo run's cluster says when the run started. Times in
//! the chosen zone, to the second.
//!
//! Owns: `text`. Formatting only.

use std::path::Path;

use crate::cli::history::{Clock, ClusterSection, NodeEpisodes, Section, Target};
use crate::engine::timeline::{Episode, NodesHealth};
use crate::fmt::{local, span};
use crate::history::audit::AuditEntry;

/// The whole output.
pub(super) fn text(
    target: &Target,
    sections: &[ClusterSection],
    clock: Clock,
    path: &Path,
) -> String {
    if sections.is_empty() {
        let what = match target {
            Target::Node(node) => format!("node {node}"),
            Target::Object {
                kind,
                namespace,
                name,
            } => match namespace {
                Some(ns) => format!("{kind} {ns}/{name}"),
                None => format!("{kind} {name}"),
            },
            Target::AllNodes => "any node".to_string(),
        };
        return format!("no history for {what} in {}\n", path.display());
    }
    let mut text = String::new();
    for (i, s) in sections.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&format!("cluster: {}", s.cluster.as_str()));
        if let Some((seed, started)) = s.cluster.demo_run_started() {
            let at = local(started, clock.tz);
            text.push_str(&format!(" (demo seed {seed}, the run started {at})"));
        }
        text.push('\n');
        let clock = Clock {
            now: s.until,
            ..clock
        };
        match &s.section {
            Section::Node {
                episodes, audit, ..
            } => {
                text.push_str(&episode_table(episodes, clock));
                text.push_str(&audit_table(audit, clock, false));
            }
            Section::Object { audit } => text.push_str(&audit_table(audit, clock, true)),
            Section::AllNodes { nodes, health } => {
                text.push_str(&all_node_episodes(nodes, clock));
                text.push_str(&health_table(health));
            }
        }
    }
    text
}

fn dash(s: &str) -> String {
    if s.is_empty() {
        "-".to_owned()
    } else {
        s.to_owned()
    }
}

/// One episode's cells.
fn episode_cells(e: &Episode, clock: Clock) -> Vec<String> {
    let (from, to, duration) = match e.to {
        Some(to) => (
            local(e.from.at, clock.tz),
            local(to.at, clock.tz),
            span(e.duration(clock.now)),
        ),
        None => (
            format!("since {}", local(e.from.at, clock.tz)),
            e.until
                .map_or_else(|| "-".into(), |u| format!("until {}", local(u, clock.tz))),
            format!("{} so far", span(e.duration(clock.now))),
        ),
    };
    let sources = match e.to {
        Some(to) if to.source != e.from.source => {
            format!("{} → {}", e.from.source.label(), to.source.label())
        }
        _ => e.from.source.label().to_owned(),
    };
    vec![e.kind.label(), from, to, duration, dash(&e.reason), sources]
}

const EPISODE_HEAD: [&str; 6] = ["EPISODE", "FROM", "TO", "DURATION", "REASON", "SOURCE"];

fn episode_table(episodes: &[Episode], clock: Clock) -> String {
    if episodes.is_empty() {
        return "no episodes: Clear whenever ome-top looked\n".into();
    }
    let mut rows = vec![words(&EPISODE_HEAD)];
    rows.extend(episodes.iter().map(|e| episode_cells(e, clock)));
    aligned(&rows)
}

/// Every node's episodes in one table, NODE and POOL first.
fn all_node_episodes(nodes: &[NodeEpisodes], clock: Clock) -> String {
    if nodes.is_empty() {
        return "no episodes\n".into();
    }
    let mut head = words(&["NODE", "POOL"]);
    head.extend(words(&EPISODE_HEAD));
    let mut rows = vec![head];
    for n in nodes {
        for e in &n.episodes {
            let mut cells = vec![n.node.clone(), dash(n.pool.as_deref().unwrap_or(""))];
            cells.extend(episode_cells(e, clock));
            rows.push(cells);
        }
    }
    aligned(&rows)
}

fn health_table(f: &NodesHealth) -> String {
    let mut text = format!("\nnode health, last {}:\n", span(f.to - f.from));
    let flapping = f.flapping();
    if flapping.is_empty() {
        text.push_str(&format!(
            "flapping (more than {} health episodes): none\n",
            f.threshold
        ));
    } else {
        let list: Vec<String> = flapping
            .iter()
            .map(|(n, v)| format!("{n} ({})", v.episodes))
            .collect();
        text.push_str(&format!(
            "flapping (more than {} health episodes): {}\n",
            f.threshold,
            list.join(", ")
        ));
    }
    if f.pools.is_empty() {
        text.push_str("no Unhealthy episode in the window\n");
        return text;
    }
    let mut rows = vec![words(&["POOL", "REPAIRS", "MEAN TIME TO REPAIR", "OPEN"])];
    rows.extend(f.pools.iter().map(|p| {
        vec![
            p.pool.clone(),
            p.repairs.to_string(),
            p.mean.map_or_else(|| "-".into(), span),
            p.open.to_string(),
        ]
    }));
    text.push_str(&aligned(&rows));
    text
}

fn audit_table(audit: &[AuditEntry], clock: Clock, with_object: bool) -> String {
    if audit.is_empty() {
        return String::new();
    }
    let mut head = words(&["TIME", "ACTOR", "ACTION"]);
    if with_object {
        head.push("OBJECT".into());
    }
    head.extend(words(&["RESULT", "RV", "REASON", "MESSAGE"]));
    let mut rows = vec![head];
    rows.extend(audit.iter().map(|a| {
        let rv = format!(
            "{}→{}",
            a.rv_before.as_deref().unwrap_or("-"),
            a.rv_after.as_deref().unwrap_or("-")
        );
        let mut cells = vec![local(a.at, clock.tz), a.actor.clone(), a.action.clone()];
        if with_object {
            cells.push(a.object.display());
        }
        let message = match &a.overrode {
            Some(o) => format!("{} (override: {o})", a.message),
            None => a.message.clone(),
        };
        let reason = dash(a.reason.as_deref().unwrap_or(""));
        cells.extend([a.result.as_str().to_owned(), rv, reason, message]);
        cells
    }));
    let title = if with_object { "" } else { "\naudit:\n" };
    format!("{title}{}", aligned(&rows))
}

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|w| (*w).to_owned()).collect()
}

/// Left-aligned columns two spaces apart; the last column is not padded.
fn aligned(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for row in rows {
        let last = row.len().saturating_sub(1);
        for (c, cell) in row.iter().enumerate() {
            text.push_str(cell);
            if c != last {
                let pad = widths[c] - cell.chars().count() + 2;
                text.push_str(&" ".repeat(pad));
            }
        }
        text.push('\n');
    }
    text
}
