//! A node's health history read as episodes (Unhealthy from → to, Suspect from → until,
//! maintenance trigger from → to, cordoned from → to), built from what ome-top observed and
//! merged with what the cluster still tells: node condition `lastTransitionTime`s, Alfred's
//! node record phases and Alfred's Node Events, each time marked by its source. Also the health
//! questions asked of many nodes' histories: which nodes flap and the mean time to repair per
//! pool.
//!
//! Owns: `NodeObservation` (what one observation of a node holds), `Observed`, `Source`,
//! `Point`, `EpisodeKind`, `Episode`, `Mark`, `Timeline`, and re-exports the builders of the
//! children (`observe`: one node's observation; `episodes`: rows → episodes; `cluster`: the
//! merge with the cluster's own times; `health`: flaps and repair times; `cordon`: the operator's
//! reason on a cordoned episode, from the audit rows). Pure: no I/O, no
//! clock (every `now` is an argument).

mod cluster;
mod cordon;
mod episodes;
mod health;
mod observe;

pub use cluster::{node_timeline, MarkKind};
pub use cordon::{name_cordons, CordonNote};
pub use episodes::episodes;
pub use health::{
    health_starts, nodes_health, NodeFlaps, NodesHealth, PoolRepair, DEFAULT_FLAPS,
    DEFAULT_WINDOW_DAYS,
};
pub use observe::{observe_node, NodeObservation};

use chrono::Duration;

use crate::engine::model::Time;

/// One observation of a node and when it was made (a history row, or the feed's now).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    /// When ome-top observed it.
    pub at: Time,
    /// What it observed.
    pub observed: NodeObservation,
}

/// Where a time on a node's timeline comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// ome-top saw the change (a history row's time, or the current feed's).
    Observed,
    /// ome-top's first look at the node already found it so: the episode began earlier.
    FirstSeen,
    /// A node condition's `lastTransitionTime`.
    Condition,
    /// The end of the suspicion window (`lastTransitionTime + nodeSuspicionWindowMinutes`).
    Window,
    /// Alfred's node record (`signaledAt`, `drainedAt`, `maintenanceRequestedAt`,
    /// `maintenanceDrainedAt`).
    AlfredRecord,
    /// One of Alfred's Node Events.
    Event,
}

impl Source {
    /// The source as a person reads it: `ome-top`, `first seen`, `condition`, `window`,
    /// `Alfred's record`, `event`.
    pub fn label(self) -> &'static str {
        match self {
            Source::Observed => "ome-top",
            Source::FirstSeen => "first seen",
            Source::Condition => "condition",
            Source::Window => "window",
            Source::AlfredRecord => "Alfred's record",
            Source::Event => "event",
        }
    }

    /// The source as a JSON word: `observed`, `firstSeen`, `condition`, `window`,
    /// `alfredRecord`, `event`.
    pub fn key(self) -> &'static str {
        match self {
            Source::Observed => "observed",
            Source::FirstSeen => "firstSeen",
            Source::Condition => "condition",
            Source::Window => "window",
            Source::AlfredRecord => "alfredRecord",
            Source::Event => "event",
        }
    }
}

/// A time and where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// The time.
    pub at: Time,
    /// Its source.
    pub source: Source,
}

impl Point {
    /// `at` from `source`.
    pub fn new(at: Time, source: Source) -> Self {
        Point { at, source }
    }
}

/// What an episode is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EpisodeKind {
    /// A trigger condition was `True`.
    Unhealthy,
    /// A trigger condition was `Unknown`, unrecognised, or `False` without a transition time.
    Unknown,
    /// Every trigger condition `False`, one of them for less than the suspicion window.
    Suspect,
    /// The named maintenance trigger matched.
    Maintenance(String),
    /// `spec.unschedulable` was set.
    Cordoned,
}

impl EpisodeKind {
    /// `Unhealthy`, `Unknown`, `Suspect`, `maintenance <trigger>`, `cordoned`.
    pub fn label(&self) -> String {
        match self {
            EpisodeKind::Unhealthy => "Unhealthy".into(),
            EpisodeKind::Unknown => "Unknown".into(),
            EpisodeKind::Suspect => "Suspect".into(),
            EpisodeKind::Maintenance(t) => format!("maintenance {t}"),
            EpisodeKind::Cordoned => "cordoned".into(),
        }
    }

    /// The state word scripts match on: `Unhealthy`, `Unknown`, `Suspect`, `Maintenance`,
    /// `Cordoned`.
    pub fn state(&self) -> &'static str {
        match self {
            EpisodeKind::Unhealthy => "Unhealthy",
            EpisodeKind::Unknown => "Unknown",
            EpisodeKind::Suspect => "Suspect",
            EpisodeKind::Maintenance(_) => "Maintenance",
            EpisodeKind::Cordoned => "Cordoned",
        }
    }

    /// Whether this is a health state (Unhealthy, Unknown, Suspect).
    pub fn is_health(&self) -> bool {
        matches!(
            self,
            EpisodeKind::Unhealthy | EpisodeKind::Unknown | EpisodeKind::Suspect
        )
    }
}

/// One stretch of time a node spent in one state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Episode {
    /// The state.
    pub kind: EpisodeKind,
    /// When it began.
    pub from: Point,
    /// When it ended; `None` while it lasts.
    pub to: Option<Point>,
    /// Suspect only: the end of the suspicion window, the latest deadline known.
    pub until: Option<Time>,
    /// The trigger conditions at its start (`GpuUnhealthy=True`); for a cordon episode the
    /// operator's reason when it was cordoned through ome-top (`name_cordons`); `""` for
    /// maintenance.
    pub reason: String,
}

impl Episode {
    /// Whether the episode still lasts.
    pub fn is_open(&self) -> bool {
        self.to.is_none()
    }

    /// How long it lasted, or has lasted by `now` while open (never negative).
    pub fn duration(&self, now: Time) -> Duration {
        let end = self.to.map_or(now, |p| p.at);
        (end - self.from.at).max(Duration::zero())
    }

    /// Whether any part of it lies at or after `t`.
    pub fn reaches(&self, t: Time) -> bool {
        self.to.is_none_or(|p| p.at >= t)
    }
}

/// A moment Alfred marked on the node (an Event, a record phase), with every source that
/// tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// When (the earliest of its sources).
    pub at: Time,
    /// What happened.
    pub kind: MarkKind,
    /// Who tells it (`AlfredRecord`, `Event`), without repeats, in that order.
    pub sources: Vec<Source>,
    /// The Event's message, when an Event tells it.
    pub message: String,
}

/// A node's merged timeline.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Timeline {
    /// Episodes, oldest first.
    pub episodes: Vec<Episode>,
    /// Alfred's marks, oldest first.
    pub marks: Vec<Mark>,
}

#[cfg(test)]
mod tests;
