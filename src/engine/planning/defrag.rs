//! Alfred's defragmentation policy (`alfred.md` §6.3–§6.4): per open pool, advice for
//! MultiNode and RawDeployment components, and for OMENative Instances the row of each
//! Instance's decision (`decision.rs`: eligibility, surge plan, benefit − cost, boosts,
//! maintenance windows) with its hints and planned move.
//!
//! Owns: `defrag_rows_keyed`, `component_rows`, `rows_read_pool_profile`. Pure.

use crate::engine::fast::{identity_key, rank_by_score, IdentityKey};
use crate::engine::model::vocab::{AdvisoryReason, Outcome, Policy, Reason};
use crate::engine::model::Name;
use crate::engine::planning::decision::{omenative_decision, InstanceOutcome};
use crate::engine::planning::moves::MoveRow;
use crate::engine::planning::surge::SurgePlan;
use crate::engine::planning::PlanContext;
use crate::engine::workloads::in_cooldown;
use crate::engine::workloads::model_check;
use crate::engine::workloads::{cooldown_minutes, is_movable};
use crate::engine::workloads::{Component, DeploymentMode, InstanceVerdict};

/// The defragmentation rows in generation order with each row's identity key and, when
/// `track` is set, its component (aligned), and the ranked order (`defrag_rows` is `rows`
/// permuted by it). Moving rows is left to the caller.
pub fn defrag_rows_keyed(ctx: &PlanContext<'_>, track: bool) -> KeyedRows {
    if !ctx.cfg.policies.defragmentation.enabled {
        return KeyedRows::default();
    }
    let open = |p: usize| ctx.pools[p].above_threshold || ctx.pools[p].advisory_open;
    // At most one row per Instance or component: one allocation, rows never move on growth.
    let bound: usize = ctx
        .workloads
        .components
        .iter()
        .map(|c| c.instances.len().max(1))
        .sum();
    let mut rows = Vec::with_capacity(bound);
    let mut keys = Vec::with_capacity(bound);
    let mut owners = Vec::with_capacity(if track { bound } else { 0 });
    for (c, comp) in ctx.workloads.components.iter().enumerate() {
        let before = rows.len();
        push_rows(ctx, c, &open, &mut rows);
        let ranks = ctx.workload_ranks;
        keys.extend(
            rows[before..]
                .iter()
                .map(|r| identity_key(ranks, comp, r.instance)),
        );
        if track {
            owners.resize(rows.len(), Some(c));
        }
    }
    // The sort reads compact per-row keys, not the rows themselves.
    let scores: Vec<f64> = rows.iter().map(|r| r.score).collect();
    let footprints: Vec<u32> = rows.iter().map(|r| r.footprint).collect();
    let order = rank_by_score(&scores, &footprints, &keys);
    KeyedRows {
        rows,
        keys,
        owners,
        order,
    }
}

/// Defragmentation rows in generation order, with what the pass sorts and tracks them by.
#[derive(Debug, Default)]
pub struct KeyedRows {
    /// The rows.
    pub rows: Vec<MoveRow>,
    /// Each row's identity key.
    pub keys: Vec<IdentityKey>,
    /// Each row's component (index into `Workloads::components`), when tracked.
    pub owners: Vec<Option<usize>>,
    /// The ranked order (positions into `rows`).
    pub order: Vec<usize>,
}

/// Appends the rows of component `c` in generation order.
fn push_rows(
    ctx: &PlanContext<'_>,
    c: usize,
    open: &dyn Fn(usize) -> bool,
    rows: &mut Vec<MoveRow>,
) {
    match ctx.workloads.components[c].mode {
        DeploymentMode::MultiNode => rows.extend(lws_row(ctx, c, open)),
        DeploymentMode::RawDeployment => raw_rows(ctx, c, open, rows),
        DeploymentMode::OMENative => omenative_rows(ctx, c, open, rows),
        DeploymentMode::VirtualDeployment => {}
    }
}

