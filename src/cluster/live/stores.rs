//! The stores of every watched source, and the assembly of a `ClusterSnapshot` from them
//! (draining them, for the snapshot task's full path).
//!
//! Owns: `Stores`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::cluster::live::slot::{Role, Slot, SourceStatus};
use crate::cluster::live::sources::NAMED_CONFIG_MAPS;
use crate::cluster::live::store::SharedNames;
use crate::engine::model::{
    BaseModel, ClusterSnapshot, ConfigMap, Event, InferenceReplica, InferenceService, Node, Pod,
    PodGroup, VolumeClaim,
};
use crate::protocol::{Presence, SourceState};

/// The stores of every watched source.
pub struct Stores {
    /// Nodes (cluster-wide).
    pub nodes: Slot<Node>,
    /// Pods (all or the scoped namespace).
    pub pods: Slot<Arc<Pod>>,
    /// InferenceServices.
    pub isvcs: Slot<InferenceService>,
    /// InferenceReplicas.
    pub replicas: Slot<InferenceReplica>,
    /// PodGroups.
    pub pod_groups: Slot<PodGroup>,
    /// The named ConfigMaps, in `NAMED_CONFIG_MAPS` order.
    pub named: [Slot<ConfigMap>; 4],
    /// Migration audit ConfigMaps (`<isvc>-ome-migration-audit`).
    pub audit: Slot<ConfigMap>,
    /// BaseModels (scoped like workloads).
    pub models: Slot<BaseModel>,
    /// ClusterBaseModels.
    pub cluster_models: Slot<BaseModel>,
    /// PersistentVolumeClaims (a model's `pvc://` storage).
    pub volume_claims: Slot<VolumeClaim>,
    /// Alfred's Node events.
    pub node_events: Slot<Event>,
    /// FailedScheduling Pod events.
    pub pod_events: Slot<Event>,
    /// Whole snapshots drained (`take_snapshot`): the snapshot task's full path only.
    whole_snapshots: AtomicU64,
}

impl Default for Stores {
    fn default() -> Self {
        let [a, b, c, d] = NAMED_CONFIG_MAPS.map(|(n, _, _)| n);
        // One interner for every kind: cross-references between objects share their strings.
        let names = SharedNames::default();
        Stores {
            nodes: Slot::with_names(&names, "nodes", Role::Required, "list nodes"),
            pods: Slot::with_names(&names, "pods", Role::Required, "list pods"),
            isvcs: Slot::with_names(
                &names,
                "inferenceservices",
                Role::Optional,
                "list inferenceservices",
            ),
            replicas: Slot::with_names(
                &names,
                "inferencereplicas",
                Role::Optional,
                "list inferencereplicas",
            ),
            pod_groups: Slot::with_names(&names, "podgroups", Role::Optional, "list podgroups"),
            named: [
                Slot::with_names(&names, a, Role::Named, "list configmaps"),
                Slot::with_names(&names, b, Role::Named, "list configmaps"),
                Slot::with_names(&names, c, Role::Named, "list configmaps"),
                Slot::with_names(&names, d, Role::Named, "list configmaps"),
            ],
            audit: Slot::with_names(&names, "migration-audit", Role::Optional, "list configmaps"),
            models: Slot::with_names(&names, "basemodels", Role::Optional, "list basemodels"),
            cluster_models: Slot::with_names(
                &names,
                "clusterbasemodels",
                Role::Optional,
                "list clusterbasemodels",
            ),
            volume_claims: Slot::with_names(
                &names,
                "pvcs",
                Role::Optional,
                "list persistentvolumeclaims",
            ),
            node_events: Slot::with_names(&names, "node-events", Role::Optional, "list events"),
            pod_events: Slot::with_names(
                &names,
                "scheduling-events",
                Role::Optional,
                "list events",
            ),
            whole_snapshots: AtomicU64::new(0),
        }
    }
}

impl Stores {
    /// Every source, in header order.
    pub fn all(&self) -> Vec<&dyn SourceStatus> {
        let mut v: Vec<&dyn SourceStatus> = vec![
            &self.nodes,
            &self.pods,
            &self.isvcs,
            &self.replicas,
            &self.pod_groups,
        ];
        v.extend(self.named.iter().map(|s| s as &dyn SourceStatus));
        v.extend([
            &self.audit as &dyn SourceStatus,
            &self.models,
            &self.cluster_models,
            &self.volume_claims,
            &self.node_events,
            &self.pod_events,
        ]);
        v
    }

    /// The header rows of every source.
    pub fn source_states(&self) -> Vec<SourceState> {
        self.all().iter().map(|s| s.source_state()).collect()
    }

    /// Conversion warnings of every source.
    pub fn warnings(&self) -> Vec<String> {
        self.all().iter().flat_map(|s| s.warnings()).collect()
    }

    /// The engine's snapshot of everything held now.
    pub fn snapshot(&self) -> ClusterSnapshot {
        self.assemble(false)
    }

    /// `snapshot`, each source drained as it is read (`Slot::drain_all`): the base the next
    /// drained keys apply to (`cluster::live::delta`).
    pub fn take_snapshot(&self) -> ClusterSnapshot {
        self.whole_snapshots.fetch_add(1, Ordering::Relaxed);
        self.assemble(true)
    }

    /// How many whole snapshots were drained so far (a batch of pods, nodes and Events alone
    /// drains none: the snapshot task's test and the scale runs read it).
    pub fn whole_snapshots(&self) -> u64 {
        self.whole_snapshots.load(Ordering::Relaxed)
    }

    fn assemble(&self, drain: bool) -> ClusterSnapshot {
        fn read<T: Clone>(slot: &Slot<T>, out: &mut impl Extend<T>, drain: bool) {
            if drain {
                slot.drain_all(out);
            } else {
                slot.extend_into(out);
            }
        }
        let mut snap = ClusterSnapshot::default();
        read(&self.nodes, &mut snap.nodes, drain);
        read(&self.pods, &mut snap.pods, drain);
        read(&self.isvcs, &mut snap.isvcs, drain);
        read(&self.replicas, &mut snap.replicas, drain);
        read(&self.pod_groups, &mut snap.pod_groups, drain);
        for slot in &self.named {
            read(slot, &mut snap.config_maps, drain);
        }
        read(&self.audit, &mut snap.config_maps, drain);
        read(&self.models, &mut snap.models, drain);
        read(&self.cluster_models, &mut snap.models, drain);
        read(&self.volume_claims, &mut snap.volume_claims, drain);
        // As in snapshot files: models count as listed when any is held (a `List` cannot say
        // "listed, none"), so a dump reads back to the same analysis.
        snap.models_listed = !snap.models.is_empty();
        read(&self.node_events, &mut snap.events, drain);
        read(&self.pod_events, &mut snap.events, drain);
        // A failed (or impossible) InferenceReplica list invalidates OMENative components.
        snap.replicas_listed = self.replicas.source_state().presence == Presence::Present;
        snap
    }
}
