//! The pending GPU pods of one pool by requested size: how many wait at each GPU count, the
//! longest wait, and whether the pool has a slot of that size now and after the first-fit
//! repack (`alfred.md` §6.2: a request snaps onto the ladder; slots are counted per ladder
//! size, with the multi-node rule above the largest node).
//!
//! Owns: `PendingSize`, `pending_by_size`. Pure.

use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::pools::fragmentation::snap as snap_to_ladder;
use crate::engine::pools::score::pending_minutes;
use crate::engine::pools::PoolReport;

/// The pending GPU pods of one pool that request one GPU count.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingSize {
    /// GPUs each pod requests (> 0).
    pub gpus: u32,
    /// Pending pods requesting `gpus`.
    pub pods: u64,
    /// Longest wait among them, minutes (`unschedulable_since`, else creation; 0 unknown).
    pub oldest_minutes: f64,
    /// The ladder size `gpus` snaps onto (the slots below are counted at it).
    pub ladder_size: u32,
    /// Slots of `ladder_size` on the pool's schedulable nodes now.
    pub slots_now: u64,
    /// Slots of `ladder_size` after the repack of the movable Instances.
    pub slots_after: u64,
}

/// The pool's pending GPU pods (`pool.pending`) grouped by requested GPUs, largest request
/// first, with their slots from `pool.sizes` (0 when the ladder is empty).
pub fn pending_by_size(snap: &ClusterSnapshot, pool: &PoolReport, now: Time) -> Vec<PendingSize> {
    let ladder: Vec<u32> = pool.sizes.iter().map(|s| s.size).collect();
    let mut out: Vec<PendingSize> = Vec::new();
    for &p in &pool.pending {
        let Some(pod) = snap.pods.get(p) else {
            continue;
        };
        let wait = pending_minutes(snap, p, now);
        match out.iter_mut().find(|s| s.gpus == pod.gpus) {
            Some(s) => {
                s.pods += 1;
                s.oldest_minutes = s.oldest_minutes.max(wait);
            }
            None => {
                let ladder_size = snap_to_ladder(pod.gpus, &ladder);
                let size = pool.sizes.iter().find(|s| s.size == ladder_size);
                out.push(PendingSize {
                    gpus: pod.gpus,
                    pods: 1,
                    oldest_minutes: wait,
                    ladder_size,
                    slots_now: size.map_or(0, |s| s.slots_observed),
                    slots_after: size.map_or(0, |s| s.slots_best),
                });
            }
        }
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.gpus));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
    use crate::engine::model::testkit::{at, node, pod};

    fn pool_of(snap: &ClusterSnapshot) -> PoolReport {
        let opts = AnalysisOptions {
            now: at(10, 0, 0),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Available,
            placement: Default::default(),
        };
        analyze(snap, &opts).pools.remove(0)
    }

    #[test]
    fn pending_pods_group_by_request_with_the_longest_wait_and_their_ladder_slots() {
        // Two 8-GPU nodes with 4 and 6 GPUs used: 4 + 2 free. Pending: two 8-GPU pods (one
        // unschedulable since 9:30, one created at 9:00), one 3-GPU pod (snaps to 4).
        let mut big_a = pod("ml", "big-a", None, 8);
        big_a.created = Some(at(9, 50, 0));
        big_a.unschedulable_since = Some(at(9, 30, 0));
        let big_b = pod("ml", "big-b", None, 8);
        let mut three = pod("ml", "three", None, 3);
        three.created = Some(at(9, 55, 0));
        let snap = ClusterSnapshot {
            nodes: vec![node("gpu-a", 8), node("gpu-b", 8)],
            pods: vec![
                pod("x", "a", Some("gpu-a"), 4),
                pod("x", "b", Some("gpu-b"), 6),
                big_a,
                three,
                big_b,
            ]
            .into(),
            replicas_listed: true,
            ..Default::default()
        };
        let pool = pool_of(&snap);
        let got = pending_by_size(&snap, &pool, at(10, 0, 0));
        assert_eq!(
            got,
            vec![
                PendingSize {
                    gpus: 8,
                    pods: 2,
                    oldest_minutes: 60.0,
                    ladder_size: 8,
                    slots_now: 0,
                    slots_after: 0,
                },
                PendingSize {
                    gpus: 3,
                    pods: 1,
                    oldest_minutes: 5.0,
                    ladder_size: 4,
                    slots_now: 1,
                    slots_after: 1,
                },
            ]
        );
    }

    #[test]
    fn no_pending_pods_no_sizes() {
        let snap = ClusterSnapshot {
            nodes: vec![node("gpu-a", 8)],
            replicas_listed: true,
            ..Default::default()
        };
        assert!(pending_by_size(&snap, &pool_of(&snap), at(10, 0, 0)).is_empty());
    }
}
