//! Node health transitions "as observed": what changed on each node between two analyses.
//!
//! Owns: `NodeTransition`, `node_changes` (`NodeObservation` and `observe_node` are the engine's,
//! `engine::timeline`, re-exported). Pure (no I/O, no clock).

use std::collections::HashMap;

use crate::engine::alfred_config::health_rules;
use crate::engine::analysis::Analysis;
use crate::engine::model::ClusterSnapshot;
use crate::engine::nodes::NodeState;
pub use crate::engine::timeline::{observe_node, NodeObservation};

/// One change to record: a node seen for the first time or whose state differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeTransition {
    /// Node name.
    pub node: String,
    /// The new observation.
    pub observed: NodeObservation,
    /// Whether the cordon flag differs from the previous observation (false when first seen).
    pub cordon_flipped: bool,
    /// No previous observation of this node was known.
    pub first_seen: bool,
}

/// The last stored observation per node name.
pub type LastObservations = HashMap<String, NodeObservation>;

/// The transitions between `previous` and the analysis of `snapshot`, sorted by node name:
/// nodes seen for the first time, and nodes whose health state, maintenance triggers or
/// cordon differ (`NodeObservation::same_state`; a moved Suspect deadline is not a change).
/// Nodes absent from the snapshot are not transitions (a deleted node keeps its last row).
/// `analysis.nodes` must be aligned with `snapshot.nodes`; extra entries on either side are
/// ignored.
pub fn node_changes(
    previous: &LastObservations,
    analysis: &Analysis,
    snapshot: &ClusterSnapshot,
) -> Vec<NodeTransition> {
    let (triggers, window) = health_rules(&analysis.config);
    let mut changes: Vec<NodeTransition> = snapshot
        .nodes
        .iter()
        .zip(&analysis.nodes)
        .filter_map(|(node, state)| {
            let prev = previous.get(node.name.as_ref());
            if prev.is_some_and(|p| quick_same(p, state)) {
                return None;
            }
            let observed = observe_node(node, state, triggers, window);
            if prev.is_some_and(|p| p.same_state(&observed)) {
                return None;
            }
            Some(NodeTransition {
                node: node.name.to_string(),
                cordon_flipped: prev.is_some_and(|p| p.cordoned != observed.cordoned),
                first_seen: prev.is_none(),
                observed,
            })
        })
        .collect();
    changes.sort_by(|a, b| a.node.cmp(&b.node));
    changes
}

