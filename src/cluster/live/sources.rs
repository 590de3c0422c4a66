//! Every source the live layer watches and its conversion into the engine model (the stores
//! they fill are `stores`'s).
//!
//! Owns: the per-kind `Conversion`s, the ConfigMap names and Event field selectors, the
//! CRD `ApiResource`s. No I/O.

use std::sync::Arc;

use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::events::v1 as events_v1;
use kube::api::{ApiResource, DynamicObject, GroupVersionKind};
use kube::ResourceExt;

use crate::cluster::convert::{self, ConvertError, Interner, Warnings};
use crate::cluster::convert_event;
use crate::cluster::convert_ome;
use crate::cluster::live::crd::CrdName;
use crate::cluster::live::store::Conversion;
use crate::cluster::snapshot_file::is_interesting_config_map;
use crate::cluster::wire::Slim;
use crate::engine::analysis::{ALFRED_CONFIG, ALFRED_JOURNAL, ALFRED_RECOMMENDATIONS};
use crate::engine::gangs::SCHEDULER_CONFIG_MAP;
use crate::engine::model::{
    BaseModel, ConfigMap, Event, InferenceReplica, InferenceService, Node, Pod, PodGroup,
    VolumeClaim,
};

/// Suffix of the per-InferenceService migration audit ConfigMaps (`<isvc>-ome-migration-audit`).
pub const AUDIT_SUFFIX: &str = "-ome-migration-audit";
/// Field selector of the Node events Alfred records.
pub const NODE_EVENTS: &str = "involvedObject.kind=Node,source=alfred";
/// Field selector of the scheduler's `FailedScheduling` events about pods.
pub const POD_EVENTS: &str = "involvedObject.kind=Pod,reason=FailedScheduling";

/// `ome.io/v1beta1` InferenceService.
pub const ISVC_CRD: CrdName = crd("ome.io", "v1beta1", "inferenceservices");
/// `ome.io/v1beta1` InferenceReplica.
pub const REPLICA_CRD: CrdName = crd("ome.io", "v1beta1", "inferencereplicas");
/// `scheduling.x-k8s.io/v1alpha1` PodGroup.
pub const POD_GROUP_CRD: CrdName = crd("scheduling.x-k8s.io", "v1alpha1", "podgroups");
/// `ome.io/v1beta1` BaseModel (namespaced).
pub const BASE_MODEL_CRD: CrdName = crd("ome.io", "v1beta1", "basemodels");
/// `ome.io/v1beta1` ClusterBaseModel (cluster-scoped).
pub const CLUSTER_BASE_MODEL_CRD: CrdName = crd("ome.io", "v1beta1", "clusterbasemodels");

const fn crd(group: &'static str, version: &'static str, plural: &'static str) -> CrdName {
    CrdName {
        plural,
        group,
        version,
    }
}

fn resource(crd: CrdName, kind: &str) -> ApiResource {
    let gvk = GroupVersionKind::gvk(crd.group, crd.version, kind);
    ApiResource::from_gvk_with_plural(&gvk, crd.plural)
}

/// `ome.io/v1beta1` InferenceService.
pub fn isvc_resource() -> ApiResource {
    resource(ISVC_CRD, "InferenceService")
}

/// `ome.io/v1beta1` InferenceReplica.
pub fn replica_resource() -> ApiResource {
    resource(REPLICA_CRD, "InferenceReplica")
}

/// `scheduling.x-k8s.io/v1alpha1` PodGroup.
pub fn pod_group_resource() -> ApiResource {
    resource(POD_GROUP_CRD, "PodGroup")
}

/// `ome.io/v1beta1` BaseModel (namespaced).
pub fn base_model_resource() -> ApiResource {
    resource(BASE_MODEL_CRD, "BaseModel")
}

/// `ome.io/v1beta1` ClusterBaseModel (cluster-scoped).
pub fn cluster_base_model_resource() -> ApiResource {
    resource(CLUSTER_BASE_MODEL_CRD, "ClusterBaseModel")
}

/// `namespace/name`, or `name` for cluster-scoped objects.
pub fn key_of<K: kube::Resource>(obj: &K) -> String {
    match obj.meta().namespace.as_deref() {
        Some(ns) if !ns.is_empty() => format!("{ns}/{}", obj.name_any()),
        _ => obj.name_any(),
    }
}

fn node(
    i: &mut Interner,
    n: &Slim<core::Node>,
    w: &mut Warnings,
) -> Result<Option<Node>, ConvertError> {
    convert::node(i, &n.0, w).map(Some)
}

/// A pod is held in an `Arc`: every snapshot shares the store's copy (`engine::model::Pods`).
fn pod(
    i: &mut Interner,
    p: &Slim<core::Pod>,
    w: &mut Warnings,
) -> Result<Option<Arc<Pod>>, ConvertError> {
    convert::pod(i, &p.0, w).map(|pod| Some(Arc::new(pod)))
}

fn config_map(
    i: &mut Interner,
    c: &core::ConfigMap,
    _: &mut Warnings,
) -> Result<Option<ConfigMap>, ConvertError> {
    let wanted = c
        .metadata
        .name
        .as_deref()
        .is_some_and(is_interesting_config_map);
    Ok(wanted.then(|| convert::config_map(i, c)))
}

