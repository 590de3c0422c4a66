//! The time a snapshot was taken, as far as it tells: the newest timestamp it holds (node and
//! pod creations, node condition transitions, pod starts and unschedulable times, Events'
//! last sightings). A snapshot replayed later is aged against it, not against the clock.
//!
//! Owns: `ClusterSnapshot::newest_time`. Pure.

use crate::engine::model::{ClusterSnapshot, Time};

impl ClusterSnapshot {
    /// The newest timestamp the snapshot holds; `None` when it holds none.
    pub fn newest_time(&self) -> Option<Time> {
        let nodes = self.nodes.iter().flat_map(|n| {
            let conditions = n.conditions.iter().map(|c| c.last_transition);
            conditions.chain([n.created])
        });
        let pods = self
            .pods
            .iter()
            .flat_map(|p| [p.created, p.started, p.unschedulable_since]);
        let events = self.events.iter().map(|e| e.last_seen);
        nodes.chain(pods).chain(events).flatten().max()
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::model::ClusterSnapshot;

    #[test]
    fn an_empty_snapshot_tells_no_time() {
        assert_eq!(ClusterSnapshot::default().newest_time(), None);
    }
}
