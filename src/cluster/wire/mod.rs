//! Pods and nodes as the watchers decode them off the wire: without the parts ome-top never
//! reads. Every object's `metadata.managedFields` (the server-side-apply field sets: nested
//! JSON objects as large as the rest of a pod) is skipped, and so are a pod's container
//! statuses and a node's image list, addresses and volume lists. serde passes over a skipped
//! value without building it, so a page decodes faster and allocates far less
//! (`benches/decode.rs`: `decode/slim_page_500_pods` against `decode/full_page_500_pods`). What survives is the
//! `k8s_openapi` object the converters read, with the skipped fields `None`.
//!
//! Owns: `Slim<K>`, `SlimShape` (`list`: a List body cut into its items as it arrives). Conversion stays in `cluster::convert`; a field added to a
//! converter must be kept here too (the tests compare both decodes through the converters).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1 as core;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference, Time};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};

/// A `K` decoded slim: `K`'s own metadata, spec and status types, less what `K::Status`
/// leaves out and less `metadata.managedFields`. Watched as `K` (same API path and kind).
#[derive(Debug, Clone)]
pub struct Slim<K>(pub K);

/// An object of the `metadata` / `spec` / `status` shape with a slim status type.
pub trait SlimShape: Sized {
    /// The spec, decoded in full.
    type Spec: DeserializeOwned;
    /// The status fields the converters read.
    type Status: DeserializeOwned;
    /// The object from its decoded parts.
    fn assemble(
        metadata: ObjectMeta,
        spec: Option<Self::Spec>,
        status: Option<Self::Status>,
    ) -> Self;
}

/// `ObjectMeta` less `managedFields` (an unknown key to serde, so skipped unbuilt).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct SlimMeta {
    annotations: Option<BTreeMap<String, String>>,
    creation_timestamp: Option<Time>,
    deletion_grace_period_seconds: Option<i64>,
    deletion_timestamp: Option<Time>,
    finalizers: Option<Vec<String>>,
    generate_name: Option<String>,
    generation: Option<i64>,
    labels: Option<BTreeMap<String, String>>,
    name: Option<String>,
    namespace: Option<String>,
    owner_references: Option<Vec<OwnerReference>>,
    resource_version: Option<String>,
    self_link: Option<String>,
    uid: Option<String>,
}

impl From<SlimMeta> for ObjectMeta {
    fn from(m: SlimMeta) -> Self {
        ObjectMeta {
            annotations: m.annotations,
            creation_timestamp: m.creation_timestamp,
            deletion_grace_period_seconds: m.deletion_grace_period_seconds,
            deletion_timestamp: m.deletion_timestamp,
            finalizers: m.finalizers,
            generate_name: m.generate_name,
            generation: m.generation,
            labels: m.labels,
            managed_fields: None,
            name: m.name,
            namespace: m.namespace,
            owner_references: m.owner_references,
            resource_version: m.resource_version,
            self_link: m.self_link,
            uid: m.uid,
        }
    }
}

/// The parts of a `metadata` / `spec` / `status` object; `null` or absent parts are `None`.
#[derive(Deserialize)]
#[serde(default)]
struct Parts<S, T> {
    metadata: Option<SlimMeta>,
    spec: Option<S>,
    status: Option<T>,
}

impl<S, T> Default for Parts<S, T> {
    fn default() -> Self {
        Parts {
            metadata: None,
            spec: None,
            status: None,
        }
    }
}

impl<'de, K: SlimShape> Deserialize<'de> for Slim<K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let parts = Parts::<K::Spec, K::Status>::deserialize(d)?;
        let metadata = parts.metadata.unwrap_or_default().into();
        Ok(Slim(K::assemble(metadata, parts.spec, parts.status)))
    }
}

/// `PodStatus` as `convert::pod` and `convert_placement` read it (no container statuses).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct SlimPodStatus {
    conditions: Option<Vec<core::PodCondition>>,
    message: Option<String>,
    nominated_node_name: Option<String>,
    phase: Option<String>,
    reason: Option<String>,
    start_time: Option<Time>,
}

impl SlimShape for core::Pod {
    type Spec = core::PodSpec;
    type Status = SlimPodStatus;
    fn assemble(
        metadata: ObjectMeta,
        spec: Option<core::PodSpec>,
        s: Option<SlimPodStatus>,
    ) -> Self {
        core::Pod {
            metadata,
            spec,
            status: s.map(|s| core::PodStatus {
                conditions: s.conditions,
                message: s.message,
                nominated_node_name: s.nominated_node_name,
                phase: s.phase,
                reason: s.reason,
                start_time: s.start_time,
                ..Default::default()
            }),
        }
    }
}

/// `NodeStatus` as `convert::node` reads it (no images, addresses or volumes).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct SlimNodeStatus {
    allocatable: Option<BTreeMap<String, Quantity>>,
    capacity: Option<BTreeMap<String, Quantity>>,
    conditions: Option<Vec<core::NodeCondition>>,
    phase: Option<String>,
}

impl SlimShape for core::Node {
    type Spec = core::NodeSpec;
    type Status = SlimNodeStatus;
    fn assemble(
        metadata: ObjectMeta,
        spec: Option<core::NodeSpec>,
        s: Option<SlimNodeStatus>,
    ) -> Self {
        core::Node {
            metadata,
            spec,
            status: s.map(|s| core::NodeStatus {
                allocatable: s.allocatable,
                capacity: s.capacity,
                conditions: s.conditions,
                phase: s.phase,
                ..Default::default()
            }),
        }
    }
}

impl<K: k8s_openapi::Resource> k8s_openapi::Resource for Slim<K> {
    const API_VERSION: &'static str = K::API_VERSION;
    const GROUP: &'static str = K::GROUP;
    const KIND: &'static str = K::KIND;
    const VERSION: &'static str = K::VERSION;
    const URL_PATH_SEGMENT: &'static str = K::URL_PATH_SEGMENT;
    type Scope = K::Scope;
}

impl<K: k8s_openapi::Metadata<Ty = ObjectMeta>> k8s_openapi::Metadata for Slim<K> {
    type Ty = ObjectMeta;
    fn metadata(&self) -> &ObjectMeta {
        self.0.metadata()
    }
    fn metadata_mut(&mut self) -> &mut ObjectMeta {
        self.0.metadata_mut()
    }
}

pub mod list;

#[cfg(test)]
mod tests;
