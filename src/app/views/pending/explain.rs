//! The explanation pane of one pending GPU pod or gang: per node of its pool, grouped by
//! verdict with counts, the first check that refuses it as the scheduler would; the
//! unblock plan (each move's hold and when it could run, and the key that approves them one
//! by one), or why there is none; a gang's domains and their room; then every node's verdict.
//!
//! Owns: `explain_detail`, `explain_entry`, `shows_plan`, `APPROVE_WORDS`. Plain data.

use crate::app::detail::{DetailKind, DetailModel, Lines};
use crate::app::table::Tone;
use crate::app::views::context::ViewContext;
use crate::app::views::pending::hold::hold_words;
use crate::app::views::pending::nodes;
use crate::engine::analysis::Analysis;
use crate::engine::explain::{Explanation, GangNeed, Verdict};
use crate::engine::model::ClusterSnapshot;
use crate::engine::unblock::{Plan, PlanTarget, Unblock};
use crate::protocol::Feed;
use crate::report::pending::{entry_of, find_pending, PendingEntry};

/// What the plan's key does, as the pane says after the key (the footer offers the key only
/// on a pane that says it: `shows_plan`).
pub const APPROVE_WORDS: &str =
    "approves these moves one by one, each through the usual confirm dialog (n stops)";

/// Whether the pane `d` shows an unblock plan to approve.
pub fn shows_plan(d: &DetailModel) -> bool {
    matches!(d.kind, DetailKind::Pending(_))
        && d.lines.iter().any(|l| l.text.ends_with(APPROVE_WORDS))
}

/// The entry of the pending pod `key` (`namespace/name`) in `feed`; `None` when it is no
/// longer a pending GPU pod.
pub fn explain_entry(feed: &Feed, key: &str) -> Option<PendingEntry> {
    let pod = find_pending(&feed.snapshot, key).ok()?;
    entry_of(&feed.snapshot, &feed.analysis, pod)
}

/// The pane of the pending pod `key`; `None` when it is no longer pending.
pub fn explain_detail(cx: &ViewContext<'_>, feed: &Feed, key: &str) -> Option<DetailModel> {
    let entry = explain_entry(feed, key)?;
    let (snap, a) = (&*feed.snapshot, &*feed.analysis);
    let e = &entry.explanation;
    let mut out = Lines::default();
    out.heading("Pending GPU pod");
    let pool = e
        .pool
        .as_deref()
        .unwrap_or("none counts it: every node of its GPU kind asked");
    out.line(format!("{key} asks {} GPUs · pool {pool}", e.gpus));
    why_lines(&mut out, e);
    // The plan before the gang's domains: what to do first, on the first screen.
    plan_lines(&mut out, cx, (snap, a), &entry.unblock);
    if let Some(g) = &e.gang {
        gang_lines(&mut out, g);
    }
    node_lines(&mut out, snap, e);
    Some(DetailModel {
        kind: DetailKind::Pending(key.to_string()),
        title: format!("why {key} is Pending"),
        lines: out.0,
    })
}

fn why_lines(out: &mut Lines, e: &Explanation) {
    out.heading("Why it waits: per node of its pool, the first check that refuses it");
    for g in &e.groups {
        let tone = match g.verdict {
            Verdict::Fits => Tone::Ok,
            _ => Tone::Degraded,
        };
        out.push(
            format!("  {:>9}  {}", nodes(g.nodes), g.verdict.words()),
            tone,
        );
    }
    if e.groups.is_empty() {
        out.push("  no node has GPUs of its kind", Tone::Failed);
    }
}

/// Domains listed one by one; the rest are summed up on one line.
const DOMAINS_LISTED: usize = 6;