/// The defragmentation rows of components `components`, as the pass generates them before
/// ranking, each with its component: a component's rows read its own Instances, verdicts and
/// facts, the pools its pods sit in and the config, nothing of other components.
pub fn component_rows(ctx: &PlanContext<'_>, components: &[usize]) -> (Vec<MoveRow>, Vec<usize>) {
    let (mut rows, mut owners) = (Vec::new(), Vec::new());
    if !ctx.cfg.policies.defragmentation.enabled {
        return (rows, owners);
    }
    let open = |p: usize| ctx.pools[p].above_threshold || ctx.pools[p].advisory_open;
    for &c in components {
        if c < ctx.workloads.components.len() {
            push_rows(ctx, c, &open, &mut rows);
            owners.resize(rows.len(), c);
        }
    }
    (rows, owners)
}

/// Whether the rows of `comp` may read more of a pool than whether it is open and above its
/// threshold: its profile (bins, weights, slots), targets, pending pods or node states. Only
/// an OMENative Instance whose defragmentation verdict is not a refusal gets past those two
/// flags (`omenative_rows`); Raw and LWS advice, a component-wide row and a refused
/// Instance's advice read the flags alone. `comp` is component `c`; `verdicts` hold its
/// verdicts (others are skipped; an Instance's last one counts, as in the pass).
/// Conservative: a component whose model check fails counts.
pub fn rows_read_pool_profile(c: usize, comp: &Component, verdicts: &[InstanceVerdict]) -> bool {
    comp.mode == DeploymentMode::OMENative
        && (0..comp.instances.len()).any(|i| {
            let mut own = verdicts.iter().rev();
            let verdict = own.find(|v| v.component == c && v.instance == i);
            verdict.is_none_or(|v| v.defrag.is_ok())
        })
}

fn identity(ctx: &PlanContext<'_>, comp: &Component, instance: i64) -> (Name, Name, i64) {
    (
        ctx.workload_key(comp.isvc),
        ctx.component_name(comp.component),
        instance,
    )
}

/// Movable, no active migration and not cooling down: the gate of Raw and LWS advice.
fn advisable(ctx: &PlanContext<'_>, comp: &Component) -> bool {
    let isvc = &ctx.snap.isvcs[comp.isvc];
    let state = &ctx.workloads.migrations[comp.isvc];
    let window = cooldown_minutes(isvc, ctx.rules.per_workload_cooldown_minutes);
    is_movable(isvc, ctx.rules.default_movable)
        && state.active == 0
        && !in_cooldown(state.last_migration, window, ctx.now)
}

fn lws_row(ctx: &PlanContext<'_>, c: usize, open: &dyn Fn(usize) -> bool) -> Option<MoveRow> {
    let comp = &ctx.workloads.components[c];
    if !ctx.cfg.lws_recommendations_enabled || !advisable(ctx, comp) {
        return None;
    }
    component_row(ctx, c, open, AdvisoryReason::LwsMigrationUnsupported)
}

/// One component-wide row (`instance -1`) with `reason`, emitted only when the component's
/// primary pool (the pool holding most of its GPUs, ties by pool index = name order) is open;
/// `fromNode` is the node holding most of its GPUs.
fn component_row(
    ctx: &PlanContext<'_>,
    c: usize,
    open: &dyn Fn(usize) -> bool,
    reason: AdvisoryReason,
) -> Option<MoveRow> {
    let comp = &ctx.workloads.components[c];
    let mut per_pool: Vec<(usize, u32)> = Vec::new();
    let mut per_node: Vec<(usize, u32)> = Vec::new();
    for facts in ctx.component_facts(c) {
        for (pod, gpus) in ctx.footprints(facts) {
            let Some(n) = ctx.node_of(*pod) else { continue };
            add(&mut per_node, n, *gpus);
            if let Some(p) = ctx.pool_of_node(n) {
                add(&mut per_pool, p, *gpus);
            }
        }
    }
    let primary = per_pool
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))?;
    if !open(primary.0) {
        return None;
    }
    let from = per_node
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| ctx.index.cmp_nodes(b.0, a.0)))
        .map(|(n, _)| ctx.node_name(*n));
    let id = identity(ctx, comp, -1);
    Some(MoveRow::advice(
        Policy::Defragmentation,
        Reason::Fragmentation,
        id,
        reason,
        from,
        0.0,
    ))
}

