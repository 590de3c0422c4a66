//! The moves after a change. The decision pass is global in three ways: the arbiter walks every
//! executable candidate in one order (claims, caps), the node-health policy ranks its rows and
//! reads every live GPU pod, and every defragmentation row of a pool past eligibility reads
//! that pool's fragmentation profile (its benefit is the profile's change). What is left per component is
//! an advisory defragmentation row: it reads its own component, verdicts and facts and the
//! pools its pods sit in. So when no health row exists, the rows being replaced and their
//! replacements are all advice, and the components are known, only those components' rows are
//! built again (`component_rows`) and put where the pass's total order (`row_order_key`) puts
//! them; otherwise the pass runs in full. Of a pool, Raw and LWS advice and a refused
//! Instance's advice read only whether it is open and above its threshold: a pool whose
//! profile changed with those flags the same rebuilds only the rows that read more
//! (`rows_read_pool_profile`), and a component whose rows only the profile moved is rescored
//! (`rescore.rs`: its plain advice rows take new reasons and scores) rather than rebuilt.
//! Replaced rows leave the list and their replacements are merged in place
//! (`fast::replace_sorted`: only the rows past the first changed place move).
//!
//! Owns: `refresh_moves`. Pure.

use crate::engine::analysis::incremental::parts::{has_health_rows, planned, Parts};
use crate::engine::analysis::incremental::rescore::{rescore_rows, Rescored};
use crate::engine::analysis::incremental::stages::MovesRerun;
use crate::engine::analysis::{Analysis, AnalysisOptions};
use crate::engine::fast::{
    descending_score_key, identity_key, permute, replace_sorted, IdentityKey,
};
use crate::engine::model::vocab::Outcome;
use crate::engine::model::ClusterSnapshot;
use crate::engine::planning::{
    component_rows, decision_pass_owned, health_rows_possible, row_order_key,
    rows_read_pool_profile, Focus, MoveRow, PlanContext, PlanInputs,
};
use crate::engine::workloads::Workloads;

/// Stale and new rows past which they are merged in one pass instead of placed one by one.
const INSERT_LIMIT: usize = 32;

/// The owner that marks a stale row while fresh rows take stale rows' places.
const STALE: usize = usize::MAX;

/// Brings the moves up to date: `components` may have new rows, every component with pods
/// in `pools` too (their flags changed), and every component with pods in `profiles` whose
/// rows read more of a pool than its flags (`rows_read_pool_profile`).
pub fn refresh_moves(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    analysis: &mut Analysis,
    parts: &mut Parts,
    (mut components, pools, profiles): (Vec<usize>, Vec<usize>, Vec<usize>),
) -> MovesRerun {
    // Components whose rows only the pool profile moved: rescored when they stay plain
    // advice (`rescore.rs`), rebuilt otherwise.
    let mut rescore = Vec::new();
    if !pools.is_empty() || !profiles.is_empty() {
        let comps = &analysis.workloads.components;
        for c in 0..parts.demand.len() {
            let pools_of = || {
                parts
                    .demand
                    .get(c)
                    .iter()
                    .filter_map(|p| parts.pod_pool(*p))
            };
            let all = pools_of().any(|q| pools.contains(&q));
            let reads = || {
                let starts = parts.verdict_starts.get(c..c + 2);
                let range = starts.map_or(0..0, |s| s[0]..s[1]);
                let verdicts = analysis.verdicts.get(range).unwrap_or(&[]);
                comps
                    .get(c)
                    .is_none_or(|comp| rows_read_pool_profile(c, comp, verdicts))
            };
            if all {
                components.push(c);
            } else if pools_of().any(|q| profiles.contains(&q)) && reads() {
                rescore.push(c);
            }
        }
    }
    components.sort_unstable();
    components.dedup();
    rescore.retain(|c| components.binary_search(c).is_err());
    let scope = (&components[..], &rescore[..]);
    let rerun = if partial_pass(snap, opts, analysis, parts, scope) {
        MovesRerun::Components(components.len() + rescore.len())
    } else {
        full_pass(snap, opts, analysis, parts);
        MovesRerun::Full
    };
    parts.planned_moves = planned(&analysis.moves);
    rerun
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
    parts.health_moves = has_health_rows(&moves);
    analysis.moves = moves.into();
    parts.move_owners = owners;
}

