//! Conversion of the placement-related parts of Pods (k8s-openapi types) into the engine
//! model: the boxed `PodPlacement` (tolerations, node affinity, pod (anti-)affinity, spread
//! constraints, the `PodScheduled=False` message, gang member labels). Requests and
//! allocatable are `convert_resources`'.
//!
//! Owns: `placement`. Pure functions.

use k8s_openapi::api::core::v1 as core;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;

use crate::cluster::convert::Interner;
use crate::engine::model::Labels;
use crate::engine::model::{
    LabelSelector, NodeTerm, Operator, PodPlacement, PodTerm, Requirement, SpreadConstraint,
    Toleration, UnschedulableCondition,
};

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
