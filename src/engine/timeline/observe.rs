//! One observation of a node as its history keeps it: the health state, the trigger
//! conditions behind it, the maintenance triggers and the cordon, plus the times the node's
//! conditions give for the state's start (so an episode can begin before ome-top looked).
//!
//! Owns: `NodeObservation`, `observe_node`. Pure.

use chrono::Duration;

use crate::engine::model::{Node, NodeCondition, Time};
use crate::engine::nodes::{HealthState, NodeState};

/// What the history records about one node at one observation. Two observations are the same
/// state when `same_state` says so: health state, maintenance triggers and cordon; the
/// Suspect deadline, the reason text, the pool and the times are carried but do not make a
/// change on their own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeObservation {
    /// Health state; `Suspect` carries `suspectUntil`.
    pub health: HealthState,
    /// The trigger conditions present on the node, `Type=Status` in the node's order, joined by
    /// `", "`; `""` when none is present.
    pub reason: String,
    /// Names of the matching maintenance triggers, sorted.
    pub triggers: Vec<String>,
    /// `spec.unschedulable`.
    pub cordoned: bool,
    /// When the node's conditions say the health state began: the earliest
    /// `lastTransitionTime` of the `True` (Unhealthy) or unrecognised (Unknown) trigger
    /// conditions; for Suspect the latest `False` transition; for Clear after a Suspect window
    /// the window's end. `None` when the conditions do not tell.
    pub since: Option<Time>,
    /// Suspect and Clear: the latest `lastTransitionTime` of the `False` trigger conditions
    /// (when the node last recovered). `None` without such conditions.
    pub cleared: Option<Time>,
    /// The node's GPU pool (not part of the state).
    pub pool: Option<String>,
}

impl NodeObservation {
    /// Whether `next` shows the same state as `self`: same health state, maintenance triggers
    /// and cordon, and the state did not begin again (a later `since` for a non-Clear state is
    /// a new transition in the cluster, seen between two observations). A moved Suspect
    /// deadline alone is the same state.
    pub fn same_state(&self, next: &NodeObservation) -> bool {
        self.health.name() == next.health.name()
            && self.triggers == next.triggers
            && self.cordoned == next.cordoned
            && !self.began_again(next)
    }

    /// A non-Clear state whose conditions say it began after `self`'s start (by more than a
    /// second: Kubernetes times are whole seconds, stored times milliseconds).
    pub(super) fn began_again(&self, next: &NodeObservation) -> bool {
        let not_clear = !matches!(next.health, HealthState::Clear);
        match (self.since, next.since) {
            (Some(old), Some(new)) => not_clear && new - old > Duration::seconds(1),
            _ => false,
        }
    }
}

/// The trigger conditions of `node` (types listed in `triggers`).
fn trigger_conditions<'a>(
    node: &'a Node,
    triggers: &'a [String],
) -> impl Iterator<Item = &'a NodeCondition> + 'a {
    node.conditions
        .iter()
        .filter(move |c| triggers.iter().any(|t| t.as_str() == c.kind.as_ref()))
}

/// The observation of `node` whose computed state is `state`; `triggers` and
/// `window_minutes` are Alfred's `nodeHealth.triggerConditions` and
/// `nodeSuspicionWindowMinutes`.
pub fn observe_node(
    node: &Node,
    state: &NodeState,
    triggers: &[String],
    window_minutes: i64,
) -> NodeObservation {
    let reason = trigger_conditions(node, triggers)
        .map(|c| match (c.status.as_ref(), c.last_transition) {
            ("False", None) => format!("{}=False (no transition time)", c.kind),
            (status, _) => format!("{}={status}", c.kind),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let earliest = |keep: fn(&str) -> bool| {
        trigger_conditions(node, triggers)
            .filter(|c| keep(c.status.as_ref()))
            .filter_map(|c| c.last_transition)
            .min()
    };
    let cleared = trigger_conditions(node, triggers)
        .filter(|c| c.status.as_ref() == "False")
        .filter_map(|c| c.last_transition)
        .max();
    let since = match state.health {
        HealthState::Unhealthy => earliest(|s| s == "True"),
        HealthState::Unknown => earliest(|s| s != "True" && s != "False"),
        HealthState::Suspect { .. } => cleared,
        HealthState::Clear => {
            cleared.and_then(|c| c.checked_add_signed(Duration::minutes(window_minutes)))
        }
    };
    NodeObservation {
        health: state.health,
        reason,
        triggers: state.maintenance.clone(),
        cordoned: state.cordoned,
        since,
        cleared,
        pool: state.pool.as_deref().map(str::to_owned),
    }
}
