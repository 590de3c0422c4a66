//! The node detail's health timeline, newest first (an episode by its end, an open one first):
//! episodes (Unhealthy from → to, Suspect
//! from → until, maintenance trigger from → to, cordoned from → to, each with its length; an
//! open one reads "since …") from the history store's rows merged with what the cluster still
//! tells (the node's conditions, Alfred's node record, Alfred's Events), every time marked by
//! its source; Alfred's moments between them. The health summary the detail opens with counts
//! the listed episodes as the flap count does, says what is open now, the pool's repair time
//! from the store and the key to the timeline; a demo run's timeline says which run it is.
//!
//! Owns: `NodeHealth`, `node_health`, `health_summary_lines`, `timeline_lines`,
//! `TIMELINE_HEADING`. Plain data.

use chrono::{Duration, FixedOffset};

use crate::app::detail::Lines;
use crate::app::state::NodeAction;
use crate::app::table::Tone;
use crate::app::views::context::ViewContext;
use crate::engine::alfred_config::health_rules;
use crate::engine::model::{Event, Time};
use crate::engine::timeline::{
    health_starts, node_timeline, observe_node, Episode, EpisodeKind, Mark, Observed, Timeline,
    DEFAULT_FLAPS, DEFAULT_WINDOW_DAYS,
};
use crate::fmt::{local, range, relative, span};
use crate::protocol::Feed;

/// Items listed before a count line stands for the older ones.
pub const TIMELINE_SHOWN: usize = 40;
/// Widest label column (longer maintenance trigger names push their row right).
const LABEL_MAX: usize = 28;

/// A symbol and word per episode kind, readable without colour.
fn label(kind: &EpisodeKind) -> String {
    match kind {
        EpisodeKind::Unhealthy => "✗ Unhealthy".into(),
        EpisodeKind::Unknown => "? Unknown".into(),
        EpisodeKind::Suspect => "~ Suspect".into(),
        EpisodeKind::Maintenance(t) => format!("⚒ maintenance {t}"),
        EpisodeKind::Cordoned => "⚑ cordoned".into(),
    }
}

fn tone(kind: &EpisodeKind) -> Tone {
    match kind {
        EpisodeKind::Unhealthy => Tone::Failed,
        EpisodeKind::Unknown => Tone::Unknown,
        EpisodeKind::Suspect | EpisodeKind::Maintenance(_) => Tone::Degraded,
        EpisodeKind::Cordoned => Tone::Danger,
    }
}

/// `[condition → window]`, or one word when both ends (or the only one) agree.
fn sources(e: &Episode) -> String {
    match e.to {
        Some(to) if to.source != e.from.source => {
            format!("[{} → {}]", e.from.source.label(), to.source.label())
        }
        _ => format!("[{}]", e.from.source.label()),
    }
}

/// `from → to · length`, or `since from · length so far` (a Suspect adds its deadline).
fn when(e: &Episode, now: Time, tz: FixedOffset) -> String {
    match e.to {
        Some(to) => format!(
            "{} · {}",
            range(e.from.at, to.at, tz),
            span(e.duration(now))
        ),
        None => {
            let until = e
                .until
                .map(|u| format!(", until {} ({})", local(u, tz), relative(now, u)))
                .unwrap_or_default();
            format!(
                "since {}{until} · {} so far",
                local(e.from.at, tz),
                span(e.duration(now))
            )
        }
    }
}

/// The label column's width, the pane's width, the clock and the zone.
#[derive(Clone, Copy)]
struct Layout {
    label: usize,
    pane: usize,
    now: Time,
    tz: FixedOffset,
}

/// Indent of a row's tail when it goes on a line of its own.
const TAIL_INDENT: &str = "      ";

/// `head`, `sep` and `tail` on one line when it fits the pane, else the tail below, indented.
fn fit(out: &mut Lines, (head, sep, tail): (String, &str, String), tone: Tone, pane: usize) {
    if head.chars().count() + sep.chars().count() + tail.chars().count() <= pane {
        out.push(format!("{head}{sep}{tail}"), tone);
    } else {
        out.push(head, tone);
        out.push(format!("{TAIL_INDENT}{tail}"), tone);
    }
}

/// How far an audit row's time may be from the cordon it explains (the row is written when
/// the write ends; the episode starts when ome-top or the cluster saw the cordon).
const CORDON_MATCH_SECONDS: i64 = 120;