fn gang_lines(out: &mut Lines, g: &GangNeed) {
    let key = g.topology_key.as_deref().unwrap_or("no topology key");
    out.heading(format!(
        "Gang {}: {} members still to place, domains by {key}",
        g.key, g.remaining
    ));
    if let Some(d) = &g.pinned_domain {
        out.line(format!("  pinned to domain {d}"));
    }
    // The roomiest first: the domain that could take the gang is the one to read.
    let mut domains: Vec<_> = g.domains.iter().collect();
    domains.sort_by(|a, b| b.room.cmp(&a.room).then_with(|| a.value.cmp(&b.value)));
    for d in domains.iter().take(DOMAINS_LISTED) {
        let tone = if d.room >= g.remaining {
            Tone::Ok
        } else {
            Tone::Muted
        };
        let text = format!(
            "  domain {}  {}  room for {}",
            d.value,
            nodes(d.nodes),
            members(d.room)
        );
        out.push(text, tone);
    }
    let rest = &domains[domains.len().min(DOMAINS_LISTED)..];
    if let Some(most) = rest.iter().map(|d| d.room).max() {
        let room = match most {
            0 => "no member".to_string(),
            n => format!("at most {}", members(n)),
        };
        let text = format!("  {} more domains with room for {room}", rest.len());
        out.push(text, Tone::Muted);
    }
}

/// `no member`, `1 member`, `3 members`.
fn members(n: u32) -> String {
    match n {
        0 => "no member".into(),
        1 => "1 member".into(),
        n => format!("{n} members"),
    }
}

fn plan_lines(
    out: &mut Lines,
    cx: &ViewContext<'_>,
    (snap, a): (&ClusterSnapshot, &Analysis),
    unblock: &Unblock,
) {
    out.heading("Unblock plan");
    match unblock {
        Unblock::FitsNow => out.push(
            "it fits now: the scheduler places it at its next try, nothing to move",
            Tone::Ok,
        ),
        Unblock::NoPlan(why) => out.push(format!("no plan: {}", why.words()), Tone::Failed),
        Unblock::Plan(p) => moves_lines(out, cx, (snap, a), p),
    }
}

fn moves_lines(
    out: &mut Lines,
    cx: &ViewContext<'_>,
    (snap, a): (&ClusterSnapshot, &Analysis),
    p: &Plan,
) {
    let place = match &p.target {
        PlanTarget::Node(n) => format!("node {}", snap.nodes.get(*n).map_or("?", |n| &n.name)),
        PlanTarget::Domain(d) => format!("domain {d}"),
    };
    let noun = if p.moves.len() == 1 {
        "move frees"
    } else {
        "moves free"
    };
    out.line(format!("{} {noun} {place} for it:", p.moves.len()));
    for (i, m) in p.moves.iter().enumerate() {
        let Some(row) = a.moves.get(m.row) else {
            continue;
        };
        let from = row.from_node.as_deref().unwrap_or("?");
        let gpus = if m.frees == 1 { "GPU" } else { "GPUs" };
        out.line(format!(
            "  {}. move {} {} Instance {} off {from} (frees {} {gpus})",
            i + 1,
            row.workload,
            row.component,
            row.instance,
            m.frees
        ));
        let (words, tone) = hold_words(&m.hold, cx.now, cx.utc_offset);
        out.push(format!("     now: {words}"), tone);
    }
    match &cx.plan_key {
        Some(k) => out.push(format!("{k} {APPROVE_WORDS}"), Tone::Accent),
        None => out.push(
            "no key is bound to approve-plan: the Moves view approves each move",
            Tone::Muted,
        ),
    }
}

fn node_lines(out: &mut Lines, snap: &ClusterSnapshot, e: &Explanation) {
    out.heading("Per node");
    let width = e
        .nodes
        .iter()
        .filter_map(|n| snap.nodes.get(n.node))
        .map(|n| n.name.len())
        .max()
        .unwrap_or(0);
    for n in &e.nodes {
        let Some(node) = snap.nodes.get(n.node) else {
            continue;
        };
        let health = if n.unhealthy {
            "  (Alfred holds it Unhealthy)"
        } else {
            ""
        };
        let tone = match n.verdict {
            Verdict::Fits => Tone::Ok,
            _ => Tone::Normal,
        };
        let text = format!("  {:<width$}  {}{health}", node.name, n.verdict.words());
        out.push(text, tone);
    }
}
