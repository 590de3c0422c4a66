//! `ome-top history -o json` for scripts (docs/history.md states the shape): times in RFC 3339
//! UTC, durations in seconds, sources as words, clusters sorted by key, rows oldest first.
//!
//! Owns: `document`. Formatting only.

use chrono::SecondsFormat;
use serde_json::{json, Value};

use crate::cli::history::{ClusterSection, NodeEpisodes, Section, Target};
use crate::engine::model::Time;
use crate::engine::timeline::{Episode, EpisodeKind, NodesHealth};
use crate::history::audit::AuditEntry;
use crate::history::query::TransitionRow;

fn time(t: Time) -> String {
    t.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// One episode.
fn episode(e: &Episode, now: Time) -> Value {
    let trigger = match &e.kind {
        EpisodeKind::Maintenance(t) => Some(t.as_str()),
        _ => None,
    };
    json!({
        "state": e.kind.state(),
        "trigger": trigger,
        "from": time(e.from.at),
        "fromSource": e.from.source.key(),
        "to": e.to.map(|p| time(p.at)),
        "toSource": e.to.map(|p| p.source.key()),
        "open": e.is_open(),
        "durationSeconds": e.duration(now).num_seconds(),
        "suspectUntil": e.until.map(time),
        "reason": e.reason,
    })
}

fn episodes(eps: &[Episode], now: Time) -> Vec<Value> {
    eps.iter().map(|e| episode(e, now)).collect()
}

fn transition(row: &TransitionRow) -> Value {
    let o = &row.observed;
    json!({
        "time": time(row.at),
        "state": o.health.name(),
        "suspectUntil": o.health.suspect_until().map(time),
        "since": o.since.map(time),
        "reason": o.reason,
        "maintenanceTriggers": o.triggers,
        "cordoned": o.cordoned,
        "pool": o.pool,
    })
}

fn audit(a: &AuditEntry) -> Value {
    json!({
        "time": time(a.at),
        "actor": a.actor,
        "action": a.action,
        "object": a.object.display(),
        "kind": a.object.kind,
        "namespace": a.object.namespace,
        "name": a.object.name,
        "resourceVersionBefore": a.rv_before,
        "resourceVersionAfter": a.rv_after,
        "result": a.result.as_str(),
        "message": a.message,
        "override": a.overrode,
        "reason": a.reason,
    })
}

fn health(f: &NodesHealth) -> Value {
    let flapping: Vec<Value> = f
        .flapping()
        .iter()
        .map(|(n, v)| json!({"node": n, "pool": v.pool, "episodes": v.episodes}))
        .collect();
    let pools: Vec<Value> = f
        .pools
        .iter()
        .map(|p| {
            json!({
                "pool": p.pool,
                "repairs": p.repairs,
                "meanTimeToRepairSeconds": p.mean.map(|d| d.num_seconds()),
                "open": p.open,
            })
        })
        .collect();
    json!({
        "from": time(f.from),
        "to": time(f.to),
        "flapThreshold": f.threshold,
        "flapping": flapping,
        "pools": pools,
    })
}

fn node_entries(nodes: &[NodeEpisodes], now: Time) -> Vec<Value> {
    nodes
        .iter()
        .map(|n| json!({"node": n.node, "pool": n.pool, "episodes": episodes(&n.episodes, now)}))
        .collect()
}

fn section(c: &ClusterSection) -> Value {
    let now = c.until;
    let mut v = match &c.section {
        Section::Node {
            episodes: eps,
            transitions,
            audit: rows,
        } => json!({
            "episodes": episodes(eps, now),
            "transitions": transitions.iter().map(transition).collect::<Vec<_>>(),
            "audit": rows.iter().map(audit).collect::<Vec<_>>(),
        }),
        Section::Object { audit: rows } => {
            json!({"audit": rows.iter().map(audit).collect::<Vec<_>>()})
        }
        Section::AllNodes { nodes, health: f } => {
            json!({"nodes": node_entries(nodes, now), "health": health(f)})
        }
    };
    v["cluster"] = Value::from(c.cluster.as_str());
    if let Some((seed, started)) = c.cluster.demo_run_started() {
        v["demoRun"] = json!({"seed": seed, "started": time(started)});
    }
    v["lastObserved"] = json!(c.seen.map(time));
    v
}

/// The document: `{node|object|all-nodes header, clusters: [...]}` (docs/history.md).
pub(super) fn document(target: &Target, sections: &[ClusterSection], now: Time) -> Value {
    let clusters: Vec<Value> = sections.iter().map(section).collect();
    match target {
        Target::Node(node) => json!({"node": node, "now": time(now), "clusters": clusters}),
        Target::Object {
            kind,
            namespace,
            name,
        } => json!({
            "object": {"kind": kind, "namespace": namespace, "name": name},
            "now": time(now),
            "clusters": clusters,
        }),
        Target::AllNodes => json!({"now": time(now), "clusters": clusters}),
    }
}
