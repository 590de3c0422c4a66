//! The moves after a change. The decision pass is global in three ways: the arbiter walks every
//! executable candidate in one order (claims, caps), the node-health policy ranks its rows and
//! reads every live GPU pod, and every defragmentation row of a pool reads that pool's
//! fragmentation profile (its benefit is the profile's change). What is left per component is
//! an advisory defragmentation row: it reads its own component, verdicts and facts and the
//! pools its pods sit in. So when no health row exists, the rows being replaced and their
//! replacements are all advice, and the components are known, only those components' rows are
//! built again (`component_rows`) and put where the pass's total order (`row_order_key`) puts
//! them; otherwise the pass runs in full.
//!
//! Owns: `refresh_moves`. Pure; must not import anything outside `std` and `engine`.

use crate::engine::analysis::incremental::parts::Parts;
use crate::engine::analysis::incremental::stages::MovesRerun;
use crate::engine::analysis::{Analysis, AnalysisOptions};
use crate::engine::model::vocab::{Outcome, Policy};
use crate::engine::model::ClusterSnapshot;
use crate::engine::planning::{
    component_rows, decision_pass_owned, health_rows_possible, row_order_key, MoveRow, PlanContext,
    PlanInputs,
};

/// New rows past which they are merged in one pass instead of inserted one by one.
const INSERT_LIMIT: usize = 32;

/// Brings the moves up to date: `components` may have new rows, and every component with
/// pods in `pools` too (their profile or reports changed).
pub fn refresh_moves(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    analysis: &mut Analysis,
    parts: &mut Parts,
    (mut components, pools): (Vec<usize>, Vec<usize>),
) -> MovesRerun {
    if !pools.is_empty() {
        for (c, demand) in parts.demand.iter().enumerate() {
            if demand
                .iter()
                .any(|p| parts.pod_pool(*p).is_some_and(|q| pools.contains(&q)))
            {
                components.push(c);
            }
        }
    }
    components.sort_unstable();
    components.dedup();
    if partial_pass(snap, opts, analysis, parts, &components) {
        MovesRerun::Components(components.len())
    } else {
        full_pass(snap, opts, analysis, parts);
        MovesRerun::Full
    }
}

/// The whole decision pass.
pub fn full_pass(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    analysis: &mut Analysis,
    parts: &mut Parts,
) {
    let ctx = PlanContext::new(
        snap,
        &parts.index,
        &analysis.nodes,
        &analysis.workloads,
        &analysis.pools,
        &analysis.verdicts,
        (&analysis.config, &parts.rules, opts.now),
    );
    let (moves, owners) = decision_pass_owned(&ctx, &analysis.journal);
    analysis.moves = moves;
    parts.move_owners = owners;
}

