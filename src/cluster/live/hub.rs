//! What the watcher tasks, the RBAC probe and the snapshot task share: every source's store,
//! the wake-up of the snapshot task, the permissions and the event counts.
//!
//! Owns: `Hub`.

use std::sync::atomic::AtomicU64;
use std::sync::Mutex;

use tokio::sync::Notify;

use crate::cluster::live::stores::Stores;
use crate::engine::model::Time;
use crate::protocol::Permissions;

/// What the watcher tasks, the RBAC probe and the snapshot task share.
pub struct Hub {
    /// Every source's store.
    pub stores: Stores,
    /// Woken whenever a store, a presence or a failure changed (and `contents` counts it),
    /// or a list in progress received more objects (a wake-up with `contents` unchanged).
    pub changed: Notify,
    /// Changes of what a feed shows besides list progress: a store, a presence, a failure.
    pub contents: AtomicU64,
    /// The wall clock, handed in by the composition root.
    pub clock: fn() -> Time,
    /// The latest RBAC probe result (or the read-only switch).
    pub permissions: Mutex<Permissions>,
    /// Object events (`InitApply`, `Apply`, `Delete`) applied to the stores since the start.
    pub events_applied: AtomicU64,
    /// `events_applied` as read just before the snapshot of the latest feed (stored just before
    /// that feed is published): every event counted here is in it (the scale test's measure
    /// of analyses keeping up).
    pub events_in_feed: AtomicU64,
}

impl Hub {
    /// A hub with empty, pending stores.
    pub fn new(clock: fn() -> Time, permissions: Permissions) -> Self {
        Hub {
            stores: Stores::default(),
            changed: Notify::new(),
            contents: AtomicU64::new(0),
            clock,
            permissions: Mutex::new(permissions),
            events_applied: AtomicU64::new(0),
            events_in_feed: AtomicU64::new(0),
        }
    }
}
