//! The headless `ome-top history NODE` command: a node's health timeline and the audit rows
//! about it, from the local history store, as a table or JSON.
//!
//! Owns: `HistoryArgs`, `run_history` and the renderings. May import `history`; holds no
//! business logic of its own. Reads no clock (the wall clock is an argument).

use std::io::Write;
use std::path::PathBuf;

use chrono::{DateTime, SecondsFormat, Utc};
use clap::Args;
use serde_json::{json, Value};

use crate::cli::{Output, EXIT_BAD_INPUT, EXIT_OK};
use crate::engine::model::Time;
use crate::history::audit::AuditEntry;
use crate::history::query::{NodeHistory, TransitionRow};
use crate::history::{default_path, ClusterKey, HistoryStore, StoreOptions};

/// Arguments of `history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The node's name.
    pub node: String,
    /// Only this cluster (a key as printed: `<server URL>#<context>`, `demo:<seed>`,
    /// `snapshot:<path>`); all clusters by default.
    #[arg(long, value_name = "KEY")]
    pub cluster: Option<String>,
    /// The history file; defaults to `history.sqlite3` in ome-top's data directory.
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value = "table")]
    pub output: Output,
    /// The current time (RFC 3339), used only to name a corrupt file moved aside.
    #[arg(long, value_name = "RFC3339", hide = true)]
    pub now: Option<String>,
}

/// Runs `history`, writing the result to `out` and notices and errors to `err`; returns the
/// exit code. A missing file is an empty history, not an error, and is not created.
pub fn run_history(
    args: &HistoryArgs,
    wall_clock: DateTime<Utc>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match history(args, wall_clock, out, err) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {e:#}");
            EXIT_BAD_INPUT
        }
    }
}

fn history(
    args: &HistoryArgs,
    wall_clock: DateTime<Utc>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<()> {
    let now = match &args.now {
        None => wall_clock,
        Some(s) => DateTime::parse_from_rfc3339(s)
            .map_err(|e| anyhow::anyhow!("--now {s:?} is not RFC 3339: {e}"))?
            .with_timezone(&Utc),
    };
    let path = match &args.db {
        Some(p) => p.clone(),
        None => default_path().ok_or_else(|| anyhow::anyhow!("no home directory: pass --db"))?,
    };
    let histories = if path.exists() {
        let opened = HistoryStore::open_at(&path, StoreOptions::keep_everything(), now)?;
        for notice in &opened.notices {
            writeln!(err, "ome-top: {notice}")?;
        }
        let cluster = args.cluster.as_deref().map(ClusterKey::raw);
        opened.store.node_history(cluster.as_ref(), &args.node)?
    } else {
        Vec::new()
    };
    match args.output {
        Output::Json => {
            let doc = history_json(&args.node, &histories);
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)?;
        }
        Output::Table if histories.is_empty() => {
            writeln!(
                out,
                "no history for node {} in {}",
                args.node,
                path.display()
            )?;
        }
        Output::Table => write!(out, "{}", history_table(&histories))?,
    }
    Ok(())
}

fn time(t: Time) -> String {
    t.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

fn transition_json(row: &TransitionRow) -> Value {
    let o = &row.observed;
    json!({
        "time": time(row.at),
        "state": o.health.name(),
        "suspectUntil": o.health.suspect_until().map(time),
        "reason": o.reason,
        "maintenanceTriggers": o.triggers,
        "cordoned": o.cordoned,
    })
}

fn audit_json(a: &AuditEntry) -> Value {
    json!({
        "time": time(a.at),
        "actor": a.actor,
        "action": a.action,
        "object": a.object.display(),
        "resourceVersionBefore": a.rv_before,
        "resourceVersionAfter": a.rv_after,
        "result": a.result.as_str(),
        "message": a.message,
        "override": a.overrode,
    })
}

/// `{node, clusters: [{cluster, transitions[], audit[]}]}`, clusters sorted by key, rows
/// oldest first.
fn history_json(node: &str, histories: &[NodeHistory]) -> Value {
    let clusters: Vec<Value> = histories
        .iter()
        .map(|h| {
            json!({
                "cluster": h.cluster.as_str(),
                "transitions": h.transitions.iter().map(transition_json).collect::<Vec<_>>(),
                "audit": h.audit.iter().map(audit_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "node": node, "clusters": clusters })
}

/// One section per cluster: the timeline, then the audit rows when there are any.
fn history_table(histories: &[NodeHistory]) -> String {
    let mut text = String::new();
    for (i, h) in histories.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&format!("cluster: {}\n", h.cluster.as_str()));
        let mut rows = vec![cells(&["TIME", "STATE", "REASON", "TRIGGERS", "CORDONED"])];
        rows.extend(h.transitions.iter().map(|t| {
            let o = &t.observed;
            let state = match o.health.suspect_until() {
                Some(until) => format!("Suspect until {}", time(until)),
                None => o.health.name().to_owned(),
            };
            vec![
                time(t.at),
                state,
                dash(&o.reason),
                dash(&o.triggers.join(",")),
                if o.cordoned { "yes" } else { "no" }.to_owned(),
            ]
        }));
        text.push_str(&aligned(&rows));
        if !h.audit.is_empty() {
            text.push_str("\naudit:\n");
            let mut rows = vec![cells(&[
                "TIME", "ACTOR", "ACTION", "RESULT", "RV", "MESSAGE",
            ])];
            rows.extend(h.audit.iter().map(|a| {
                let rv = format!(
                    "{}→{}",
                    a.rv_before.as_deref().unwrap_or("-"),
                    a.rv_after.as_deref().unwrap_or("-")
                );
                vec![
                    time(a.at),
                    a.actor.clone(),
                    a.action.clone(),
                    a.result.as_str().to_owned(),
                    rv,
                    match &a.overrode {
                        Some(o) => format!("{} (override: {o})", a.message),
                        None => a.message.clone(),
                    },
                ]
            }));
            text.push_str(&aligned(&rows));
        }
    }
    text
}

fn cells(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn dash(s: &str) -> String {
    if s.is_empty() {
        "-".to_owned()
    } else {
        s.to_owned()
    }
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
            if c == last {
                text.push_str(cell);
            } else {
                let pad = widths[c] - cell.chars().count() + 2;
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            }
        }
        text.push('\n');
    }
    text
}