/// The reason the operator wrote for the cordon that began episode `e`: the `cordon-node`
/// audit row done closest to its start, within `CORDON_MATCH_SECONDS`.
fn cordon_reason<'a>(e: &Episode, actions: &'a [NodeAction]) -> Option<&'a str> {
    if e.kind != EpisodeKind::Cordoned {
        return None;
    }
    actions
        .iter()
        .filter(|a| a.action == "cordon-node" && a.result == "done")
        .map(|a| ((a.at - e.from.at).num_seconds().abs(), a))
        .filter(|(d, _)| *d <= CORDON_MATCH_SECONDS)
        .min_by_key(|(d, _)| *d)
        .and_then(|(_, a)| a.reason.as_deref())
}

fn episode_line(out: &mut Lines, e: &Episode, l: Layout, actions: &[NodeAction]) {
    let head = format!(
        "  {:<w$}  {}",
        label(&e.kind),
        when(e, l.now, l.tz),
        w = l.label
    );
    let reason = match cordon_reason(e, actions) {
        Some(r) if e.reason.is_empty() => format!("reason: {r}"),
        _ => e.reason.clone(),
    };
    let (sep, tail) = if reason.is_empty() {
        (" ", sources(e))
    } else {
        (" · ", format!("{reason} {}", sources(e)))
    };
    let tone = if e.is_open() {
        tone(&e.kind)
    } else {
        Tone::Normal
    };
    fit(out, (head, sep, tail), tone, l.pane);
}

fn mark_line(out: &mut Lines, m: &Mark, l: Layout) {
    let sources: Vec<&str> = m.sources.iter().map(|s| s.label()).collect();
    let head = format!(
        "  {:<w$}  {}  {}",
        "• Alfred:",
        local(m.at, l.tz),
        m.kind.label(),
        w = l.label
    );
    let tail = format!("[{}]", sources.join(", "));
    fit(out, (head, " ", tail), Tone::Normal, l.pane);
}

/// The heading of the timeline section (the `node-timeline` key scrolls to it).
pub const TIMELINE_HEADING: &str = "Health timeline (newest first)";

/// A node's timeline, merged from the store's rows and what the cluster tells, and the time
/// its open episodes last until.
pub struct NodeHealth {
    /// Episodes and Alfred's marks.
    pub timeline: Timeline,
    /// The time open episodes last until.
    pub now: Time,
}

/// The merged timeline of node `i` of the shown feed.
pub fn node_health(cx: &ViewContext<'_>, feed: &Feed, i: usize) -> Option<NodeHealth> {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    let (node, st) = (snap.nodes.get(i)?, a.nodes.get(i)?);
    let (triggers, window) = health_rules(&a.config);
    let current = Observed {
        at: a.now,
        observed: observe_node(node, st, triggers, window),
    };
    let record = a.published.as_ref().and_then(|p| {
        p.nodes
            .iter()
            .find(|e| e.node_name.as_deref() == Some(node.name.as_ref()))
            .and_then(|e| e.record.as_ref().ok())
    });
    let events: Vec<&Event> = snap
        .events
        .iter()
        .filter(|e| e.object_kind.as_ref() == "Node" && e.object_name == node.name)
        .collect();
    let rows = cx.node_history.as_deref().unwrap_or_default();
    let now = cx.now.max(a.now);
    let timeline = node_timeline(rows, Some(&current), record, &events, now);
    Some(NodeHealth { timeline, now })
}

