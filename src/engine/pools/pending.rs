//! The pending GPU pods of one pool by requested size: how many wait at each GPU count, the
//! longest wait, and how many such pods the pool's nodes have room for now and after the
//! first-fit repack. A pod runs on one node, so room is counted with its own GPU count against
//! single nodes, as Alfred's seat test does: a pod larger than every node of the pool has no
//! room, whatever the ladder's slots say (the ladder snaps a 16-GPU request to 8 for the
//! score, not for the answer).

use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::pools::fragmentation::Bin;
use crate::engine::pools::score::pending_minutes;

/// The pending GPU pods of one pool that request one GPU count.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingSize {
    /// GPUs each pod requests (> 0).
    pub gpus: u32,
    /// Pending pods requesting `gpus`.
    pub pods: u64,
    /// Longest wait among them, minutes (`unschedulable_since`, else creation; 0 unknown).
    pub oldest_minutes: f64,
    /// Pods of `gpus` the pool's schedulable nodes have room for now, one node each.
    pub room_now: u64,
    /// The same after the repack of the movable Instances.
    pub room_after: u64,
}

/// How many pods of `gpus` GPUs the bins have room for, each on one node:
/// `Σ floor(free / gpus)`; 0 for a pod larger than every bin.
pub fn room(bins: &[Bin], gpus: u32) -> u64 {
    if gpus == 0 {
        return 0;
    }
    bins.iter()
        .map(|b| u64::from(b.free.min(b.cap) / gpus))
        .sum()
}

/// The pending pods `pending` (snapshot indices) grouped by requested GPUs, largest request
/// first, with their room on the observed bins `now` and the repacked bins `after`.
pub(crate) fn pending_sizes(
    snap: &ClusterSnapshot,
    pending: &[usize],
    at: Time,
    now: &[Bin],
    after: &[Bin],
) -> Vec<PendingSize> {
    let mut out: Vec<PendingSize> = Vec::new();
    for &p in pending {
        let Some(pod) = snap.pods.get(p) else {
            continue;
        };
        let wait = pending_minutes(snap, p, at);
        match out.iter_mut().find(|s| s.gpus == pod.gpus) {
            Some(s) => {
                s.pods += 1;
                s.oldest_minutes = s.oldest_minutes.max(wait);
            }
            None => out.push(PendingSize {
                gpus: pod.gpus,
                pods: 1,
                oldest_minutes: wait,
                room_now: room(now, pod.gpus),
                room_after: room(after, pod.gpus),
            }),
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
    use crate::engine::pools::PoolReport;

    fn pool_of(snap: &ClusterSnapshot) -> PoolReport {
        let opts = AnalysisOptions {
            now: at(10, 0, 0),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Available,
            placement: Default::default(),
            instance_types: Default::default(),
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
            nodes: vec![node("gpu-a", 8), node("gpu-b", 8)].into(),
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
        let got = pool_of(&snap).pending_sizes;
        assert_eq!(
            got,
            vec![
                PendingSize {
                    gpus: 8,
                    pods: 2,
                    oldest_minutes: 60.0,
                    room_now: 0,
                    room_after: 0,
                },
                PendingSize {
                    gpus: 3,
                    pods: 1,
                    oldest_minutes: 5.0,
                    room_now: 1,
                    room_after: 1,
                },
            ]
        );
    }

    #[test]
    fn no_pending_pods_no_sizes() {
        let snap = ClusterSnapshot {
            nodes: vec![node("gpu-a", 8)].into(),
            replicas_listed: true,
            ..Default::default()
        };
        assert!(pool_of(&snap).pending_sizes.is_empty());
    }

    #[test]
    fn a_pod_larger_than_every_node_has_no_room_though_its_ladder_size_has_slots() {
        // Two idle 8-GPU nodes; a pod asks 16 GPUs in one pod. The ladder snaps it to 8 (two
        // slots), but no single node can run it.
        let snap = ClusterSnapshot {
            nodes: vec![node("gpu-a", 8), node("gpu-b", 8)].into(),
            pods: vec![pod("ml", "huge", None, 16)].into(),
            replicas_listed: true,
            ..Default::default()
        };
        let pool = pool_of(&snap);
        let eight = pool.sizes.iter().find(|s| s.size == 8).unwrap();
        assert_eq!(eight.slots_observed, 2, "the ladder's slots, for the score");
        let got = &pool.pending_sizes;
        assert_eq!(
            (got[0].gpus, got[0].room_now, got[0].room_after),
            (16, 0, 0)
        );
        assert_eq!(pool.largest_node_gpus, 8);
    }

    #[test]
    fn room_counts_whole_pods_per_node() {
        let bins = [
            Bin { free: 7, cap: 8 },
            Bin { free: 4, cap: 8 },
            Bin { free: 9, cap: 8 },
        ];
        assert_eq!(
            room(&bins, 4),
            1 + 1 + 2,
            "free beyond capacity counts as capacity"
        );
        assert_eq!(room(&bins, 9), 0);
        assert_eq!(room(&bins, 0), 0);
    }
}
