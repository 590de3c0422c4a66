//! Reads a snapshot file: a Kubernetes `List` in JSON or YAML, as
//! `kubectl get nodes,pods,inferenceservices,inferencereplicas,podgroups,configmaps,events -A
//! -o json` prints it, into a `ClusterSnapshot`.
//!
//! Owns: `read_snapshot`, `node_yaml`, `SnapshotError`. Pure over bytes (the caller reads the file); must
//! not import the UI or the app.

use std::collections::BTreeMap;
use std::fmt;

use k8s_openapi::api::core::v1 as core;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::cluster::convert::{self, ConvertError, Interner, Warnings};
use crate::cluster::convert_ome;
use crate::engine::model::ClusterSnapshot;

/// Why a snapshot could not be read (exit code 2 in the CLI).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotError {
    /// Neither JSON nor YAML.
    Syntax(String),
    /// Parsed, but not a `List` with `items`.
    NotAList(String),
    /// One object could not be converted.
    Object(ConvertError),
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Syntax(e) => write!(f, "snapshot is neither JSON nor YAML: {e}"),
            SnapshotError::NotAList(e) => write!(f, "snapshot is not a Kubernetes List: {e}"),
            SnapshotError::Object(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SnapshotError {}

/// ConfigMaps ome-top reads (any namespace): Alfred's, the scheduler's, migration audit ones.
pub fn is_interesting_config_map(name: &str) -> bool {
    matches!(
        name,
        "alfred-config"
            | "alfred-recommendations"
            | "alfred-dispatch-state"
            | "ome-scheduler-config"
    ) || name.ends_with("-ome-migration-audit")
}

/// The snapshot bytes as a JSON tree (JSON first, else YAML).
fn document(bytes: &[u8]) -> Result<Value, SnapshotError> {
    match serde_json::from_slice(bytes) {
        Ok(v) => Ok(v),
        Err(json_err) => read_yaml(bytes).map_err(|yaml_err| {
            SnapshotError::Syntax(format!("JSON: {json_err}; YAML: {yaml_err}"))
        }),
    }
}

/// The core (`v1`) object of `kind` named `name` among `items` (nested Lists too), as the file
/// holds it.
fn find_core<'a>(items: &'a [Value], kind: &str, name: &str) -> Option<&'a Value> {
    items.iter().find_map(|v| {
        let k = v.get("kind").and_then(Value::as_str).unwrap_or_default();
        if k.ends_with("List") {
            return find_core(v.get("items")?.as_array()?, kind, name);
        }
        let core = v.get("apiVersion").and_then(Value::as_str) == Some("v1");
        let named = v.pointer("/metadata/name").and_then(Value::as_str) == Some(name);
        (core && k == kind && named).then_some(v)
    })
}

/// Node `name` of a snapshot file as YAML (what `y` shows offline), or why not in one line.
pub fn node_yaml(bytes: &[u8], name: &str) -> Result<String, String> {
    let doc = document(bytes).map_err(|e| e.to_string())?;
    let items = doc.get("items").and_then(Value::as_array);
    match items.and_then(|items| find_core(items, "Node", name)) {
        Some(node) => crate::cluster::object_yaml::object_yaml(node.clone()),
        None => Err(format!("nodes \"{name}\" not found in the snapshot file")),
    }
}

/// Parses snapshot bytes. Unknown kinds are skipped and reported in the warnings.
pub fn read_snapshot(bytes: &[u8]) -> Result<(ClusterSnapshot, Warnings), SnapshotError> {
    let doc = document(bytes)?;
    let kind = doc.get("kind").and_then(Value::as_str).unwrap_or_default();
    let Some(items) = doc.get("items").and_then(Value::as_array) else {
        let what = if kind.is_empty() {
            "an object without kind"
        } else {
            kind
        };
        return Err(SnapshotError::NotAList(format!(
            "found {what} without an items array"
        )));
    };
    let mut reader = Reader::default();
    reader.snap.replicas_listed = true;
    for (n, item) in items.iter().enumerate() {
        reader.item(n, item).map_err(SnapshotError::Object)?;
    }
    for (kind, count) in &reader.skipped {
        reader
            .warnings
            .push(format!("skipped {count} object(s) of unknown kind {kind}"));
    }
    Ok((reader.snap, reader.warnings))
}

/// A YAML snapshot as a JSON tree (UTF-8 only, as before), read as `engine::formats::go_yaml` reads YAML.
fn read_yaml(bytes: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
    crate::engine::formats::go_yaml::to_json(text)
}

#[derive(Default)]
struct Reader {
    snap: ClusterSnapshot,
    interner: Interner,
    warnings: Warnings,
    skipped: BTreeMap<String, usize>,
}

fn typed<T: DeserializeOwned>(kind: &str, n: usize, v: &Value) -> Result<T, ConvertError> {
    serde_path_to_error::deserialize(v).map_err(|e| ConvertError {
        object: object_name(kind, n, v),
        field: e.path().to_string(),
        message: e.into_inner().to_string(),
    })
}

