//! Conversion of OME custom resources (InferenceService, InferenceReplica) and PodGroups from
//! unstructured JSON into the engine model. Lenient at the field level (unknown fields ignored,
//! counters default to 0) as `inferencereplica.md` §7 asks, strict only about identity.
//!
//! Owns: `isvc`, `replica`, `pod_group`, `base_model`. Pure functions.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::cluster::convert::{ConvertError, Interner};
use crate::engine::model::{
    BaseModel, ComponentSpec, InferenceReplica, InferenceService, Labels, MigrationPhase,
    MigrationStatus, ModelRef, Name, OwnerRef, PodGroup, ReplicaStatus, StatusError, COMPONENTS,
};
use crate::engine::workloads::{check_rows, decode_rows};

/// Alfred's bound on decoded instance rows.
pub const MAX_DECODED_INSTANCES: usize = 10_000;

fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(*k))
}

fn text<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(v, path).and_then(Value::as_str)
}

fn int(v: &Value, path: &[&str]) -> Option<i64> {
    at(v, path).and_then(Value::as_i64)
}

fn timestamp(v: &Value, path: &[&str]) -> Option<DateTime<Utc>> {
    text(v, path)
        .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
        .map(|t| t.with_timezone(&Utc))
}

fn string_map(v: &Value, path: &[&str]) -> BTreeMap<String, String> {
    at(v, path)
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
        .collect()
}

/// Identity of an object: `(kind id for messages, namespace, name)`; a missing name is an error.
fn identity(kind: &str, v: &Value) -> Result<(String, String, String), ConvertError> {
    let ns = text(v, &["metadata", "namespace"])
        .unwrap_or_default()
        .to_string();
    let name = text(v, &["metadata", "name"]).filter(|n| !n.is_empty());
    let Some(name) = name else {
        return Err(ConvertError {
            object: format!("{kind} in namespace {ns:?}"),
            field: "metadata.name".into(),
            message: "missing".into(),
        });
    };
    Ok((format!("{kind} {ns}/{name}"), ns, name.to_string()))
}

/// Converts an InferenceService. Only `alfred.ome.io/*` and request annotations are kept.
pub fn isvc(i: &mut Interner, v: &Value) -> Result<InferenceService, ConvertError> {
    let (_, ns, name) = identity("InferenceService", v)?;
    let components = COMPONENTS.map(|c| {
        let block = at(v, &["spec", c]).filter(|b| b.is_object())?;
        Some(ComponentSpec {
            mode_annotation: i.opt(text(block, &["annotations", "ome.io/deploymentMode"])),
            has_leader: block.get("leader").is_some_and(|l| !l.is_null()),
            has_worker: block.get("worker").is_some_and(|l| !l.is_null()),
        })
    });
    let annotations = string_map(v, &["metadata", "annotations"])
        .into_iter()
        .filter(|(k, _)| {
            k.starts_with("alfred.ome.io/") || k.starts_with("ome.io/migration-request-")
        })
        .map(|(k, val)| (i.name(&k), val))
        .collect();
    let (namespace, name) = (i.name(&ns), i.name(&name));
    let mut w = InferenceService::named(namespace, name, |key| i.name(key));
    w.uid = i.name(text(v, &["metadata", "uid"]).unwrap_or_default());
    w.resource_version = i.name(text(v, &["metadata", "resourceVersion"]).unwrap_or_default());
    w.deployment_mode = i.opt(text(v, &["spec", "deploymentMode"]));
    w.components = components;
    w.annotations = annotations;
    w.model = model_ref(i, v);
    Ok(w)
}

/// `spec.model`: `kind` defaults to `ClusterBaseModel` as OME's API does.
fn model_ref(i: &mut Interner, v: &Value) -> Option<ModelRef> {
    let name = text(v, &["spec", "model", "name"]).filter(|n| !n.is_empty())?;
    let kind = text(v, &["spec", "model", "kind"]).unwrap_or("ClusterBaseModel");
    Some(ModelRef {
        kind: i.name(kind),
        name: i.name(name),
    })
}

/// Converts a BaseModel or ClusterBaseModel (the namespace is empty for the latter).
pub fn base_model(i: &mut Interner, v: &Value) -> Result<BaseModel, ConvertError> {
    let (_, ns, name) = identity("BaseModel", v)?;
    Ok(BaseModel {
        namespace: i.name(&ns),
        name: i.name(&name),
        storage_uri: text(v, &["spec", "storage", "storageUri"]).map(str::to_string),
    })
}

