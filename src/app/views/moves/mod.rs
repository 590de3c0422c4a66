//! The Moves view: rows of Alfred's published `last-cycle.json` (`alfred`) beside ome-top's own
//! computed rows (`computed`), with the same field meanings as `analyze -o json` `moves[]`, and
//! the move detail (eligibility checklist, what-if, progress once requested).
//!
//! Owns: `move_rows`, `MoveRef`, `move_ref`, identity keys and content fingerprints (what a
//! dismissal remembers), the move detail. Plain data; must not import `ratatui`, `tokio` or `kube`.

use std::collections::HashMap;

use crate::app::detail::{check_line, DetailKind, DetailModel, Lines};
use crate::app::ops::approve::locate_instance;
use crate::app::state::AppState;
use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel, Tone};
use crate::app::views::age;
use crate::engine::analysis::Analysis;
use crate::engine::model::vocab::{MigrationPhase, Outcome, Policy, Reason};
use crate::engine::planning::MoveRow;
use crate::engine::recommendations::{freshness, Row};
use crate::protocol::Feed;

/// A move row of either origin.
#[derive(Debug, Clone, Copy)]
pub enum MoveRef<'a> {
    /// Published by Alfred.
    Alfred(&'a Row),
    /// Computed by ome-top for this snapshot.
    Computed(&'a MoveRow),
}

/// The common fields of a move row, borrowed.
#[derive(Debug, Clone)]
pub struct MoveFields<'a> {
    /// `alfred` or `computed`.
    pub source: &'static str,
    /// `ns/name`.
    pub workload: &'a str,
    /// Component name.
    pub component: &'a str,
    /// Instance index.
    pub instance: i64,
    /// Policy.
    pub policy: &'a Policy,
    /// Reason.
    pub reason: &'a Reason,
    /// Outcome.
    pub outcome: &'a Outcome,
    /// Advisory, reject or dispatch reason (first present), as its wire string.
    pub why: Option<&'a str>,
    /// Source node.
    pub from_node: Option<&'a str>,
    /// Target node.
    pub target: Option<&'a str>,
    /// Hint targets.
    pub hints: Vec<&'a str>,
    /// Score.
    pub score: f64,
}

impl MoveRef<'_> {
    /// The shared fields.
    pub fn fields(&self) -> MoveFields<'_> {
        match self {
            MoveRef::Alfred(r) => MoveFields {
                source: "alfred",
                workload: &r.workload,
                component: &r.component,
                instance: i64::from(r.instance),
                policy: &r.policy,
                reason: &r.reason,
                outcome: &r.outcome,
                why: text(&r.advisory_reason)
                    .or(text(&r.reject_reason))
                    .or(text(&r.dispatch_reason)),
                from_node: r.from_node.as_deref(),
                target: r.target.as_deref(),
                hints: r.hint_targets.iter().map(String::as_str).collect(),
                score: r.score,
            },
            MoveRef::Computed(m) => MoveFields {
                source: "computed",
                workload: &m.workload,
                component: &m.component,
                instance: m.instance,
                policy: &m.policy,
                reason: &m.reason,
                outcome: &m.outcome,
                why: text(&m.advisory_reason)
                    .or(text(&m.reject_reason))
                    .or(text(&m.dispatch_reason)),
                from_node: m.from_node.as_deref(),
                target: m.target.as_deref(),
                hints: m.hint_targets.iter().map(|h| h.as_ref()).collect(),
                score: m.score,
            },
        }
    }
}

/// The wire string of an optional reason.
fn text<T: AsRef<str>>(reason: &Option<T>) -> Option<&str> {
    reason.as_ref().map(AsRef::as_ref)
}

/// Alfred's published rows (empty when absent or unreadable).
pub fn alfred_rows(a: &Analysis) -> &[Row] {
    a.published
        .as_ref()
        .and_then(|p| p.last_cycle.as_ref())
        .and_then(|c| c.as_ref().ok())
        .map_or(&[][..], |c| c.rows())
}

/// The move at `source` (Alfred rows first, then computed rows).
pub fn move_ref(a: &Analysis, source: usize) -> Option<MoveRef<'_>> {
    let alfred = alfred_rows(a);
    match alfred.get(source) {
        Some(r) => Some(MoveRef::Alfred(r)),
        None => a.moves.get(source - alfred.len()).map(MoveRef::Computed),
    }
}

