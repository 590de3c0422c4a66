//! A demo node as the Kubernetes Node object it stands for, in YAML: what `y` shows in the demo
//! (the live cluster layer GETs the real object instead). Only what the compact model holds:
//! metadata, labels, taints, cordon, capacity, allocatable and conditions; quantities written
//! as the kubelet writes them (`96`, `1073741824Ki`), keys in kubectl's alphabetical order.
//!
//! Pure.

use chrono::SecondsFormat;
use serde_json::{json, Map, Value};

use crate::engine::model::{Allocatable, Node, Time, UNREPORTED};
use crate::protocol::FetchError;
use crate::sim::demo::DemoWorld;

fn time(t: Time) -> Value {
    json!(t.to_rfc3339_opts(SecondsFormat::Secs, true))
}

/// A CPU quantity from millicores: whole cores when it is a whole number of them.
fn cpu(milli: u64) -> String {
    if milli.is_multiple_of(1000) {
        (milli / 1000).to_string()
    } else {
        format!("{milli}m")
    }
}

/// A memory quantity from bytes: kibibytes as the kubelet reports them when they divide.
fn memory(bytes: u64) -> String {
    if bytes.is_multiple_of(1024) {
        format!("{}Ki", bytes / 1024)
    } else {
        bytes.to_string()
    }
}

fn resources(r: &Allocatable, gpu: Option<(&str, u32)>) -> Value {
    let mut m = Map::new();
    let mut put = |k: &str, v: u64, text: fn(u64) -> String| {
        if v != UNREPORTED {
            m.insert(k.into(), json!(text(v)));
        }
    };
    put("cpu", r.cpu_milli, cpu);
    put("memory", r.memory, memory);
    put("pods", r.pods, |p| p.to_string());
    if let Some((name, count)) = gpu {
        m.insert(name.into(), json!(count.to_string()));
    }
    Value::Object(m)
}

/// `node` as a Kubernetes Node object.
pub fn node_object(node: &Node) -> Value {
    let mut meta = Map::new();
    meta.insert("name".into(), json!(node.name.as_ref()));
    meta.insert("uid".into(), json!(node.uid.as_ref()));
    meta.insert(
        "resourceVersion".into(),
        json!(node.resource_version.as_ref()),
    );
    if let Some(t) = node.created {
        meta.insert("creationTimestamp".into(), time(t));
    }
    let labels: Map<String, Value> = node
        .labels
        .0
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v.as_ref())))
        .collect();
    meta.insert("labels".into(), Value::Object(labels));
    let mut spec = Map::new();
    if node.unschedulable {
        spec.insert("unschedulable".into(), json!(true));
    }
    if !node.taints.is_empty() {
        let taints = node.taints.iter().map(|t| {
            let mut m = Map::new();
            m.insert("key".into(), json!(t.key.as_ref()));
            if !t.value.is_empty() {
                m.insert("value".into(), json!(t.value.as_ref()));
            }
            m.insert("effect".into(), json!(t.effect.as_ref()));
            Value::Object(m)
        });
        spec.insert("taints".into(), Value::Array(taints.collect()));
    }
    let conditions: Vec<Value> = node
        .conditions
        .iter()
        .map(|c| {
            let mut m = Map::new();
            m.insert("type".into(), json!(c.kind.as_ref()));
            m.insert("status".into(), json!(c.status.as_ref()));
            if let Some(t) = c.last_transition {
                m.insert("lastTransitionTime".into(), time(t));
            }
            Value::Object(m)
        })
        .collect();
    let gpu = node.gpu_resource.as_deref();
    let status = json!({
        "capacity": resources(&node.capacity, gpu.map(|g| (g, node.gpu_capacity))),
        "allocatable": resources(&node.allocatable, gpu.map(|g| (g, node.gpu_allocatable))),
        "conditions": conditions,
    });
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": meta,
        "spec": spec,
        "status": status,
    })
}

impl DemoWorld {
    /// The node `name` as YAML, or why not (no such node).
    pub fn node_yaml(&self, name: &str) -> Result<String, FetchError> {
        let node = self.snap.nodes.iter().find(|n| n.name.as_ref() == name);
        let Some(node) = node else {
            return Err(FetchError::NotFound {
                name: name.to_string(),
                place: "",
            });
        };
        let mut obj = node_object(node);
        obj.sort_all_objects();
        serde_saphyr::to_string(&obj).map_err(|e| FetchError::Unwritable(e.to_string()))
    }
}
