//! The placement facts of a pod that only some pods carry (node affinity, tolerations, pod
//! (anti-)affinity, topology spread, the `PodScheduled=False` message, gang member labels),
//! boxed behind `Pod::placement` so that ordinary pods pay one pointer, and the matching rules
//! of the Kubernetes scheduler over them (node selector terms, tolerations, label selectors).
//!
//! Owns: `PodPlacement` and its parts, `node_matches`, `tolerates`, `LabelSelector::matches`. Pure.

use crate::engine::model::{Labels, Name, Node, Pod, Taint};

/// The node label that names a host; a selector or affinity on it pins a pod to hosts.
pub const HOSTNAME_LABEL: &str = "kubernetes.io/hostname";
/// The node field a `matchFields` requirement can name (the node's name).
pub const NODE_NAME_FIELD: &str = "metadata.name";

/// A selector operator (node selector requirements and label selector expressions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    /// `In`: the value is one of `values`.
    In,
    /// `NotIn`: the key is absent or its value is not one of `values`.
    NotIn,
    /// `Exists`: the key is present.
    Exists,
    /// `DoesNotExist`: the key is absent.
    DoesNotExist,
    /// `Gt`: the value, as an integer, is greater than the single value (node selectors only).
    Gt,
    /// `Lt`: the value, as an integer, is less than the single value (node selectors only).
    Lt,
    /// Any other string: matches nothing (the API server rejects it; never a panic here).
    Unknown,
}

impl Operator {
    /// Parses an operator string; unknown strings give `Unknown`.
    pub fn parse(s: &str) -> Self {
        match s {
            "In" => Operator::In,
            "NotIn" => Operator::NotIn,
            "Exists" => Operator::Exists,
            "DoesNotExist" => Operator::DoesNotExist,
            "Gt" => Operator::Gt,
            "Lt" => Operator::Lt,
            _ => Operator::Unknown,
        }
    }
}

/// One requirement: `key operator values`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    /// Label key (or field name for `matchFields`).
    pub key: Name,
    /// Operator.
    pub operator: Operator,
    /// Values (empty for `Exists`/`DoesNotExist`).
    pub values: Vec<Name>,
}

impl Requirement {
    /// Whether `value` (the key's value, `None` when absent) satisfies the requirement.
    pub fn matches(&self, value: Option<&str>) -> bool {
        let listed = |v: &str| self.values.iter().any(|x| x.as_ref() == v);
        let int = |v: &str| v.parse::<i64>().ok();
        let bound = || self.values.first().and_then(|b| int(b));
        match self.operator {
            Operator::In => value.is_some_and(listed),
            Operator::NotIn => !value.is_some_and(listed),
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
            Operator::Gt => matches!((value.and_then(int), bound()), (Some(v), Some(b)) if v > b),
            Operator::Lt => matches!((value.and_then(int), bound()), (Some(v), Some(b)) if v < b),
            Operator::Unknown => false,
        }
    }
}

/// One required node selector term; terms are ORed, requirements inside a term ANDed, and an
/// empty term matches no node (Kubernetes semantics).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodeTerm {
    /// `matchExpressions` over node labels.
    pub expressions: Vec<Requirement>,
    /// `matchFields` (only `metadata.name` exists).
    pub fields: Vec<Requirement>,
}

impl NodeTerm {
    /// Whether the term matches `node`.
    pub fn matches(&self, node: &Node) -> bool {
        if self.expressions.is_empty() && self.fields.is_empty() {
            return false;
        }
        self.expressions
            .iter()
            .all(|r| r.matches(node.labels.get(&r.key)))
            && self.fields.iter().all(|r| {
                let value = (r.key.as_ref() == NODE_NAME_FIELD).then_some(node.name.as_ref());
                r.matches(value)
            })
    }

    /// The host names the term restricts to (`kubernetes.io/hostname In [...]` or
    /// `metadata.name In [...]`), `None` when it does not restrict hosts.
    pub fn host_list(&self) -> Option<Vec<Name>> {
        let host = |r: &&Requirement| r.operator == Operator::In;
        let from_labels = self
            .expressions
            .iter()
            .filter(|r| r.key.as_ref() == HOSTNAME_LABEL)
            .find(host);
        let from_fields = self
            .fields
            .iter()
            .filter(|r| r.key.as_ref() == NODE_NAME_FIELD)
            .find(host);
        from_labels.or(from_fields).map(|r| r.values.clone())
    }
}