fn audit_config_map(
    i: &mut Interner,
    c: &core::ConfigMap,
    _: &mut Warnings,
) -> Result<Option<ConfigMap>, ConvertError> {
    let wanted = c
        .metadata
        .name
        .as_deref()
        .is_some_and(|n| n.ends_with(AUDIT_SUFFIX));
    Ok(wanted.then(|| convert::config_map(i, c)))
}

fn event(
    i: &mut Interner,
    e: &core::Event,
    _: &mut Warnings,
) -> Result<Option<Event>, ConvertError> {
    Ok(Some(convert_event::event(i, e)))
}

fn events_v1_event(
    i: &mut Interner,
    e: &events_v1::Event,
    _: &mut Warnings,
) -> Result<Option<Event>, ConvertError> {
    Ok(Some(convert_event::events_v1_event(i, e)))
}

fn unstructured(obj: &DynamicObject, kind: &str) -> Result<serde_json::Value, ConvertError> {
    serde_json::to_value(obj).map_err(|e| ConvertError {
        object: convert::object_id(kind, &obj.metadata),
        field: String::new(),
        message: e.to_string(),
    })
}

fn isvc(
    i: &mut Interner,
    o: &DynamicObject,
    _: &mut Warnings,
) -> Result<Option<InferenceService>, ConvertError> {
    convert_ome::isvc(i, &unstructured(o, "InferenceService")?).map(Some)
}

fn replica(
    i: &mut Interner,
    o: &DynamicObject,
    _: &mut Warnings,
) -> Result<Option<InferenceReplica>, ConvertError> {
    convert_ome::replica(i, &unstructured(o, "InferenceReplica")?).map(Some)
}

fn pod_group(
    i: &mut Interner,
    o: &DynamicObject,
    _: &mut Warnings,
) -> Result<Option<PodGroup>, ConvertError> {
    convert_ome::pod_group(i, &unstructured(o, "PodGroup")?).map(Some)
}

fn base_model(
    i: &mut Interner,
    o: &DynamicObject,
    _: &mut Warnings,
) -> Result<Option<BaseModel>, ConvertError> {
    convert_ome::base_model(i, &unstructured(o, "BaseModel")?).map(Some)
}

fn volume_claim(
    i: &mut Interner,
    c: &core::PersistentVolumeClaim,
    _: &mut Warnings,
) -> Result<Option<VolumeClaim>, ConvertError> {
    Ok(Some(convert::volume_claim(i, c)))
}

/// BaseModels and ClusterBaseModels.
pub const MODELS: Conversion<DynamicObject, BaseModel> = Conversion {
    key: key_of,
    convert: base_model,
};
/// PersistentVolumeClaims (access modes only).
pub const VOLUME_CLAIMS: Conversion<core::PersistentVolumeClaim, VolumeClaim> = Conversion {
    key: key_of,
    convert: volume_claim,
};
/// Nodes, decoded slim (`cluster::wire`).
pub const NODES: Conversion<Slim<core::Node>, Node> = Conversion {
    key: key_of,
    convert: node,
};
/// Pods, decoded slim (`cluster::wire`).
pub const PODS: Conversion<Slim<core::Pod>, Arc<Pod>> = Conversion {
    key: key_of,
    convert: pod,
};
/// ConfigMaps of interest (others are dropped on arrival).
pub const CONFIG_MAPS: Conversion<core::ConfigMap, ConfigMap> = Conversion {
    key: key_of,
    convert: config_map,
};
/// Migration audit ConfigMaps; every other ConfigMap is dropped on arrival (there is no
/// field selector for a name suffix, so this watcher sees all ConfigMaps in scope).
pub const CONFIG_MAPS_AUDIT: Conversion<core::ConfigMap, ConfigMap> = Conversion {
    key: key_of,
    convert: audit_config_map,
};
/// Events.
pub const EVENTS: Conversion<core::Event, Event> = Conversion {
    key: key_of,
    convert: event,
};
/// `events.k8s.io/v1` Events (the scheduler's shape of the same objects).
pub const EVENTS_V1: Conversion<events_v1::Event, Event> = Conversion {
    key: key_of,
    convert: events_v1_event,
};
/// InferenceServices.
pub const ISVCS: Conversion<DynamicObject, InferenceService> = Conversion {
    key: key_of,
    convert: isvc,
};
/// InferenceReplicas.
pub const REPLICAS: Conversion<DynamicObject, InferenceReplica> = Conversion {
    key: key_of,
    convert: replica,
};
/// PodGroups.
pub const POD_GROUPS: Conversion<DynamicObject, PodGroup> = Conversion {
    key: key_of,
    convert: pod_group,
};

/// The named ConfigMaps: `(header name, ConfigMap name, whether it lives in the scheduler
/// namespace rather than Alfred's)`.
pub const NAMED_CONFIG_MAPS: [(&str, &str, bool); 4] = [
    ("alfred-config", ALFRED_CONFIG, false),
    ("recommendations", ALFRED_RECOMMENDATIONS, false),
    ("journal", ALFRED_JOURNAL, false),
    ("scheduler-config", SCHEDULER_CONFIG_MAP, true),
];
