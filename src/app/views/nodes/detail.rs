//! The node detail, OME first: the summary (health and why, pool, GPUs, cordon, spot, excluded
//! as a target and why, maintenance triggers) with the health summary (episodes in the window,
//! flapping, what is open now, the key to the timeline), the health timeline, the operator
//! actions the audit log recorded on it with their reasons, then what an
//! operator reads in `kubectl describe node`: labels, taints, capacity and allocatable,
//! conditions, the pods on the node, its Events and Alfred's node record. The pane scrolls, so
//! long sections never push the summary off the top.
//!
//! Owns: `node_detail`, `uncordon_warning`. The Kubernetes sections are in `nodes::sections`,
//! the timeline in `nodes::timeline`. Plain data.

use chrono::{Duration, FixedOffset};

use crate::app::detail::{DetailKind, DetailModel, Lines};
use crate::app::table::Tone;
use crate::app::views::cells::health_label;
use crate::app::views::context::ViewContext;
use crate::app::views::nodes::sections::{
    capacity_lines, condition_lines, event_lines, label_lines, pod_lines, taint_lines, Pane,
};
use crate::app::views::nodes::timeline::{health_summary_lines, node_health, timeline_lines};
use crate::engine::alfred_config::health_rules;
use crate::engine::analysis::Analysis;
use crate::engine::model::{Node, Time};
use crate::engine::nodes::{HealthState, NodeState};
use crate::engine::recommendations::NodeRecord;
use crate::fmt::{when, when_opt};
use crate::protocol::Feed;

/// Why the node has its health state: the trigger conditions behind it, with their times.
fn health_why(node: &Node, st: &NodeState, a: &Analysis, tz: FixedOffset) -> String {
    let (triggers, window) = health_rules(&a.config);
    let relevant: Vec<_> = node
        .conditions
        .iter()
        .filter(|c| triggers.iter().any(|t| t.as_str() == c.kind.as_ref()))
        .collect();
    let since = |t: Option<Time>| when_opt(a.now, t, tz);
    let parts: Vec<String> = match st.health {
        HealthState::Unhealthy => relevant
            .iter()
            .filter(|c| c.status.as_ref() == "True")
            .map(|c| format!("{} is True since {}", c.kind, since(c.last_transition)))
            .collect(),
        HealthState::Unknown => relevant
            .iter()
            .filter(|c| c.status.as_ref() != "False" || c.last_transition.is_none())
            .map(|c| match c.status.as_ref() {
                "False" => format!("{} is False without a transition time", c.kind),
                s => format!("{} is {s}", c.kind),
            })
            .collect(),
        HealthState::Suspect { .. } => relevant
            .iter()
            .filter(|c| {
                c.last_transition
                    .is_some_and(|t| a.now < t + Duration::minutes(window))
            })
            .map(|c| format!("{} turned False {}", c.kind, since(c.last_transition)))
            .collect(),
        HealthState::Clear if relevant.is_empty() => {
            vec![format!(
                "no health trigger reported ({})",
                triggers.join(", ")
            )]
        }
        HealthState::Clear => vec!["no health trigger is True".to_string()],
    };
    parts.join("; ")
}

/// The uncordon dialog's warning when node `i` of `feed` is Unhealthy: uncordoning lets the
/// scheduler place new pods on a node whose GPUs Alfred reports failing.
pub fn uncordon_warning(feed: &Feed, i: usize, tz: FixedOffset) -> Option<(String, Tone)> {
    let (node, st) = (feed.snapshot.nodes.get(i)?, feed.analysis.nodes.get(i)?);
    (st.health == HealthState::Unhealthy).then(|| {
        let why = health_why(node, st, &feed.analysis, tz);
        let text = format!(
            "⚠ {} is Unhealthy ({why}): uncordoning lets new pods land on it",
            node.name
        );
        (text, Tone::Degraded)
    })
}

