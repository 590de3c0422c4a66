//! Rows → episodes: walks a node's observations oldest first and opens or closes an episode at
//! every change of health state, maintenance trigger and cordon. An episode starts at the
//! time the node's conditions give (when it lies between the previous row and this one),
//! else at the row's time; a Suspect episode ends at its window's end when the node was next
//! seen Clear later; an Unhealthy episode followed by a Clear row that says when the node
//! recovered gets the Suspect window ome-top did not see. Rows repeating a state (older
//! stores wrote one per start) change nothing.
//!
//! Owns: `episodes`. Pure.

use std::collections::BTreeMap;

use crate::engine::model::Time;
use crate::engine::nodes::HealthState;
use crate::engine::timeline::{Episode, EpisodeKind, Observed, Point, Source};

/// The episode kind of a health state (`None` for Clear).
fn health_kind(h: &HealthState) -> Option<EpisodeKind> {
    match h {
        HealthState::Clear => None,
        HealthState::Suspect { .. } => Some(EpisodeKind::Suspect),
        HealthState::Unknown => Some(EpisodeKind::Unknown),
        HealthState::Unhealthy => Some(EpisodeKind::Unhealthy),
    }
}

#[derive(Default)]
struct Builder {
    done: Vec<Episode>,
    health: Option<Episode>,
    /// The row the open health episode's state was first seen in (its `since` is compared
    /// with later rows').
    health_row: Option<Observed>,
    maintenance: BTreeMap<String, Episode>,
    cordon: Option<Episode>,
}

/// Where the state of `row` began: the conditions' time when it lies in `(previous, at]`,
/// else the row's time (`FirstSeen` for a node's first row).
fn start_of(row: &Observed, previous: Option<Time>) -> Point {
    let o = &row.observed;
    let source = match o.health {
        HealthState::Clear => Source::Window,
        _ => Source::Condition,
    };
    match o.since {
        Some(s) if s <= row.at && previous.is_none_or(|p| s > p) => Point::new(s, source),
        _ if previous.is_none() => Point::new(row.at, Source::FirstSeen),
        _ => Point::new(row.at, Source::Observed),
    }
}

impl Builder {
    fn health(&mut self, row: &Observed, previous: Option<Time>) {
        let kind = health_kind(&row.observed.health);
        if let (Some(open), Some(first)) = (self.health.as_mut(), self.health_row.as_ref()) {
            if Some(&open.kind) == kind.as_ref() && !first.observed.began_again(&row.observed) {
                if let Some(u) = row.observed.health.suspect_until() {
                    open.until = Some(open.until.map_or(u, |old| old.max(u)));
                }
                return;
            }
        }
        let start = start_of(row, previous);
        if let Some(mut open) = self.health.take() {
            let end = self.close_health(&mut open, row, start);
            open.to = Some(end);
            self.done.push(open);
        }
        self.health_row = Some(row.clone());
        self.health = kind.map(|kind| Episode {
            kind,
            from: start,
            to: None,
            until: row.observed.health.suspect_until(),
            reason: row.observed.reason.clone(),
        });
    }

    /// The end of `open` given the row that changes the state (which starts at `start`); may
    /// push the Suspect window between an Unhealthy episode and a Clear row.
    fn close_health(&mut self, open: &mut Episode, row: &Observed, start: Point) -> Point {
        let from = open.from.at;
        let clear = matches!(row.observed.health, HealthState::Clear);
        match (&open.kind, row.observed.cleared) {
            (EpisodeKind::Suspect, _) if clear => match open.until {
                Some(u) if u >= from && u < start.at => Point::new(u, Source::Window),
                _ => start,
            },
            (EpisodeKind::Unhealthy | EpisodeKind::Unknown, Some(c))
                if clear && c > from && c < start.at =>
            {
                self.done.push(Episode {
                    kind: EpisodeKind::Suspect,
                    from: Point::new(c, Source::Condition),
                    to: Some(start),
                    until: Some(start.at),
                    reason: row.observed.reason.clone(),
                });
                Point::new(c, Source::Condition)
            }
            _ if start.at >= from => start,
            _ => Point::new(row.at, Source::Observed),
        }
    }

    fn maintenance(&mut self, row: &Observed, first: bool) {
        let now: Vec<&String> = row.observed.triggers.iter().collect();
        let ended: Vec<String> = self
            .maintenance
            .keys()
            .filter(|t| !now.contains(t))
            .cloned()
            .collect();
        for t in ended {
            if let Some(mut e) = self.maintenance.remove(&t) {
                e.to = Some(Point::new(row.at, Source::Observed));
                self.done.push(e);
            }
        }
        for t in now {
            self.maintenance
                .entry(t.clone())
                .or_insert_with(|| Episode {
                    kind: EpisodeKind::Maintenance(t.clone()),
                    from: Point::new(row.at, seen(first)),
                    to: None,
                    until: None,
                    reason: String::new(),
                });
        }
    }

    fn cordon(&mut self, row: &Observed, first: bool) {
        match (self.cordon.take(), row.observed.cordoned) {
            (Some(mut e), false) => {
                e.to = Some(Point::new(row.at, Source::Observed));
                self.done.push(e);
            }
            (None, true) => {
                self.cordon = Some(Episode {
                    kind: EpisodeKind::Cordoned,
                    from: Point::new(row.at, seen(first)),
                    to: None,
                    until: None,
                    reason: String::new(),
                });
            }
            (open, _) => self.cordon = open,
        }
    }

    fn finish(mut self, now: Time) -> Vec<Episode> {
        if let Some(mut open) = self.health.take() {
            // A Suspect window that ended before `now` ended the episode (Alfred clears the
            // node then), even when no later row says so.
            if let (EpisodeKind::Suspect, Some(u)) = (&open.kind, open.until) {
                if u <= now && u >= open.from.at {
                    open.to = Some(Point::new(u, Source::Window));
                }
            }
            self.done.push(open);
        }
        self.done.extend(self.maintenance.into_values());
        self.done.extend(self.cordon);
        self.done
            .sort_by(|a, b| (a.from.at, &a.kind).cmp(&(b.from.at, &b.kind)));
        self.done
    }
}

fn seen(first: bool) -> Source {
    if first {
        Source::FirstSeen
    } else {
        Source::Observed
    }
}

/// The episodes of one node's observations (oldest first; rows out of order are sorted by
/// time), oldest first. `now` closes a Suspect episode whose window has ended.
pub fn episodes(rows: &[Observed], now: Time) -> Vec<Episode> {
    let mut sorted: Vec<&Observed> = rows.iter().collect();
    sorted.sort_by_key(|r| r.at);
    let mut b = Builder::default();
    let mut previous = None;
    for row in sorted {
        let first = previous.is_none();
        b.health(row, previous);
        b.maintenance(row, first);
        b.cordon(row, first);
        previous = Some(row.at);
    }
    b.finish(now)
}