/// Rebuilds the rows of `components` alone and rescores those of `rescore` (rebuilding
/// those it cannot), when that gives the pass's result (see the module doc); `false`
/// (nothing changed) when it might not.
fn partial_pass(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    analysis: &mut Analysis,
    parts: &mut Parts,
    (components, rescore): (&[usize], &[usize]),
) -> bool {
    let Some(focus) = scope(analysis, parts, components.iter().chain(rescore)) else {
        return false;
    };
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
        Some(Focus {
            components: &focus,
            node_pool: &parts.node_pool,
        }),
    );
    let rescored = rescore_rows(&ctx, &analysis.moves, &parts.move_owners, rescore);
    let mut rebuild: Vec<usize> = components
        .iter()
        .chain(&rescored.rebuild)
        .copied()
        .collect();
    rebuild.sort_unstable();
    let (fresh, owners) = component_rows(&ctx, &rebuild);
    drop(ctx);
    let fresh = fresh
        .into_iter()
        .zip(owners.into_iter().map(Some))
        .collect();
    splice(analysis, parts, (&rebuild, fresh), &rescored)
}

/// The components, ascending and distinct (`None` when a row's place cannot be found
/// without the full pass): every row's component known (no health row: they are ranked by the
/// full pass, and only they can lack a component), and one `ns/name` one ISVC (a row names
/// its component by identity).
fn scope<'a>(
    analysis: &Analysis,
    parts: &Parts,
    components: impl Iterator<Item = &'a usize>,
) -> Option<Vec<usize>> {
    let mut focus: Vec<usize> = components.copied().collect();
    focus.sort_unstable();
    focus.dedup();
    let comps = &analysis.workloads.components;
    let known = focus.last().is_none_or(|&c| c < comps.len());
    let identities = known
        && focus
            .iter()
            .all(|&c| !parts.routes.shares_key(comps[c].isvc));
    let health = parts.health_moves || health_rows_possible(&analysis.config, &analysis.nodes);
    let aligned = parts.move_owners.len() == analysis.moves.len();
    (identities && !health && aligned).then_some(focus)
}

/// Replaces the rows of the components `rebuild` by `fresh` and the rescored rows by their
/// new versions, each at its key's place; `false` when a row replaced or new is not advice
/// or two rows' keys are equal (their order is the pass's).
fn splice(
    analysis: &mut Analysis,
    parts: &mut Parts,
    (rebuild, mut fresh): (&[usize], Vec<(MoveRow, Option<usize>)>),
    rescored: &Rescored,
) -> bool {
    let advice = |r: &MoveRow| r.outcome == Outcome::Advisory;
    let mut stale = vec![false; analysis.moves.len()];
    let mut marked = vec![false; analysis.workloads.components.len()];
    for &c in rebuild {
        if let Some(slot) = marked.get_mut(c) {
            *slot = true;
        }
    }
    for (i, owner) in parts.move_owners.iter().enumerate() {
        if owner.is_some_and(|c| marked.get(c).copied().unwrap_or(false)) {
            if !advice(&analysis.moves[i]) {
                return false;
            }
            stale[i] = true;
        }
    }
    if !fresh.iter().all(|(r, _)| advice(r)) {
        return false;
    }
    // Rescored rows leave their places (still listed there until the merge, in key order)
    // and come back in with their new keys.
    for (at, row) in rescored.rows(&analysis.moves) {
        stale[at] = true;
        fresh.push((row, parts.move_owners[at]));
    }
    let fresh = in_key_order(&analysis.workloads, fresh);
    let mut rows = Rows {
        rows: std::mem::take(&mut analysis.moves),
        owners: std::mem::take(&mut parts.move_owners),
    };
    let places: Vec<usize> = (0..stale.len()).filter(|&i| stale[i]).collect();
    let distinct = if places.len() + fresh.len() <= INSERT_LIMIT {
        rows.swap_in(places, fresh)
    } else {
        rows.merge(&stale, fresh)
    };
    analysis.moves = rows.rows.into();
    parts.move_owners = rows.owners;
    // Equal keys: the pass order decides, which only the full pass knows.
    distinct
}

/// Move rows in the pass order with each row's component.
struct Rows {
    rows: Vec<MoveRow>,
    owners: Vec<Option<usize>>,
}

impl Rows {
    /// Whether the row at `at` has a key of its own (its neighbours' differ).
    fn distinct_at(&self, at: usize) -> bool {
        let key = row_order_key(&self.rows[at]);
        let before = at.checked_sub(1).and_then(|b| self.rows.get(b));
        before.is_none_or(|r| row_order_key(r) != key)
            && self
                .rows
                .get(at + 1)
                .is_none_or(|r| row_order_key(r) != key)
    }

