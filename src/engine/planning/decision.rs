//! Alfred's decision on one OMENative Instance (`alfred.md` §6.4 steps 2–6): eligibility,
//! the pool's threshold, the surge placements, benefit − cost, the emergency and spot boosts
//! and maintenance windows — before any row is built. The rows (`defrag.rs`) and their
//! rescoring after a pool profile changed (`rescored_advice`) read this one function.
//!
//! Owns: `omenative_decision`, `rescored_advice`, `RescoredAdvice`. Pure.

use crate::engine::model::vocab::AdvisoryReason;
use crate::engine::planning::defrag::emergency_age;
use crate::engine::planning::moves::MOVE_COST;
use crate::engine::planning::{InstanceFacts, PlanContext};
use crate::engine::workloads::model_check;
use crate::engine::workloads::{Component, DeploymentMode};

/// What the policy makes of one OMENative Instance whose model check passed, before a row is
/// built: the one function both the rows and their rescoring (`rescored_advice`) read.
pub(super) struct InstanceDecision {
    /// The pool the row is about (`None`: no row).
    pub(super) pool: Option<usize>,
    /// The decision.
    pub(super) outcome: InstanceOutcome,
    /// A move's score with its boosts (0 otherwise).
    pub(super) boosted: f64,
}

/// See `InstanceDecision`.
pub(super) enum InstanceOutcome {
    /// No row: no facts, a closed pool, no GPUs, or a move outside every maintenance window.
    Skip,
    /// An advisory row with this reason and score.
    Advice(AdvisoryReason, f64),
    /// A move worth making: benefit − cost, the emergency boost, the placements.
    Move {
        score: f64,
        emergency: bool,
        placements: Vec<(usize, usize)>,
    },
}

/// The decision on Instance `i` of component `c` (an OMENative component whose model check
/// passed), as `omenative_rows` makes it (alfred.md §6.4 steps 2–6).
pub(super) fn omenative_decision(
    ctx: &PlanContext<'_>,
    (c, i): (usize, usize),
    open: &dyn Fn(usize) -> bool,
) -> InstanceDecision {
    let skip = InstanceDecision {
        pool: None,
        outcome: InstanceOutcome::Skip,
        boosted: 0.0,
    };
    let comp = &ctx.workloads.components[c];
    let (Some(inst), Some(facts)) = (comp.instances.get(i), ctx.facts_of(c, i)) else {
        return skip;
    };
    let Some(pool) = facts.pool.filter(|p| open(*p)) else {
        return skip;
    };
    if inst.gpus == 0 {
        return skip;
    }
    let advice = |reason: AdvisoryReason, score: f64| InstanceDecision {
        pool: Some(pool),
        outcome: InstanceOutcome::Advice(reason, score),
        boosted: 0.0,
    };
    if let Some(Err(reason)) = ctx.verdict(c, i).map(|v| &v.defrag) {
        return advice(reason.clone(), 0.0);
    }
    if !ctx.pools[pool].above_threshold {
        return advice(AdvisoryReason::NonExecutableObservedFragmentation, 0.0);
    }
    // Placements first: the hints matter only for a move worth making.
    let placements = ctx
        .placements(comp, facts, pool)
        .filter(|_| facts.from.is_some());
    let Some(placements) = placements else {
        return advice(AdvisoryReason::NoSurgeHeadroom, 0.0);
    };
    let cost = ctx
        .cfg
        .policies
        .defragmentation
        .aggressiveness
        .cost_weight()
        * MOVE_COST;
    let before = ctx.profiles[pool].observed;
    let benefit = ctx
        .after_placements(pool, &placements)
        .map_or(0.0, |after| before - after);
    let score = benefit - cost;
    if score <= 0.0 {
        return advice(AdvisoryReason::NonExecutableObservedFragmentation, score);
    }
    let emergency = is_emergency(ctx, comp, facts, pool);
    let spot = spot_boost(ctx, comp, facts);
    if !emergency && !ctx.cfg.defrag_window_open_at(ctx.now) {
        return skip; // Outside every maintenance window: the move is dropped, advice stays.
    }
    InstanceDecision {
        pool: Some(pool),
        boosted: score * if emergency { 2.0 } else { 1.0 } * if spot { 1.25 } else { 1.0 },
        outcome: InstanceOutcome::Move {
            score,
            emergency,
            placements,
        },
    }
}

