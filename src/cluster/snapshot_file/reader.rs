//! One snapshot item at a time into the `ClusterSnapshot`: the kind decides the conversion,
//! the identity rules (`identity`) decide where the object goes (a duplicate replaces the
//! earlier one), nested Lists are read in place, unknown kinds are counted.
//!
//! Owns: `Reader`, `Progress`. Pure.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::events::v1 as events;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::identity::{check_shape, Identities, Kind, Slot};
use super::is_interesting_config_map;
use crate::cluster::convert::{self, ConvertError, Interner, Warnings};
use crate::cluster::convert_event;
use crate::cluster::convert_ome;
use crate::engine::model::ClusterSnapshot;

/// How far a read has come: bytes of the file behind it (JSON only; 0 for YAML) and objects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of the file read so far (items' text; 0 when the format cannot tell).
    pub bytes: usize,
    /// The file's size in bytes.
    pub total: usize,
    /// Objects read so far (nested List items included).
    pub objects: usize,
}

/// Deepest nesting of `List`s inside `items` read in place.
const MAX_LIST_NESTING: usize = 8;

/// The snapshot being built, and what the read found on the way.
pub struct Reader<'p> {
    /// The snapshot so far.
    pub snap: ClusterSnapshot,
    interner: Interner,
    /// Conversion warnings.
    pub warnings: Warnings,
    skipped: BTreeMap<String, usize>,
    ids: Identities,
    progress: Progress,
    report: &'p mut dyn FnMut(Progress),
}

fn typed<T: DeserializeOwned>(kind: &str, at: &str, v: &Value) -> Result<T, ConvertError> {
    serde_path_to_error::deserialize(v).map_err(|e| ConvertError {
        object: object_name(kind, at, v),
        field: e.path().to_string(),
        message: e.into_inner().to_string(),
    })
}

fn object_name(kind: &str, at: &str, v: &Value) -> String {
    let meta = v.get("metadata");
    let name = meta.and_then(|m| m.get("name")).and_then(Value::as_str);
    let ns = meta
        .and_then(|m| m.get("namespace"))
        .and_then(Value::as_str);
    match (ns, name) {
        (Some(ns), Some(name)) => format!("{kind} {ns}/{name}"),
        (None, Some(name)) => format!("{kind} {name}"),
        _ => format!("{kind} {at}"),
    }
}

/// The kept kind of an item, from its `apiVersion` group and `kind`.
fn kind_of(group: &str, kind: &str) -> Option<Kind> {
    Some(match (group, kind) {
        ("", "Node") => Kind::Node,
        ("", "Pod") => Kind::Pod,
        ("", "ConfigMap") => Kind::ConfigMap,
        ("", "Event") => Kind::Event,
        ("events.k8s.io", "Event") => Kind::EventsV1Event,
        ("", "PersistentVolumeClaim") => Kind::VolumeClaim,
        ("ome.io", "InferenceService") => Kind::InferenceService,
        ("ome.io", "InferenceReplica") => Kind::InferenceReplica,
        ("ome.io", "BaseModel") => Kind::BaseModel,
        ("ome.io", "ClusterBaseModel") => Kind::ClusterBaseModel,
        ("scheduling.x-k8s.io", "PodGroup") => Kind::PodGroup,
        _ => return None,
    })
}

/// Puts `obj` in `list` at `slot`.
fn put<T>(list: &mut Vec<T>, slot: Slot, obj: T) {
    match slot {
        Slot::Replace(i) if i < list.len() => list[i] = obj,
        _ => list.push(obj),
    }
}

/// Removes item `i` of `list`, if there is one.
fn remove<T>(list: &mut Vec<T>, i: usize) {
    if i < list.len() {
        list.remove(i);
    }
}

impl<'p> Reader<'p> {
    /// An empty snapshot of a file of `total` bytes; `report` hears of the progress.
    pub fn new(total: usize, report: &'p mut dyn FnMut(Progress)) -> Self {
        let snap = ClusterSnapshot {
            replicas_listed: true,
            ..ClusterSnapshot::default()
        };
        Reader {
            snap,
            interner: Interner::default(),
            warnings: Vec::new(),
            skipped: BTreeMap::new(),
            ids: Identities::default(),
            progress: Progress {
                total,
                ..Progress::default()
            },
            report,
        }
    }

    /// Reads the item at `at` (`items[3]`), `bytes` of the file long (0: unknown).
    pub fn item(&mut self, at: &str, v: &Value, bytes: usize) -> Result<(), ConvertError> {
        self.read(at, v, 0)?;
        self.progress.bytes += bytes;
        (self.report)(self.progress);
        Ok(())
    }

