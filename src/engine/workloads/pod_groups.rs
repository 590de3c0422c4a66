//! Which pods carry which workload's labels: InferenceService keys (`ns/name` → small ids) and
//! the live pods grouped by `(ISVC key, component label)`, built once per analysis with a
//! counting sort instead of a map of string triples.
//!
//! Owns: `IsvcKeys`, `LabelGroups`. Pure; must not import anything outside `std` and `engine`.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::analysis::{component_index, SnapshotIndex};
use crate::engine::fast::key_orders;
use crate::engine::fast::{address, same, LastAnswer};
use crate::engine::model::{ClusterSnapshot, InferenceService, Name, COMPONENTS};

/// Marks "no key" in per-pod key lists.
pub const NO_KEY: u32 = u32::MAX;

/// Distinct InferenceService keys `(namespace, name)`.
pub struct IsvcKeys<'a> {
    /// Key ids by text; `None` when the ISVCs are in key order (the live store's order), where
    /// a binary search over them answers instead and equal keys are neighbours.
    ids: Option<HashMap<(&'a str, &'a str), u32>>,
    /// The ISVCs the ids were assigned to.
    isvcs: &'a [InferenceService],
    /// The same ids by the addresses of each ISVC's namespace and name: a pod's namespace and
    /// ISVC label share those texts in a live snapshot, so most lookups hash two integers and
    /// read no string.
    by_address: HashMap<(usize, usize), u32>,
    /// Per key id: the last ISVC with that key (what a key → index map would return).
    last: Vec<usize>,
    /// Per ISVC: its key id.
    key_of: Vec<u32>,
    /// Whether the ISVCs are in `ns/name` text order as well as in key order.
    text_order: bool,
}

impl<'a> IsvcKeys<'a> {
    /// Assigns key ids to every ISVC of `snap`.
    pub fn new(snap: &'a ClusterSnapshot) -> Self {
        let isvcs = &snap.isvcs[..];
        let n = isvcs.len();
        let mut by_address: HashMap<(usize, usize), u32> = HashMap::default();
        by_address.reserve(n);
        let mut last = Vec::new();
        let mut key_of = Vec::with_capacity(n);
        let (sorted, text_order) = key_orders(isvcs);
        let mut ids: HashMap<(&str, &str), u32> = HashMap::default();
        if !sorted {
            ids.reserve(n);
        }
        for (i, w) in isvcs.iter().enumerate() {
            let next = last.len() as u32;
            let id = if sorted {
                // Equal keys are neighbours: a new key starts a new id.
                match i.checked_sub(1).map(|p| (p, &isvcs[p])) {
                    Some((p, prev))
                        if same(&prev.namespace, &w.namespace) && same(&prev.name, &w.name) =>
                    {
                        key_of[p]
                    }
                    _ => next,
                }
            } else {
                *by_address
                    .entry((address(&w.namespace), address(&w.name)))
                    .or_insert_with(|| {
                        *ids.entry((w.namespace.as_ref(), w.name.as_ref()))
                            .or_insert(next)
                    })
            };
            if sorted {
                by_address
                    .entry((address(&w.namespace), address(&w.name)))
                    .or_insert(id);
            }
            if id == next {
                last.push(i);
            } else {
                last[id as usize] = i;
            }
            key_of.push(id);
        }
        IsvcKeys {
            ids: (!sorted).then_some(ids),
            isvcs,
            by_address,
            last,
            key_of,
            text_order,
        }
    }

    /// The key id of `(namespace, name)`.
    pub fn id(&self, namespace: &str, name: &str) -> Option<u32> {
        match &self.ids {
            Some(ids) => ids.get(&(namespace, name)).copied(),
            None => {
                let wanted = (namespace, name);
                let at = self
                    .isvcs
                    .partition_point(|w| (w.namespace.as_ref(), w.name.as_ref()) < wanted);
                let found = self
                    .isvcs
                    .get(at)
                    .filter(|w| (w.namespace.as_ref(), w.name.as_ref()) == wanted);
                found.and_then(|_| self.key_of.get(at).copied())
            }
        }
    }

    /// `id` for shared names: by address first, by text when the texts are not an ISVC's own.
    pub fn id_of(&self, namespace: &Name, name: &Name) -> Option<u32> {
        match self.by_address.get(&(address(namespace), address(name))) {
            Some(id) => Some(*id),
            None => self.id(namespace, name),
        }
    }

    /// The last ISVC with key id `id`.
    pub fn last(&self, id: u32) -> Option<usize> {
        self.last.get(id as usize).copied()
    }

    /// The key id of ISVC `isvc`.
    pub fn key_of(&self, isvc: usize) -> Option<u32> {
        self.key_of.get(isvc).copied()
    }

    /// Whether the ISVCs are in ascending `(namespace, name)` order (checked once, here).
    pub fn in_key_order(&self) -> bool {
        self.ids.is_none()
    }

