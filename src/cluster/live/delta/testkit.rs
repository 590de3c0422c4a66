//! Stores loaded with engine objects as they are (tests only): every source takes
//! `(key, object)` pairs through an identity conversion, so a generated fleet fills the stores
//! exactly and a test can apply, delete and relist model objects as watch events would.
//!
//! Owns: `pairs`, `relist`, `load`, `apply`, `delete`, `pod_key`.

use std::sync::Arc;

use kube::runtime::watcher::Event;

use crate::cluster::convert::{ConvertError, Interner, Warnings};
use crate::cluster::live::slot::Slot;
use crate::cluster::live::store::Conversion;
use crate::cluster::live::stores::Stores;
use crate::engine::model::{ClusterSnapshot, Pod, Time};

fn key_of<T>(pair: &(String, T)) -> String {
    pair.0.clone()
}

fn value_of<T: Clone>(
    _: &mut Interner,
    pair: &(String, T),
    _: &mut Warnings,
) -> Result<Option<T>, ConvertError> {
    Ok(Some(pair.1.clone()))
}

/// The identity conversion of `(key, object)` pairs.
pub fn pairs<T: Clone>() -> Conversion<(String, T), T> {
    Conversion {
        key: key_of::<T>,
        convert: value_of::<T>,
    }
}

fn now() -> Time {
    chrono::DateTime::UNIX_EPOCH
}

/// A relist of `slot` with `objects`.
pub fn relist<T: Clone>(slot: &Slot<T>, objects: Vec<(String, T)>) {
    let conv = pairs();
    slot.on_event(Event::Init, &conv, now());
    for pair in objects {
        slot.on_event(Event::InitApply(pair), &conv, now());
    }
    slot.on_event(Event::InitDone, &conv, now());
}

/// An `Apply` of `object` at `key`.
pub fn apply<T: Clone>(slot: &Slot<T>, key: String, object: T) {
    slot.on_event(Event::Apply((key, object)), &pairs(), now());
}

/// A `Delete` of `key` (the object itself is not read).
pub fn delete<T: Clone>(slot: &Slot<T>, key: String, object: T) {
    slot.on_event(Event::Delete((key, object)), &pairs(), now());
}

/// The store key of a pod.
pub fn pod_key(pod: &Pod) -> String {
    format!("{}/{}", pod.namespace, pod.name)
}

fn keyed<T: Clone>(objects: &[T], key: impl Fn(usize, &T) -> String) -> Vec<(String, T)> {
    objects
        .iter()
        .enumerate()
        .map(|(i, o)| (key(i, o), o.clone()))
        .collect()
}

/// Every source of `stores` relisted with the objects of `snap` (ConfigMaps in the audit
/// source, models in the namespaced one, Events in the node Events' source).
pub fn load(stores: &Stores, snap: &ClusterSnapshot) {
    relist(&stores.nodes, keyed(&snap.nodes, |_, n| n.name.to_string()));
    let pods: Vec<(String, Arc<Pod>)> = snap
        .pods
        .shared()
        .iter()
        .map(|p| (pod_key(p), p.clone()))
        .collect();
    relist(&stores.pods, pods);
    relist(
        &stores.isvcs,
        keyed(&snap.isvcs, |_, s| s.ns_name().to_string()),
    );
    relist(
        &stores.replicas,
        keyed(&snap.replicas, |_, r| format!("{}/{}", r.namespace, r.name)),
    );
    relist(
        &stores.pod_groups,
        keyed(&snap.pod_groups, |_, g| {
            format!("{}/{}", g.namespace, g.name)
        }),
    );
    relist(
        &stores.audit,
        keyed(&snap.config_maps, |_, c| {
            format!("{}/{}", c.namespace, c.name)
        }),
    );
    relist(
        &stores.models,
        keyed(&snap.models, |_, m| format!("{}/{}", m.namespace, m.name)),
    );
    relist(
        &stores.volume_claims,
        keyed(&snap.volume_claims, |_, c| {
            format!("{}/{}", c.namespace, c.name)
        }),
    );
    relist(
        &stores.node_events,
        keyed(&snap.events, |i, _| format!("{i:06}")),
    );
    for slot in &stores.named {
        relist(slot, Vec::new());
    }
    relist(&stores.cluster_models, Vec::new());
    relist(&stores.pod_events, Vec::new());
}
