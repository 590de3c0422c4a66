//! Node health state (`alfred.md` §7.1): Unhealthy / Unknown / Suspect / Clear from the
//! configured trigger conditions, with `suspectUntil`.
//!
//! Owns: `node_health`, the health state function. Time is an argument.

use chrono::Duration;
use serde::Serialize;

use crate::engine::model::{NodeCondition, Time};

/// A node's health state as Alfred computes it at one observation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum HealthState {
    /// No trigger condition, or all have been `False` longer than the suspicion window.
    Clear,
    /// Every trigger condition is `False`, at least one turned `False` less than the suspicion
    /// window ago; `until` is the latest such deadline. Excluded as a target, never evacuated.
    Suspect {
        /// `lastTransitionTime + nodeSuspicionWindow`, the latest over the conditions.
        until: Time,
    },
    /// A trigger condition is `Unknown`, has an unrecognised status, or is `False` without a
    /// transition time. Excluded as a target, never evacuated.
    Unknown,
    /// A trigger condition is `True`: evacuated and excluded as a target.
    Unhealthy,
}

impl HealthState {
    /// The state's name as Alfred writes it (`Clear`, `Suspect`, `Unknown`, `Unhealthy`).
    pub fn name(&self) -> &'static str {
        match self {
            HealthState::Clear => "Clear",
            HealthState::Suspect { .. } => "Suspect",
            HealthState::Unknown => "Unknown",
            HealthState::Unhealthy => "Unhealthy",
        }
    }

    /// `suspectUntil`, only while Suspect.
    pub fn suspect_until(&self) -> Option<Time> {
        match self {
            HealthState::Suspect { until } => Some(*until),
            _ => None,
        }
    }

    /// The instant this state changes by time alone: `suspectUntil` (Suspect turns Clear when
    /// `now` reaches the latest deadline `node_health` compares against); no other state reads
    /// the time.
    pub fn deadline(&self) -> Option<Time> {
        self.suspect_until()
    }

    /// Whether this state excludes the node as a migration target (every state but Clear).
    pub fn excludes_target(&self) -> bool {
        !matches!(self, HealthState::Clear)
    }
}

/// Computes the health state from the node's conditions, considering only types listed in
/// `triggers`; `suspicion_window_minutes` is `nodeSuspicionWindowMinutes` (> 0).
pub fn node_health(
    conditions: &[NodeCondition],
    triggers: &[String],
    suspicion_window_minutes: i64,
    now: Time,
) -> HealthState {
    let relevant = || {
        conditions
            .iter()
            .filter(|c| triggers.iter().any(|t| t.as_str() == c.kind.as_ref()))
    };
    if relevant().any(|c| c.status.as_ref() == "True") {
        return HealthState::Unhealthy;
    }
    let unknown = relevant().any(|c| match c.status.as_ref() {
        "False" => c.last_transition.is_none(),
        _ => true,
    });
    if unknown {
        return HealthState::Unknown;
    }
    let window = Duration::minutes(suspicion_window_minutes);
    let latest_deadline = relevant()
        .filter_map(|c| c.last_transition.and_then(|t| t.checked_add_signed(window)))
        .filter(|deadline| now < *deadline)
        .max();
    match latest_deadline {
        Some(until) => HealthState::Suspect { until },
        None => HealthState::Clear,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use chrono::Utc;
    use std::sync::Arc;

    fn t(h: u32, m: u32, s: u32) -> Time {
        Utc.with_ymd_and_hms(2026, 9, 28, h, m, s).unwrap()
    }

    fn cond(kind: &str, status: &str, ltt: Option<Time>) -> NodeCondition {
        NodeCondition {
            kind: Arc::from(kind),
            status: Arc::from(status),
            last_transition: ltt,
        }
    }

    fn gpu() -> Vec<String> {
        vec!["GpuUnhealthy".to_string()]
    }

    #[test]
    fn true_is_unhealthy_and_wins() {
        let c = [
            cond("GpuUnhealthy", "True", Some(t(9, 0, 0))),
            cond("GpuUnhealthy", "Unknown", None),
        ];
        assert_eq!(
            node_health(&c, &gpu(), 30, t(10, 0, 0)),
            HealthState::Unhealthy
        );
    }

    #[test]
    fn unknown_statuses() {
        let now = t(10, 0, 0);
        for c in [
            cond("GpuUnhealthy", "Unknown", Some(t(9, 0, 0))),
            cond("GpuUnhealthy", "Maybe", Some(t(9, 0, 0))),
            cond("GpuUnhealthy", "False", None),
        ] {
            assert_eq!(node_health(&[c], &gpu(), 30, now), HealthState::Unknown);
        }
    }

    #[test]
    fn suspect_window_boundaries() {
        let ltt = t(9, 58, 10);
        let c = [cond("GpuUnhealthy", "False", Some(ltt))];
        let until = t(10, 28, 10);
        assert_eq!(
            node_health(&c, &gpu(), 30, t(10, 15, 1)),
            HealthState::Suspect { until }
        );
        assert_eq!(
            node_health(&c, &gpu(), 30, t(10, 28, 9)),
            HealthState::Suspect { until }
        );
        // now == deadline is no longer Suspect (strict `now < deadline`).
        assert_eq!(node_health(&c, &gpu(), 30, until), HealthState::Clear);
        assert_eq!(node_health(&c, &gpu(), 30, t(11, 0, 0)), HealthState::Clear);
    }

    #[test]
    fn suspect_until_is_the_latest_deadline() {
        let triggers = vec!["GpuUnhealthy".to_string(), "XidErrors".to_string()];
        let c = [
            cond("GpuUnhealthy", "False", Some(t(9, 50, 0))),
            cond("XidErrors", "False", Some(t(9, 55, 0))),
        ];
        assert_eq!(
            node_health(&c, &triggers, 30, t(10, 0, 0)),
            HealthState::Suspect {
                until: t(10, 25, 0)
            }
        );
    }

    #[test]
    fn untracked_conditions_are_ignored() {
        let c = [
            cond("Ready", "False", None),
            cond("MemoryPressure", "True", Some(t(9, 0, 0))),
        ];
        assert_eq!(node_health(&c, &gpu(), 30, t(10, 0, 0)), HealthState::Clear);
        assert_eq!(
            node_health(&[], &gpu(), 30, t(10, 0, 0)),
            HealthState::Clear
        );
    }

    #[test]
    fn ready_counts_only_when_listed() {
        let triggers = vec!["Ready".to_string()];
        let c = [cond("Ready", "True", Some(t(9, 0, 0)))];
        assert_eq!(
            node_health(&c, &triggers, 30, t(10, 0, 0)),
            HealthState::Unhealthy
        );
    }
}
