//! Editing an index as its snapshot's pods are edited (`ClusterSnapshot::upsert_pod`,
//! `delete_pod`): one pod's slot and list memberships, and the renumbering of the lists past
//! an inserted or removed pod, so that the index stays what `SnapshotIndex::new` builds from
//! the edited snapshot.
//!
//! Owns: `SnapshotIndex::{insert_pod, remove_pod, replace_pod}`. Pure.

use crate::engine::index::{is_live, PodSlot, SnapshotIndex, NO_NODE};
use crate::engine::model::Pod;

/// The lists of `SnapshotIndex` a pod belongs to, as `resolve_pods` files it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Membership {
    live: bool,
    grouped: bool,
    unbound: bool,
    managed_only: bool,
}

impl Membership {
    fn of(pod: &Pod) -> Self {
        let running = !pod.phase.is_terminal();
        let live = running && is_live(pod);
        Membership {
            live,
            grouped: running && pod.ome.pod_group.is_some(),
            unbound: pod.node.is_none(),
            managed_only: running && !live && pod.ome.managed_by.is_some(),
        }
    }
}

/// Shifts the entries of an ascending list for a pod inserted (`up`) or removed at `at`, and
/// puts `at` in or out of the list as `member` says.
fn shift_list(list: &mut Vec<usize>, at: usize, up: bool, member: bool) {
    let from = list.partition_point(|p| *p < at);
    let removed = !up && list.get(from) == Some(&at);
    if removed {
        list.remove(from);
    }
    for p in &mut list[from..] {
        *p = if up { *p + 1 } else { *p - 1 };
    }
    if up && member {
        list.insert(from, at);
    }
}

/// Puts pod `at` in or out of an ascending list.
fn set_member(list: &mut Vec<usize>, at: usize, member: bool) {
    match (list.binary_search(&at), member) {
        (Err(i), true) => list.insert(i, at),
        (Ok(i), false) => {
            list.remove(i);
        }
        _ => {}
    }
}

impl SnapshotIndex {
    /// Records pod `at` inserted into the snapshot (bound to node `node`): later pods move one
    /// place up, as `new` on the edited snapshot would number them.
    pub fn insert_pod(&mut self, at: usize, pod: &Pod, node: Option<usize>) {
        let m = Membership::of(pod);
        self.pods.insert(at.min(self.pods.len()), slot(pod, node));
        shift_list(&mut self.live, at, true, m.live);
        shift_list(&mut self.grouped, at, true, m.grouped);
        shift_list(&mut self.unbound, at, true, m.unbound);
        shift_list(&mut self.managed_only, at, true, m.managed_only);
    }

    /// Records pod `at` removed from the snapshot: later pods move one place down.
    pub fn remove_pod(&mut self, at: usize) {
        if at < self.pods.len() {
            self.pods.remove(at);
        }
        shift_list(&mut self.live, at, false, false);
        shift_list(&mut self.grouped, at, false, false);
        shift_list(&mut self.unbound, at, false, false);
        shift_list(&mut self.managed_only, at, false, false);
    }

    /// Records pod `at` replaced by `pod` (bound to node `node`).
    pub fn replace_pod(&mut self, at: usize, pod: &Pod, node: Option<usize>) {
        let m = Membership::of(pod);
        if let Some(s) = self.pods.get_mut(at) {
            *s = slot(pod, node);
        }
        set_member(&mut self.live, at, m.live);
        set_member(&mut self.grouped, at, m.grouped);
        set_member(&mut self.unbound, at, m.unbound);
        set_member(&mut self.managed_only, at, m.managed_only);
    }
}

/// The slot of a pod bound to node `node` (`None`: unbound or naming no node).
fn slot(pod: &Pod, node: Option<usize>) -> PodSlot {
    PodSlot {
        node: node.map_or(NO_NODE, |n| n as u32),
        gpus: pod.gpus,
    }
}
