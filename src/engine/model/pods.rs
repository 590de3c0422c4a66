//! The pods of a snapshot, each held behind an `Arc` so that the live store and every
//! snapshot built from it share one copy. A snapshot then costs one reference-count
//! increment per pod instead of a second copy of every pod per published feed
//! (`benches/update.rs`, `update/snapshot_pods_100k`), and a changed pod is copied alone.
//!
//! Reads look like a `Vec<Pod>`: `pods[i]`, `iter()`, `len()`. A write (`pods[i].x = …`,
//! `for p in &mut pods`) copies that pod first if anyone else holds it (`Arc::make_mut`), so a snapshot
//! never changes under another holder.
//!
//! Owns: `Pods`. Pure data.

use std::ops::{Index, IndexMut};
use std::sync::Arc;

use crate::engine::model::pod::Pod;

/// Shared pods in a fixed order (see the module doc).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pods(Vec<Arc<Pod>>);

impl Pods {
    /// Number of pods.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no pods.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Pod `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<&Pod> {
        self.0.get(i).map(|p| &**p)
    }

    /// The pods in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Pod> + ExactSizeIterator + Clone {
        self.0.iter().map(|p| &**p)
    }

    /// The shared pods in order (a diff of two snapshots compares them by allocation first,
    /// `engine::fast::same_shared`; tests check what is shared).
    pub fn shared(&self) -> &[Arc<Pod>] {
        &self.0
    }

    /// Appends a pod.
    pub fn push(&mut self, pod: Pod) {
        self.0.push(Arc::new(pod));
    }

    /// Keeps the pods `keep` accepts, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Pod) -> bool) {
        self.0.retain(|p| keep(p));
    }

    /// Removes and returns pod `i` (shifting the rest), if there is one.
    pub fn remove(&mut self, i: usize) -> Option<Arc<Pod>> {
        (i < self.0.len()).then(|| self.0.remove(i))
    }

    /// Inserts a shared pod at position `i` (clamped to the end), shifting the rest.
    pub fn insert(&mut self, i: usize, pod: Arc<Pod>) {
        self.0.insert(i.min(self.0.len()), pod);
    }

    /// Puts a shared pod in place of pod `i` and returns the one it replaces (`None`, and
    /// nothing changed, when there is no pod `i`).
    pub fn replace(&mut self, i: usize, pod: Arc<Pod>) -> Option<Arc<Pod>> {
        let slot = self.0.get_mut(i)?;
        Some(std::mem::replace(slot, pod))
    }

    /// The first position whose pod `before` does not accept (a binary search: `before` must
    /// hold for a prefix of the pods, as "key < k" does for pods in key order).
    pub fn partition_point(&self, mut before: impl FnMut(&Pod) -> bool) -> usize {
        self.0.partition_point(|p| before(p))
    }

    /// Sorts the pods by `key`, computed once per pod (stable).
    pub fn sort_by_cached_key<K: Ord>(&mut self, mut key: impl FnMut(&Pod) -> K) {
        self.0.sort_by_cached_key(|p| key(p));
    }
}

impl Index<usize> for Pods {
    type Output = Pod;
    fn index(&self, i: usize) -> &Pod {
        &self.0[i]
    }
}

impl IndexMut<usize> for Pods {
    /// Pod `i` for writing, copied first if it is shared.
    fn index_mut(&mut self, i: usize) -> &mut Pod {
        Arc::make_mut(&mut self.0[i])
    }
}

impl From<Vec<Pod>> for Pods {
    fn from(pods: Vec<Pod>) -> Self {
        pods.into_iter().collect()
    }
}

impl FromIterator<Pod> for Pods {
    fn from_iter<I: IntoIterator<Item = Pod>>(pods: I) -> Self {
        Pods(pods.into_iter().map(Arc::new).collect())
    }
}

impl FromIterator<Arc<Pod>> for Pods {
    fn from_iter<I: IntoIterator<Item = Arc<Pod>>>(pods: I) -> Self {
        Pods(pods.into_iter().collect())
    }
}

impl Extend<Pod> for Pods {
    fn extend<I: IntoIterator<Item = Pod>>(&mut self, pods: I) {
        self.0.extend(pods.into_iter().map(Arc::new));
    }
}

impl Extend<Arc<Pod>> for Pods {
    fn extend<I: IntoIterator<Item = Arc<Pod>>>(&mut self, pods: I) {
        self.0.extend(pods);
    }
}

impl<'a> IntoIterator for &'a Pods {
    type Item = &'a Pod;
    type IntoIter = std::iter::Map<std::slice::Iter<'a, Arc<Pod>>, fn(&'a Arc<Pod>) -> &'a Pod>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|p| &**p)
    }
}

impl<'a> IntoIterator for &'a mut Pods {
    type Item = &'a mut Pod;
    type IntoIter =
        std::iter::Map<std::slice::IterMut<'a, Arc<Pod>>, fn(&'a mut Arc<Pod>) -> &'a mut Pod>;
    /// The pods for writing, each copied first if it is shared.
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut().map(Arc::make_mut)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::pod;

    #[test]
    fn a_write_copies_a_shared_pod_and_leaves_the_other_holder_alone() {
        let mut a: Pods = vec![pod("ns", "p0", Some("n1"), 1), pod("ns", "p1", None, 2)].into();
        let b = a.clone();
        assert!(crate::engine::fast::same_allocation(
            &a.shared()[0],
            &b.shared()[0]
        ));
        a[0].gpus = 7;
        assert_eq!((a[0].gpus, b[0].gpus), (7, 1));
        assert!(!crate::engine::fast::same_allocation(
            &a.shared()[0],
            &b.shared()[0]
        ));
        assert!(crate::engine::fast::same_allocation(
            &a.shared()[1],
            &b.shared()[1]
        ));
    }

    #[test]
    fn reads_like_a_vec() {
        let mut pods = Pods::default();
        pods.push(pod("ns", "p0", Some("n1"), 1));
        pods.extend([pod("ns", "p1", None, 2)]);
        assert_eq!(pods.len(), 2);
        assert_eq!(pods.iter().map(|p| p.gpus).sum::<u32>(), 3);
        assert_eq!((&pods).into_iter().next_back().map(|p| p.gpus), Some(2));
        assert!(pods.get(2).is_none() && pods.remove(2).is_none());
        pods.retain(|p| p.gpus > 1);
        assert_eq!(pods[0].gpus, 2);
    }
}