    fn read(&mut self, at: &str, v: &Value, depth: usize) -> Result<(), ConvertError> {
        self.progress.objects += 1;
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or_default();
        let api = v
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let group = api.split_once('/').map_or("", |(g, _)| g);
        if let Some(k) = kind_of(group, kind) {
            return self.object(k, at, v);
        }
        match v.get("items").and_then(Value::as_array) {
            Some(items) if kind.ends_with("List") && depth < MAX_LIST_NESTING => {
                for (m, inner) in items.iter().enumerate() {
                    self.read(&format!("{at}.items[{m}]"), inner, depth + 1)?;
                }
            }
            Some(_) if kind.ends_with("List") => {
                return Err(ConvertError {
                    object: format!("{at} ({kind})"),
                    field: "items".into(),
                    message: format!("Lists nested deeper than {MAX_LIST_NESTING} levels"),
                })
            }
            _ => {
                let label = if kind.is_empty() { "<none>" } else { kind };
                *self.skipped.entry(format!("{label} ({api})")).or_default() += 1;
            }
        }
        Ok(())
    }

    /// Converts an object of a kept kind and puts it where its identity says.
    fn object(&mut self, k: Kind, at: &str, v: &Value) -> Result<(), ConvertError> {
        let (ns, name, uid) = check_shape(k, at, v)?;
        if k == Kind::ConfigMap && !is_interesting_config_map(&name) {
            return Ok(());
        }
        let snap = &mut self.snap;
        let len = match k.list() {
            Kind::Node => snap.nodes.len(),
            Kind::Pod => snap.pods.len(),
            Kind::ConfigMap => snap.config_maps.len(),
            Kind::Event | Kind::EventsV1Event => snap.events.len(),
            Kind::VolumeClaim => snap.volume_claims.len(),
            Kind::InferenceService => snap.isvcs.len(),
            Kind::InferenceReplica => snap.replicas.len(),
            Kind::BaseModel | Kind::ClusterBaseModel => snap.models.len(),
            Kind::PodGroup => snap.pod_groups.len(),
        };
        let slot = self.ids.place(k, &ns, &name, &uid, len);
        let (i, w, kind) = (&mut self.interner, &mut self.warnings, k.name());
        match k {
            Kind::Node => {
                let node = convert::node(i, &typed::<core::Node>(kind, at, v)?, w)?;
                put(&mut snap.nodes, slot, node);
            }
            Kind::Pod => {
                let pod = convert::pod(i, &typed::<core::Pod>(kind, at, v)?, w)?;
                match slot {
                    Slot::Replace(n) if n < snap.pods.len() => snap.pods[n] = pod,
                    _ => snap.pods.push(pod),
                }
            }
            Kind::ConfigMap => {
                let cm = convert::config_map(i, &typed::<core::ConfigMap>(kind, at, v)?);
                put(&mut snap.config_maps, slot, cm);
            }
            Kind::Event => {
                let e = convert_event::event(i, &typed::<core::Event>(kind, at, v)?);
                put(&mut snap.events, slot, e);
            }
            Kind::EventsV1Event => {
                let e = typed::<events::Event>(kind, at, v)?;
                put(
                    &mut snap.events,
                    slot,
                    convert_event::events_v1_event(i, &e),
                );
            }
            Kind::VolumeClaim => {
                let pvc = typed::<core::PersistentVolumeClaim>(kind, at, v)?;
                put(
                    &mut snap.volume_claims,
                    slot,
                    convert::volume_claim(i, &pvc),
                );
            }
            Kind::InferenceService => put(&mut snap.isvcs, slot, convert_ome::isvc(i, v)?),
            Kind::InferenceReplica => put(&mut snap.replicas, slot, convert_ome::replica(i, v)?),
            Kind::BaseModel | Kind::ClusterBaseModel => {
                put(&mut snap.models, slot, convert_ome::base_model(i, v)?);
                // A file lists models when it holds any; otherwise they are unknown.
                snap.models_listed = true;
            }
            Kind::PodGroup => put(&mut snap.pod_groups, slot, convert_ome::pod_group(i, v)?),
        }
        Ok(())
    }

    /// The snapshot and its warnings: objects a UID clash replaced removed, duplicates and
    /// skipped kinds reported.
    pub fn finish(mut self) -> (ClusterSnapshot, Warnings) {
        let snap = &mut self.snap;
        for list in [
            Kind::Node,
            Kind::Pod,
            Kind::ConfigMap,
            Kind::Event,
            Kind::VolumeClaim,
            Kind::InferenceService,
            Kind::InferenceReplica,
            Kind::BaseModel,
            Kind::PodGroup,
        ] {
            for i in self.ids.dropped(list) {
                match list {
                    Kind::Node => remove(&mut snap.nodes, i),
                    Kind::Pod => drop(snap.pods.remove(i)),
                    Kind::ConfigMap => remove(&mut snap.config_maps, i),
                    Kind::Event | Kind::EventsV1Event => remove(&mut snap.events, i),
                    Kind::VolumeClaim => remove(&mut snap.volume_claims, i),
                    Kind::InferenceService => remove(&mut snap.isvcs, i),
                    Kind::InferenceReplica => remove(&mut snap.replicas, i),
                    Kind::BaseModel | Kind::ClusterBaseModel => remove(&mut snap.models, i),
                    Kind::PodGroup => remove(&mut snap.pod_groups, i),
                }
            }
        }
        self.warnings.extend(self.ids.warnings());
        for (kind, count) in &self.skipped {
            self.warnings
                .push(format!("skipped {count} object(s) of unknown kind {kind}"));
        }
        (self.snap, self.warnings)
    }
}