/// Why the node is excluded as a migration target, if it is.
fn exclusion(st: &NodeState) -> String {
    let mut why = Vec::new();
    if st.health.excludes_target() {
        why.push(st.health.name().to_string());
    }
    if !st.maintenance.is_empty() {
        why.push("maintenance requested".to_string());
    }
    if st.cordoned {
        why.push("cordoned".to_string());
    }
    if st.to_be_deleted {
        why.push("to be deleted by the autoscaler".to_string());
    }
    if why.is_empty() {
        "no".to_string()
    } else {
        format!("yes ({})", why.join(", "))
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The OME summary: what Alfred's rules make of the node.
fn summary(out: &mut Lines, cx: &ViewContext<'_>, node: &Node, st: &NodeState, a: &Analysis) {
    let tz = cx.utc_offset;
    out.heading("Node");
    let (label, tone) = health_label(&st.health);
    out.push(
        format!("health: {label} — {}", health_why(node, st, a, tz)),
        tone,
    );
    if let Some(u) = st.health.suspect_until() {
        out.line(format!("suspect until {}", when(a.now, u, tz)));
    }
    out.line(format!("pool: {}", st.pool.as_deref().unwrap_or("-")));
    out.line(format!(
        "GPUs: {} used / {} total · {} free · OME occupants {}",
        st.allocated, st.total, st.free, st.ome_occupants
    ));
    out.line(format!(
        "cordoned: {} · spot: {} · resourceVersion {}",
        yes_no(st.cordoned),
        yes_no(st.preemptible),
        node.resource_version
    ));
    let excluded = exclusion(st);
    let tone = if st.excluded_as_target {
        Tone::Degraded
    } else {
        Tone::Normal
    };
    out.push(format!("excluded as a migration target: {excluded}"), tone);
    if !st.maintenance.is_empty() {
        out.push(
            format!("maintenance triggers: {}", st.maintenance.join(", ")),
            Tone::Degraded,
        );
    }
}

fn record_lines(out: &mut Lines, now: Time, tz: FixedOffset, r: &NodeRecord) {
    let when = |t: Option<Time>| when_opt(now, t, tz);
    out.line(format!("state: {}", r.state.as_deref().unwrap_or("-")));
    if let Some(u) = r.suspect_until {
        out.line(format!("suspect until: {}", when(Some(u))));
    }
    for c in &r.conditions {
        out.line(format!(
            "condition {} = {} since {}",
            c.type_,
            c.status.as_deref().unwrap_or("-"),
            when(c.last_transition_time)
        ));
    }
    if let Some(m) = &r.maintenance {
        out.line(format!(
            "maintenance requested: {} ({})",
            m.requested,
            if m.triggers.is_empty() {
                "-".to_string()
            } else {
                m.triggers.join(", ")
            }
        ));
    }
    out.line(format!(
        "OME GPU occupants present: {}",
        r.ome_gpu_occupants_present
    ));
    if !r.workloads.is_empty() {
        out.line(format!("workloads: {}", r.workloads.join(", ")));
    }
    out.line(format!(
        "observed {} · signaled {} · drained {}",
        when(r.observed_at),
        when(r.signaled_at),
        when(r.drained_at)
    ));
}

fn record(out: &mut Lines, cx: &ViewContext<'_>, a: &Analysis, name: &str) {
    out.heading("Alfred's node record");
    let record = a.published.as_ref().and_then(|p| {
        p.nodes
            .iter()
            .find(|e| e.node_name.as_deref() == Some(name))
    });
    match record.map(|e| &e.record) {
        Some(Ok(r)) => record_lines(out, a.now, cx.utc_offset, r),
        Some(Err(e)) => out.push(format!("unreadable: {e}"), Tone::Failed),
        None => out.push("none published", Tone::Muted),
    }
}

/// Operator actions on the node listed at once; older ones are counted.
const ACTIONS_SHOWN: usize = 10;

/// The operator actions the history store recorded on the node (this cluster, or this demo
/// run), newest first, each with the reason the operator wrote.
fn action_lines(out: &mut Lines, cx: &ViewContext<'_>) {
    let Some(actions) = cx.node_actions else {
        return;
    };
    out.heading("Operator actions (audit log, newest first)");
    if actions.is_empty() {
        out.push("  none recorded", Tone::Muted);
    }
    for a in actions.iter().rev().take(ACTIONS_SHOWN) {
        let reason = a
            .reason
            .as_deref()
            .map_or_else(|| "no reason given".to_string(), |r| format!("reason: {r}"));
        let tone = if a.result == "done" {
            Tone::Normal
        } else {
            Tone::Degraded
        };
        out.push(
            format!(
                "  {}  {} {} · {}",
                when(cx.now, a.at, cx.utc_offset),
                a.action,
                a.result,
                a.actor
            ),
            tone,
        );
        out.push(format!("      {reason}"), tone);
    }
    if actions.len() > ACTIONS_SHOWN {
        let older = actions.len() - ACTIONS_SHOWN;
        out.push(
            format!("  … and {older} older (ome-top history)"),
            Tone::Muted,
        );
    }
}

/// The detail pane of node `name`.
pub fn node_detail(cx: &ViewContext<'_>, feed: &Feed, name: &str) -> Option<DetailModel> {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    let i = snap.nodes.iter().position(|n| n.name.as_ref() == name)?;
    let (node, st) = (&snap.nodes[i], a.nodes.get(i)?);
    let mut out = Lines::default();
    summary(&mut out, cx, node, st, a);
    if let Some(health) = node_health(cx, feed, i) {
        health_summary_lines(&mut out, cx, &health, st.pool.as_deref());
        timeline_lines(&mut out, cx, &health, name);
    }
    action_lines(&mut out, cx);
    label_lines(&mut out, node);
    taint_lines(&mut out, node);
    capacity_lines(&mut out, node);
    condition_lines(&mut out, node, a.now, cx.utc_offset);
    let pane = Pane {
        tz: cx.utc_offset,
        now: cx.now,
        width: usize::from(cx.size.0).saturating_sub(2),
    };
    pod_lines(&mut out, snap, name, pane.width);
    event_lines(&mut out, snap, name, pane);
    record(&mut out, cx, a, name);
    Some(DetailModel {
        kind: DetailKind::Node(name.to_string()),
        title: format!("node/{name}"),
        lines: out.0,
    })
}
