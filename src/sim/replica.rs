//! InferenceReplicas for simulated OMENative components, consistent with their pods so that a
//! steady component passes Alfred's eligibility baseline.
//!
//! Owns: `omenative_replica`. No I/O, no clock.

use std::sync::Arc;

use smallvec::smallvec;

use crate::engine::model::{InferenceReplica, InferenceService, Name, OwnerRef, ReplicaStatus};
use crate::engine::workloads::InstanceRow;

/// Builds the IR of `service`'s engine with `instances` Instances of `per_instance` pods;
/// `ready` = every Instance steady and serving (otherwise the last one is `Creating`).
pub fn omenative_replica(
    service: &InferenceService,
    name: &str,
    uid: &Name,
    instances: i64,
    per_instance: i64,
    ready: bool,
) -> InferenceReplica {
    let revision: Name = Arc::from(format!("{name}-5d8f9c7a"));
    let rows: Vec<InstanceRow> = (0..instances)
        .map(|index| {
            let steady = ready || index + 1 < instances;
            InstanceRow {
                index,
                incarnation: 1,
                phase: if steady { "Ready" } else { "Creating" }.into(),
                running_revision: revision.clone(),
                pod_count: per_instance,
                serving_pod_count: if steady { per_instance } else { 0 },
                available_pod_count: if steady { per_instance } else { 0 },
                admitted: true,
                ..Default::default()
            }
        })
        .collect();
    let steady = if ready { instances } else { instances - 1 };
    let runners = if per_instance == 1 {
        smallvec![(Arc::from("default"), 1)]
    } else {
        smallvec![
            (Arc::from("leader"), 1),
            (Arc::from("worker"), per_instance - 1),
        ]
    };
    InferenceReplica {
        namespace: service.namespace().clone(),
        name: Arc::from(name),
        uid: uid.clone(),
        generation: 1,
        controllers: smallvec![OwnerRef {
            api_version: Arc::from("ome.io/v1beta1"),
            kind: Arc::from("InferenceService"),
            name: service.name().clone(),
            uid: service.uid.clone(),
        }],
        parent: Some(service.name().clone()),
        component: Arc::from("engine"),
        replicas: Some(instances),
        paused: false,
        migration_policy: None,
        runners,
        topology_key: None,
        status: ReplicaStatus {
            observed_generation: 1,
            counters: [instances, steady, steady, steady, instances, steady],
            current_revision: revision.clone(),
            update_revision: revision,
            rows: Ok(rows),
            migrations: Vec::new(),
        },
    }
}