/// Identity of a move: source, policy, workload, component, instance, from node, reason.
pub fn identity_key(f: &MoveFields<'_>) -> String {
    format!(
        "{}|{}|{}|{}|{}|{}|{}",
        f.source,
        f.policy,
        f.workload,
        f.component,
        f.instance,
        f.from_node.unwrap_or("-"),
        f.reason
    )
}

/// The content a dismissal hides: where the move goes (target and hint targets). A change
/// there shows the move again; its score, outcome and gate reason are left out because they
/// move every pass without the recommendation changing for the operator (the identity key
/// already holds the workload, instance, policy, reason and source node).
pub fn fingerprint(f: &MoveFields<'_>) -> String {
    format!("{}|{}", f.target.unwrap_or("-"), f.hints.join(","))
}

fn columns() -> Vec<Column> {
    vec![
        Column::text("SRC", ColWidth::Fixed(8)),
        Column::text("OUTCOME", ColWidth::Fixed(10)),
        Column::text("POLICY", ColWidth::Fixed(10)),
        Column::text("REASON", ColWidth::Fixed(15)),
        Column::text("WORKLOAD", ColWidth::Min(16)),
        Column::text("INST", ColWidth::Fixed(9)),
        Column::text("FROM", ColWidth::Min(10)),
        Column::text("→ TARGETS", ColWidth::Min(10)),
        Column::num("SCORE", 6),
        Column::text("WHY", ColWidth::Min(12)),
        Column::text("FRESH", ColWidth::Fixed(9)),
    ]
}

fn outcome_tone(outcome: &Outcome) -> Tone {
    match outcome {
        Outcome::Submitted => Tone::Ok,
        Outcome::Rejected => Tone::Failed,
        Outcome::Withheld => Tone::Degraded,
        _ => Tone::Normal,
    }
}

fn row(f: &MoveFields<'_>, source: usize, fresh: &str) -> RowModel {
    let targets = match (f.target, f.hints.is_empty()) {
        (Some(t), _) => t.to_string(),
        (None, false) => f.hints.join(","),
        (None, true) => "-".to_string(),
    };
    let cells = vec![
        Cell::text(f.source),
        Cell::text(f.outcome.as_str()).tone(outcome_tone(f.outcome)),
        Cell::text(f.policy.as_str()),
        Cell::text(f.reason.as_str()),
        Cell::text(f.workload),
        Cell::text(format!("{}/{}", f.component, f.instance)),
        Cell::text(f.from_node.unwrap_or("-")),
        Cell::text(targets),
        Cell::num(f.score, format!("{:.3}", f.score)),
        Cell::text(f.why.unwrap_or("-")),
        Cell::text(fresh).tone(if fresh.starts_with("stale") {
            Tone::Degraded
        } else {
            Tone::Normal
        }),
    ];
    RowModel::new(identity_key(f), source, cells)
}

/// Alfred's rows then computed rows; dismissed rows with unchanged content are left out.
pub fn move_rows(a: &Analysis, dismissed: &HashMap<String, String>) -> TableModel {
    let alfred = alfred_rows(a);
    let cycle_time = a
        .published
        .as_ref()
        .and_then(|p| p.last_cycle.as_ref())
        .and_then(|c| c.as_ref().ok())
        .and_then(|c| c.timestamp);
    let fresh = match cycle_time {
        Some(t) if freshness(t, a.config.decision_loop_interval, a.now).stale => {
            format!("stale {}", age(a.now, Some(t)))
        }
        Some(t) => age(a.now, Some(t)),
        None => "-".to_string(),
    };
    let refs = alfred
        .iter()
        .map(MoveRef::Alfred)
        .chain(a.moves.iter().map(MoveRef::Computed));
    let rows = refs
        .enumerate()
        .filter_map(|(i, m)| {
            let f = m.fields();
            let hidden = dismissed
                .get(&identity_key(&f))
                .is_some_and(|fp| *fp == fingerprint(&f));
            let fresh = if i < alfred.len() {
                fresh.as_str()
            } else {
                "now"
            };
            (!hidden).then(|| row(&f, i, fresh))
        })
        .collect();
    TableModel {
        columns: columns(),
        rows,
    }
}

