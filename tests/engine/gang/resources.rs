//! The node-fit predicate counts every resource a member requests (gangpack.md §3.3
//! "Node-fit predicate": `allocatable − requested ≥ podRequest` for CPU, memory, ephemeral
//! storage and every scalar/extended resource, `podRequest` by Kubernetes' effective-request
//! rule with init containers, sidecars and overhead; required node affinity terms ORed), and
//! lineage C's member room divides every requested resource (§3.3 "Lineage C"). A table of
//! resources × fit, each row read through a `kubectl get -o json` document, the converter and
//! the gang prediction (§7.3) of a one-member gang on one node.

use serde_json::{json, Value};

use ome_top::engine::gangs::PredictedOutcome;

use super::GANG_NOW;

/// A node of rack `a` reporting `allocatable`.
fn node(name: &str, allocatable: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Node",
           "metadata": {"name": name, "uid": format!("uid-{name}"),
                        "labels": {"kubernetes.io/hostname": name, "ome.io/rack": "a",
                                   "zone": "east"}},
           "spec": {}, "status": {"allocatable": allocatable}})
}

/// The allocatable of the table's node: every kind of resource a GPU node reports.
fn allocatable() -> Value {
    json!({"cpu": "8", "memory": "64Gi", "pods": "10", "ephemeral-storage": "100Gi",
           "hugepages-1Gi": "4Gi", "hugepages-2Mi": "0", "vpc.amazonaws.com/efa": "4",
           "nvidia.com/gpu": "8", "nvidia.com/mig-1g.10gb": "1"})
}

/// A pod of gang `group` (or a standalone pod when `group` is empty) with `spec`'s containers.
fn pod(name: &str, group: &str, node: Option<&str>, spec: Value) -> Value {
    let mut p = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "serving", "uid": format!("uid-{name}"),
                     "creationTimestamp": "2026-09-28T10:00:00Z", "labels": {}},
        "spec": spec, "status": {"phase": "Pending"}});
    p["spec"]["schedulerName"] = "ome-scheduler".into();
    if !group.is_empty() {
        p["metadata"]["labels"]["scheduling.x-k8s.io/pod-group"] = group.into();
    }
    if let Some(n) = node {
        p["spec"]["nodeName"] = n.into();
        p["status"] = json!({"phase": "Running"});
    }
    p
}

fn pod_group(name: &str, min: u32) -> Value {
    json!({"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "PodGroup",
           "metadata": {"name": name, "namespace": "serving", "uid": format!("uid-pg-{name}"),
                        "annotations": {"ome.io/topology-key": "ome.io/rack"}},
           "spec": {"minMember": min}})
}

/// One container asking for `requests` (as requests and limits).
fn containers(requests: Value) -> Value {
    json!({"containers": [{"name": "main",
                           "resources": {"requests": requests.clone(), "limits": requests}}]})
}

/// The predicted outcome and capacity of gang `g` of `members` members with `spec` on a node
/// with `allocatable`, next to a bound standalone pod with `bound` requests.
fn predict(spec: Value, members: u32, allocatable: Value, bound: Value) -> (PredictedOutcome, u32) {
    let mut items = vec![
        node("n1", allocatable),
        pod("other", "", Some("n1"), containers(bound)),
        pod_group("g", members),
    ];
    for m in 0..members {
        items.push(pod(&format!("g-{m}"), "g", None, spec.clone()));
    }
    let doc = json!({"apiVersion": "v1", "kind": "List", "items": items});
    let (_, a) = crate::analyzed_doc(&doc, GANG_NOW);
    let g = a
        .gangs
        .gangs
        .iter()
        .find(|g| g.key() == "serving/g")
        .unwrap();
    let p = g.prediction.as_ref().unwrap();
    (p.outcome, p.capacity)
}

fn fits(spec: Value) -> bool {
    predict(spec, 1, allocatable(), json!({"ephemeral-storage": "10Gi"})).0
        == PredictedOutcome::Fits
}

#[test]
fn every_requested_resource_must_fit_gangpack_3_3_node_fit() {
    // (what the row shows, the member's containers, whether it fits). The node reports the
    // allocatable above; a bound pod already uses 10Gi of ephemeral storage.
    let rows: Vec<(&str, Value, bool)> = vec![
        (
            "cpu to the millicore",
            containers(json!({"cpu": "8"})),
            true,
        ),
        ("cpu over", containers(json!({"cpu": "8001m"})), false),
        ("memory over", containers(json!({"memory": "65Gi"})), false),
        (
            "ephemeral storage left",
            containers(json!({"ephemeral-storage": "90Gi"})),
            true,
        ),
        (
            "ephemeral storage used by the bound pod",
            containers(json!({"ephemeral-storage": "91Gi"})),
            false,
        ),
        (
            "hugepages-1Gi",
            containers(json!({"hugepages-1Gi": "4Gi"})),
            true,
        ),
        (
            "hugepages-1Gi over",
            containers(json!({"hugepages-1Gi": "5Gi"})),
            false,
        ),
        (
            "hugepages-2Mi reported 0",
            containers(json!({"hugepages-2Mi": "2Mi"})),
            false,
        ),
        (
            "efa",
            containers(json!({"vpc.amazonaws.com/efa": "4"})),
            true,
        ),
        (
            "efa over",
            containers(json!({"vpc.amazonaws.com/efa": "5"})),
            false,
        ),
        (
            "rdma the node does not report",
            containers(json!({"rdma/ib": "1"})),
            false,
        ),
        (
            "unknown extended resource",
            containers(json!({"example.com/fpga": "1"})),
            false,
        ),
        ("GPUs", containers(json!({"nvidia.com/gpu": "8"})), true),
        (
            "GPUs over",
            containers(json!({"nvidia.com/gpu": "9"})),
            false,
        ),
        (
            "a second GPU resource",
            containers(json!({"nvidia.com/gpu": "1", "nvidia.com/mig-1g.10gb": "1"})),
            true,
        ),
        (
            "a second GPU resource over",
            containers(json!({"nvidia.com/gpu": "1", "nvidia.com/mig-1g.10gb": "2"})),
            false,
        ),
    ];
    for (what, spec, want) in rows {
        assert_eq!(fits(spec), want, "{what}");
    }
}

