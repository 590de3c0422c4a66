//! A node's timeline merged with what the cluster itself still tells: the current observation
//! (its conditions' `lastTransitionTime`s, so the timeline reaches back before ome-top first
//! ran), Alfred's node record (`signaledAt`, `drainedAt`, `maintenanceRequestedAt`,
//! `maintenanceDrainedAt`) and Alfred's Node Events (`NodeRepairNeeded`,
//! `NodeDrainedForRepair`, `NodeMaintenanceRequested`, `NodeDrainedForMaintenance`,
//! `NodeCordonedForMaintenance`, the legacy `GpuUnhealthyEvacuating`). Each time keeps its
//! source; the same moment told by the record and an Event is one mark with both sources.
//!
//! Owns: `node_timeline`, `MarkKind`. Pure.

use chrono::Duration;

use crate::engine::model::{Event, Time};
use crate::engine::recommendations::NodeRecord;
use crate::engine::timeline::{
    episodes, Episode, EpisodeKind, Mark, Observed, Point, Source, Timeline,
};

/// What Alfred marked on a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MarkKind {
    /// A repair episode began: `NodeRepairNeeded`, `signaledAt` (legacy
    /// `GpuUnhealthyEvacuating`).
    RepairRequested,
    /// No OME GPU occupant left during repair: `NodeDrainedForRepair`, `drainedAt`.
    DrainedForRepair,
    /// Planned maintenance requested: `NodeMaintenanceRequested`, `maintenanceRequestedAt`.
    MaintenanceRequested,
    /// No OME GPU occupant left during maintenance: `NodeDrainedForMaintenance`,
    /// `maintenanceDrainedAt`.
    DrainedForMaintenance,
    /// Alfred cordoned the node for maintenance: `NodeCordonedForMaintenance`.
    CordonedForMaintenance,
}

impl MarkKind {
    /// The mark as a person reads it (Alfred's words: `repair requested`, …).
    pub fn label(self) -> &'static str {
        match self {
            MarkKind::RepairRequested => "repair requested",
            MarkKind::DrainedForRepair => "drained for repair",
            MarkKind::MaintenanceRequested => "maintenance requested",
            MarkKind::DrainedForMaintenance => "drained for maintenance",
            MarkKind::CordonedForMaintenance => "cordoned for maintenance",
        }
    }

    /// The mark of an Event reason, if it is one of Alfred's node reasons.
    fn of_reason(reason: &str) -> Option<MarkKind> {
        Some(match reason {
            "NodeRepairNeeded" | "GpuUnhealthyEvacuating" => MarkKind::RepairRequested,
            "NodeDrainedForRepair" => MarkKind::DrainedForRepair,
            "NodeMaintenanceRequested" => MarkKind::MaintenanceRequested,
            "NodeDrainedForMaintenance" => MarkKind::DrainedForMaintenance,
            "NodeCordonedForMaintenance" => MarkKind::CordonedForMaintenance,
            _ => return None,
        })
    }
}

/// Marks of the same kind this close together are one moment told twice (the record's time
/// is Alfred's snapshot time, the Event's its emission).
const SAME_MOMENT: i64 = 60;

/// The merged timeline of one node: its history rows plus the current observation (`None`
/// without a feed), Alfred's node record for it and its Events (any; only Alfred's node reasons
/// are used). `now` closes a Suspect window that has ended.
pub fn node_timeline(
    rows: &[Observed],
    current: Option<&Observed>,
    record: Option<&NodeRecord>,
    events: &[&Event],
    now: Time,
) -> Timeline {
    let mut all: Vec<Observed> = rows.to_vec();
    all.extend(current.cloned());
    let mut episodes = episodes(&all, now);
    if let Some(r) = record {
        reach_back(&mut episodes, r);
        episodes.sort_by(|a, b| (a.from.at, &a.kind).cmp(&(b.from.at, &b.kind)));
    }
    Timeline {
        episodes,
        marks: marks(record, events),
    }
}

/// Episodes ome-top found already under way (`FirstSeen`) begin at the record's time when it
/// is earlier: `maintenanceRequestedAt` for maintenance, `signaledAt` for Unhealthy and
/// Unknown (the repair episode's start).
fn reach_back(episodes: &mut [Episode], r: &NodeRecord) {
    for e in episodes
        .iter_mut()
        .filter(|e| e.from.source == Source::FirstSeen)
    {
        let earlier = match e.kind {
            EpisodeKind::Maintenance(_) => r.maintenance_requested_at,
            EpisodeKind::Unhealthy | EpisodeKind::Unknown => r.signaled_at,
            _ => None,
        };
        if let Some(t) = earlier.filter(|t| *t < e.from.at) {
            e.from = Point::new(t, Source::AlfredRecord);
        }
    }
}

/// The record's phases and the Events' moments, merged where they tell the same moment.
fn marks(record: Option<&NodeRecord>, events: &[&Event]) -> Vec<Mark> {
    let mut told: Vec<(Time, MarkKind, Source, String)> = Vec::new();
    if let Some(r) = record {
        let phases = [
            (r.signaled_at, MarkKind::RepairRequested),
            (r.drained_at, MarkKind::DrainedForRepair),
            (r.maintenance_requested_at, MarkKind::MaintenanceRequested),
            (r.maintenance_drained_at, MarkKind::DrainedForMaintenance),
        ];
        for (at, kind) in phases {
            if let Some(at) = at {
                told.push((at, kind, Source::AlfredRecord, String::new()));
            }
        }
    }
    for e in events.iter().filter(|e| e.object_kind.as_ref() == "Node") {
        if let (Some(kind), Some(at)) = (MarkKind::of_reason(&e.reason), e.last_seen) {
            told.push((at, kind, Source::Event, e.message.clone()));
        }
    }
    told.sort_by_key(|a| (a.0, a.1, a.2));
    let mut out: Vec<Mark> = Vec::new();
    for (at, kind, source, message) in told {
        let same = out
            .iter_mut()
            .rev()
            .find(|m| m.kind == kind && (at - m.at).abs() <= Duration::seconds(SAME_MOMENT));
        match same {
            Some(m) => {
                if !m.sources.contains(&source) {
                    m.sources.push(source);
                    m.sources.sort();
                }
                if m.message.is_empty() {
                    m.message = message;
                }
            }
            None => out.push(Mark {
                at,
                kind,
                sources: vec![source],
                message,
            }),
        }
    }
    out
}
