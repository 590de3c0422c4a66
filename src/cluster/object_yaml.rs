//! A Kubernetes object as `kubectl get … -o yaml` prints it: `metadata.managedFields` left out
//! (kubectl hides them unless asked) and every mapping's keys in alphabetical order (kubectl's
//! JSON-to-YAML step sorts them, so `apiVersion`, `kind`, `metadata`, `spec`, `status`).
//!
//! Owns: `object_yaml`. Pure over a JSON value.

use serde_json::Value;

/// An object serde-saphyr cannot write (in its words; its error is neither `Clone` nor `Eq`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write YAML: {0}")]
pub struct ObjectYamlError(String);

impl From<ObjectYamlError> for crate::protocol::FetchError {
    fn from(e: ObjectYamlError) -> Self {
        crate::protocol::FetchError::Unwritable(e.0)
    }
}

/// `obj` (a JSON object, as the API server or a snapshot file has it) as YAML text.
pub fn object_yaml(mut obj: Value) -> Result<String, ObjectYamlError> {
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
    }
    obj.sort_all_objects();
    serde_saphyr::to_string(&obj).map_err(|e| ObjectYamlError(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn managed_fields_go_and_keys_sort_as_kubectl_prints_them() {
        let node = json!({
            "kind": "Node",
            "apiVersion": "v1",
            "metadata": {
                "name": "gpu-1",
                "managedFields": [{"manager": "kubelet", "operation": "Update"}],
                "labels": {"z": "1", "a": "two words"},
            },
            "status": {"capacity": {"nvidia.com/gpu": "8"}},
            "spec": {"taints": [{"key": "k", "effect": "NoSchedule"}]},
        });
        let yaml = object_yaml(node).unwrap();
        assert!(!yaml.contains("managedFields"), "{yaml}");
        assert!(!yaml.contains("kubelet"), "{yaml}");
        let order: Vec<usize> = ["apiVersion:", "kind:", "metadata:", "spec:", "status:"]
            .iter()
            .map(|k| yaml.find(k).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{yaml}");
        assert!(yaml.find("a: two words").unwrap() < yaml.find("z:").unwrap());
        let back: Value = serde_saphyr::from_str(&yaml).unwrap();
        assert_eq!(back["metadata"]["labels"]["z"], "1");
        assert_eq!(back["status"]["capacity"]["nvidia.com/gpu"], "8");
        assert_eq!(back["spec"]["taints"][0]["effect"], "NoSchedule");
    }
}