    /// Per ISVC, the rank of its `ns/name` text among the distinct texts, when the ISVCs are
    /// in both key order and text order: key ids are then assigned in text order, so they are
    /// those ranks. `None` otherwise (ranks then need a sort).
    pub fn text_ranks(&self) -> Option<&[u32]> {
        (self.in_key_order() && self.text_order).then_some(&self.key_of[..])
    }

    /// Number of distinct keys.
    pub fn len(&self) -> usize {
        self.last.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.last.is_empty()
    }
}

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
            let key = match pod.ome.isvc.as_ref() {
                None => NO_KEY,
                Some(name) => last.get((address(&pod.namespace), address(name)), || {
                    keys.id_of(&pod.namespace, name).unwrap_or(NO_KEY)
                }),
            };
            live_keys.push(key);
            let c = pod.ome.component.as_deref().and_then(component_index);
            if let (true, Some(c)) = (key != NO_KEY, c) {
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
    fn duplicate_keys_share_an_id_and_the_last_wins() {
        let snap = ClusterSnapshot {
            isvcs: vec![isvc("a", "x"), isvc("b", "x"), isvc("a", "x")],
            ..Default::default()
        };
        let keys = IsvcKeys::new(&snap);
        assert_eq!(keys.len(), 2);
        assert_eq!(keys.id("a", "x"), Some(0));
        assert_eq!(keys.last(0), Some(2));
        assert_eq!(keys.key_of(2), Some(0));
        assert_eq!(keys.id("c", "x"), None);
    }

    #[test]
    fn shared_and_separate_texts_find_the_same_id() {
        let mut shared = isvc("a", "x");
        shared.namespace = Arc::from("a");
        let mut twin = isvc("b", "y");
        twin.namespace = shared.namespace.clone();
        twin.name = shared.name.clone(); // the same texts, shared: one key
        let snap = ClusterSnapshot {
            isvcs: vec![shared.clone(), isvc("b", "y"), twin, isvc("a", "x")],
            ..Default::default()
        };
        let keys = IsvcKeys::new(&snap);
        assert_eq!(keys.len(), 2);
        assert_eq!(
            keys.last(0),
            Some(3),
            "separate copies of a text share its id"
        );
        // A pod's own copies of the texts (no shared address) and the ISVC's shared ones.
        let (ns, name): (Name, Name) = (Arc::from("a"), Arc::from("x"));
        assert_eq!(keys.id_of(&ns, &name), Some(0));
        assert_eq!(keys.id_of(&shared.namespace, &shared.name), Some(0));
        assert_eq!(
            keys.id_of(&snap.isvcs[1].namespace, &snap.isvcs[1].name),
            Some(1)
        );
        assert_eq!(keys.id_of(&shared.namespace, &Arc::from("nope")), None);
    }

    proptest::proptest! {
        /// Key order (the sorted path) and any order (the map path) both number keys by first
        /// occurrence and answer every text lookup like a plain map.
        #[test]
        fn ids_equal_a_map_in_either_order(
            pairs in proptest::collection::vec(("[ab]{0,2}", "[xy]{0,2}"), 0..24),
            sort in proptest::bool::ANY,
        ) {
            let mut pairs = pairs;
            if sort {
                pairs.sort();
            }
            let snap = ClusterSnapshot {
                isvcs: pairs.iter().map(|(ns, name)| isvc(ns, name)).collect(),
                ..Default::default()
            };
            let keys = IsvcKeys::new(&snap);
            let mut first: std::collections::HashMap<(&str, &str), u32> = Default::default();
            for (i, (ns, name)) in pairs.iter().enumerate() {
                let next = first.len() as u32;
                let id = *first.entry((ns.as_str(), name.as_str())).or_insert(next);
                proptest::prop_assert_eq!(keys.key_of(i), Some(id));
                proptest::prop_assert_eq!(keys.id(ns, name), Some(id));
                let last = pairs.iter().rposition(|p| p == &pairs[i]);
                proptest::prop_assert_eq!(keys.last(id), last);
            }
            proptest::prop_assert_eq!(keys.len(), first.len());
            proptest::prop_assert_eq!(keys.id("zz", "x"), None);
            let in_order = pairs.windows(2).all(|w| w[0] <= w[1]);
            proptest::prop_assert_eq!(keys.in_key_order(), in_order);
        }
    }

    #[test]
    fn groups_by_key_and_component_in_pod_order() {
        let snap = ClusterSnapshot {
            isvcs: vec![isvc("a", "x"), isvc("b", "y")],
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
        let keys = IsvcKeys::new(&snap);
        let g = LabelGroups::new(&snap, &idx, &keys);
        assert_eq!(g.get(keys.key_of(1), 0), &[0, 4]);
        assert_eq!(g.get(keys.key_of(0), 1), &[1]);
        assert!(g.get(keys.key_of(0), 0).is_empty());
        assert!(g.get(None, 0).is_empty());
        assert_eq!(g.live_keys, vec![1, 0, 0, NO_KEY, 1, 0]);
    }
}