/// The advisory reason and score of every row component `c` gets, by Instance index, when
/// each of them is plain advice (no plan, hints or boosts): what those rows' reasons and
/// scores become, the rest of each row read from the component alone (its identity, source
/// node and footprint). `None` when the component's rows are not all plain advice (a failed
/// model check, a move worth making), so only rebuilding them gives them.
pub fn rescored_advice(ctx: &PlanContext<'_>, c: usize) -> Option<Vec<RescoredAdvice>> {
    let comp = ctx.workloads.components.get(c)?;
    if !ctx.cfg.policies.defragmentation.enabled || comp.mode != DeploymentMode::OMENative {
        return None;
    }
    model_check(ctx.snap, &ctx.snap.isvcs[comp.isvc]).ok()?;
    let open = |p: usize| ctx.pools[p].above_threshold || ctx.pools[p].advisory_open;
    let mut out = Vec::with_capacity(comp.instances.len());
    for (i, inst) in comp.instances.iter().enumerate() {
        let decision = omenative_decision(ctx, (c, i), &open);
        match decision.outcome {
            InstanceOutcome::Skip => {}
            InstanceOutcome::Advice(reason, score) => out.push(RescoredAdvice {
                instance: inst.index,
                from: ctx.facts_of(c, i).and_then(|f| f.from),
                footprint: inst.gpus,
                reason,
                score,
            }),
            InstanceOutcome::Move { .. } => return None,
        }
    }
    Some(out)
}

/// One plain advisory row as `omenative_rows` builds it: its Instance index, source node,
/// footprint, reason and score.
#[derive(Debug, Clone, PartialEq)]
pub struct RescoredAdvice {
    /// `Instance::index` (the row's `instance`).
    pub instance: i64,
    /// Source node index (the row's `from_node`).
    pub from: Option<usize>,
    /// The row's footprint.
    pub footprint: u32,
    /// The row's advisory reason.
    pub reason: AdvisoryReason,
    /// The row's score.
    pub score: f64,
}

/// Emergency ×2: a pending pod of the pool older than `emergencyPendingAgeMinutes`,
/// tenant-compatible, that no single bin seats now but one does after the move.
fn is_emergency(
    ctx: &PlanContext<'_>,
    comp: &Component,
    facts: &InstanceFacts,
    pool: usize,
) -> bool {
    let isvc = &ctx.snap.isvcs[comp.isvc];
    let profile = &ctx.profiles[pool];
    let Some(from) = facts.from else { return false };
    let moved_gpus: u32 = ctx.footprints(facts).iter().map(|(_, g)| *g).sum();
    let after_max = profile
        .bin(from)
        .map_or(0, |b| b.free.saturating_add(moved_gpus).min(b.cap));
    let tenant = isvc
        .annotation("alfred.ome.io/tenant-group")
        .filter(|t| !t.is_empty());
    let age_limit = emergency_age(ctx.cfg);
    ctx.pools[pool].pending.iter().any(|p| {
        let pod = &ctx.snap.pods[*p];
        let since = pod.unschedulable_since.or(pod.created);
        let old = since.is_some_and(|t| ctx.now - t > age_limit);
        let same_tenant = pod.namespace == *isvc.namespace()
            || (ctx.cfg.allow_cross_tenant_optimization
                && tenant.is_some()
                && pod_tenant(ctx, *p) == tenant);
        old && same_tenant && profile.max_free < pod.gpus && after_max >= pod.gpus
    })
}

fn pod_tenant<'a>(ctx: &'a PlanContext<'_>, pod: usize) -> Option<&'a str> {
    let p = &ctx.snap.pods[pod];
    let name = p.ome.isvc.as_deref()?;
    ctx.snap
        .isvcs
        .iter()
        .find(|w| *w.namespace() == p.namespace && w.name().as_ref() == name)?
        .annotation("alfred.ome.io/tenant-group")
        .filter(|t| !t.is_empty())
}

/// Spot ×1.25: the source is preemptible and the ISVC says `migrate`, or says nothing and
/// `spotPolicy.preferAsSource` is on; `ignore` disables it.
fn spot_boost(ctx: &PlanContext<'_>, comp: &Component, facts: &InstanceFacts) -> bool {
    let preemptible = facts.from.is_some_and(|n| ctx.states[n].preemptible);
    match ctx.snap.isvcs[comp.isvc].annotation("alfred.ome.io/spot-policy") {
        Some("migrate") => preemptible,
        Some("ignore") => false,
        _ => preemptible && ctx.cfg.spot_policy.prefer_as_source,
    }
}
