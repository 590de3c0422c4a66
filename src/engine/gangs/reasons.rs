//! Why a pod is Pending (gangpack.md §7.2 step 6): the newer of its `PodScheduled=False`
//! condition message and its newest `FailedScheduling` event from its own scheduler,
//! classified with the §5 table; and the roll-up of a gang's members to one reason.
//!
//! Owns: `PendingReason`, `ReasonSource`, `EventIndex`, `pod_reason`, `roll_up`. Pure.

use std::collections::HashMap;

use crate::engine::gangs::classify::{classify, primary, Reason};
use crate::engine::gangs::ns_key;
use crate::engine::model::{ClusterSnapshot, Event, Pod, Time};

/// The scheduler name a pod with an empty `spec.schedulerName` gets.
pub const DEFAULT_SCHEDULER: &str = "default-scheduler";

/// Where a pending reason was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReasonSource {
    /// The pod's `PodScheduled=False` condition.
    Condition,
    /// A `FailedScheduling` event.
    Event,
    /// Derived by ome-top from the snapshot (e.g. a missing PodGroup), not reported.
    Inferred,
}

impl ReasonSource {
    /// `condition`, `event` or `inferred`.
    pub fn name(self) -> &'static str {
        match self {
            ReasonSource::Condition => "condition",
            ReasonSource::Event => "event",
            ReasonSource::Inferred => "inferred",
        }
    }
}

/// The classified reason one pod (or a gang, rolled up) is Pending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingReason {
    /// `ns/pod` the message belongs to.
    pub pod: String,
    /// Where it was read.
    pub source: ReasonSource,
    /// Condition transition time or event time; `None` when unknown.
    pub at: Option<Time>,
    /// The message, verbatim (or ome-top's text for inferred reasons).
    pub message: String,
    /// Every OMEGangPack reason recognised in the message (empty = unknown message).
    pub reasons: Vec<Reason>,
    /// The reason that best explains the message (`Unknown` when none is recognised).
    pub primary: Reason,
}

impl PendingReason {
    /// A reason built from a message (classified here).
    pub fn new(pod: String, source: ReasonSource, at: Option<Time>, message: String) -> Self {
        Self::with_condition_reason(pod, source, at, message, None)
    }

    fn with_condition_reason(
        pod: String,
        source: ReasonSource,
        at: Option<Time>,
        message: String,
        condition_reason: Option<&str>,
    ) -> Self {
        let reasons = classify(&message, condition_reason);
        let primary = primary(&reasons);
        PendingReason {
            pod,
            source,
            at,
            message,
            reasons,
            primary,
        }
    }
}

/// `FailedScheduling` events about pods, by `(namespace, pod name)`.
#[derive(Debug, Default)]
pub struct EventIndex<'a> {
    by_pod: HashMap<(&'a str, &'a str), Vec<&'a Event>>,
}

impl<'a> EventIndex<'a> {
    /// Indexes the snapshot's `FailedScheduling` events about pods.
    pub fn new(snap: &'a ClusterSnapshot) -> Self {
        let mut by_pod: HashMap<(&str, &str), Vec<&Event>> = HashMap::new();
        for e in snap
            .events
            .iter()
            .filter(|e| e.reason.as_ref() == "FailedScheduling" && e.object_kind.as_ref() == "Pod")
        {
            let ns = if e.object_namespace.is_empty() {
                e.namespace.as_ref()
            } else {
                e.object_namespace.as_ref()
            };
            by_pod
                .entry((ns, e.object_name.as_ref()))
                .or_default()
                .push(e);
        }
        EventIndex { by_pod }
    }

    /// The newest event about `pod` reported by its own scheduler and not older than the pod
    /// (an older one is about a previous pod of the same name).
    pub fn newest_for(&self, pod: &Pod) -> Option<&'a Event> {
        let scheduler = effective_scheduler(pod);
        self.by_pod
            .get(&(pod.namespace.as_ref(), pod.name.as_ref()))?
            .iter()
            .filter(|e| e.source.as_ref() == scheduler || e.source.is_empty())
            .filter(|e| match (e.last_seen, pod.created) {
                (Some(seen), Some(created)) => seen >= created,
                _ => true,
            })
            .max_by_key(|e| e.last_seen)
            .copied()
    }
}

/// `spec.schedulerName`, or `default-scheduler` when empty.
pub fn effective_scheduler(pod: &Pod) -> &str {
    if pod.scheduler_name.is_empty() {
        DEFAULT_SCHEDULER
    } else {
        pod.scheduler_name.as_ref()
    }
}

