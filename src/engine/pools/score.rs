//! Scores one pool from its gathered inputs (`alfred.md` §6.2): observed and repacked profiles,
//! reclaimable, pending pressure, score and the operator extras.
//!
//! Owns: `score_pool`, and `retime_pool`: the same figures moved to another time. Pure.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::alfred_config::ScoringRules;
use crate::engine::fast::same;
use crate::engine::model::{ClusterSnapshot, Name, Time};
use crate::engine::pools::fragmentation::{self, profile, repack_by, Bin};
use crate::engine::pools::pending::pending_sizes;
use crate::engine::pools::{pool_bins, PoolData, PoolItem, PoolReport, PoolScoring, SizeReport};

/// Minutes a pending pod has waited at `now` (clamped at 0; 0 without a timestamp).
pub fn pending_minutes(snap: &ClusterSnapshot, pod: usize, now: Time) -> f64 {
    let p = &snap.pods[pod];
    p.unschedulable_since.or(p.created).map_or(0.0, |t| {
        (now - t).num_milliseconds().max(0) as f64 / 60_000.0
    })
}

/// Scores one pool.
pub fn score_pool(
    snap: &ClusterSnapshot,
    input: &PoolScoring<'_>,
    pool: PoolData<'_>,
) -> PoolReport {
    let rules = input.rules;
    let ladder = &rules.ladder;
    let idx = input.index;
    // Name order first: the repack's bin sort then only orders by free GPUs.
    let mut nodes = pool.nodes;
    nodes.sort_by_key(|n| idx.node_rank(*n));
    let observed_bins = pool_bins(&nodes, input.states, rules.avoid_spot);
    let bins: Vec<Bin> = observed_bins.iter().map(|(_, b)| *b).collect();
    let total_free: u64 = bins.iter().map(|b| u64::from(b.free)).sum();
    let weights = fragmentation::weights(&pool.demand, &rules.prior, rules.lambda);
    let before = profile(&bins, ladder, &weights, total_free);

    let bin_of = bin_positions(&observed_bins);
    let items: Vec<PoolItem<'_>> = pool
        .items
        .into_iter()
        .map(|(node, mut item)| {
            item.home = bin_of.get(node).copied().flatten();
            item
        })
        .collect();
    let ranks: Vec<u32> = observed_bins
        .iter()
        .map(|(n, _)| idx.node_rank(*n))
        .collect();
    let best_bins = repack_by(
        &bins,
        &ranks,
        &items,
        |i| (i.gpus, i.home),
        |a, b| a.key.cmp(&b.key),
    );
    let after = profile(&best_bins, ladder, &weights, total_free);

    let reclaimable = (before.weighted - after.weighted).max(0.0);
    let slots = |i: usize| (before.slots[i], after.slots[i]);
    let pressure = pressure_at(snap, (&pool.pending, &slots), rules, input.now);
    let score = fragmentation::score(reclaimable, pressure);
    let stuck = (before.weighted - reclaimable).max(0.0);

    let sizes = ladder
        .iter()
        .enumerate()
        .map(|(i, size)| SizeReport {
            size: *size,
            weight: weights[i],
            slots_observed: before.slots[i],
            slots_best: after.slots[i],
            frag_observed: before.frag[i],
            frag_best: after.frag[i],
        })
        .collect();
    let states = input.states;
    PoolReport {
        name: pool.name.to_string(),
        gpu_resource: dominant_resource(snap, &nodes),
        total_gpus: nodes.iter().map(|n| u64::from(states[*n].total)).sum(),
        free_gpus: total_free,
        free_gpus_all_nodes: nodes.iter().map(|n| u64::from(states[*n].free)).sum(),
        whole_free_nodes: bins.iter().filter(|b| b.cap > 0 && b.free == b.cap).count() as u64,
        observed: before.weighted,
        best: after.weighted,
        reclaimable,
        stuck,
        pending_pressure: pressure,
        score,
        above_threshold: score > rules.threshold,
        advisory_open: stuck > rules.threshold,
        sizes,
        pending_pods: pool.pending.len() as u64,
        oldest_pending_minutes: oldest_at(snap, &pool.pending, input.now),
        largest_fit_now: bins.iter().map(|b| b.free.min(b.cap)).max().unwrap_or(0),
        largest_fit_after: best_bins
            .iter()
            .map(|b| b.free.min(b.cap))
            .max()
            .unwrap_or(0),
        largest_node_gpus: nodes.iter().map(|n| states[*n].total).max().unwrap_or(0),
        pending_sizes: pending_sizes(snap, &pool.pending, input.now, &bins, &best_bins),
        movable_pods: items.len() as u64,
        nodes,
        pending: pool.pending,
    }
}

