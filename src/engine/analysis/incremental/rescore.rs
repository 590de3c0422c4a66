//! Rescoring the rows a pool profile moved. A component whose rows read its pool's profile
//! but whose own inputs did not change gets, when every row it has and gets is plain advice
//! (no plan, hints or boosts), rows that differ from its old ones at most in their advisory
//! reasons and scores: `planning::rescored_advice` decides each Instance the way the rows are
//! built (placements, benefit, cost), and each old row takes its Instance's reason and score.
//! A row whose identity, source node, footprint or shape does not match its decision, or a
//! component with a row more or less, is rebuilt instead.
//!
//! Owns: `rescore_rows`, `Rescored`. Pure.

use crate::engine::model::vocab::{AdvisoryReason, Outcome, Policy, Reason};
use crate::engine::planning::{rescored_advice, MoveRow, PlanContext, RescoredAdvice};

/// The rows rescored in place and the components to rebuild instead.
#[derive(Debug, Default)]
pub struct Rescored {
    /// `(position, reason, score)` of each row whose reason or score changed.
    patches: Vec<(usize, AdvisoryReason, f64)>,
    /// Components whose rows only a rebuild gives.
    pub rebuild: Vec<usize>,
}

impl Rescored {
    /// The changed rows, each with its position in `moves`.
    pub fn rows<'a>(&'a self, moves: &'a [MoveRow]) -> impl Iterator<Item = (usize, MoveRow)> + 'a {
        self.patches.iter().filter_map(|(at, reason, score)| {
            let mut row = moves.get(*at)?.clone();
            row.advisory_reason = Some(reason.clone());
            row.score = *score;
            Some((*at, row))
        })
    }
}

/// Rescores the rows of `components` (sorted) in `moves` (each row's component in `owners`).
pub fn rescore_rows(
    ctx: &PlanContext<'_>,
    moves: &[MoveRow],
    owners: &[Option<usize>],
    components: &[usize],
) -> Rescored {
    let mut out = Rescored::default();
    if components.is_empty() {
        return out;
    }
    let wanted = |c: usize| components.binary_search(&c).is_ok();
    // `(component, position)` of every row of `components`, grouped by component.
    let mut rows: Vec<(usize, usize)> = (owners.iter().enumerate())
        .filter_map(|(at, o)| o.filter(|c| wanted(*c)).map(|c| (c, at)))
        .collect();
    rows.sort_unstable();
    for &c in components {
        let start = rows.partition_point(|(k, _)| *k < c);
        let end = rows.partition_point(|(k, _)| *k <= c);
        let at: Vec<usize> = rows[start..end].iter().map(|(_, at)| *at).collect();
        let matched = rescored_advice(ctx, c).and_then(|list| matches(ctx, moves, &at, &list));
        match matched {
            Some(patches) => out.patches.extend(patches),
            None => out.rebuild.push(c),
        }
    }
    out
}

/// Pairs the rows at `at` with the decisions `list` (one each, by Instance index): the
/// patches of those whose reason or score changed, `None` when a row and its decision differ
/// in anything else.
fn matches(
    ctx: &PlanContext<'_>,
    moves: &[MoveRow],
    at: &[usize],
    list: &[RescoredAdvice],
) -> Option<Vec<(usize, AdvisoryReason, f64)>> {
    if at.len() != list.len() {
        return None;
    }
    let mut used = vec![false; list.len()];
    let mut patches = Vec::new();
    for &p in at {
        let row = moves.get(p)?;
        let k = (0..list.len()).find(|&k| !used[k] && list[k].instance == row.instance)?;
        used[k] = true;
        let advice = &list[k];
        let from = |n: usize| ctx.snap.nodes.get(n).map(|node| &node.name);
        let same_from = match (&row.from_node, advice.from) {
            (Some(name), Some(n)) => from(n).is_some_and(|m| **m == **name),
            (None, None) => true,
            _ => false,
        };
        if !(same_from && advice.footprint == row.footprint && plain_advice(row)) {
            return None;
        }
        let same = row.advisory_reason.as_ref() == Some(&advice.reason)
            && row.score.to_bits() == advice.score.to_bits();
        if !same {
            patches.push((p, advice.reason.clone(), advice.score));
        }
    }
    Some(patches)
}

/// Whether `row` is shaped like a plain defragmentation advice row (`MoveRow::advice`, with
/// a footprint): every field but the identity, source, footprint, reason and score fixed.
fn plain_advice(row: &MoveRow) -> bool {
    row.policy == Policy::Defragmentation
        && row.reason == Reason::Fragmentation
        && row.outcome == Outcome::Advisory
        && row.advisory_reason.is_some()
        && row.reject_reason.is_none()
        && row.dispatch_reason.is_none()
        && row.target.is_none()
        && row.hint_targets.is_empty()
        && !row.emergency
        && !row.cooldown_overridden
        && row.plan.is_none()
}
