//! Workloads of the demo and their churn: arrivals, departures, scale up and down, and the
//! scheduler stand-in that binds pending pods with LeastAllocated spreading — which is what
//! makes a GPU cluster fragment over minutes (the Gaudi seed's story).
//!
//! Owns: `Workload`, `add_workload`, churn and pending placement. Pure.

use std::sync::Arc;

use crate::engine::model::{Name, Time};
use crate::sim::demo::objects::{bind, instance_pods, new_row, raw_pod, service, Shape};
use crate::sim::demo::place::{choose, free_devices, Strategy, POOLS};
use crate::sim::demo::{DemoWorld, Source};
use crate::sim::replica::omenative_replica;

/// Churn events per sim minute across the cluster.
pub const EVENTS_PER_MINUTE: f64 = 6.0;

/// Pending default-scheduler GPU pods at which churn stops adding demand.
pub const MAX_QUEUED: usize = 6;
/// Namespaces of regular workloads.
const NAMESPACES: [&str; 5] = ["prod", "team-a", "team-b", "search", "chat"];
/// Model names of regular workloads.
const MODELS: [&str; 8] = [
    "llama-8b",
    "mistral-7b",
    "qwen-32b",
    "gemma-27b",
    "embed",
    "rerank",
    "phi-4",
    "llama-70b",
];
/// Instance sizes (GPUs per pod) and their weights in percent.
const SIZES: [(u32, u64); 4] = [(1, 40), (2, 25), (4, 20), (8, 15)];

/// One workload the world manages.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Namespace.
    pub ns: Name,
    /// InferenceService name.
    pub name: Name,
    /// OMENative (else RawDeployment).
    pub omenative: bool,
    /// Instance shape.
    pub shape: Shape,
    /// Churn never touches it (gangs, journal references, migrations).
    pub fixed: bool,
    /// Next pod ordinal (RawDeployment) or Instance index (OMENative).
    pub next: i64,
}

impl DemoWorld {
    /// Adds a workload of `instances` Instances and places its pods with `strategy` (gang pods
    /// stay pending for the gang scheduler). Returns its catalogue index.
    pub(crate) fn add_workload(
        &mut self,
        (ns, name): (&str, &str),
        omenative: bool,
        shape: Shape,
        instances: i64,
        (now, strategy): (Time, Option<Strategy>),
    ) -> usize {
        let ns: Name = Arc::from(ns);
        let mode = if omenative {
            "OMENative"
        } else {
            "RawDeployment"
        };
        let rv = self.bump();
        let isvc = service(&ns, name, mode, shape.pods > 1, rv);
        let resource = POOLS[shape.pool].resource;
        let first_pod = self.snap.pods.len();
        if omenative {
            let ir_name = format!("{name}-engine");
            let ir_uid: Name = Arc::from(format!("uid-ir-{ns}-{ir_name}"));
            let mut ir = omenative_replica(&isvc, &ir_name, &ir_uid, instances, shape.pods, true);
            if shape.pods > 1 {
                ir.topology_key = Some(Arc::from(crate::sim::demo::place::RACK_LABEL));
            }
            for index in 0..instances {
                self.snap
                    .pods
                    .extend(instance_pods(&ir, index, shape, resource, now));
            }
            self.snap.replicas.push(ir);
            self.touch(Source::Replicas);
        } else {
            for ordinal in 0..instances {
                let ordinal = u64::try_from(ordinal).unwrap_or(0);
                self.snap
                    .pods
                    .push(raw_pod(&ns, name, ordinal, shape, resource, now));
            }
        }
        self.snap.isvcs.push(isvc);
        self.catalog.push(Workload {
            ns,
            name: Arc::from(name),
            omenative,
            shape,
            fixed: shape.pods > 1,
            next: instances,
        });
        if let Some(strategy) = strategy {
            self.place_range(first_pod, now, strategy);
        }
        self.touch(Source::Services);
        self.touch(Source::Pods);
        self.catalog.len() - 1
    }

