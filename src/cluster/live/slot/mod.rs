//! One watched source as the rest of the live layer sees it: its compact `Store`, whether it
//! exists and is readable (`Presence`), whether its first list completed, and the failure of
//! the current outage. Shared between its watcher task (writes) and the snapshot task (reads).
//!
//! Owns: `Slot`, `Role`, `SourceStatus`, `ErrorClass`, `classify`. No I/O besides `tracing` events
//! for each change of state (listed, present/absent/refused, outage and recovery); time arrives as
//! an argument.

use std::sync::{Mutex, MutexGuard, PoisonError};

use kube::runtime::watcher;

use crate::cluster::live::cause::kube_words;
use crate::cluster::live::store::{Conversion, Drained, SharedNames, Store};
use crate::engine::model::Time;
use crate::protocol::{Presence, SourceState};

/// How a source's absence or refusal is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Nodes and Pods: a refusal makes the whole view `ApiStatus::Forbidden`.
    Required,
    /// A kind that may be missing (a CRD) or refused without stopping the view.
    Optional,
    /// A ConfigMap watched by name: no object means `Presence::Absent`.
    Named,
}

/// What a watcher error means for the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorClass {
    /// 404 on the resource: the CRD is not installed.
    NotFound,
    /// 401/403: the identity may not list or watch it.
    Forbidden,
    /// 410 Gone: the watcher relists by itself; not an outage.
    Gone,
    /// Anything else (connection refused, 5xx, 429, timeouts): an outage, one line.
    Transient(String),
}

/// Classifies a watcher error.
pub fn classify(err: &watcher::Error) -> ErrorClass {
    let status = match err {
        watcher::Error::InitialListFailed(e)
        | watcher::Error::WatchStartFailed(e)
        | watcher::Error::WatchFailed(e) => match e {
            kube::Error::Api(s) => Some(s.as_ref()),
            _ => None,
        },
        watcher::Error::WatchError(s) => Some(s.as_ref()),
        watcher::Error::NoResourceVersion => None,
    };
    match status {
        Some(s) if s.code == 410 => ErrorClass::Gone,
        // A missing resource answers with a plain-text body: only the code is reliable.
        Some(s) if s.code == 404 || s.is_not_found() => ErrorClass::NotFound,
        Some(s) if s.code == 403 || s.code == 401 || s.is_forbidden() => ErrorClass::Forbidden,
        _ => ErrorClass::Transient(one_line(&transient_words(err))),
    }
}

/// A watcher's outage in words: what failed (kube's list or watch step) and its cause.
fn transient_words(err: &watcher::Error) -> String {
    let (step, e) = match err {
        watcher::Error::InitialListFailed(e) => ("list", e),
        watcher::Error::WatchStartFailed(e) => ("watch start", e),
        watcher::Error::WatchFailed(e) => ("watch", e),
        other => return other.to_string(),
    };
    format!("{step} failed: {}", kube_words(e))
}

fn one_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or_default();
    line.chars().take(200).collect()
}

/// A watched source: its store and freshness.
pub struct Slot<T> {
    /// Short name shown in the header (`nodes`, `pods`, `recommendations`, …).
    pub name: &'static str,
    /// How absence and refusal are read.
    pub role: Role,
    /// The verb and resource a refusal names, e.g. `list nodes`.
    pub what: &'static str,
    inner: Mutex<SlotInner<T>>,
}

struct SlotInner<T> {
    store: Store<T>,
    presence: Presence,
    last_change: Option<Time>,
    synced: bool,
    failure: Option<(Time, String)>,
    /// How many times the objects held or the presence changed (what a snapshot reads).
    changes: u64,
    /// `changes` when the snapshot task last drained this source.
    drained: u64,
}

impl<T: Clone> Slot<T> {
    /// An empty, pending source with an interner of its own.
    pub fn new(name: &'static str, role: Role, what: &'static str) -> Self {
        Slot::with_names(&SharedNames::default(), name, role, what)
    }

