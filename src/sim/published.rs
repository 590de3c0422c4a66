//! A generated cluster in the shape the live store publishes (`cluster::live`): objects in store
//! key order (`namespace/name`, or `name` for cluster-scoped kinds — the apiserver lists in that
//! order and each store keeps a `BTreeMap` by it), and every string interned once in the
//! table the stores share, allocated in that order, as the converters do while they read the
//! lists. Benchmarks and tests
//! then measure the snapshots the product really analyses, not a shape it never sees.
//!
//! Owns: `as_published`. No I/O, no clock.

use crate::engine::fast::Interner;
use crate::engine::model::{
    ClusterSnapshot, InferenceReplica, InferenceService, Labels, Name, Node, OwnerRef, Pod,
};

/// `snap` with its objects in store key order and its strings interned in that order. The
/// contents of every object are unchanged.
pub fn as_published(generated: ClusterSnapshot) -> ClusterSnapshot {
    // The generated strings stay alive until the end, so that the interned copies are fresh
    // allocations in order instead of refilling the holes of the strings they replace.
    let mut snap = generated.clone();
    let key = |ns: &Name, name: &Name| format!("{ns}/{name}");
    snap.nodes.sort_by(|a, b| a.name.cmp(&b.name));
    snap.pods.sort_by_cached_key(|p| key(&p.namespace, &p.name));
    snap.isvcs
        .sort_by_cached_key(|w| key(w.namespace(), w.name()));
    snap.replicas
        .sort_by_cached_key(|r| key(&r.namespace, &r.name));
    snap.pod_groups
        .sort_by_cached_key(|g| key(&g.namespace, &g.name));
    snap.config_maps
        .sort_by_cached_key(|c| key(&c.namespace, &c.name));
    // The stores of a session share one interner (`cluster::live::store::SharedNames`);
    // kinds are listed one after another, nodes first.
    let mut i = Interner::default();
    for n in &mut snap.nodes {
        node(&mut i, n);
    }
    for p in &mut snap.pods {
        pod(&mut i, p);
    }
    for w in &mut snap.isvcs {
        isvc(&mut i, w);
    }
    for r in &mut snap.replicas {
        replica(&mut i, r);
    }
    for g in &mut snap.pod_groups {
        all(&mut i, [&mut g.namespace, &mut g.name, &mut g.uid]);
        labels(&mut i, &mut g.labels);
    }
    for c in &mut snap.config_maps {
        all(
            &mut i,
            [&mut c.namespace, &mut c.name, &mut c.resource_version],
        );
    }
    drop(generated);
    snap
}

fn all<const N: usize>(i: &mut Interner, names: [&mut Name; N]) {
    for n in names {
        *n = i.name(n);
    }
}

fn opt(i: &mut Interner, name: &mut Option<Name>) {
    if let Some(n) = name {
        *n = i.name(n);
    }
}

fn labels(i: &mut Interner, labels: &mut Labels) {
    pairs(i, &mut labels.0);
}

fn pairs(i: &mut Interner, pairs: &mut [(Name, Name)]) {
    for (k, v) in pairs {
        all(i, [k, v]);
    }
}

fn owner(i: &mut Interner, o: &mut OwnerRef) {
    all(
        i,
        [&mut o.api_version, &mut o.kind, &mut o.name, &mut o.uid],
    );
}

fn node(i: &mut Interner, n: &mut Node) {
    all(i, [&mut n.name, &mut n.uid, &mut n.resource_version]);
    labels(i, &mut n.labels);
    opt(i, &mut n.gpu_resource);
    for t in &mut n.taints {
        all(i, [&mut t.key, &mut t.value, &mut t.effect]);
    }
    for c in &mut n.conditions {
        all(i, [&mut c.kind, &mut c.status]);
    }
}

fn pod(i: &mut Interner, p: &mut Pod) {
    all(i, [&mut p.namespace, &mut p.name]);
    all(i, [&mut p.scheduler_name]);
    opt(i, &mut p.node);
    opt(i, &mut p.gpu_resource);
    pairs(i, &mut p.node_selector);
    let o = &mut p.ome;
    for label in [
        &mut o.isvc,
        &mut o.component,
        &mut o.managed_by,
        &mut o.runner,
        &mut o.pod_group,
    ] {
        opt(i, label);
    }
    if let Some(c) = &mut p.controller {
        // One shared reference per controller, as the live store's converter makes them.
        let mut o = OwnerRef::clone(c);
        owner(i, &mut o);
        *c = i.owner(o);
    }
    if let Some(placement) = &mut p.placement {
        labels(i, &mut placement.labels);
        opt(i, &mut placement.nominated_node);
    }
}

fn isvc(i: &mut Interner, w: &mut InferenceService) {
    w.intern_identity(i);
    all(i, [&mut w.uid]);
    all(i, [&mut w.resource_version]);
    opt(i, &mut w.deployment_mode);
    if let Some(m) = &mut w.model {
        all(i, [&mut m.kind, &mut m.name]);
    }
}

fn replica(i: &mut Interner, r: &mut InferenceReplica) {
    all(
        i,
        [&mut r.namespace, &mut r.name, &mut r.uid, &mut r.component],
    );
    for c in &mut r.controllers {
        owner(i, c);
    }
    opt(i, &mut r.parent);
    opt(i, &mut r.migration_policy);
    opt(i, &mut r.topology_key);
    for (runner, _) in &mut r.runners {
        *runner = i.name(runner);
    }
    let s = &mut r.status;
    all(i, [&mut s.current_revision, &mut s.update_revision]);
    s.intern_row_revisions(i);
}

#[cfg(test)]
mod tests {

    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::sim::cluster::{generate_cluster_unpublished, ClusterSpec};

    #[test]
    fn objects_are_in_store_order_and_strings_shared() {
        let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 0, 0).unwrap();
        let spec = ClusterSpec {
            seed: 3,
            nodes: 40,
            pods: 400,
        };
        let raw = generate_cluster_unpublished(&spec, now);
        let published = as_published(raw.clone());
        let keys: Vec<String> = published.pods.iter().map(Pod::key).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        // Same objects, only reordered.
        let mut before: Vec<String> = raw.pods.iter().map(|p| format!("{p:?}")).collect();
        let mut after: Vec<String> = published.pods.iter().map(|p| format!("{p:?}")).collect();
        before.sort();
        after.sort();
        assert_eq!(before, after);
        assert_eq!(raw.isvcs.len(), published.isvcs.len());
        for w in &published.isvcs {
            assert_eq!(w.ns_name().as_ref(), w.key());
        }
        // Equal strings share one allocation, across kinds too: an owner reference names its
        // replica with the replica's own `Arc`s, as in the live stores.
        let pod = published
            .pods
            .iter()
            .find(|p| {
                p.controller
                    .as_ref()
                    .is_some_and(|c| c.kind.as_ref() == "InferenceReplica")
            })
            .unwrap();
        let owner = pod.controller.as_ref().unwrap();
        let ir = published
            .replicas
            .iter()
            .find(|r| r.uid == owner.uid)
            .unwrap();
        assert!(crate::engine::fast::same_allocation(&ir.uid, &owner.uid));
        assert!(crate::engine::fast::same_allocation(&ir.name, &owner.name));
        let node = pod.node.as_ref().unwrap();
        let named = published.nodes.iter().find(|n| n.name == *node).unwrap();
        assert!(crate::engine::fast::same_allocation(&named.name, node));
    }
}
