//! The Nodes view: rows (name, pool, health as symbol + word, maintenance triggers, cordoned,
//! spot, GPUs used/total, OME occupants, age of the last condition change) and the node detail
//! (conditions, Alfred's node record, GPU occupants, events, health timeline).
//!
//! Owns: `node_rows`, `NODE_POOL_COLUMN`, the node detail. Plain data; must not import `ratatui`, `tokio` or
//! `kube`.

use chrono::FixedOffset;

use crate::app::detail::{DetailKind, DetailModel, Lines};
use crate::app::state::AppState;
use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel, Tone};
use crate::app::times::{local, relative, when_opt};
use crate::app::views::{age, age_secs, health_cell, health_label};
use crate::engine::analysis::Analysis;
use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::recommendations::NodeRecord;
use crate::protocol::Feed;

/// Column of the pool name (Enter on a pool scopes the Nodes view by it).
pub const NODE_POOL_COLUMN: usize = 1;

fn columns() -> Vec<Column> {
    vec![
        Column::text("NAME", ColWidth::Min(18)),
        Column::text("POOL", ColWidth::Min(12)),
        Column::text("HEALTH", ColWidth::Fixed(11)),
        Column::text("CORDON", ColWidth::Fixed(8)),
        Column::text("SPOT", ColWidth::Fixed(4)),
        Column::num("GPU", 5),
        Column::num("OME", 4),
        Column::num("COND", 5),
        Column::text("RESOURCE", ColWidth::Min(8)).wide(),
        Column::num("AGE", 4).wide(),
        Column::text("MAINT", ColWidth::Flex(10)),
    ]
}

/// One row per node, sorted by name.
pub fn node_rows(snap: &ClusterSnapshot, a: &Analysis) -> TableModel {
    let now = a.now;
    let rows = a
        .node_order
        .iter()
        .filter_map(|i| Some((*i, snap.nodes.get(*i)?, a.nodes.get(*i)?)))
        .map(|(i, node, st)| {
            let changed = node
                .conditions
                .iter()
                .filter_map(|c| c.last_transition)
                .max();
            let maint = if st.maintenance.is_empty() {
                Cell::text("-")
            } else {
                Cell::text(st.maintenance.join(",")).tone(Tone::Degraded)
            };
            let cordon = if st.cordoned {
                Cell::text("cordoned").tone(Tone::Danger)
            } else {
                Cell::text("-").tone(Tone::Muted)
            };
            let used = st.total.saturating_sub(st.free);
            let cells = vec![
                Cell::text(node.name.to_string()),
                Cell::text(st.pool.as_deref().unwrap_or("-")),
                health_cell(&st.health),
                cordon,
                Cell::text(if st.preemptible { "spot" } else { "-" }),
                Cell::num(f64::from(used), format!("{used}/{}", st.total)),
                Cell::num(f64::from(st.ome_occupants), st.ome_occupants.to_string()),
                Cell::num(age_secs(now, changed), age(now, changed)),
                Cell::text(node.gpu_resource.as_deref().unwrap_or("-")),
                Cell::num(age_secs(now, node.created), age(now, node.created)),
                maint,
            ];
            RowModel::new(node.name.to_string(), i, cells)
        })
        .collect();
    TableModel {
        columns: columns(),
        rows,
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

fn timeline(state: &AppState, snap: &ClusterSnapshot, node: usize, out: &mut Lines) {
    let name = &snap.nodes[node].name;
    let mut items: Vec<(Time, String)> = snap.nodes[node]
        .conditions
        .iter()
        .filter_map(|c| Some((c.last_transition?, format!("{} → {}", c.kind, c.status))))
        .collect();
    items.extend(
        snap.events
            .iter()
            .filter(|e| e.object_kind.as_ref() == "Node" && e.object_name == *name)
            .filter_map(|e| Some((e.last_seen?, format!("event {}: {}", e.reason, e.message)))),
    );
    if let Some(history) = &state.node_history {
        items.extend(
            history
                .iter()
                .map(|h| (h.at, format!("health {} ({})", h.state, h.detail))),
        );
    }
    items.sort_by_key(|item| std::cmp::Reverse(item.0));
    if items.is_empty() {
        out.push("no transitions visible", Tone::Muted);
    }
    for (t, text) in items.iter().take(40) {
        out.line(format!(
            "{}  {:>9}  {text}",
            local(*t, state.utc_offset),
            relative(state.now, *t)
        ));
    }
    if state.node_history.is_none() {
        out.push(
            "(local history store not attached: only what the API server still has)",
            Tone::Muted,
        );
    }
}

/// The detail pane of node `name`.
pub fn node_detail(state: &AppState, feed: &Feed, name: &str) -> Option<DetailModel> {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    let i = snap.nodes.iter().position(|n| n.name.as_ref() == name)?;
    let (node, st) = (&snap.nodes[i], a.nodes.get(i)?);
    let mut out = Lines::default();
    out.heading("Node");
    let (label, tone) = health_label(&st.health);
    out.push(format!("health: {label}"), tone);
    if let Some(u) = st.health.suspect_until() {
        out.line(format!(
            "suspect until {}",
            when_opt(a.now, Some(u), state.utc_offset)
        ));
    }
    out.line(format!("pool: {}", st.pool.as_deref().unwrap_or("-")));
    out.line(format!(
        "GPUs: {} used / {} total · {} free · OME occupants {}",
        st.allocated, st.total, st.free, st.ome_occupants
    ));
    out.line(format!(
        "cordoned: {} · spot: {} · excluded as target: {} · resourceVersion {}",
        st.cordoned, st.preemptible, st.excluded_as_target, node.resource_version
    ));
    if !st.maintenance.is_empty() {
        out.push(
            format!("maintenance triggers: {}", st.maintenance.join(", ")),
            Tone::Degraded,
        );
    }
    out.heading("Conditions");
    for c in &node.conditions {
        out.line(format!(
            "{:<24} {:<8} since {}",
            c.kind,
            c.status,
            when_opt(a.now, c.last_transition, state.utc_offset)
        ));
    }
    out.heading("Alfred's node record");
    let record = a.published.as_ref().and_then(|p| {
        p.nodes
            .iter()
            .find(|e| e.node_name.as_deref() == Some(name))
    });
    match record.map(|e| &e.record) {
        Some(Ok(r)) => record_lines(&mut out, a.now, state.utc_offset, r),
        Some(Err(e)) => out.push(format!("unreadable: {e}"), Tone::Failed),
        None => out.push("none published", Tone::Muted),
    }
    out.heading("GPU occupants");
    let mut any = false;
    for p in snap
        .pods
        .iter()
        .filter(|p| p.node.as_deref() == Some(name) && p.gpus > 0)
    {
        any = true;
        out.line(format!(
            "{}/{}  {} GPU  {:?}",
            p.namespace, p.name, p.gpus, p.phase
        ));
    }
    if !any {
        out.push("none", Tone::Muted);
    }
    out.heading("Health timeline (newest first)");
    timeline(state, snap, i, &mut out);
    Some(DetailModel {
        kind: DetailKind::Node(name.to_string()),
        title: format!("node/{name}"),
        lines: out.0,
    })
}
