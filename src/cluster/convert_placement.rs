//! Conversion of the placement-related parts of Pods and Nodes (k8s-openapi types) into the
//! engine model: effective CPU/memory requests, node allocatable and capacity, and the boxed
//! `PodPlacement` (tolerations, node affinity, pod (anti-)affinity, spread constraints, the
//! `PodScheduled=False` message, gang member labels).
//!
//! Owns: `effective_requests`, `allocatable`, `capacity`, `gpu_capacity`, `placement`. Pure
//! functions.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1 as core;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;

use crate::cluster::convert::{Interner, Warnings};
use crate::engine::model::{parse_quantity, whole_devices};
use crate::engine::model::{Allocatable, Labels, UNREPORTED};
use crate::engine::model::{
    LabelSelector, NodeTerm, Operator, PodPlacement, PodTerm, Requirement, SpreadConstraint,
    Toleration, UnschedulableCondition,
};

type Resources = BTreeMap<String, Quantity>;

/// A quantity as a whole number of units after scaling (`scale` 1000 for millicores),
/// rounded up as Kubernetes' `MilliValue`/`Value` do; unparsable or negative ⇒ `None`.
fn amount(q: &Quantity, scale: f64) -> Option<u64> {
    let v = parse_quantity(&q.0).ok()? * scale;
    (v >= 0.0).then(|| {
        if v >= u64::MAX as f64 {
            u64::MAX
        } else {
            v.ceil() as u64
        }
    })
}

/// `(cpu millicores, memory bytes)` of a container: request, else limit.
fn container_requests(c: &core::Container, id: &str, w: &mut Warnings) -> (u64, u64) {
    let res = c.resources.as_ref();
    let pick = |name: &str| {
        res.and_then(|r| r.requests.as_ref().and_then(|m| m.get(name)))
            .or_else(|| res.and_then(|r| r.limits.as_ref().and_then(|m| m.get(name))))
    };
    let mut get = |name: &str, scale: f64| match pick(name) {
        None => 0,
        Some(q) => amount(q, scale).unwrap_or_else(|| {
            w.push(format!("{id}: {} {name} {:?} ignored", c.name, q.0));
            0
        }),
    };
    (get("cpu", 1000.0), get("memory", 1.0))
}

fn add(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0.saturating_add(b.0), a.1.saturating_add(b.1))
}

fn max(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0.max(b.0), a.1.max(b.1))
}

/// Kubernetes' effective pod request for CPU (millicores) and memory (bytes): the larger of
/// Σ app containers + Σ sidecars and, per regular init container, its request + the sidecars
/// started before it; plus `overhead`. Pod-level `resources.requests` win when set.
pub fn effective_requests(spec: &core::PodSpec, id: &str, w: &mut Warnings) -> (u64, u64) {
    let mut sidecars = (0, 0);
    let mut init_peak = (0, 0);
    for c in spec.init_containers.iter().flatten() {
        let r = container_requests(c, id, w);
        if c.restart_policy.as_deref() == Some("Always") {
            sidecars = add(sidecars, r);
            init_peak = max(init_peak, sidecars);
        } else {
            init_peak = max(init_peak, add(r, sidecars));
        }
    }
    let app = spec
        .containers
        .iter()
        .fold((0, 0), |acc, c| add(acc, container_requests(c, id, w)));
    let mut total = max(add(app, sidecars), init_peak);
    if let Some(pod_level) = spec.resources.as_ref().and_then(|r| r.requests.as_ref()) {
        let get = |n: &str, s: f64, fallback: u64| {
            pod_level
                .get(n)
                .and_then(|q| amount(q, s))
                .unwrap_or(fallback)
        };
        total = (get("cpu", 1000.0, total.0), get("memory", 1.0, total.1));
    }
    let overhead: Option<&Resources> = spec.overhead.as_ref();
    let extra = |n: &str, s: f64| {
        overhead
            .and_then(|o| o.get(n))
            .and_then(|q| amount(q, s))
            .unwrap_or(0)
    };
    add(total, (extra("cpu", 1000.0), extra("memory", 1.0)))
}

/// Node allocatable CPU, memory and pods ([`UNREPORTED`] when absent or unparsable).
pub fn allocatable(status: Option<&core::NodeStatus>) -> Allocatable {
    node_resources(status.and_then(|s| s.allocatable.as_ref()))
}

/// Node capacity CPU, memory and pods ([`UNREPORTED`] when absent or unparsable).
pub fn capacity(status: Option<&core::NodeStatus>) -> Allocatable {
    node_resources(status.and_then(|s| s.capacity.as_ref()))
}

fn node_resources(map: Option<&Resources>) -> Allocatable {
    let get = |n: &str, s: f64| {
        map.and_then(|m| m.get(n))
            .and_then(|q| amount(q, s))
            .unwrap_or(UNREPORTED)
    };
    Allocatable {
        cpu_milli: get("cpu", 1000.0),
        memory: get("memory", 1.0),
        pods: get("pods", 1.0),
    }
}

/// `status.capacity[resource]` in whole devices; 0 when absent or unparsable (the capacity is
/// shown, never used in a decision, so a bad value is not worth refusing the node).
pub fn gpu_capacity(status: Option<&core::NodeStatus>, resource: Option<&str>) -> u32 {
    let q = resource.and_then(|r| status?.capacity.as_ref()?.get(r));
    q.and_then(|q| parse_quantity(&q.0).ok())
        .map_or(0, |v| whole_devices(v).0)
}

