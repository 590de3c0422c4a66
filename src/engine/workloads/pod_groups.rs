//! Which pods carry which workload's labels: the live pods grouped by `(ISVC key, component
//! label)` (keys from `fast::IsvcKeys`), built once per analysis with a counting sort instead
//! of a map of string triples.
//!
//! Owns: `LabelGroups`, `NO_KEY`. Pure.

use crate::engine::fast::{ByAddress, IsvcKeys, LastAnswer};
use crate::engine::index::{component_index, SnapshotIndex};
use crate::engine::model::{ClusterSnapshot, Name, Pod, COMPONENTS};

/// Marks "no key" in per-pod key lists.
pub const NO_KEY: u32 = u32::MAX;

/// Live pods grouped by `(ISVC key, component label)`, each group in pod order; plus each live
/// pod's ISVC key (from its namespace and `ome.io/inferenceservice` label).
pub struct LabelGroups {
    /// Start of each group in `pods` (`keys × COMPONENTS` groups, plus one end marker).
    starts: Vec<u32>,
    /// Pod indices, group after group.
    pods: Vec<usize>,
    /// Aligned with `SnapshotIndex::live`: the pod's ISVC key id, or `NO_KEY`.
    pub live_keys: Vec<u32>,
}

/// A live pod's ISVC key (`key_of` its namespace and `ome.io/inferenceservice` label) and the
/// index of its `component` label; the pod is in the group `(key, component)` when it has both.
pub fn pod_label_key<'p, K>(
    pod: &'p Pod,
    key_of: impl FnOnce(&'p Name, &'p Name) -> Option<K>,
) -> (Option<K>, Option<usize>) {
    let key = pod
        .ome
        .isvc
        .as_ref()
        .and_then(|name| key_of(&pod.namespace, name));
    (key, pod.ome.component.as_deref().and_then(component_index))
}

impl LabelGroups {
    /// Groups the live pods with both an ISVC and a component label.
    pub fn new(snap: &ClusterSnapshot, idx: &SnapshotIndex, keys: &IsvcKeys<'_>) -> Self {
        let n = COMPONENTS.len();
        let mut live_keys = Vec::with_capacity(idx.live.len());
        let mut members: Vec<(u32, usize)> = Vec::with_capacity(idx.live.len());
        // Pods of one workload sit side by side in a live snapshot (store order): the last
        // answer is asked again far more often than the map.
        let mut last = LastAnswer::default();
        for p in &idx.live {
            let pod = &snap.pods[*p];
            let (key, c) = pod_label_key(pod, |ns, name| {
                let key = last.get((ByAddress(ns), ByAddress(name)), || {
                    keys.id_of(ns, name).unwrap_or(NO_KEY)
                });
                (key != NO_KEY).then_some(key)
            });
            live_keys.push(key.unwrap_or(NO_KEY));
            if let (Some(key), Some(c)) = (key, c) {
                members.push((key * n as u32 + c as u32, *p));
            }
        }
        let groups = keys.len() * n;
        let mut starts = vec![0u32; groups + 1];
        for (g, _) in &members {
            starts[*g as usize + 1] += 1;
        }
        for g in 0..groups {
            starts[g + 1] += starts[g];
        }
        let mut fill = starts.clone();
        let mut pods = vec![0usize; members.len()];
        for (g, p) in members {
            pods[fill[g as usize] as usize] = p;
            fill[g as usize] += 1;
        }
        LabelGroups {
            starts,
            pods,
            live_keys,
        }
    }

    /// Pods labelled for component `c` of the ISVC key `key`, ascending.
    pub fn get(&self, key: Option<u32>, c: usize) -> &[usize] {
        let Some(key) = key else { return &[] };
        let g = key as usize * COMPONENTS.len() + c;
        match (self.starts.get(g), self.starts.get(g + 1)) {
            (Some(a), Some(b)) => &self.pods[*a as usize..*b as usize],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::{isvc, pod};
    use std::sync::Arc;

    fn labelled(
        ns: &str,
        name: &str,
        isvc: &str,
        component: Option<&str>,
    ) -> crate::engine::model::Pod {
        let mut p = pod(ns, name, Some("n"), 1);
        p.ome.isvc = Some(Arc::from(isvc));
        p.ome.component = component.map(Arc::from);
        p
    }

    #[test]
    fn groups_by_key_and_component_in_pod_order() {
        let snap = ClusterSnapshot {
            isvcs: vec![isvc("a", "x"), isvc("b", "y")].into(),
            pods: vec![
                labelled("b", "p0", "y", Some("engine")),
                labelled("a", "p1", "x", Some("decoder")),
                labelled("a", "p2", "x", None),
                labelled("a", "p3", "nope", Some("engine")),
                labelled("b", "p4", "y", Some("engine")),
                labelled("a", "p5", "x", Some("sidecar")),
            ]
            .into(),
            ..Default::default()
        };
        let idx = SnapshotIndex::new(&snap);
        let keys = IsvcKeys::new(&snap.isvcs);
        let g = LabelGroups::new(&snap, &idx, &keys);
        assert_eq!(g.get(keys.key_of(1), 0), &[0, 4]);
        assert_eq!(g.get(keys.key_of(0), 1), &[1]);
        assert!(g.get(keys.key_of(0), 0).is_empty());
        assert!(g.get(None, 0).is_empty());
        assert_eq!(g.live_keys, vec![1, 0, 0, NO_KEY, 1, 0]);
    }
}
