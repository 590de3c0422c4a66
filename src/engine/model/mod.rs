//! The engine's compact cluster model: only the fields the engines and views use, with
//! shared (`Arc<str>`) names so that 100,000 pods stay small.
//!
//! Owns: `ClusterSnapshot` and the object types in it (nodes in `node`, pods in `pod`,
//! both re-exported here). Conversion from Kubernetes objects lives in `cluster::convert`.

mod deployment;
mod edit;
pub mod names;
mod newest;
mod node;
mod objects;
mod placement;
mod pod;
mod pods;
mod quantity;
mod replica;
mod resources;
mod shared;
mod status_error;
#[cfg(test)]
pub(crate) mod testkit;
pub mod vocab;

pub use deployment::{component_mode, DeploymentMode};
pub use edit::{IsvcEdit, NodeEdit, PodEdit};
pub use placement::{
    node_matches, tolerates, LabelSelector, NodeTerm, Operator, PodPlacement, PodTerm, Requirement,
    SpreadConstraint, Toleration, UnschedulableCondition, HOSTNAME_LABEL,
};
pub use quantity::{parse_quantity, whole_devices};
pub(crate) use replica::rfc3339;
pub use replica::{InstanceOperation, InstanceRow};
pub use status_error::{CodecError, RowError, RowProblem, StatusError, MAX_ROWS};

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use smallvec::SmallVec;

use crate::engine::fast::{same, Interner};
pub use crate::engine::model::node::{Allocatable, Node, NodeCondition, Taint, UNREPORTED};
pub use crate::engine::model::objects::{ConfigMap, Event, PodGroup};
pub use crate::engine::model::pod::{LabelInt, OmeLabels, OwnerRef, Pod, PodPhase};
pub use crate::engine::model::pods::Pods;
pub use crate::engine::model::resources::{counts_in_fit, ResourceList};
pub use crate::engine::model::shared::Shared;
pub use crate::engine::model::vocab::MigrationPhase;

/// An interned object or label name. Cloning is a reference-count increment.
pub type Name = Arc<str>;

/// A point in time, always UTC.
pub type Time = DateTime<Utc>;

/// Sorted `(key, value)` label pairs; sorted by key so lookups can binary-search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Labels(pub Vec<(Name, Name)>);

impl Labels {
    /// Builds a label set from pairs in any order (last duplicate wins).
    pub fn from_pairs(mut pairs: Vec<(Name, Name)>) -> Self {
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        pairs.dedup_by(|later, earlier| {
            if later.0 == earlier.0 {
                earlier.1 = later.1.clone();
                true
            } else {
                false
            }
        });
        Labels(pairs)
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.value(key).map(|v| v.as_ref())
    }

    /// The shared value of `key`, if present.
    fn value(&self, key: &str) -> Option<&Name> {
        self.0
            .binary_search_by(|(k, _)| k.as_ref().cmp(key))
            .ok()
            .map(|i| &self.0[i].1)
    }

    /// Whether every `(key, value)` of `selector` is present with the same value.
    pub fn matches_all(&self, selector: &[(Name, Name)]) -> bool {
        selector
            .iter()
            .all(|(k, v)| self.value(k).is_some_and(|have| same(have, v)))
    }
}

/// One component block of an InferenceService spec (`engine`, `decoder`, `router`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComponentSpec {
    /// `annotations["ome.io/deploymentMode"]` of the component block.
    pub mode_annotation: Option<Name>,
    /// A `leader` block is present (an empty object counts).
    pub has_leader: bool,
    /// A `worker` block is present.
    pub has_worker: bool,
}

/// The three OME components, in Alfred's sort order.
pub const COMPONENTS: [&str; 3] = ["engine", "decoder", "router"];

/// An InferenceService (`ome.io/v1beta1`), reduced.
#[derive(Debug, Clone, PartialEq)]
pub struct InferenceService {
    /// Namespace (private with `name` and `ns_name`: the three change together).
    namespace: Name,
    /// Name.
    name: Name,
    /// `namespace/name`, built with the two by the constructors: the store key, and the
    /// workload key every move row of this service carries (shared, not rebuilt per pass).
    ns_name: Name,
    /// `metadata.uid`.
    pub uid: Name,
    /// `metadata.resourceVersion` seen.
    pub resource_version: Name,
    /// `spec.deploymentMode`.
    pub deployment_mode: Option<Name>,
    /// `spec.engine`, `spec.decoder`, `spec.router` (in `COMPONENTS` order); `None` = null.
    pub components: [Option<ComponentSpec>; 3],
    /// `metadata.annotations` with keys starting `alfred.ome.io/` or `ome.io/migration-request-`.
    pub annotations: BTreeMap<Name, String>,
    /// `spec.model`: the base model it serves, if named.
    pub model: Option<ModelRef>,
}