fn object_name(kind: &str, n: usize, v: &Value) -> String {
    let meta = v.get("metadata");
    let name = meta.and_then(|m| m.get("name")).and_then(Value::as_str);
    let ns = meta
        .and_then(|m| m.get("namespace"))
        .and_then(Value::as_str);
    match (ns, name) {
        (Some(ns), Some(name)) => format!("{kind} {ns}/{name}"),
        (None, Some(name)) => format!("{kind} {name}"),
        _ => format!("{kind} items[{n}]"),
    }
}

impl Reader {
    fn item(&mut self, n: usize, v: &Value) -> Result<(), ConvertError> {
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or_default();
        let api = v
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let group = api.split_once('/').map_or("", |(g, _)| g);
        let i = &mut self.interner;
        let w = &mut self.warnings;
        match (group, kind) {
            ("", "Node") => {
                let node = convert::node(i, &typed::<core::Node>(kind, n, v)?, w)?;
                self.snap.nodes.push(node);
            }
            ("", "Pod") => {
                let pod = convert::pod(i, &typed::<core::Pod>(kind, n, v)?, w)?;
                self.snap.pods.push(pod);
            }
            ("", "ConfigMap") => {
                let cm: core::ConfigMap = typed(kind, n, v)?;
                if cm
                    .metadata
                    .name
                    .as_deref()
                    .is_some_and(is_interesting_config_map)
                {
                    self.snap.config_maps.push(convert::config_map(i, &cm));
                }
            }
            ("", "Event") => {
                let e = convert::event(i, &typed::<core::Event>(kind, n, v)?);
                self.snap.events.push(e);
            }
            ("ome.io", "InferenceService") => self.snap.isvcs.push(convert_ome::isvc(i, v)?),
            ("ome.io", "InferenceReplica") => {
                self.snap.replicas.push(convert_ome::replica(i, v)?);
            }
            ("", "PersistentVolumeClaim") => {
                let pvc = typed::<core::PersistentVolumeClaim>(kind, n, v)?;
                self.snap.volume_claims.push(convert::volume_claim(i, &pvc));
            }
            ("ome.io", "BaseModel" | "ClusterBaseModel") => {
                self.snap.models.push(convert_ome::base_model(i, v)?);
                // A file lists models when it holds any; otherwise they are unknown.
                self.snap.models_listed = true;
            }
            ("scheduling.x-k8s.io", "PodGroup") => {
                self.snap.pod_groups.push(convert_ome::pod_group(i, v)?);
            }
            (_, k) if k.ends_with("List") && v.get("items").is_some() => {
                for (m, inner) in v["items"].as_array().into_iter().flatten().enumerate() {
                    self.item(m, inner)?;
                }
            }
            _ => {
                let label = if kind.is_empty() { "<none>" } else { kind };
                *self.skipped.entry(format!("{label} ({api})")).or_default() += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)] // Tests may fail loudly.

    use super::*;

    const CM: &str = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  \
                      metadata: {name: alfred-config, namespace: ome}\n  data:\n    config.yaml: |\n      \
                      schemaVersion: 1\n      mode: execute";

    #[test]
    fn yaml_snapshots_keep_config_map_text_as_go_yaml_reads_it() {
        // The file ends without a line break, so the block scalar gets none either.
        let (snap, warnings) = read_snapshot(CM.as_bytes()).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let cm = snap.config_map("ome", "alfred-config").unwrap();
        assert_eq!(cm.data["config.yaml"], "schemaVersion: 1\nmode: execute");
        let (snap, _) = read_snapshot(format!("{CM}\n").as_bytes()).unwrap();
        let cm = snap.config_map("ome", "alfred-config").unwrap();
        assert_eq!(cm.data["config.yaml"], "schemaVersion: 1\nmode: execute\n");
    }

    #[test]
    fn a_node_of_the_file_reads_as_yaml_without_managed_fields() {
        let file = r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"List",
            "items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"gpu-1",
            "labels":{"pool":"h100"},"managedFields":[{"manager":"kubelet"}]}}]}]}"#;
        let yaml = node_yaml(file.as_bytes(), "gpu-1").unwrap();
        assert!(yaml.contains("pool: h100"), "{yaml}");
        assert!(!yaml.contains("managedFields"), "{yaml}");
        let missing = node_yaml(file.as_bytes(), "gpu-2").unwrap_err();
        assert_eq!(missing, "nodes \"gpu-2\" not found in the snapshot file");
    }

    #[test]
    fn unreadable_yaml_is_a_one_line_syntax_error() {
        for (bytes, want) in [
            (&b"kind: List\nitems: [\n"[..], "YAML: "),
            (b"kind: List\nitems: !Items []\n", "tagged !Items"),
            (
                b"kind: List\nitems: []\n---\nkind: List\n",
                "more than one YAML document",
            ),
            (b"kind: \xff\n", "invalid utf-8"),
        ] {
            let Err(SnapshotError::Syntax(e)) = read_snapshot(bytes) else {
                panic!("{bytes:?} read");
            };
            assert!(e.contains(want) && e.lines().count() == 1, "{e}");
        }
    }
}