/// The detail pane of the move with identity `key`.
pub fn move_detail(state: &AppState, feed: &Feed, key: &str) -> Option<DetailModel> {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    let source = state
        .models
        .moves
        .rows
        .iter()
        .find(|r| r.key == key)
        .map(|r| r.source)?;
    let m = move_ref(a, source)?;
    let f = m.fields();
    if identity_key(&f) != key {
        return None;
    }
    let mut out = Lines::default();
    out.heading(format!("Move ({})", f.source));
    out.line(format!(
        "{} / {} / instance {}",
        f.workload, f.component, f.instance
    ));
    out.line(format!(
        "policy {} · reason {} · outcome {}",
        f.policy, f.reason, f.outcome
    ));
    out.line(format!(
        "from {} → target {} · hints [{}]",
        f.from_node.unwrap_or("-"),
        f.target.unwrap_or("-"),
        f.hints.join(", ")
    ));
    out.line(format!(
        "score {:.4} · why {}",
        f.score,
        f.why.unwrap_or("-")
    ));
    out.heading("Eligibility");
    let at = locate_instance(snap, a, f.workload, f.component, f.instance);
    let verdict = at.and_then(|(c, i)| {
        a.verdicts
            .iter()
            .find(|v| v.component == c && v.instance == i)
    });
    match verdict {
        Some(v) => {
            for (name, r) in [
                ("baseline eligibility", &v.baseline),
                ("defragmentation", &v.defrag),
            ] {
                let (text, tone) = match r {
                    Ok(()) => check_line(Some(true), name),
                    Err(why) => check_line(Some(false), &format!("{name}: {why}")),
                };
                out.push(text, tone);
            }
        }
        None => out.push("not an OMENative Instance: advice only", Tone::Muted),
    }
    out.heading("Pool fragmentation (what-if)");
    match m {
        MoveRef::Computed(row) => match &row.plan {
            Some(p) => {
                let after = p.after.map_or("-".to_string(), |x| format!("{x:.4}"));
                out.line(format!(
                    "pool {}: score {:.4} before → {after} after",
                    p.pool, p.before
                ));
            }
            None => out.push("no plan (advice or health move)", Tone::Muted),
        },
        MoveRef::Alfred(_) => out.push(
            "published row: see the matching computed row for the what-if",
            Tone::Muted,
        ),
    }
    out.heading("Progress");
    progress(state, feed, (at, f.workload), &mut out);
    Some(DetailModel {
        kind: DetailKind::Move(key.to_string()),
        title: format!("move {}", f.workload),
        lines: out.0,
    })
}

fn progress(
    state: &AppState,
    feed: &Feed,
    (at, workload): (Option<(usize, usize)>, &str),
    out: &mut Lines,
) {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    let ir = at
        .and_then(|(c, _)| a.workloads.components[c].ir)
        .and_then(|i| snap.replicas.get(i));
    let Some(ir) = ir else {
        out.push("no InferenceReplica", Tone::Muted);
        return;
    };
    let mine = |u: &str| state.requested.iter().any(|r| r.uuid == u);
    if ir.status.migrations.is_empty() {
        out.push("no migrations in status", Tone::Muted);
    }
    for m in &ir.status.migrations {
        let tone = match m.phase {
            MigrationPhase::Completed | MigrationPhase::Relocated => Tone::Ok,
            MigrationPhase::Failed => Tone::Failed,
            _ => Tone::Degraded,
        };
        out.push(
            format!(
                "{} {} phase {} · trigger {} · started {} · deadline {}{}",
                if mine(&m.request_uuid) { "★" } else { "·" },
                m.request_uuid,
                m.phase,
                m.trigger,
                age(a.now, m.started_at),
                age(a.now, m.deadline),
                if mine(&m.request_uuid) {
                    " (requested here)"
                } else {
                    ""
                }
            ),
            tone,
        );
    }
    for r in state.requested.iter().filter(|r| {
        r.workload == workload
            && !ir
                .status
                .migrations
                .iter()
                .any(|m| *m.request_uuid == *r.uuid)
    }) {
        out.push(
            format!(
                "★ {} requested here: waiting for the IR to acknowledge",
                r.uuid
            ),
            Tone::Degraded,
        );
    }
}