fn add(acc: &mut Vec<(usize, u32)>, key: usize, gpus: u32) {
    match acc.iter_mut().find(|(k, _)| *k == key) {
        Some((_, g)) => *g += gpus,
        None => acc.push((key, gpus)),
    }
}

fn raw_rows(
    ctx: &PlanContext<'_>,
    c: usize,
    open: &dyn Fn(usize) -> bool,
    rows: &mut Vec<MoveRow>,
) {
    let comp = &ctx.workloads.components[c];
    if !advisable(ctx, comp) {
        return;
    }
    for (i, inst) in comp.instances.iter().enumerate() {
        let Some(&pod) = inst.pods.first() else {
            continue;
        };
        let p = &ctx.snap.pods[pod];
        let pool = ctx.facts_of(c, i).and_then(|f| f.pool);
        if p.gpus == 0 || p.terminating || !pool.is_some_and(open) {
            continue;
        }
        // The pod's node is in an open pool, so it is a snapshot node: its name comes from
        // the context's column (warm) rather than the pod's own handle (cold).
        let from = ctx
            .node_of(pod)
            .map(|n| ctx.node_name(n))
            .or_else(|| p.node.clone());
        let id = identity(ctx, comp, inst.index);
        let mut row = MoveRow::advice(
            Policy::Defragmentation,
            Reason::Fragmentation,
            id,
            AdvisoryReason::RawDeploymentMigrationUnsupported,
            from,
            0.0,
        );
        row.footprint = inst.gpus;
        rows.push(row);
    }
}

fn omenative_rows(
    ctx: &PlanContext<'_>,
    c: usize,
    open: &dyn Fn(usize) -> bool,
    rows: &mut Vec<MoveRow>,
) {
    let comp = &ctx.workloads.components[c];
    if let Err(reason) = model_check(ctx.snap, &ctx.snap.isvcs[comp.isvc]) {
        // Component-wide and ahead of every Instance check (alfred.md §6.4 step 1).
        rows.extend(component_row(ctx, c, open, reason));
        return;
    }
    for (i, inst) in comp.instances.iter().enumerate() {
        let decision = omenative_decision(ctx, (c, i), open);
        let (Some(facts), Some(pool)) = (ctx.facts_of(c, i), decision.pool) else {
            continue;
        };
        let from = facts.from.map(|n| ctx.node_name(n));
        let id = identity(ctx, comp, inst.index);
        // Each path below pushes exactly one row: the closure takes the names instead of
        // cloning them (an `Arc` count on a cold line per clone, one per row).
        let advice = move |reason: AdvisoryReason, score: f64| {
            let (policy, class) = (Policy::Defragmentation, Reason::Fragmentation);
            let mut row = MoveRow::advice(policy, class, id, reason, from, score);
            row.footprint = inst.gpus;
            row
        };
        let (score, emergency, placements) = match decision.outcome {
            InstanceOutcome::Skip => continue,
            InstanceOutcome::Advice(reason, score) => {
                rows.push(advice(reason, score));
                continue;
            }
            InstanceOutcome::Move {
                score,
                emergency,
                placements,
            } => (score, emergency, placements),
        };
        let plan = SurgePlan {
            hints: ctx.hints(comp, facts, pool),
            placements,
        };
        let mut row = advice(AdvisoryReason::NonExecutableObservedFragmentation, score);
        row.score = decision.boosted;
        row.emergency = emergency;
        row.hint_targets = ctx.names(&plan.hints);
        match ctx.recommend_only_reason(inst) {
            Some(reason) => row.advisory_reason = Some(reason),
            None => {
                row.outcome = Outcome::Candidate;
                row.advisory_reason = None;
            }
        }
        row.plan = ctx.planned_move((c, i), facts, pool, &plan).map(Box::new);
        rows.push(row);
    }
}

/// `emergencyPendingAgeMinutes`: a pending pod strictly older than this makes an emergency.
pub(super) fn emergency_age(cfg: &crate::engine::alfred_config::AlfredConfig) -> chrono::Duration {
    chrono::Duration::minutes(i64::from(cfg.emergency_pending_age_minutes))
}
