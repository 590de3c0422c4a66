//! Which workload components each live pod feeds, kept per component as the pods change: the
//! pods routed to each OMENative component (`route_pod`: by InferenceReplica owner, label or
//! `managed-by`), and the pods labelled for each component of each ISVC key (RawDeployment
//! and MultiNode Instances). The full analysis derives both from one pass over the pods;
//! here they are edited one pod at a time with the same per-pod decisions, so a component's
//! Instances can be rebuilt from its own pods.
//!
//! Owns: `Routes`, `PodRoutes`. Lookups are owned maps from names (ISVC and replica lists do not
//! change between full analyses). Pure.

use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

use crate::engine::analysis::incremental::lists::FlatLists;
use crate::engine::fast::IsvcKeys;
use crate::engine::index::{is_live, SnapshotIndex};
use crate::engine::model::{ClusterSnapshot, Name, Pod, COMPONENTS};
use crate::engine::workloads::{pod_label_key, replica_targets, route_pod};

/// Components per ISVC.
const N: usize = COMPONENTS.len();

/// The components one version of a pod feeds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodRoutes {
    /// OMENative components `(isvc, component)` the pod is routed to.
    routed: SmallVec<[(usize, usize); 1]>,
    /// `(ISVC key id, component)` of the label group the pod is in.
    labelled: Option<(u32, usize)>,
}

/// The per-component pod lists of one snapshot (see the module doc).
#[derive(Debug, Clone)]
pub struct Routes {
    /// `replica_targets` of the snapshot.
    targets: Vec<Option<(usize, usize)>>,
    /// Replica index by UID (the last replica with a UID wins, as in `route_pods`).
    replica_by_uid: HashMap<Name, usize>,
    /// ISVC key id by `(namespace, name)`.
    key_ids: HashMap<(Name, Name), u32>,
    /// Per key id: the ISVCs with that key, ascending (the last is the one routing picks).
    key_isvcs: Vec<SmallVec<[usize; 1]>>,
    /// Per ISVC: its key id.
    isvc_key: Vec<u32>,
    /// Per ISVC and component (list `isvc × 3 + component`): the pods routed to it, ascending.
    routed: FlatLists,
    /// Per key id and component (list `key × 3 + component`): the live pods labelled for it,
    /// ascending.
    labelled: FlatLists,
}

impl Routes {
    /// The lists of `snap`, whose index is `idx`.
    pub fn new(snap: &ClusterSnapshot, idx: &SnapshotIndex) -> Self {
        let keys = IsvcKeys::new(&snap.isvcs);
        let mut key_ids = HashMap::default();
        let mut key_isvcs: Vec<SmallVec<[usize; 1]>> = vec![SmallVec::new(); keys.len()];
        let mut isvc_key = Vec::with_capacity(snap.isvcs.len());
        for (i, w) in snap.isvcs.iter().enumerate() {
            let id = keys.key_of(i).unwrap_or(u32::MAX);
            key_ids.insert((w.namespace().clone(), w.name().clone()), id);
            if let Some(list) = key_isvcs.get_mut(id as usize) {
                list.push(i);
            }
            isvc_key.push(id);
        }
        let mut replica_by_uid = HashMap::default();
        for (r, ir) in snap.replicas.iter().enumerate() {
            replica_by_uid.insert(ir.uid.clone(), r);
        }
        let mut routes = Routes {
            targets: replica_targets(snap, idx, &keys),
            replica_by_uid,
            key_ids,
            key_isvcs,
            isvc_key,
            routed: FlatLists::default(),
            labelled: FlatLists::default(),
        };
        let (mut routed, mut labelled) = (Vec::new(), Vec::new());
        for &p in &idx.live {
            let r = routes.of(snap, idx, &snap.pods[p]);
            routed.extend(r.routed.iter().map(|(i, c)| (i * N + c, p)));
            labelled.extend(r.labelled.map(|(k, c)| (k as usize * N + c, p)));
        }
        routes.routed = FlatLists::from_pairs(snap.isvcs.len() * N, &routed);
        routes.labelled = FlatLists::from_pairs(keys.len() * N, &labelled);
        routes
    }

    /// The components `pod` feeds (nothing unless it is live).
    pub fn of(&self, snap: &ClusterSnapshot, idx: &SnapshotIndex, pod: &Pod) -> PodRoutes {
        let mut out = PodRoutes::default();
        if !is_live(pod) {
            return out;
        }
        let key = |ns: &Name, name: &Name| self.key_ids.get(&(ns.clone(), name.clone())).copied();
        let (label_key, c) = pod_label_key(pod, key);
        out.labelled = label_key.zip(c);
        let labelled = || label_key.and_then(|k| self.key_isvcs.get(k as usize)?.last().copied());
        let replica_of = |uid: &Name| self.replica_by_uid.get(uid).copied();
        route_pod(
            (snap, idx, &self.targets),
            pod,
            replica_of,
            labelled,
            |i, c| out.routed.push((i, c)),
        );
        out
    }

    /// The ISVCs whose components `r` feeds, pushed to `out`.
    pub fn isvcs(&self, r: &PodRoutes, out: &mut Vec<usize>) {
        out.extend(r.routed.iter().map(|(i, _)| *i));
        if let Some((key, _)) = r.labelled {
            out.extend(self.key_isvcs.get(key as usize).into_iter().flatten());
        }
    }

    /// Records pod `p` in the lists `r` names.
    pub fn add(&mut self, r: &PodRoutes, p: usize) {
        for &(i, c) in &r.routed {
            self.routed.insert_sorted(i * N + c, p);
        }
        if let Some((k, c)) = r.labelled {
            self.labelled.insert_sorted(k as usize * N + c, p);
        }
    }

    /// Removes pod `p` from the lists `r` names.
    pub fn remove(&mut self, r: &PodRoutes, p: usize) {
        for &(i, c) in &r.routed {
            self.routed.remove_sorted(i * N + c, p);
        }
        if let Some((k, c)) = r.labelled {
            self.labelled.remove_sorted(k as usize * N + c, p);
        }
    }

    /// Renumbers every listed pod with `f` (a pod inserted or removed before it).
    pub fn renumber(&mut self, f: &dyn Fn(usize) -> usize) {
        self.routed.renumber(f);
        self.labelled.renumber(f);
    }

    /// Whether another ISVC has ISVC `isvc`'s `namespace/name`.
    pub fn shares_key(&self, isvc: usize) -> bool {
        let key = self.isvc_key.get(isvc).copied().unwrap_or(u32::MAX);
        self.key_isvcs
            .get(key as usize)
            .is_none_or(|l| l.len() != 1)
    }

    /// The pods routed to component `c` of ISVC `isvc`.
    pub fn routed(&self, isvc: usize, c: usize) -> &[usize] {
        if c >= N {
            return &[];
        }
        self.routed.get(isvc * N + c)
    }

    /// The live pods labelled for component `c` of ISVC `isvc`'s key.
    pub fn labelled(&self, isvc: usize, c: usize) -> &[usize] {
        match self.isvc_key.get(isvc) {
            Some(&key) if c < N => self.labelled.get(key as usize * N + c),
            _ => &[],
        }
    }
}