fn requirement(i: &mut Interner, key: &str, op: &str, values: Option<&Vec<String>>) -> Requirement {
    Requirement {
        key: i.name(key),
        operator: Operator::parse(op),
        values: values.into_iter().flatten().map(|v| i.name(v)).collect(),
    }
}

fn node_terms(i: &mut Interner, spec: &core::PodSpec) -> Vec<NodeTerm> {
    let required = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        });
    let mut terms = Vec::new();
    for t in required
        .into_iter()
        .flat_map(|r| r.node_selector_terms.iter())
    {
        let mut reqs = |list: Option<&Vec<core::NodeSelectorRequirement>>| -> Vec<Requirement> {
            list.into_iter()
                .flatten()
                .map(|r| requirement(i, &r.key, &r.operator, r.values.as_ref()))
                .collect()
        };
        let expressions = reqs(t.match_expressions.as_ref());
        let fields = reqs(t.match_fields.as_ref());
        terms.push(NodeTerm {
            expressions,
            fields,
        });
    }
    terms
}

fn selector(i: &mut Interner, s: &meta::LabelSelector) -> LabelSelector {
    LabelSelector {
        labels: s
            .match_labels
            .iter()
            .flatten()
            .map(|(k, v)| (i.name(k), i.name(v)))
            .collect(),
        expressions: s
            .match_expressions
            .iter()
            .flatten()
            .map(|r| requirement(i, &r.key, &r.operator, r.values.as_ref()))
            .collect(),
    }
}

/// The required pod affinity (`anti` = false) or anti-affinity terms.
fn pod_terms(i: &mut Interner, affinity: Option<&core::Affinity>, anti: bool) -> Vec<PodTerm> {
    let terms = if anti {
        affinity
            .and_then(|a| a.pod_anti_affinity.as_ref())
            .and_then(|a| {
                a.required_during_scheduling_ignored_during_execution
                    .as_ref()
            })
    } else {
        affinity
            .and_then(|a| a.pod_affinity.as_ref())
            .and_then(|a| {
                a.required_during_scheduling_ignored_during_execution
                    .as_ref()
            })
    };
    terms
        .into_iter()
        .flatten()
        .map(|t| PodTerm {
            selector: t.label_selector.as_ref().map(|s| selector(i, s)),
            namespaces: t.namespaces.iter().flatten().map(|n| i.name(n)).collect(),
            all_namespaces: t.namespace_selector.is_some(),
            topology_key: i.name(&t.topology_key),
        })
        .collect()
}

/// The admission defaults (`not-ready`/`unreachable`, `NoExecute`, with `tolerationSeconds`)
/// are dropped: they never change where a pod fits, and every pod has them.
fn tolerations(i: &mut Interner, list: Option<&Vec<core::Toleration>>) -> Vec<Toleration> {
    list.into_iter()
        .flatten()
        .filter(|t| {
            let default_key = matches!(
                t.key.as_deref(),
                Some("node.kubernetes.io/not-ready" | "node.kubernetes.io/unreachable")
            );
            !(default_key
                && t.effect.as_deref() == Some("NoExecute")
                && t.toleration_seconds.is_some())
        })
        .map(|t| Toleration {
            key: i.opt(t.key.as_deref()),
            exists: t.operator.as_deref() == Some("Exists"),
            value: i.name(t.value.as_deref().unwrap_or("")),
            effect: i.opt(t.effect.as_deref()),
        })
        .collect()
}

/// The boxed placement facts of a pod; `None` when it has none. To keep 100,000 pods small,
/// facts only the gang engine reads (labels, tolerations, pod affinity, spread) are kept for
/// gang members (`gang`) only, and tolerations also for unbound pods (fit explanations);
/// bound standalone pods keep node affinity, anti-affinity and their scheduling condition.
pub fn placement(
    i: &mut Interner,
    spec: Option<&core::PodSpec>,
    status: Option<&core::PodStatus>,
    labels: &Labels,
    gang: bool,
) -> Option<Box<PodPlacement>> {
    let affinity = spec.and_then(|s| s.affinity.as_ref());
    let condition = status
        .and_then(|s| s.conditions.as_ref())
        .into_iter()
        .flatten()
        .find(|c| c.type_ == "PodScheduled" && c.status == "False");
    let unbound = spec
        .and_then(|s| s.node_name.as_deref())
        .is_none_or(str::is_empty);
    let gang_spec = spec.filter(|_| gang);
    let p = PodPlacement {
        labels: if gang {
            labels.clone()
        } else {
            Labels::default()
        },
        tolerations: tolerations(
            i,
            spec.filter(|_| gang || unbound)
                .and_then(|s| s.tolerations.as_ref()),
        ),
        node_terms: spec.map(|s| node_terms(i, s)).unwrap_or_default(),
        pod_affinity: pod_terms(i, affinity.filter(|_| gang), false),
        pod_anti_affinity: pod_terms(i, affinity, true),
        spread: gang_spec
            .and_then(|s| s.topology_spread_constraints.as_ref())
            .into_iter()
            .flatten()
            .map(|c| SpreadConstraint {
                topology_key: i.name(&c.topology_key),
                max_skew: c.max_skew,
                hard: c.when_unsatisfiable == "DoNotSchedule",
            })
            .collect(),
        unschedulable: condition.map(|c| UnschedulableCondition {
            reason: i.name(c.reason.as_deref().unwrap_or("")),
            message: c.message.clone().unwrap_or_default(),
        }),
        nominated_node: i.opt(status.and_then(|s| s.nominated_node_name.as_deref())),
    };
    (!p.is_empty()).then(|| Box::new(p))
}