/// A cheap test that builds no string, for the common case of a Clear node that stays Clear
/// (a Clear state never begins again): true when both are Clear with the same triggers and
/// cordon. Anything else is compared in full.
fn quick_same(prev: &NodeObservation, state: &NodeState) -> bool {
    prev.health == state.health
        && matches!(state.health, crate::engine::nodes::HealthState::Clear)
        && prev.cordoned == state.cordoned
        && prev.triggers == state.maintenance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
    use crate::engine::model::testkit::{at, node};
    use crate::engine::model::{Node, NodeCondition, Time};
    use crate::engine::nodes::HealthState;
    use std::sync::Arc;

    fn analysis(snap: &ClusterSnapshot, now: Time) -> Analysis {
        analyze(
            snap,
            &AnalysisOptions {
                now,
                alfred_namespace: "ome".into(),
                executor: ExecutorSetting::Auto,
                placement: Default::default(),
                instance_types: Default::default(),
            },
        )
    }

    fn snapshot(nodes: Vec<Node>) -> ClusterSnapshot {
        ClusterSnapshot {
            nodes: nodes.into(),
            pods: Default::default(),
            isvcs: Default::default(),
            replicas: Default::default(),
            replicas_listed: true,
            pod_groups: Default::default(),
            config_maps: Default::default(),
            events: Default::default(),
            ..ClusterSnapshot::default()
        }
    }

    fn gpu_condition(status: &str, since: Option<Time>) -> NodeCondition {
        NodeCondition {
            kind: Arc::from("GpuUnhealthy"),
            status: Arc::from(status),
            last_transition: since,
        }
    }

    fn apply(last: &mut LastObservations, changes: &[NodeTransition]) {
        for c in changes {
            last.insert(c.node.clone(), c.observed.clone());
        }
    }

    /// Computes the changes at `now` and applies them to `last`.
    fn step(last: &mut LastObservations, snap: &ClusterSnapshot, now: Time) -> Vec<NodeTransition> {
        let changes = node_changes(last, &analysis(snap, now), snap);
        apply(last, &changes);
        changes
    }

    #[test]
    fn first_observation_records_every_node_then_nothing_until_a_change() {
        let snap = snapshot(vec![node("gpu-b", 8), node("gpu-a", 8)]);
        let mut last = LastObservations::new();
        let first = node_changes(&last, &analysis(&snap, at(10, 0, 0)), &snap);
        assert_eq!(
            first.iter().map(|c| c.node.as_str()).collect::<Vec<_>>(),
            ["gpu-a", "gpu-b"]
        );
        assert!(first.iter().all(|c| c.first_seen && !c.cordon_flipped));
        assert!(first
            .iter()
            .all(|c| c.observed.health == HealthState::Clear));
        apply(&mut last, &first);
        let again = node_changes(&last, &analysis(&snap, at(10, 1, 0)), &snap);
        assert!(again.is_empty(), "{again:?}");
    }

    #[test]
    fn unhealthy_then_suspect_then_clear_are_three_transitions() {
        let mut n = node("gpu-a", 8);
        n.conditions = vec![gpu_condition("True", Some(at(9, 0, 0)))];
        let mut snap = snapshot(vec![n, node("gpu-b", 8)]);
        let mut last = LastObservations::new();
        step(&mut last, &snap, at(10, 0, 0));
        assert_eq!(last["gpu-a"].health, HealthState::Unhealthy);
        assert_eq!(last["gpu-a"].reason, "GpuUnhealthy=True");

        snap.nodes[0].conditions = vec![gpu_condition("False", Some(at(10, 5, 0)))];
        let suspect = node_changes(&last, &analysis(&snap, at(10, 6, 0)), &snap);
        assert_eq!(suspect.len(), 1, "only gpu-a changed: {suspect:?}");
        assert!(matches!(
            suspect[0].observed.health,
            HealthState::Suspect { .. }
        ));
        assert_eq!(suspect[0].observed.reason, "GpuUnhealthy=False");
        apply(&mut last, &suspect);
        // Still inside the window: same state, no row.
        assert!(node_changes(&last, &analysis(&snap, at(10, 20, 0)), &snap).is_empty());
        // The window (30 min by default) has passed: Clear, with the condition still present.
        let clear = node_changes(&last, &analysis(&snap, at(11, 0, 0)), &snap);
        assert_eq!(clear.len(), 1);
        assert_eq!(clear[0].observed.health, HealthState::Clear);
        assert_eq!(clear[0].observed.reason, "GpuUnhealthy=False");
        apply(&mut last, &clear);
        assert!(node_changes(&last, &analysis(&snap, at(11, 5, 0)), &snap).is_empty());
    }

    #[test]
    fn a_cordon_flip_alone_is_a_transition() {
        let mut snap = snapshot(vec![node("gpu-a", 8)]);
        let mut last = LastObservations::new();
        step(&mut last, &snap, at(10, 0, 0));
        snap.nodes[0].unschedulable = true;
        let flip = node_changes(&last, &analysis(&snap, at(10, 1, 0)), &snap);
        assert_eq!(flip.len(), 1);
        assert!(flip[0].cordon_flipped && flip[0].observed.cordoned);
        assert!(!flip[0].first_seen);
        assert_eq!(flip[0].observed.health, HealthState::Clear);
    }

    #[test]
    fn conditions_that_are_not_triggers_are_ignored() {
        let mut n = node("gpu-a", 8);
        n.conditions = vec![NodeCondition {
            kind: Arc::from("MemoryPressure"),
            status: Arc::from("True"),
            last_transition: Some(at(9, 0, 0)),
        }];
        let snap = snapshot(vec![n]);
        let changes = node_changes(
            &LastObservations::new(),
            &analysis(&snap, at(10, 0, 0)),
            &snap,
        );
        assert_eq!(changes[0].observed.reason, "");
        assert_eq!(changes[0].observed.health, HealthState::Clear);
    }

    #[test]
    fn a_deleted_node_is_not_a_transition() {
        let mut snap = snapshot(vec![node("gpu-a", 8), node("gpu-b", 8)]);
        let mut last = LastObservations::new();
        step(&mut last, &snap, at(10, 0, 0));
        snap.nodes.pop();
        assert!(node_changes(&last, &analysis(&snap, at(10, 1, 0)), &snap).is_empty());
    }
}