/// Rebuilds the rows of `components` alone, when that gives the pass's result (see the
/// module doc); `false` (nothing changed) when it might not.
fn partial_pass(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    analysis: &mut Analysis,
    parts: &mut Parts,
    components: &[usize],
) -> bool {
    let count = analysis.workloads.components.len();
    let mut only = vec![false; count];
    for &c in components {
        match only.get_mut(c) {
            Some(slot) => *slot = true,
            None => return false,
        }
    }
    // A row's component must be known, and one `ns/name` one ISVC (a row names its
    // component by identity).
    let owned = parts.move_owners.iter().all(Option::is_some);
    let identities = components.iter().all(|&c| {
        let isvc = analysis.workloads.components[c].isvc;
        !parts.routes.shares_key(isvc)
    });
    // Health rows now, or before (a node just became healthy): the full pass ranks them.
    let health = health_rows_possible(&analysis.config, &analysis.nodes)
        || analysis
            .moves
            .iter()
            .any(|r| r.policy == Policy::NodeHealth);
    if !owned || !identities || health || parts.move_owners.len() != analysis.moves.len() {
        return false;
    }
    let mine = |owner: &Option<usize>| owner.is_some_and(|c| only[c]);
    let advice = |r: &MoveRow| r.outcome == Outcome::Advisory;
    let old_advice = analysis
        .moves
        .iter()
        .zip(&parts.move_owners)
        .all(|(r, o)| !mine(o) || advice(r));
    if !old_advice {
        return false;
    }
    let ctx = PlanContext::for_components(
        snap,
        &parts.index,
        PlanInputs {
            states: &analysis.nodes,
            workloads: &analysis.workloads,
            pools: &analysis.pools,
            verdicts: &analysis.verdicts,
        },
        (&analysis.config, &parts.rules, opts.now),
        Some(&only),
    );
    let (fresh, owners) = component_rows(&ctx, components);
    drop(ctx);
    if !fresh.iter().all(advice) {
        return false;
    }
    let owners = owners.into_iter().map(Some).collect();
    let mut kept = std::mem::take(&mut analysis.moves);
    let mut kept_owners = std::mem::take(&mut parts.move_owners);
    retain_others(&mut kept, &mut kept_owners, &mine);
    match merge(kept, kept_owners, fresh, owners) {
        Ok((moves, owners)) => {
            analysis.moves = moves;
            parts.move_owners = owners;
            true
        }
        Err((moves, owners)) => {
            // Equal keys: the pass order decides, which only the full pass knows.
            analysis.moves = moves;
            parts.move_owners = owners;
            false
        }
    }
}

/// Drops the rows `mine` claims, with their owners.
fn retain_others(
    rows: &mut Vec<MoveRow>,
    owners: &mut Vec<Option<usize>>,
    mine: &dyn Fn(&Option<usize>) -> bool,
) {
    let keep: Vec<bool> = owners.iter().map(|o| !mine(o)).collect();
    let mut flags = keep.iter();
    rows.retain(|_| flags.next().copied().unwrap_or(true));
    let mut flags = keep.iter();
    owners.retain(|_| flags.next().copied().unwrap_or(true));
}

type Rows = (Vec<MoveRow>, Vec<Option<usize>>);

/// Merges `fresh` rows into `rows` (in `row_order_key` order); `Err` with everything in some
/// order when two rows share a key.
fn merge(
    mut rows: Vec<MoveRow>,
    mut owners: Vec<Option<usize>>,
    fresh: Vec<MoveRow>,
    fresh_owners: Vec<Option<usize>>,
) -> Result<Rows, Rows> {
    let mut fresh: Vec<(MoveRow, Option<usize>)> = fresh.into_iter().zip(fresh_owners).collect();
    fresh.sort_by(|a, b| row_order_key(&a.0).cmp(&row_order_key(&b.0)));
    let distinct = fresh
        .windows(2)
        .all(|w| row_order_key(&w[0].0) != row_order_key(&w[1].0));
    if fresh.len() <= INSERT_LIMIT {
        let mut ok = distinct;
        for (row, owner) in fresh {
            let key = row_order_key(&row);
            let at = rows.partition_point(|r| row_order_key(r) < key);
            ok &= rows.get(at).is_none_or(|r| row_order_key(r) != key);
            rows.insert(at, row);
            owners.insert(at, owner);
        }
        return if ok {
            Ok((rows, owners))
        } else {
            Err((rows, owners))
        };
    }
    let mut out = Vec::with_capacity(rows.len() + fresh.len());
    let mut out_owners = Vec::with_capacity(out.capacity());
    let mut ok = distinct;
    let mut fresh = fresh.into_iter().peekable();
    for (row, owner) in rows.into_iter().zip(owners) {
        while let Some((f, _)) = fresh.peek() {
            match row_order_key(f).cmp(&row_order_key(&row)) {
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Equal => ok = false,
                std::cmp::Ordering::Greater => break,
            }
            if let Some((f, o)) = fresh.next() {
                out.push(f);
                out_owners.push(o);
            }
        }
        out.push(row);
        out_owners.push(owner);
    }
    for (f, o) in fresh {
        out.push(f);
        out_owners.push(o);
    }
    if ok {
        Ok((out, out_owners))
    } else {
        Err((out, out_owners))
    }
}