#[test]
fn init_containers_sidecars_and_overhead_follow_the_effective_request_gangpack_3_3() {
    let efa = |n: u32| {
        json!({"requests": {"vpc.amazonaws.com/efa": n.to_string()},
                              "limits": {"vpc.amazonaws.com/efa": n.to_string()}})
    };
    let with_init = |init: u32, sidecar: bool, app: u32| {
        let mut c = json!({"name": "init", "resources": efa(init)});
        if sidecar {
            c["restartPolicy"] = "Always".into();
        }
        json!({"initContainers": [c], "containers": [{"name": "main", "resources": efa(app)}]})
    };
    // A regular init container runs before the app: max(3, 2) = 3 ≤ 4.
    assert!(fits(with_init(2, false, 3)));
    // An init container asking more than the node has never starts: max(5, 1) = 5 > 4.
    assert!(!fits(with_init(5, false, 1)));
    // A sidecar stays beside the app: 2 + 3 = 5 > 4.
    assert!(!fits(with_init(2, true, 3)));
    assert!(fits(with_init(1, true, 3)));
    // Overhead adds to the pod's request: 7 + 1 CPUs fit 8, 7 + 2 do not.
    let overhead = |cpu: &str| {
        let mut s = containers(json!({"cpu": "7"}));
        s["overhead"] = json!({"cpu": cpu});
        s
    };
    assert!(fits(overhead("1")));
    assert!(!fits(overhead("2")));
    // Pod-level requests replace the containers' sum.
    let mut pod_level = containers(json!({"cpu": "1"}));
    pod_level["resources"] = json!({"requests": {"cpu": "9"}});
    assert!(!fits(pod_level));
}

#[test]
fn required_node_affinity_terms_are_ored_gangpack_3_3() {
    let term = |key: &str, value: &str| json!({"matchExpressions": [{"key": key, "operator": "In", "values": [value]}]});
    let affinity = |terms: Vec<Value>| {
        let mut s = containers(json!({"cpu": "1"}));
        s["affinity"] = json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                                                 {"nodeSelectorTerms": terms}}});
        s
    };
    assert!(fits(affinity(vec![
        term("zone", "west"),
        term("zone", "east")
    ])));
    assert!(!fits(affinity(vec![
        term("zone", "west"),
        term("ome.io/rack", "b")
    ])));
    // Requirements inside one term are ANDed.
    let both = json!({"matchExpressions": [
        {"key": "zone", "operator": "In", "values": ["east"]},
        {"key": "ome.io/rack", "operator": "In", "values": ["b"]}]});
    assert!(!fits(affinity(vec![both])));
}

#[test]
fn member_room_divides_every_requested_resource_gangpack_3_3_lineage_c() {
    // Two members asking 2 EFA interfaces each share the node's 4; asking 3 each, one fits
    // and the gang of two has no room.
    let efa = |n: u32| containers(json!({"vpc.amazonaws.com/efa": n.to_string()}));
    let none = json!({});
    assert_eq!(
        predict(efa(2), 2, allocatable(), none.clone()),
        (PredictedOutcome::Fits, 2)
    );
    assert_eq!(
        predict(efa(3), 2, allocatable(), none.clone()),
        (PredictedOutcome::NoFit, 0)
    );
    // Hugepages divide the same way: 4Gi of 1Gi pages hold two 2Gi members, not 3Gi ones.
    let pages = |gi: u32| containers(json!({"hugepages-1Gi": format!("{gi}Gi")}));
    assert_eq!(predict(pages(2), 2, allocatable(), none.clone()).1, 2);
    assert_eq!(
        predict(pages(3), 2, allocatable(), none).0,
        PredictedOutcome::NoFit
    );
    // The bound pod's EFA use counts: 4 − 2 leaves room for one 2-interface member.
    let used = json!({"vpc.amazonaws.com/efa": "2"});
    assert_eq!(
        predict(efa(2), 2, allocatable(), used).0,
        PredictedOutcome::NoFit
    );
}