/// The pending pressure at `now` of the pending pods `pending` whose size has no slot on the
/// observed bins and one after the repack (`slots(i)`: both counts of ladder size `i`).
fn pressure_at(
    snap: &ClusterSnapshot,
    (pending, slots): (&[usize], &dyn Fn(usize) -> (u64, u64)),
    rules: &ScoringRules,
    now: Time,
) -> f64 {
    let ladder = &rules.ladder;
    let urgencies = pending.iter().filter_map(|p| {
        let s = fragmentation::snap(snap.pods[*p].gpus, ladder);
        let i = ladder.iter().position(|l| *l == s)?;
        let (observed, best) = slots(i);
        (observed == 0 && best >= 1)
            .then(|| fragmentation::urgency(pending_minutes(snap, *p, now), rules.tau_minutes))
    });
    fragmentation::pending_pressure(urgencies)
}

/// The longest wait at `now` among `pending`, minutes (0 for none).
fn oldest_at(snap: &ClusterSnapshot, pending: &[usize], now: Time) -> f64 {
    pending
        .iter()
        .map(|p| pending_minutes(snap, *p, now))
        .fold(0.0, f64::max)
}

/// Whether a report's figures move with the time: a pending pod with a recorded time makes
/// its wait, and so the oldest wait, the pressure and the score, a function of `now` at every
/// millisecond (`pending_minutes`), not at a few instants.
pub fn drifts(snap: &ClusterSnapshot, report: &PoolReport) -> bool {
    report.pending.iter().any(|p| {
        snap.pods
            .get(*p)
            .is_some_and(|p| p.unschedulable_since.or(p.created).is_some())
    })
}

/// Moves `report` (scored by `score_pool` on `snap`) to `now`: the figures that read the time
/// (pressure, score, threshold, oldest waits) computed by the same functions `score_pool`
/// calls, from the slot counts the report keeps. Returns whether `above_threshold` changed
/// (the decision pass reads it; nothing else it reads moves with the time).
pub fn retime_pool(
    snap: &ClusterSnapshot,
    report: &mut PoolReport,
    rules: &ScoringRules,
    now: Time,
) -> bool {
    let sizes = &report.sizes;
    let slots = |i: usize| {
        sizes
            .get(i)
            .map_or((0, 0), |s| (s.slots_observed, s.slots_best))
    };
    let pressure = pressure_at(snap, (&report.pending, &slots), rules, now);
    let score = fragmentation::score(report.reclaimable, pressure);
    let above = score > rules.threshold;
    let flipped = above != report.above_threshold;
    report.pending_pressure = pressure;
    report.score = score;
    report.above_threshold = above;
    report.oldest_pending_minutes = oldest_at(snap, &report.pending, now);
    for size in &mut report.pending_sizes {
        let same = report
            .pending
            .iter()
            .filter(|p| snap.pods[**p].gpus == size.gpus);
        size.oldest_minutes = same
            .map(|p| pending_minutes(snap, *p, now))
            .fold(f64::MIN, f64::max);
    }
    flipped
}

/// Position of each node's bin in `observed_bins`, by node index.
fn bin_positions(observed_bins: &[(usize, Bin)]) -> Vec<Option<usize>> {
    let len = observed_bins.iter().map(|(n, _)| n + 1).max().unwrap_or(0);
    let mut of = vec![None; len];
    for (b, (n, _)) in observed_bins.iter().enumerate() {
        of[*n] = Some(b);
    }
    of
}

fn dominant_resource(snap: &ClusterSnapshot, nodes: &[usize]) -> String {
    let mut counts: HashMap<&str, usize> = HashMap::default();
    // The nodes of a pool share one resource name (one shared text in a live snapshot): runs
    // of the same name are counted first and hashed once per run, not once per node.
    let mut run: Option<(&Name, usize)> = None;
    for n in nodes {
        let Some(r) = snap.nodes[*n].gpu_resource.as_ref() else {
            continue;
        };
        match &mut run {
            Some((seen, count)) if same(seen, r) => *count += 1,
            _ => {
                if let Some((seen, count)) = run.replace((r, 1)) {
                    *counts.entry(seen).or_default() += count;
                }
            }
        }
    }
    if let Some((seen, count)) = run {
        *counts.entry(seen).or_default() += count;
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(r, _)| r.to_string())
        .unwrap_or_default()
}