    /// Binds the unbound default-scheduler pods from `first` on with `strategy`.
    /// A surge copy in flight is left to the migration (`place_surge`): OME keeps it off the
    /// node it leaves and prefers the hint targets, which this pass does not know.
    fn place_range(&mut self, first: usize, now: Time, strategy: Strategy) {
        let mut free = free_devices(&self.snap);
        let surges = self.surges_in_flight();
        for p in first..self.snap.pods.len() {
            let pod = &self.snap.pods[p];
            if pod.node.is_some() || !pod.scheduler_name.is_empty() || pod.phase.is_terminal() {
                continue;
            }
            let owner = pod.controller.as_ref().map(|o| o.uid.clone());
            let index = pod.ome.instance_index.value();
            if owner.is_some_and(|uid| surges.iter().any(|s| s.0 == uid && Some(s.1) == index)) {
                continue;
            }
            let Some(pool) = pod_pool(pod) else { continue };
            let want = (pool, pod.gpus);
            if let Some(n) = choose(&self.snap, &free, &mut self.rng, want, strategy, &[]) {
                free[n] -= self.snap.pods[p].gpus;
                let node = self.snap.nodes[n].clone();
                bind(&mut self.snap.pods[p], &node, now);
                self.touch(Source::Pods);
            }
        }
    }

    /// The default scheduler's pass over pending pods (LeastAllocated).
    pub(crate) fn place_pending(&mut self, now: Time) {
        self.place_range(0, now, Strategy::LeastAllocated);
    }

    /// Simulates `seconds` of churn ending at `now`.
    pub(crate) fn churn_for(&mut self, seconds: f64, now: Time) {
        self.churn_budget += seconds / 60.0 * EVENTS_PER_MINUTE;
        while self.churn_budget >= 1.0 {
            self.churn_budget -= 1.0;
            // Demand follows capacity: while pods queue, arrivals and scale-ups pause.
            let queued = self
                .snap
                .pods
                .iter()
                .filter(|p| p.is_pending_gpu() && p.scheduler_name.is_empty())
                .count();
            let grow = queued < MAX_QUEUED;
            match self.rng.below(100) {
                0..=34 if grow => self.arrival(now),
                0..=59 => self.departure(),
                60..=79 if grow => self.scale(true, now),
                _ => self.scale(false, now),
            }
        }
    }

    /// A new workload of one to three Instances in a random pool, placed LeastAllocated.
    pub(crate) fn arrival(&mut self, now: Time) {
        let shape = self.random_shape();
        self.serial += 1;
        let ns = NAMESPACES[self.rng.below(NAMESPACES.len() as u64) as usize];
        let model = MODELS[self.rng.below(MODELS.len() as u64) as usize];
        let name = format!("{model}-{}", self.serial);
        let omenative = self.rng.below(100) < 70;
        let instances = 1 + self.rng.below(3) as i64;
        let strategy = Some(Strategy::LeastAllocated);
        self.add_workload((ns, &name), omenative, shape, instances, (now, strategy));
    }

    /// A shape with a pool weighted by node share and a size from `SIZES`.
    pub(crate) fn random_shape(&mut self) -> Shape {
        let mut roll = self.rng.below(100) as usize;
        let mut pool = POOLS.len() - 1;
        for (i, p) in POOLS.iter().enumerate() {
            if roll < p.share {
                pool = i;
                break;
            }
            roll -= p.share;
        }
        let mut roll = self.rng.below(100);
        let mut gpus = 8;
        for (size, weight) in SIZES {
            if roll < weight {
                gpus = size;
                break;
            }
            roll -= weight;
        }
        Shape {
            pool,
            gpus,
            pods: 1,
        }
    }