    /// Few rows (`fresh` in key order): each fresh row takes a stale row's place and is rotated into its own (the
    /// rows between the two places move by one); extra stale rows are removed, extra fresh
    /// rows inserted. The stale rows still listed stay in key order, so every search is
    /// valid. Returns whether every placed row has a key of its own.
    fn swap_in(&mut self, stale: Vec<usize>, fresh: Vec<(MoveRow, Option<usize>)>) -> bool {
        // Stale rows are marked by their owner: rotations move them.
        for &at in &stale {
            self.owners[at] = Some(STALE);
        }
        let mut distinct = true;
        let mut fresh = fresh.into_iter();
        while let Some(at) = self.owners.iter().position(|o| *o == Some(STALE)) {
            let Some((row, owner)) = fresh.next() else {
                break;
            };
            self.rows[at] = row;
            self.owners[at] = owner;
            let placed = self.rotate_into_place(at);
            distinct &= self.distinct_at(placed);
        }
        while let Some(at) = self.owners.iter().rposition(|o| *o == Some(STALE)) {
            self.rows.remove(at);
            self.owners.remove(at);
        }
        for (row, owner) in fresh {
            let key = row_order_key(&row);
            let at = self.rows.partition_point(|r| row_order_key(r) < key);
            self.rows.insert(at, row);
            self.owners.insert(at, owner);
            distinct &= self.distinct_at(at);
        }
        distinct
    }

    /// Moves the row at `at` to its key's place among the others; returns where it went.
    fn rotate_into_place(&mut self, at: usize) -> usize {
        let key = row_order_key(&self.rows[at]);
        let (before, after) = (&self.rows[..at], &self.rows[at + 1..]);
        if before.last().is_some_and(|r| row_order_key(r) > key) {
            let to = before.partition_point(|r| row_order_key(r) <= key);
            self.rows[to..=at].rotate_right(1);
            self.owners[to..=at].rotate_right(1);
            to
        } else if after.first().is_some_and(|r| row_order_key(r) < key) {
            let to = at + after.partition_point(|r| row_order_key(r) < key);
            self.rows[at..=to].rotate_left(1);
            self.owners[at..=to].rotate_left(1);
            to
        } else {
            at
        }
    }

    /// Many rows (`fresh` in key order): the stale rows taken out and the fresh ones merged in, in place
    /// (`replace_sorted`: only the rows from the first changed place on move).
    fn merge(&mut self, stale: &[bool], fresh: Vec<(MoveRow, Option<usize>)>) -> bool {
        let cmp = |a: &MoveRow, b: &MoveRow| row_order_key(a).cmp(&row_order_key(b));
        replace_sorted(
            (&mut self.rows, &mut self.owners),
            &|i| stale.get(i).copied().unwrap_or(false),
            fresh,
            &cmp,
            // A slot the merge overwrites before it returns.
            &|(row, owner)| (row.clone(), *owner),
        )
    }
}

/// `fresh` sorted by `row_order_key` (stable): each row's key as integers (the identity by
/// its ISVC's rank, as the pass sorts, `fast::identity_key`), the positions sorted by key, then
/// each row moved once, rather than large rows moved at every step of the sort.
fn in_key_order(
    workloads: &Workloads,
    fresh: Vec<(MoveRow, Option<usize>)>,
) -> Vec<(MoveRow, Option<usize>)> {
    let ranks = &workloads.workload_ranks;
    let mut keyed: Vec<(IntegerKey, usize)> = fresh
        .iter()
        .enumerate()
        .map(|(k, (row, owner))| {
            let comp = owner.and_then(|c| workloads.components.get(c));
            let identity = comp.map(|comp| identity_key(ranks, comp, row.instance));
            let key = (
                u8::MAX - row.class(),
                row.outcome == Outcome::Advisory,
                descending_score_key(row.score),
                row.footprint,
                identity,
            );
            (key, k)
        })
        .collect();
    // Positions break ties: an unstable sort of distinct pairs is the stable order.
    keyed.sort_unstable();
    let order: Vec<usize> = keyed.into_iter().map(|(_, k)| k).collect();
    permute(fresh, &order)
}

/// `row_order_key` as integers for the rows of one policy built for components.
type IntegerKey = (u8, bool, u64, u32, Option<IdentityKey>);
