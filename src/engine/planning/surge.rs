//! Alfred's surge plan (`PlanAtomicSurge`, `alfred.md` §6.4): candidate targets of a pool
//! sorted fullest first, greedy place-then-free of an Instance's footprints, and the three
//! hint targets.
//!
//! Owns: `PoolTargets`, `SurgePlan`. The target list is built once per pool and each plan is a
//! binary search plus a short scan, so planning every Instance of a 10,000-node fleet stays cheap.
//! Pure.

use crate::engine::fast::small_key_sort::{is_non_decreasing, stable_sort_by_small_key};
use crate::engine::nodes::NodeState;

/// Alfred names at most this many hint targets.
pub const MAX_HINTS: usize = 3;

/// The candidate targets of one pool: nodes with GPUs, not excluded as targets, and not spot
/// when `spotPolicy.avoidAsTarget`; sorted by free ascending, then name.
#[derive(Debug, Clone, Default)]
pub struct PoolTargets {
    /// `(free GPUs, node index)` in target order.
    sorted: Vec<(u32, usize)>,
}

/// One planned Instance move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurgePlan {
    /// `(pod index, target node index)` per footprint, footprints in GPUs-desc order.
    pub placements: Vec<(usize, usize)>,
    /// The first `MAX_HINTS` candidate targets (node indices), fullest first.
    pub hints: Vec<usize>,
}

impl PoolTargets {
    /// Builds the target list of the pool made of `nodes`. `names` order nodes for the
    /// tie-break: node names, or their ranks (`SnapshotIndex::node_ranks`).
    pub fn build<K: Ord>(
        nodes: &[usize],
        states: &[NodeState],
        names: &[K],
        avoid_spot: bool,
    ) -> Self {
        let mut sorted: Vec<(u32, usize)> = nodes
            .iter()
            .filter(|n| {
                let s = &states[**n];
                s.total > 0 && !s.excluded_as_target && !(avoid_spot && s.preemptible)
            })
            .map(|n| (states[*n].free, *n))
            .collect();
        // Pool node lists come in name order: then a stable sort by free GPUs is enough.
        if is_non_decreasing(sorted.iter().map(|(_, n)| &names[*n])) {
            stable_sort_by_small_key(&mut sorted, |(free, _)| *free);
        } else {
            sorted.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| names[a.1].cmp(&names[b.1])));
        }
        PoolTargets { sorted }
    }

    /// Candidate targets in order (node indices), from the first with `free ≥ min_free`.
    pub fn candidates(&self, min_free: u32) -> impl Iterator<Item = (u32, usize)> + '_ {
        let start = self.sorted.partition_point(|(free, _)| *free < min_free);
        self.sorted[start..].iter().copied()
    }

    /// Plans the footprints `(pod, gpus)` (sorted GPUs desc, then pod key) of an Instance that
    /// uses the nodes `used`; `skip` excludes further nodes (spot under an `avoid` annotation).
    /// `None` = `NoSurgeHeadroom`.
    pub fn plan(
        &self,
        footprints: &[(usize, u32)],
        used: &[usize],
        skip: &dyn Fn(usize) -> bool,
    ) -> Option<SurgePlan> {
        let hints = self.hints(footprints, used, skip)?;
        let placements = self.placements(footprints, used, skip)?;
        Some(SurgePlan { placements, hints })
    }

    /// The hint targets of `plan` alone (`None` without footprints).
    pub fn hints(
        &self,
        footprints: &[(usize, u32)],
        used: &[usize],
        skip: &dyn Fn(usize) -> bool,
    ) -> Option<Vec<usize>> {
        let smallest = footprints.iter().map(|(_, g)| *g).min()?;
        let allowed = |n: usize| !used.contains(&n) && !skip(n);
        Some(
            self.candidates(smallest)
                .filter(|(_, n)| allowed(*n))
                .take(MAX_HINTS)
                .map(|(_, n)| n)
                .collect(),
        )
    }

    /// The placements of `plan` alone (`None` = `NoSurgeHeadroom` or no footprints), for
    /// callers that need the hints only when the move is worth it.
    pub fn placements(
        &self,
        footprints: &[(usize, u32)],
        used: &[usize],
        skip: &dyn Fn(usize) -> bool,
    ) -> Option<Vec<(usize, usize)>> {
        footprints.first()?;
        let allowed = |n: usize| !used.contains(&n) && !skip(n);
        let mut placements: Vec<(usize, usize)> = Vec::with_capacity(footprints.len());
        for (k, (pod, gpus)) in footprints.iter().enumerate() {
            // A target keeps its free GPUs minus what this plan already put on it.
            let target = self.candidates(*gpus).find_map(|(free, n)| {
                if !allowed(n) {
                    return None;
                }
                let given: u32 = placements
                    .iter()
                    .zip(&footprints[..k])
                    .filter(|((_, t), _)| *t == n)
                    .map(|(_, (_, g))| *g)
                    .sum();
                (free.checked_sub(given)? >= *gpus).then_some(n)
            })?;
            placements.push((*pod, target));
        }
        Some(placements)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nodes::HealthState;

    fn state(total: u32, free: u32) -> NodeState {
        NodeState {
            pool: Some("H100".into()),
            health: HealthState::Clear,
            maintenance: Vec::new(),
            cordoned: false,
            to_be_deleted: false,
            preemptible: false,
            excluded_as_target: false,
            total,
            allocated: total - free,
            free,
            ome_occupants: 0,
            reconciled: false,
        }
    }

    #[test]
    fn fullest_first_hints_exclude_used_nodes() {
        let states = vec![state(8, 6), state(8, 7), state(8, 0), state(8, 3)];
        let names = ["a", "b", "c", "d"];
        let t = PoolTargets::build(&[0, 1, 2, 3], &states, &names, true);
        let plan = t.plan(&[(10, 1)], &[1], &|_| false).unwrap();
        assert_eq!(
            plan.hints,
            vec![3, 0],
            "c has no room, b is used; d (3) before a (6)"
        );
        assert_eq!(plan.placements, vec![(10, 3)]);
    }

    #[test]
    fn a_target_can_take_several_pods_and_everything_must_fit() {
        let states = vec![state(8, 8), state(8, 2)];
        let names = ["a", "b"];
        let t = PoolTargets::build(&[0, 1], &states, &names, true);
        let plan = t.plan(&[(1, 4), (2, 4)], &[], &|_| false).unwrap();
        assert_eq!(plan.placements, vec![(1, 0), (2, 0)]);
        assert!(
            t.plan(&[(1, 8), (2, 4)], &[], &|_| false).is_none(),
            "no surge headroom"
        );
    }

    #[test]
    fn excluded_and_spot_nodes_are_not_targets() {
        let mut states = vec![state(8, 8), state(8, 8), state(8, 8)];
        states[0].excluded_as_target = true;
        states[1].preemptible = true;
        let names = ["a", "b", "c"];
        let t = PoolTargets::build(&[0, 1, 2], &states, &names, true);
        assert_eq!(t.plan(&[(9, 8)], &[], &|_| false).unwrap().hints, vec![2]);
        let lenient = PoolTargets::build(&[0, 1, 2], &states, &names, false);
        let plan = lenient.plan(&[(9, 8)], &[], &|n| n == 1).unwrap();
        assert_eq!(
            plan.hints,
            vec![2],
            "an `avoid` annotation skips spot nodes anyway"
        );
    }
}