/// `spec.model` of an InferenceService: which BaseModel or ClusterBaseModel it serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelRef {
    /// `kind`: `BaseModel` (in the service's namespace) or `ClusterBaseModel` (the default
    /// when absent); other strings are kept and never resolve.
    pub kind: Name,
    /// `name`.
    pub name: Name,
}

/// A BaseModel or ClusterBaseModel (`ome.io/v1beta1`), reduced to what Alfred's model check
/// reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseModel {
    /// Namespace; empty for a ClusterBaseModel.
    pub namespace: Name,
    /// Name.
    pub name: Name,
    /// `spec.storage.storageUri` (`pvc://[ns:]claim/path`, `hf://…`, `oci://…`).
    pub storage_uri: Option<String>,
}

impl BaseModel {
    /// Whether this is a ClusterBaseModel (cluster-scoped).
    pub fn is_cluster_scoped(&self) -> bool {
        self.namespace.is_empty()
    }
}

/// A PersistentVolumeClaim, reduced to its access modes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VolumeClaim {
    /// Namespace.
    pub namespace: Name,
    /// Name.
    pub name: Name,
    /// `spec.accessModes` (e.g. `ReadWriteOnce`, `ReadWriteMany`, `ReadWriteOncePod`).
    pub access_modes: Vec<Name>,
}

impl InferenceService {
    /// `ns/name`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// A service `namespace/name` with nothing else set; `key_name` makes the shared text of
    /// its `namespace/name` key from the joined string (an interner's, or `Name::from`).
    pub fn named(namespace: Name, name: Name, key_name: impl FnOnce(&str) -> Name) -> Self {
        let ns_name = key_name(&format!("{namespace}/{name}"));
        InferenceService {
            namespace,
            name,
            ns_name,
            uid: Name::from(""),
            resource_version: Name::from(""),
            deployment_mode: None,
            components: [None, None, None],
            annotations: BTreeMap::new(),
            model: None,
        }
    }

    /// Namespace.
    pub fn namespace(&self) -> &Name {
        &self.namespace
    }

    /// Name.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// The shared `namespace/name` text (`key()` without building it).
    pub fn ns_name(&self) -> &Name {
        &self.ns_name
    }

    /// Replaces the identity texts by `names`' shared copies of the same texts.
    pub fn intern_identity(&mut self, names: &mut Interner) {
        self.namespace = names.name(&self.namespace);
        self.name = names.name(&self.name);
        self.ns_name = names.name(&self.ns_name);
    }

    /// An annotation value by key.
    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.annotations.get(key).map(String::as_str)
    }
}

/// One `status.migrations[]` row of an InferenceReplica.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationStatus {
    /// `requestUUID`.
    pub request_uuid: Name,
    /// `trigger`: `Manual`, `Auto` or other (kept).
    pub trigger: Name,
    /// `sourceInstance`; `None` when absent or not an integer.
    pub source_instance: Option<i64>,
    /// `surgeInstance` (Manual only): the index of the Instance that replaces the source;
    /// `None` when absent or not an integer.
    pub surge_instance: Option<i64>,
    /// `phase` (an unknown value kept verbatim).
    pub phase: MigrationPhase,
    /// `fromNode`.
    pub from_node: Option<Name>,
    /// `startedAt`.
    pub started_at: Option<Time>,
    /// `deadline`.
    pub deadline: Option<Time>,
    /// `completedAt`.
    pub completed_at: Option<Time>,
    /// `message`: the current blocker or the terminal outcome, as OME wrote it.
    pub message: Option<Name>,
}

impl MigrationStatus {
    /// Whether the phase is terminal (`Completed`, `Failed`, `Relocated`).
    pub fn is_terminal(&self) -> bool {
        self.phase.is_terminal()
    }
}

/// InferenceReplica status aggregates and decoded rows.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaStatus {
    /// `status.observedGeneration`.
    pub observed_generation: i64,
    /// `replicas`, `readyReplicas`, `servingReplicas`, `availableReplicas`, `updatedReplicas`,
    /// `updatedReadyReplicas`, in that order.
    pub counters: [i64; 6],
    /// `currentRevision`.
    pub current_revision: Name,
    /// `updateRevision`.
    pub update_revision: Name,
    /// Decoded instance rows, or the codec/row-check failure.
    pub rows: Result<Vec<InstanceRow>, StatusError>,
    /// `status.migrations[]`.
    pub migrations: Vec<MigrationStatus>,
}