/// The reason `pod` is Pending: the newer of its condition and its newest event (a tie or
/// unknown times keep the condition); `None` when neither exists.
pub fn pod_reason(pod: &Pod, events: &EventIndex<'_>) -> Option<PendingReason> {
    let condition = pod
        .placement
        .as_deref()
        .and_then(|p| p.unschedulable.as_ref());
    let event = events.newest_for(pod);
    let key = || ns_key(&pod.namespace, &pod.name);
    let from_event =
        |e: &Event| PendingReason::new(key(), ReasonSource::Event, e.last_seen, e.message.clone());
    match (condition, event) {
        (None, None) => None,
        (None, Some(e)) => Some(from_event(e)),
        (Some(c), e) => {
            let at = pod.unschedulable_since;
            match e {
                Some(e) if e.last_seen.is_some() && e.last_seen > at => Some(from_event(e)),
                _ => Some(PendingReason::with_condition_reason(
                    key(),
                    ReasonSource::Condition,
                    at,
                    c.message.clone(),
                    Some(c.reason.as_ref()),
                )),
            }
        }
    }
}

/// A gang's reason: the most recent member reason; equal (or unknown) times prefer the more
/// severe, then the smaller pod key. Reasons older than `fresh_after` (the newest member's
/// creation: a membership change after the failure) are stale and ignored.
pub fn roll_up(reasons: Vec<PendingReason>, fresh_after: Option<Time>) -> Option<PendingReason> {
    reasons
        .into_iter()
        .filter(|r| match (r.at, fresh_after) {
            (Some(at), Some(fresh)) => at >= fresh,
            _ => true,
        })
        .max_by(|a, b| {
            a.at.cmp(&b.at)
                .then(a.primary.code.severity().cmp(&b.primary.code.severity()))
                .then(b.pod.cmp(&a.pod))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gangs::classify::ReasonCode;
    use crate::engine::model::testkit::{self, at};
    use crate::engine::model::{PodPlacement, UnschedulableCondition};
    use std::sync::Arc;

    fn event(pod: &str, source: &str, t: Time, message: &str) -> Event {
        Event {
            namespace: Arc::from("ns"),
            object_kind: Arc::from("Pod"),
            object_namespace: Arc::from("ns"),
            object_name: Arc::from(pod),
            reason: Arc::from("FailedScheduling"),
            message: message.into(),
            source: Arc::from(source),
            kind: Arc::from("Warning"),
            last_seen: Some(t),
            count: 1,
        }
    }

    #[test]
    fn newer_event_from_the_pods_scheduler_wins_over_the_condition() {
        let mut pod = testkit::pod("ns", "p", None, 8);
        pod.scheduler_name = Arc::from("ome-scheduler");
        pod.unschedulable_since = Some(at(10, 0, 0));
        pod.placement = Some(Box::new(PodPlacement {
            unschedulable: Some(UnschedulableCondition {
                reason: Arc::from("Unschedulable"),
                message: "0/4 nodes are available: no domain has room for gang ns/g.".into(),
            }),
            ..Default::default()
        }));
        let snap = ClusterSnapshot {
            events: vec![
                event(
                    "p",
                    "ome-scheduler",
                    at(10, 5, 0),
                    "0/4 nodes are available: gang ns/g unwound after a member failed to schedule.",
                ),
                event(
                    "p",
                    "default-scheduler",
                    at(10, 9, 0),
                    "0/4 nodes are available: Insufficient cpu.",
                ),
            ]
            .into(),
            ..Default::default()
        };
        let events = EventIndex::new(&snap);
        let r = pod_reason(&pod, &events).unwrap();
        assert_eq!(r.source, ReasonSource::Event);
        assert_eq!(r.primary.code, ReasonCode::Unwound);
        let older = ClusterSnapshot {
            events: vec![event("p", "ome-scheduler", at(9, 0, 0), "x")].into(),
            ..Default::default()
        };
        let r = pod_reason(&pod, &EventIndex::new(&older)).unwrap();
        assert_eq!(r.source, ReasonSource::Condition);
        assert_eq!(r.primary.code, ReasonCode::NoDomainRoom);
    }

    #[test]
    fn roll_up_prefers_recent_then_severe_and_drops_stale() {
        let r = |pod: &str, t: Option<Time>, msg: &str| {
            PendingReason::new(pod.into(), ReasonSource::Event, t, msg.into())
        };
        let split = "gang ns/g already has members in multiple topology domains";
        let room = "no domain has room for gang ns/g";
        let got = roll_up(
            vec![
                r("ns/a", Some(at(10, 0, 0)), split),
                r("ns/b", Some(at(10, 1, 0)), room),
            ],
            None,
        );
        assert_eq!(got.unwrap().pod, "ns/b");
        let tie = roll_up(
            vec![
                r("ns/a", Some(at(10, 0, 0)), room),
                r("ns/b", Some(at(10, 0, 0)), split),
            ],
            None,
        );
        assert_eq!(tie.unwrap().pod, "ns/b");
        assert!(roll_up(vec![r("ns/a", Some(at(9, 0, 0)), room)], Some(at(9, 30, 0))).is_none());
    }
}
