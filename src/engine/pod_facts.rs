//! The few facts about a pod that the per-pod filters of the analysis test, packed in 8 bytes
//! and filled by the one pass `SnapshotIndex` makes over the pods. A filter that rejects a pod
//! on these facts never loads the pod itself: a pod is ~400 bytes over seven cache lines, and
//! on a 100,000-pod fleet every stage that re-read pods paid about one cache miss per pod.
//!
//! Owns: `PodFacts`. Pure; must not import anything outside `std` and `engine`.

use crate::engine::model::Pod;

/// Hot facts of one pod (aligned with `ClusterSnapshot::pods` in the index).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PodFacts {
    /// `Pod::gpus`: whole GPU devices requested.
    pub gpus: u32,
    flags: u8,
}

/// `Pod::is_pending_gpu`.
const PENDING_GPU: u8 = 1;

impl PodFacts {
    /// The facts of `pod`.
    pub fn of(pod: &Pod) -> Self {
        // Only fields the index's pass loads anyway: another field can cost another cache
        // line per pod (a host-pin flag here cost ~1.3 lines a pod, measured with callgrind).
        PodFacts {
            gpus: pod.gpus,
            flags: if pod.is_pending_gpu() { PENDING_GPU } else { 0 },
        }
    }

    /// `Pod::is_pending_gpu`: GPUs requested, unbound, `Pending` and not terminating.
    pub fn is_pending_gpu(self) -> bool {
        self.flags & PENDING_GPU != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::PodPhase;
    use crate::engine::testkit::pod;
    use std::sync::Arc;

    #[test]
    fn facts_match_the_pod() {
        let mut p = pod("ns", "p", None, 2);
        p.phase = PodPhase::Pending;
        let f = PodFacts::of(&p);
        assert_eq!((f.gpus, f.is_pending_gpu()), (2, true));
        p.terminating = true;
        assert!(!PodFacts::of(&p).is_pending_gpu());
        p.terminating = false;
        p.node = Some(Arc::from("n"));
        assert!(!PodFacts::of(&p).is_pending_gpu(), "bound");
        let idle = pod("ns", "q", None, 0);
        assert_eq!(PodFacts::of(&idle), PodFacts::default());
        assert_eq!(std::mem::size_of::<PodFacts>(), 8);
    }
}