/// A toleration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toleration {
    /// Taint key; `None` (empty) with `Exists` tolerates every taint.
    pub key: Option<Name>,
    /// `Exists` (`true`) or `Equal` (`false`, the default).
    pub exists: bool,
    /// Value for `Equal`.
    pub value: Name,
    /// Effect; `None` matches every effect.
    pub effect: Option<Name>,
}

impl Toleration {
    /// Whether this toleration tolerates `taint` (standard toleration matching).
    pub fn tolerates(&self, taint: &Taint) -> bool {
        if self.effect.as_ref().is_some_and(|e| *e != taint.effect) {
            return false;
        }
        match &self.key {
            None => self.exists,
            Some(k) if *k != taint.key => false,
            Some(_) => self.exists || self.value == taint.value,
        }
    }
}

/// A label selector (`matchLabels` + `matchExpressions`); `None` at the use site means a null
/// selector, which matches nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelSelector {
    /// `matchLabels` pairs.
    pub labels: Vec<(Name, Name)>,
    /// `matchExpressions` (In, NotIn, Exists, DoesNotExist).
    pub expressions: Vec<Requirement>,
}

impl LabelSelector {
    /// Whether `labels` satisfy the selector (an empty selector matches everything).
    pub fn matches(&self, labels: &Labels) -> bool {
        labels.matches_all(&self.labels)
            && self
                .expressions
                .iter()
                .all(|r| r.matches(labels.get(&r.key)))
    }
}

/// A required pod (anti-)affinity term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodTerm {
    /// The label selector; `None` = null selector (matches no pod).
    pub selector: Option<LabelSelector>,
    /// `namespaces`; empty = the pod's own namespace unless `all_namespaces`.
    pub namespaces: Vec<Name>,
    /// A `namespaceSelector` is set (approximated as "every namespace": namespace labels are not
    /// in the model).
    pub all_namespaces: bool,
    /// `topologyKey`.
    pub topology_key: Name,
}

impl PodTerm {
    /// Whether the term, written on a pod in namespace `own_ns`, matches `other`.
    pub fn matches(&self, own_ns: &str, other: &Pod, other_labels: &Labels) -> bool {
        let ns_ok = self.all_namespaces
            || if self.namespaces.is_empty() {
                other.namespace.as_ref() == own_ns
            } else {
                self.namespaces.contains(&other.namespace)
            };
        ns_ok
            && self
                .selector
                .as_ref()
                .is_some_and(|s| s.matches(other_labels))
    }
}

/// A topology spread constraint, reduced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpreadConstraint {
    /// `topologyKey`.
    pub topology_key: Name,
    /// `maxSkew`.
    pub max_skew: i32,
    /// `whenUnsatisfiable: DoNotSchedule` (a hard constraint).
    pub hard: bool,
}

/// The `PodScheduled=False` condition of a pending pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnschedulableCondition {
    /// `reason` (`Unschedulable`, `SchedulerError`, …), kept verbatim.
    pub reason: Name,
    /// `message`, kept verbatim (the scheduler's FailedScheduling text).
    pub message: String,
}

/// Placement facts that most pods do not have. `Pod::placement` is `None` when every field
/// would be empty, so 100,000 ordinary pods cost one null pointer each.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PodPlacement {
    /// Pod labels, kept only for gang members (pods with the pod-group label): gang rules
    /// match pod (anti-)affinity selectors against siblings. Empty for other pods.
    pub labels: Labels,
    /// Tolerations, except the admission defaults for `not-ready`/`unreachable` `NoExecute`
    /// with `tolerationSeconds` (they never change where a pod fits). Kept for gang members
    /// and unbound pods only (nothing computes a fit for a bound standalone pod).
    pub tolerations: Vec<Toleration>,
    /// Required node affinity terms (ORed); empty = no required node affinity.
    pub node_terms: Vec<NodeTerm>,
    /// Required pod affinity terms (gang members only).
    pub pod_affinity: Vec<PodTerm>,
    /// Required pod anti-affinity terms.
    pub pod_anti_affinity: Vec<PodTerm>,
    /// Topology spread constraints (gang members only).
    pub spread: Vec<SpreadConstraint>,
    /// `PodScheduled=False`, when present.
    pub unschedulable: Option<UnschedulableCondition>,
    /// `status.nominatedNodeName`.
    pub nominated_node: Option<Name>,
}

impl PodPlacement {
    /// Whether nothing is recorded (the converter then stores `None`).
    pub fn is_empty(&self) -> bool {
        *self == PodPlacement::default()
    }