    /// An empty, pending source interning into the session's shared `names`.
    pub fn with_names(
        names: &SharedNames,
        name: &'static str,
        role: Role,
        what: &'static str,
    ) -> Self {
        Slot {
            name,
            role,
            what,
            inner: Mutex::new(SlotInner {
                store: Store::sharing(names.clone()),
                presence: Presence::Pending,
                last_change: None,
                synced: false,
                failure: None,
                changes: 0,
                drained: 0,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, SlotInner<T>> {
        // A panic while holding the lock cannot leave the store half-written in a way that
        // matters more than stopping the dashboard would.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies a watcher event at `now`; returns whether anything visible changed.
    pub fn on_event<K>(
        &self,
        event: watcher::Event<K>,
        conv: &Conversion<K, T>,
        now: Time,
    ) -> bool {
        let mut s = self.lock();
        let done = matches!(event, watcher::Event::InitDone);
        let working = !matches!(event, watcher::Event::Init);
        if matches!(event, watcher::Event::Init) {
            note::listing(self.name);
        }
        let mut changed = s.store.apply(event, conv);
        if working {
            if let Some((since, error)) = s.failure.take() {
                note::recovered(self.name, since, &error);
                changed = true;
            }
        }
        if done || (s.synced && changed) {
            let presence = if self.role == Role::Named && s.store.is_empty() {
                Presence::Absent
            } else {
                Presence::Present
            };
            let first = s.presence != presence || !s.synced;
            note::listed(self.name, presence, s.store.len(), first, done);
            changed |= s.presence != presence || !s.synced;
            s.presence = presence;
            s.synced = true;
        }
        if changed {
            s.last_change = Some(now);
            s.changes += 1;
        }
        changed
    }

    /// How many times what a snapshot reads of this source (its objects, its presence) has
    /// changed: equal counts mean equal contents.
    pub fn changes(&self) -> u64 {
        self.lock().changes
    }

    /// Records a watcher error at `now`; returns whether anything visible changed.
    pub fn on_error(&self, err: &watcher::Error, now: Time) -> bool {
        let mut s = self.lock();
        let presence = match classify(err) {
            ErrorClass::Gone => {
                note::gone(self.name);
                return false;
            }
            ErrorClass::Transient(line) => {
                let since = s.failure.as_ref().map_or(now, |(t, _)| *t);
                let changed = s.failure.as_ref().map(|(_, e)| e) != Some(&line);
                note::failing(self.name, &line, s.failure.is_none(), changed);
                s.failure = Some((since, line));
                return changed;
            }
            ErrorClass::NotFound => Presence::CrdAbsent,
            ErrorClass::Forbidden => Presence::Forbidden,
        };
        if s.presence != presence {
            note::unavailable(self.name, self.what, presence);
        }
        let changed = s.store.clear() | (s.presence != presence) | !s.synced | s.failure.is_some();
        s.presence = presence;
        s.synced = true;
        s.failure = None;
        if changed {
            s.last_change = Some(now);
            s.changes += 1;
        }
        changed
    }

    /// Appends the objects held to `out`.
    pub fn extend_into(&self, out: &mut impl Extend<T>) {
        self.lock().store.extend_into(out);
    }

    /// Whether what a snapshot reads of this source (objects, presence) changed since the
    /// last drain.
    pub fn changed_since_drain(&self) -> bool {
        let s = self.lock();
        s.changes != s.drained
    }

    /// The keys changed since the last drain with their objects now (`Store::drain`), read
    /// under the lock every change takes: exactly the store's state at this moment.
    pub fn drain(&self) -> Drained<T> {
        let mut s = self.lock();
        s.drained = s.changes;
        s.store.drain()
    }

    /// Appends the objects held to `out` and starts a fresh record of changes (one lock).
    pub fn drain_all(&self, out: &mut impl Extend<T>) {
        let mut s = self.lock();
        s.drained = s.changes;
        s.store.drain_all(out);
    }
}

/// The type-erased view of a slot the snapshot task needs.
pub trait SourceStatus: Send + Sync {
    /// The header row of this source.
    fn source_state(&self) -> SourceState;
    /// The current outage: since when and the last error.
    fn failure(&self) -> Option<(Time, String)>;
    /// Whether the first list completed (or the source is known absent/refused).
    fn synced(&self) -> bool;
    /// `Some("list nodes")` when a required source is refused.
    fn refused_required(&self) -> Option<&'static str>;
    /// Conversion warnings, one line each with names.
    fn warnings(&self) -> Vec<String>;
}

impl<T: Clone + Send> SourceStatus for Slot<T> {
    fn source_state(&self) -> SourceState {
        let s = self.lock();
        SourceState {
            name: self.name,
            presence: s.presence,
            last_change: s.last_change,
            objects: s.store.len(),
            listing: s.store.listing(),
        }
    }

    fn failure(&self) -> Option<(Time, String)> {
        self.lock().failure.clone()
    }

    fn synced(&self) -> bool {
        self.lock().synced
    }

    fn refused_required(&self) -> Option<&'static str> {
        let refused = self.role == Role::Required && self.lock().presence == Presence::Forbidden;
        refused.then_some(self.what)
    }

    fn warnings(&self) -> Vec<String> {
        self.lock().store.warnings()
    }
}

/// The log lines of a source's state changes (one function each, so the state machine above
/// stays readable).
mod note {
    use crate::engine::model::Time;
    use crate::protocol::Presence;

    pub fn listing(source: &str) {
        tracing::debug!(source, "listing");
    }

    pub fn recovered(source: &str, since: Time, last_error: &str) {
        tracing::info!(source, %since, last_error, "watch works again");
    }

    /// A list completed (`done`) or the presence changed; `first`: the state is new.
    pub fn listed(source: &str, presence: Presence, objects: usize, first: bool, done: bool) {
        if first {
            tracing::info!(source, ?presence, objects, "source state");
        } else if done {
            tracing::debug!(source, objects, "list complete");
        }
    }

    pub fn gone(source: &str) {
        tracing::debug!(source, "resourceVersion expired (410); relisting");
    }

    /// A transient failure: the first of an outage is a warning, a new message later debug.
    pub fn failing(source: &str, error: &str, first: bool, changed: bool) {
        if first {
            tracing::warn!(source, error, "watch failing; retrying");
        } else if changed {
            tracing::debug!(source, error, "watch still failing");
        }
    }

    pub fn unavailable(source: &str, what: &str, presence: Presence) {
        match presence {
            Presence::Forbidden => tracing::warn!(source, "refused: may not {what}"),
            _ => tracing::info!(source, "resource not installed (404)"),
        }
    }
}

#[cfg(test)]
mod tests;
