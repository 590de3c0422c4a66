//! The plain reference of the search: every subset of the approvable moves, smallest first,
//! applied to the free resources; the first that gives some place room. Exponential: for
//! tests and small inputs only (the property test compares the greedy search with it).
//!
//! Owns: `plan_by_brute_force`. Pure.

use crate::engine::explain::Explainer;
use crate::engine::unblock::search::{apply, effects, has_room, places};
use crate::engine::unblock::{hold, UnblockInput};

/// The size of the smallest set of approvable moves that makes room for `pod` (0: it fits
/// now); `None` when no subset does, or the pod is not a pending GPU pod. At most `limit`
/// approvable moves are tried (the rest are ignored).
pub fn plan_by_brute_force(
    ex: &Explainer<'_>,
    input: &UnblockInput<'_>,
    pod: usize,
    limit: usize,
) -> Option<usize> {
    let e = ex.explain(pod)?;
    let places = places(ex, &e);
    let effects = effects(ex, input.moves);
    let rows: Vec<usize> = (0..input.moves.len())
        .filter(|r| effects[*r].is_some() && hold::approvable(&input.moves[*r]))
        .take(limit)
        .collect();
    let mut subsets: Vec<u32> = (0..(1u32 << rows.len())).collect();
    subsets.sort_by_key(|s| s.count_ones());
    subsets.into_iter().find_map(|subset| {
        let mut free = ex.fit.free.clone();
        for (bit, row) in rows.iter().enumerate() {
            if subset & (1 << bit) != 0 {
                if let Some(Some(effect)) = effects.get(*row) {
                    apply(ex, &mut free, effect);
                }
            }
        }
        let fits = places.iter().any(|p| has_room(ex, &free, p, pod));
        fits.then_some(subset.count_ones() as usize)
    })
}