/// The health summary under the node's state: its health episodes in the window counted as
/// the flap count counts them (from the episodes the timeline lists), whether it flaps, what
/// is open now, its pool's repair time from the store, and the key to the timeline.
pub fn health_summary_lines(
    out: &mut Lines,
    cx: &ViewContext<'_>,
    h: &NodeHealth,
    pool: Option<&str>,
) {
    let f = cx.nodes_health.as_deref();
    let days = f.map_or(DEFAULT_WINDOW_DAYS, |f| (f.to - f.from).num_days());
    let threshold = f.map_or(DEFAULT_FLAPS, |f| f.threshold);
    let from = h.now - Duration::days(days);
    let flaps = health_starts(&h.timeline.episodes)
        .into_iter()
        .filter(|t| *t >= from)
        .count();
    let flapping = flaps > threshold;
    let text = if flapping {
        format!("health episodes in {days} days: {flaps} — flapping (more than {threshold})")
    } else {
        format!(
            "health episodes in {days} days: {flaps} (Unhealthy or Unknown; flapping above {threshold})"
        )
    };
    out.push(text, if flapping { Tone::Danger } else { Tone::Normal });
    let open: Vec<String> = h
        .timeline
        .episodes
        .iter()
        .filter(|e| e.is_open())
        .map(|e| format!("{} since {}", label(&e.kind), relative(h.now, e.from.at)))
        .collect();
    match open.as_slice() {
        [] => out.line("open now: nothing"),
        list => out.push(format!("open now: {}", list.join(" · ")), Tone::Degraded),
    }
    if let Some(p) = pool.and_then(|p| f.and_then(|f| f.pool(p))) {
        let mean = p.mean.map_or_else(|| "-".to_string(), span);
        out.push(
            format!(
                "pool {}: mean time to repair {mean} over {} repair{}, {} open",
                p.pool,
                p.repairs,
                if p.repairs == 1 { "" } else { "s" },
                p.open
            ),
            Tone::Muted,
        );
    }
    let items = h.timeline.episodes.len() + h.timeline.marks.len();
    if items > 0 {
        let key = cx
            .timeline_key
            .as_deref()
            .map_or_else(String::new, |k| format!(" · {k} jumps to it"));
        let s = if items == 1 { "y" } else { "ies" };
        out.push(format!("timeline below: {items} entr{s}{key}"), Tone::Muted);
    }
}

/// The timeline section: its heading, then episodes and Alfred's marks, newest first.
pub fn timeline_lines(out: &mut Lines, cx: &ViewContext<'_>, h: &NodeHealth, name: &str) {
    out.heading(TIMELINE_HEADING);
    let (t, now) = (&h.timeline, h.now);
    let layout = Layout {
        label: t
            .episodes
            .iter()
            .map(|e| label(&e.kind).chars().count())
            .chain([8])
            .max()
            .unwrap_or(8)
            .min(LABEL_MAX),
        pane: usize::from(cx.size.0).saturating_sub(2),
        now,
        tz: cx.utc_offset,
    };
    let mut items: Vec<(Time, Result<&Episode, &Mark>)> = t
        .episodes
        .iter()
        .map(|e| (e.to.map_or(now, |p| p.at), Ok(e)))
        .chain(t.marks.iter().map(|m| (m.at, Err(m))))
        .collect();
    items.sort_by_key(|item| std::cmp::Reverse(item.0));
    let actions = cx.node_actions.as_deref().unwrap_or_default();
    if items.is_empty() {
        out.push(
            "  no episode: Clear as far as ome-top and the cluster tell",
            Tone::Muted,
        );
    }
    for (_, item) in items.iter().take(TIMELINE_SHOWN) {
        match item {
            Ok(e) => episode_line(out, e, layout, actions),
            Err(m) => mark_line(out, m, layout),
        }
    }
    if items.len() > TIMELINE_SHOWN {
        out.push(
            format!("  … and {} older", items.len() - TIMELINE_SHOWN),
            Tone::Muted,
        );
    }
    let rows = cx.node_history.as_deref().unwrap_or_default();
    footer(out, cx, (name, rows), now);
}

/// Where the timeline reaches back to, or why it cannot reach further.
fn footer(out: &mut Lines, cx: &ViewContext<'_>, (name, rows): (&str, &[Observed]), now: Time) {
    match rows.first() {
        None if cx.node_history.is_none() => out.push(
            "  (local history store not attached: only what the cluster still tells)",
            Tone::Muted,
        ),
        None => out.push(
            "  ome-top has not recorded this node yet: only what the cluster still tells",
            Tone::Muted,
        ),
        Some(first) => out.push(
            format!(
                "  ome-top first recorded this node {} ({})",
                local(first.at, cx.utc_offset),
                relative(now, first.at)
            ),
            Tone::Muted,
        ),
    }
    if let Some(started) = cx.history_run_started {
        out.push(
            format!(
                "  recorded in this demo run (started {}); earlier runs: ome-top history {name}",
                local(started, cx.utc_offset)
            ),
            Tone::Muted,
        );
    }
}
