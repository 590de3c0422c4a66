//! `ome-top analyze -o json`: the stable JSON contract of product.md §7 (documented in
//! docs/analyze-json.md). camelCase keys, full-precision floats, deterministic ordering.
//!
//! Owns: `analysis_json`. Reads engine results only.

use serde::Serialize;
use serde_json::Value;

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::analysis::Analysis;
use crate::engine::model::ClusterSnapshot;
use crate::engine::pools::PoolReport;

/// Where the analysed data came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// A live cluster.
    Live,
    /// A snapshot file.
    Snapshot,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SizeJson {
    size: u32,
    weight: f64,
    slots_observed: u64,
    slots_best: u64,
    frag_observed: f64,
    frag_best: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PoolJson<'a> {
    name: &'a str,
    gpu_resource: &'a str,
    nodes: usize,
    total_gpus: u64,
    free_gpus: u64,
    free_gpus_all_nodes: u64,
    whole_free_nodes: u64,
    observed: f64,
    best: f64,
    reclaimable: f64,
    stuck: f64,
    pending_pressure: f64,
    score: f64,
    above_threshold: bool,
    sizes: Vec<SizeJson>,
    largest_fit_now: u32,
    largest_fit_after_repack: u32,
    pending: Vec<PendingJson>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PendingJson {
    gpus: u32,
    pods: u64,
    oldest_minutes: f64,
    room_now: u64,
    room_after_repack: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NodeJson<'a> {
    name: &'a str,
    pool: Option<&'a str>,
    health: &'static str,
    suspect_until: Option<String>,
    maintenance_triggers: &'a [String],
    cordoned: bool,
    preemptible: bool,
    total_gpus: u32,
    free_gpus: u32,
    excluded_as_target: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AnalyzeJson<'a> {
    generated_at: String,
    source: Source,
    config: &'a AlfredConfig,
    pools: Vec<PoolJson<'a>>,
    nodes: Vec<NodeJson<'a>>,
    moves: Value,
    journal: Value,
    gangs: Vec<crate::report::json_gangs::GangJson>,
    pending: Vec<Value>,
    lints: Vec<crate::report::json_gangs::LintJson<'a>>,
    warnings: Vec<String>,
}

fn pool_json(p: &PoolReport) -> PoolJson<'_> {
    PoolJson {
        name: &p.name,
        gpu_resource: &p.gpu_resource,
        nodes: p.nodes.len(),
        total_gpus: p.total_gpus,
        free_gpus: p.free_gpus,
        free_gpus_all_nodes: p.free_gpus_all_nodes,
        whole_free_nodes: p.whole_free_nodes,
        observed: p.observed,
        best: p.best,
        reclaimable: p.reclaimable,
        stuck: p.stuck,
        pending_pressure: p.pending_pressure,
        score: p.score,
        above_threshold: p.above_threshold,
        sizes: p
            .sizes
            .iter()
            .map(|s| SizeJson {
                size: s.size,
                weight: s.weight,
                slots_observed: s.slots_observed,
                slots_best: s.slots_best,
                frag_observed: s.frag_observed,
                frag_best: s.frag_best,
            })
            .collect(),
        largest_fit_now: p.largest_fit_now,
        largest_fit_after_repack: p.largest_fit_after,
        pending: p
            .pending_sizes
            .iter()
            .map(|s| PendingJson {
                gpus: s.gpus,
                pods: s.pods,
                oldest_minutes: s.oldest_minutes,
                room_now: s.room_now,
                room_after_repack: s.room_after,
            })
            .collect(),
    }
}

/// The analysis as the §7 JSON document. `warnings` are appended after the analysis's own.
pub fn analysis_json(
    snap: &ClusterSnapshot,
    analysis: &Analysis,
    source: Source,
    warnings: &[String],
) -> Value {
    let nodes = analysis
        .node_order
        .iter()
        .map(|i| {
            let s = &analysis.nodes[*i];
            NodeJson {
                name: &snap.nodes[*i].name,
                pool: s.pool.as_deref(),
                health: s.health.name(),
                suspect_until: s.health.suspect_until().map(crate::report::rfc3339),
                maintenance_triggers: &s.maintenance,
                cordoned: s.cordoned,
                preemptible: s.preemptible,
                total_gpus: s.total,
                free_gpus: s.free,
                excluded_as_target: s.excluded_as_target,
            }
        })
        .collect();
    let doc = AnalyzeJson {
        generated_at: crate::report::rfc3339(analysis.now),
        source,
        config: &analysis.config,
        pools: analysis.pools.iter().map(pool_json).collect(),
        nodes,
        moves: crate::report::json_moves::moves_json(
            analysis
                .published
                .as_ref()
                .and_then(|p| p.last_cycle.as_ref())
                .and_then(|c| c.as_ref().ok())
                .map_or(&[][..], |c| c.rows()),
            &analysis.moves,
        ),
        journal: crate::report::json_moves::journal_json(&analysis.journal, &analysis.clearing),
        gangs: crate::report::json_gangs::gangs_json(&analysis.gangs),
        pending: crate::report::pending::json::pending_json(
            snap,
            analysis,
            &crate::report::pending::pending_entries(snap, analysis),
        ),
        lints: crate::report::json_gangs::lints_json(&analysis.lints),
        warnings: crate::report::all_warnings(snap, analysis, warnings),
    };
    serde_json::to_value(doc).unwrap_or(Value::Null)
}