    /// The host list of the required node affinity when *every* term restricts hosts (the pod
    /// can only run on those hosts); `None` otherwise.
    pub fn required_hosts(&self) -> Option<Vec<Name>> {
        if self.node_terms.is_empty() {
            return None;
        }
        let mut hosts = Vec::new();
        for term in &self.node_terms {
            hosts.extend(term.host_list()?);
        }
        hosts.sort();
        hosts.dedup();
        Some(hosts)
    }
}

/// Whether `pod`'s node selector and required node affinity match `node`.
pub fn node_matches(pod: &Pod, node: &Node) -> bool {
    let selector_ok = pod
        .node_selector
        .iter()
        .all(|(k, v)| node.labels.get(k).is_some_and(|have| have == v.as_ref()));
    let terms = pod
        .placement
        .as_deref()
        .map_or(&[][..], |p| &p.node_terms[..]);
    selector_ok && (terms.is_empty() || terms.iter().any(|t| t.matches(node)))
}

/// Whether every `NoSchedule`/`NoExecute` taint of `node` is tolerated by `pod`
/// (`PreferNoSchedule` is ignored, as the scheduler's filter does).
pub fn tolerates(pod: &Pod, node: &Node) -> bool {
    let tolerations = pod
        .placement
        .as_deref()
        .map_or(&[][..], |p| &p.tolerations[..]);
    node.taints
        .iter()
        .filter(|t| matches!(t.effect.as_ref(), "NoSchedule" | "NoExecute"))
        .all(|t| tolerations.iter().any(|tol| tol.tolerates(t)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit;
    use std::sync::Arc;

    fn req(key: &str, op: &str, values: &[&str]) -> Requirement {
        Requirement {
            key: Arc::from(key),
            operator: Operator::parse(op),
            values: values.iter().map(|v| Arc::from(*v)).collect(),
        }
    }

    #[test]
    fn requirement_operators() {
        assert!(req("k", "In", &["a", "b"]).matches(Some("b")));
        assert!(!req("k", "In", &["a"]).matches(None));
        assert!(req("k", "NotIn", &["a"]).matches(None));
        assert!(!req("k", "NotIn", &["a"]).matches(Some("a")));
        assert!(req("k", "Exists", &[]).matches(Some("")));
        assert!(req("k", "DoesNotExist", &[]).matches(None));
        assert!(req("k", "Gt", &["3"]).matches(Some("4")));
        assert!(!req("k", "Lt", &["3"]).matches(Some("x")));
        assert!(!req("k", "Bogus", &[]).matches(Some("x")));
    }

    #[test]
    fn empty_term_matches_nothing_and_host_lists_are_found() {
        let node = testkit::node("n1", 8);
        assert!(!NodeTerm::default().matches(&node));
        let term = NodeTerm {
            expressions: vec![req(HOSTNAME_LABEL, "In", &["n1", "n2"])],
            fields: Vec::new(),
        };
        assert_eq!(term.host_list().map(|h| h.len()), Some(2));
        let by_field = NodeTerm {
            expressions: Vec::new(),
            fields: vec![req(NODE_NAME_FIELD, "In", &["n1"])],
        };
        assert!(by_field.matches(&node));
        let placement = PodPlacement {
            node_terms: vec![term, by_field],
            ..Default::default()
        };
        assert_eq!(placement.required_hosts().map(|h| h.len()), Some(2));
    }

    #[test]
    fn tolerations_follow_kubernetes_matching() {
        let taint = Taint {
            key: Arc::from("nvidia.com/gpu"),
            value: Arc::from("present"),
            effect: Arc::from("NoSchedule"),
        };
        let tol = |key: Option<&str>, exists: bool, value: &str, effect: Option<&str>| Toleration {
            key: key.map(Arc::from),
            exists,
            value: Arc::from(value),
            effect: effect.map(Arc::from),
        };
        assert!(tol(None, true, "", None).tolerates(&taint));
        assert!(tol(Some("nvidia.com/gpu"), true, "", Some("NoSchedule")).tolerates(&taint));
        assert!(tol(Some("nvidia.com/gpu"), false, "present", None).tolerates(&taint));
        assert!(!tol(Some("nvidia.com/gpu"), false, "other", None).tolerates(&taint));
        assert!(!tol(Some("nvidia.com/gpu"), true, "", Some("NoExecute")).tolerates(&taint));
        let mut node = testkit::node("n1", 8);
        node.taints.push(taint);
        let pod = testkit::pod("ns", "p", None, 1);
        assert!(!tolerates(&pod, &node));
    }
}