fn migrations(i: &mut Interner, status: &Value) -> Vec<MigrationStatus> {
    status
        .get("migrations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|m| MigrationStatus {
            request_uuid: i.name(text(m, &["requestUUID"]).unwrap_or_default()),
            trigger: i.name(text(m, &["trigger"]).unwrap_or_default()),
            source_instance: int(m, &["sourceInstance"]),
            surge_instance: int(m, &["surgeInstance"]),
            phase: MigrationPhase::from_wire(text(m, &["phase"]).unwrap_or_default()),
            from_node: i.opt(text(m, &["fromNode"])),
            started_at: timestamp(m, &["startedAt"]),
            deadline: timestamp(m, &["deadline"]),
            completed_at: timestamp(m, &["completedAt"]),
            message: i.opt(text(m, &["message"])),
        })
        .collect()
}

fn replica_status(i: &mut Interner, status: &Value) -> ReplicaStatus {
    let counter = |k: &str| int(status, &[k]).unwrap_or(0);
    let rows = decode_rows(status, MAX_DECODED_INSTANCES)
        .map_err(StatusError::from)
        .and_then(|rows| check_rows(&rows).map(|()| rows).map_err(StatusError::from));
    let mut out = ReplicaStatus {
        observed_generation: counter("observedGeneration"),
        counters: [
            counter("replicas"),
            counter("readyReplicas"),
            counter("servingReplicas"),
            counter("availableReplicas"),
            counter("updatedReplicas"),
            counter("updatedReadyReplicas"),
        ],
        current_revision: i.name(text(status, &["currentRevision"]).unwrap_or_default()),
        update_revision: i.name(text(status, &["updateRevision"]).unwrap_or_default()),
        rows,
        migrations: migrations(i, status),
    };
    out.intern_row_revisions(i);
    out
}

/// Converts an InferenceReplica, decoding its instance rows (DenseV1 or ColumnarV2).
pub fn replica(i: &mut Interner, v: &Value) -> Result<InferenceReplica, ConvertError> {
    let (_, ns, name) = identity("InferenceReplica", v)?;
    let controllers = at(v, &["metadata", "ownerReferences"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|o| o.get("controller").and_then(Value::as_bool) == Some(true))
        .map(|o| OwnerRef {
            api_version: i.name(text(o, &["apiVersion"]).unwrap_or_default()),
            kind: i.name(text(o, &["kind"]).unwrap_or_default()),
            name: i.name(text(o, &["name"]).unwrap_or_default()),
            uid: i.name(text(o, &["uid"]).unwrap_or_default()),
        })
        .collect();
    let runners = at(v, &["spec", "runners"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|r| {
            let name = i.name(text(r, &["name"]).unwrap_or_default());
            (name, int(r, &["size"]).unwrap_or(0))
        })
        .collect();
    let empty = Value::Object(serde_json::Map::new());
    let status = v.get("status").filter(|s| s.is_object()).unwrap_or(&empty);
    Ok(InferenceReplica {
        namespace: i.name(&ns),
        name: i.name(&name),
        uid: i.name(text(v, &["metadata", "uid"]).unwrap_or_default()),
        generation: int(v, &["metadata", "generation"]).unwrap_or(0),
        controllers,
        parent: i.opt(text(v, &["spec", "parentRef", "name"])),
        component: i.name(text(v, &["spec", "component"]).unwrap_or_default()),
        replicas: int(v, &["spec", "replicas"]),
        paused: at(v, &["spec", "paused"])
            .and_then(Value::as_bool)
            .unwrap_or(false),
        migration_policy: i.opt(text(v, &["spec", "lifecycle", "migrationPolicy", "mode"])),
        runners,
        topology_key: i.opt(text(v, &["spec", "topologyKey"])),
        status: replica_status(i, status),
    })
}

/// Converts a PodGroup.
pub fn pod_group(i: &mut Interner, v: &Value) -> Result<PodGroup, ConvertError> {
    let (_, ns, name) = identity("PodGroup", v)?;
    let labels = Labels::from_pairs(
        string_map(v, &["metadata", "labels"])
            .iter()
            .map(|(k, val)| (i.name(k), i.name(val)))
            .collect(),
    );
    // Every annotation but kubectl's last-applied copy: the topology-key annotation's name is
    // a scheduler arg (`podGroupTopologyKeyAnnotation`), not always `ome.io/topology-key`.
    let annotations: BTreeMap<Name, String> = string_map(v, &["metadata", "annotations"])
        .into_iter()
        .filter(|(k, _)| k != "kubectl.kubernetes.io/last-applied-configuration")
        .map(|(k, val)| (i.name(&k), val))
        .collect();
    Ok(PodGroup {
        namespace: i.name(&ns),
        name: i.name(&name),
        uid: i.name(text(v, &["metadata", "uid"]).unwrap_or_default()),
        min_member: int(v, &["spec", "minMember"]).filter(|m| *m >= 1),
        min_member_unreadable: at(v, &["spec", "minMember"])
            .filter(|m| !m.is_null() && m.as_i64().and_then(|n| i32::try_from(n).ok()).is_none())
            .map(Value::to_string),
        schedule_timeout_seconds: int(v, &["spec", "scheduleTimeoutSeconds"]),
        annotations,
        labels,
    })
}