    /// Catalogue entries churn may change: not fixed and not being migrated.
    fn churnable(&self) -> Vec<usize> {
        self.catalog
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.fixed && !self.migrating(&w.ns, &w.name))
            .map(|(i, _)| i)
            .collect()
    }

    /// Removes one random workload with its pods and IR.
    fn departure(&mut self) {
        let pick = self.churnable();
        if pick.is_empty() {
            return;
        }
        let c = pick[self.rng.below(pick.len() as u64) as usize];
        self.remove_workload(c);
    }

    /// Removes catalogue entry `c` with its InferenceService, IR and pods.
    pub(crate) fn remove_workload(&mut self, c: usize) {
        let w = self.catalog.remove(c);
        let owns = |ns: &Name, isvc: Option<&Name>| *ns == w.ns && isvc == Some(&w.name);
        self.snap
            .pods
            .retain(|p| !owns(&p.namespace, p.ome.isvc.as_ref()));
        self.snap
            .replicas
            .retain(|r| !owns(&r.namespace, r.parent.as_ref()));
        self.snap
            .isvcs
            .retain(|s| !(*s.namespace() == w.ns && *s.name() == w.name));
        for s in [Source::Pods, Source::Replicas, Source::Services] {
            self.touch(s);
        }
    }

    /// Scales one random workload up or down by one Instance (never below one).
    fn scale(&mut self, up: bool, now: Time) {
        let pick = self.churnable();
        if pick.is_empty() {
            return;
        }
        let c = pick[self.rng.below(pick.len() as u64) as usize];
        let w = self.catalog[c].clone();
        let resource = POOLS[w.shape.pool].resource;
        let first = self.snap.pods.len();
        let Some(ir) = self
            .snap
            .replicas
            .iter()
            .position(|r| r.namespace == w.ns && r.parent.as_ref() == Some(&w.name))
        else {
            if up {
                let ordinal = u64::try_from(w.next).unwrap_or(0);
                let pod = raw_pod(&w.ns, &w.name, ordinal, w.shape, resource, now);
                self.snap.pods.push(pod);
                self.catalog[c].next += 1;
                self.place_range(first, now, Strategy::LeastAllocated);
            } else {
                self.remove_newest_raw(&w);
            }
            return;
        };
        let replica = &mut self.snap.replicas[ir];
        let Ok(rows) = replica.status.rows.as_mut() else {
            return;
        };
        if up {
            let index = rows.iter().map(|r| r.index).max().unwrap_or(-1) + 1;
            rows.push(new_row(index, &replica.status.current_revision));
            let pods = instance_pods(replica, index, w.shape, resource, now);
            self.snap.pods.extend(pods);
        } else if rows.len() > 1 {
            let Some(gone) = rows.pop() else { return };
            let uid = replica.uid.clone();
            self.snap.pods.retain(|p| {
                p.controller.as_ref().is_none_or(|o| o.uid != uid)
                    || p.ome.instance_index.value() != Some(gone.index)
            });
        } else {
            return;
        }
        let replica = &mut self.snap.replicas[ir];
        let n = replica.status.rows.as_ref().map_or(0, Vec::len) as i64;
        replica.replicas = Some(n);
        replica.generation += 1;
        replica.status.observed_generation = replica.generation;
        self.place_range(first, now, Strategy::LeastAllocated);
        self.touch(Source::Replicas);
        self.touch(Source::Pods);
    }

    /// Removes the last pod of a RawDeployment workload unless it is the only one.
    fn remove_newest_raw(&mut self, w: &Workload) {
        let mine: Vec<usize> = (0..self.snap.pods.len())
            .filter(|p| {
                let pod = &self.snap.pods[*p];
                pod.namespace == w.ns && pod.ome.isvc.as_ref() == Some(&w.name)
            })
            .collect();
        if let (true, Some(last)) = (mine.len() > 1, mine.last()) {
            self.snap.pods.remove(*last);
            self.touch(Source::Pods);
        }
    }
}

/// The pool index a pod's nodeSelector names.
pub fn pod_pool(pod: &crate::engine::model::Pod) -> Option<usize> {
    POOLS.iter().position(|p| {
        pod.node_selector
            .iter()
            .any(|(k, v)| k.as_ref() == p.label && v.as_ref() == p.key)
    })
}