impl ReplicaStatus {
    /// Interns every row's running revision in `names`, the table `current_revision` comes
    /// from: a steady row's revision is then the very text of `currentRevision`, and the
    /// eligibility check decides by address without reading it.
    pub fn intern_row_revisions(&mut self, names: &mut Interner) {
        for row in self.rows.iter_mut().flatten() {
            row.running_revision = names.name(&row.running_revision);
        }
    }
}

/// An InferenceReplica (`ome.io/v1beta1`), reduced.
#[derive(Debug, Clone, PartialEq)]
pub struct InferenceReplica {
    /// Namespace.
    pub namespace: Name,
    /// Name (`{isvc}-{component}`).
    pub name: Name,
    /// `metadata.uid`.
    pub uid: Name,
    /// `metadata.generation`.
    pub generation: i64,
    /// Controller owner references (a projected IR has exactly one). Held inline: binding
    /// reads it for every replica, and a separate allocation was a cache miss apiece.
    pub controllers: SmallVec<[OwnerRef; 1]>,
    /// `spec.parentRef.name`.
    pub parent: Option<Name>,
    /// `spec.component`.
    pub component: Name,
    /// `spec.replicas`; `None` = absent (desired 1).
    pub replicas: Option<i64>,
    /// `spec.paused`.
    pub paused: bool,
    /// `spec.lifecycle.migrationPolicy.mode` (absent = `Auto`).
    pub migration_policy: Option<Name>,
    /// `spec.runners[]` as `(name, size)`; inline for the usual layouts (`default`, or
    /// `leader` + `worker`), read for every replica like `controllers`.
    pub runners: SmallVec<[(Name, i64); 2]>,
    /// `spec.topologyKey`.
    pub topology_key: Option<Name>,
    /// Status.
    pub status: ReplicaStatus,
}

/// Everything the engines read from one observation of the cluster.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterSnapshot {
    /// Nodes, in any order. Each part is `Shared`: a copy of the snapshot (the live task's,
    /// while a feed holds the last one) copies only the parts a change then edits.
    pub nodes: Shared<Vec<Node>>,
    /// Pods, in any order, shared with the live store (`Pods`).
    pub pods: Pods,
    /// InferenceServices.
    pub isvcs: Shared<Vec<InferenceService>>,
    /// InferenceReplicas.
    pub replicas: Shared<Vec<InferenceReplica>>,
    /// Whether the InferenceReplica list succeeded (a failed list invalidates every OMENative
    /// component, `inferencereplica.md` §5.3 step 1).
    pub replicas_listed: bool,
    /// PodGroups.
    pub pod_groups: Shared<Vec<PodGroup>>,
    /// ConfigMaps of interest (Alfred's, the scheduler's, migration audit ones).
    pub config_maps: Shared<Vec<ConfigMap>>,
    /// Events of interest.
    pub events: Shared<Vec<Event>>,
    /// BaseModels and ClusterBaseModels.
    pub models: Shared<Vec<BaseModel>>,
    /// Whether models were listed: without a listing Alfred's model check cannot be
    /// reproduced and every model is treated as resolvable.
    pub models_listed: bool,
    /// PersistentVolumeClaims (those a model's `pvc://` storage names).
    pub volume_claims: Shared<Vec<VolumeClaim>>,
}

impl ClusterSnapshot {
    /// The ConfigMap `namespace/name`, if present.
    pub fn config_map(&self, namespace: &str, name: &str) -> Option<&ConfigMap> {
        self.config_maps
            .iter()
            .find(|c| c.namespace.as_ref() == namespace && c.name.as_ref() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The binary search finds what a linear scan finds.
        #[test]
        fn label_lookup_equals_a_scan(
            pairs in proptest::collection::vec(("[ab/.]{0,4}", "[xy]{0,2}"), 0..12),
            key in "[ab/.]{0,4}",
        ) {
            let labels = Labels::from_pairs(
                pairs.iter().map(|(k, v)| (Name::from(k.as_str()), Name::from(v.as_str()))).collect(),
            );
            let scanned = labels.0.iter().find(|(k, _)| k.as_ref() == key).map(|(_, v)| v.as_ref());
            proptest::prop_assert_eq!(labels.get(&key), scanned);
            let selector = [(Name::from(key.as_str()), Name::from("x"))];
            proptest::prop_assert_eq!(labels.matches_all(&selector), scanned == Some("x"));
        }
    }
}
