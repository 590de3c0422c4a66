//! Edits of a snapshot by object key, as a watch event changes a store: a pod or a node put in
//! place of the one with its key, inserted where the key order puts it, or removed. A snapshot
//! in key order (the live store's: pods by `namespace/name`, nodes by name) stays in key order;
//! in any other order the search still decides one position deterministically, so two copies
//! of a snapshot given the same edits stay equal.
//!
//! InferenceServices are edited the same way, by `namespace/name`.
//!
//! Owns: `PodEdit`, `NodeEdit`, `IsvcEdit` and the `ClusterSnapshot` edit methods. Pure data.

use std::sync::Arc;

use crate::engine::fast::PodKey;
use crate::engine::model::{ClusterSnapshot, InferenceService, Node, Pod};

/// What one pod edit did to `ClusterSnapshot::pods`.
#[derive(Debug, Clone, PartialEq)]
pub enum PodEdit {
    /// The pod at `at` was replaced; `old` is the pod that was there.
    Replaced {
        /// Position of the pod (unchanged).
        at: usize,
        /// The replaced pod.
        old: Arc<Pod>,
    },
    /// A pod was inserted at `at`; the pods from `at` on moved one place up.
    Inserted {
        /// Position of the new pod.
        at: usize,
    },
    /// The pod at `at` was removed; the pods after it moved one place down.
    Removed {
        /// Former position of the pod.
        at: usize,
        /// The removed pod.
        old: Arc<Pod>,
    },
    /// No pod had the key of a deletion: nothing changed.
    Absent,
}

/// What one node edit did to `ClusterSnapshot::nodes`.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeEdit {
    /// The node at `at` was replaced by one with the same name.
    Replaced {
        /// Position of the node (unchanged).
        at: usize,
        /// The replaced node.
        old: Node,
    },
    /// A node was inserted at `at`.
    Inserted {
        /// Position of the new node.
        at: usize,
    },
    /// The node at `at` was removed.
    Removed {
        /// Former position of the node.
        at: usize,
        /// The removed node.
        old: Node,
    },
    /// No node had the name of a deletion: nothing changed.
    Absent,
}

/// What one InferenceService edit did to `ClusterSnapshot::isvcs`.
#[derive(Debug, Clone, PartialEq)]
pub enum IsvcEdit {
    /// The service at `at` was replaced by one with the same `namespace/name`.
    Replaced {
        /// Position of the service (unchanged).
        at: usize,
        /// The replaced service.
        old: Box<InferenceService>,
    },
    /// A service was inserted at `at`.
    Inserted {
        /// Position of the new service.
        at: usize,
    },
    /// The service at `at` was removed.
    Removed {
        /// Former position of the service.
        at: usize,
    },
    /// No service had the key of a deletion: nothing changed.
    Absent,
}

impl ClusterSnapshot {
    /// The position of the pod `namespace/name`, or where it would be inserted (`Err`).
    fn pod_position(&self, namespace: &str, name: &str) -> Result<usize, usize> {
        let key = PodKey::of_names(namespace, name);
        let at = self.pods.partition_point(|p| PodKey::of(p) < key);
        match self.pods.get(at) {
            Some(p) if PodKey::of(p) == key => Ok(at),
            _ => Err(at),
        }
    }

    /// Puts `pod` in place of the pod with its `namespace/name`, or inserts it in key order.
    pub fn upsert_pod(&mut self, pod: Arc<Pod>) -> PodEdit {
        match self.pod_position(&pod.namespace, &pod.name) {
            Ok(at) => match self.pods.replace(at, pod) {
                Some(old) => PodEdit::Replaced { at, old },
                None => PodEdit::Absent,
            },
            Err(at) => {
                self.pods.insert(at, pod);
                PodEdit::Inserted { at }
            }
        }
    }

    /// Removes the pod `namespace/name`, if there is one.
    pub fn delete_pod(&mut self, namespace: &str, name: &str) -> PodEdit {
        let Ok(at) = self.pod_position(namespace, name) else {
            return PodEdit::Absent;
        };
        match self.pods.remove(at) {
            Some(old) => PodEdit::Removed { at, old },
            None => PodEdit::Absent,
        }
    }

    /// The position of the node `name`, or where it would be inserted (`Err`).
    fn node_position(&self, name: &str) -> Result<usize, usize> {
        let at = self.nodes.partition_point(|n| n.name.as_ref() < name);
        match self.nodes.get(at) {
            Some(n) if n.name.as_ref() == name => Ok(at),
            _ => Err(at),
        }
    }

    /// Puts `node` in place of the node with its name, or inserts it in name order.
    pub fn upsert_node(&mut self, node: Node) -> NodeEdit {
        match self.node_position(&node.name) {
            Ok(at) => {
                let old = std::mem::replace(&mut self.nodes[at], node);
                NodeEdit::Replaced { at, old }
            }
            Err(at) => {
                self.nodes.insert(at, node);
                NodeEdit::Inserted { at }
            }
        }
    }

    /// Removes the node `name`, if there is one.
    pub fn delete_node(&mut self, name: &str) -> NodeEdit {
        match self.node_position(name) {
            Ok(at) => NodeEdit::Removed {
                at,
                old: self.nodes.remove(at),
            },
            Err(_) => NodeEdit::Absent,
        }
    }
}

impl ClusterSnapshot {
    /// The position of the service `namespace/name`, or where it would be inserted (`Err`),
    /// by the joined `namespace/name` key (the live store's order).
    pub fn isvc_position(&self, namespace: &str, name: &str) -> Result<usize, usize> {
        let key = format!("{namespace}/{name}");
        let at = (self.isvcs).partition_point(|w| w.ns_name().as_ref() < key.as_str());
        match self.isvcs.get(at) {
            Some(w) if w.ns_name().as_ref() == key => Ok(at),
            _ => Err(at),
        }
    }

    /// Puts `isvc` in place of the service with its `namespace/name`, or inserts it in key
    /// order.
    pub fn upsert_isvc(&mut self, isvc: InferenceService) -> IsvcEdit {
        match self.isvc_position(isvc.namespace(), isvc.name()) {
            Ok(at) => {
                let old = std::mem::replace(&mut self.isvcs[at], isvc);
                IsvcEdit::Replaced {
                    at,
                    old: Box::new(old),
                }
            }
            Err(at) => {
                self.isvcs.insert(at, isvc);
                IsvcEdit::Inserted { at }
            }
        }
    }

    /// Removes the service `namespace/name`, if there is one.
    pub fn delete_isvc(&mut self, namespace: &str, name: &str) -> IsvcEdit {
        match self.isvc_position(namespace, name) {
            Ok(at) => {
                self.isvcs.remove(at);
                IsvcEdit::Removed { at }
            }
            Err(_) => IsvcEdit::Absent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::{node, pod};

    #[test]
    fn pods_stay_in_key_order_through_edits() {
        let mut snap = ClusterSnapshot {
            pods: vec![pod("a", "p1", None, 1), pod("b", "p0", None, 1)].into(),
            ..Default::default()
        };
        assert_eq!(
            snap.upsert_pod(Arc::new(pod("a", "p2", None, 2))),
            PodEdit::Inserted { at: 1 }
        );
        // Joined keys decide: '-' sorts before '/', so "a-x/p" comes before "a/p1".
        assert_eq!(
            snap.upsert_pod(Arc::new(pod("a-x", "p", None, 0))),
            PodEdit::Inserted { at: 0 }
        );
        let keys: Vec<String> = snap.pods.iter().map(Pod::key).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        let edit = snap.upsert_pod(Arc::new(pod("a", "p2", Some("n"), 4)));
        assert!(matches!(edit, PodEdit::Replaced { at: 2, ref old } if old.gpus == 2));
        assert_eq!(snap.pods[2].gpus, 4);
        assert!(matches!(
            snap.delete_pod("a", "p1"),
            PodEdit::Removed { at: 1, .. }
        ));
        assert_eq!(snap.delete_pod("a", "p1"), PodEdit::Absent);
        assert_eq!(snap.pods.len(), 3);
    }

    #[test]
    fn isvcs_stay_in_key_order_through_edits() {
        use crate::engine::model::testkit::isvc;
        let mut snap = ClusterSnapshot {
            isvcs: vec![isvc("a", "x"), isvc("b", "x")].into(),
            ..Default::default()
        };
        // Joined keys decide, as for pods: "a-x/p" comes before "a/x".
        assert_eq!(
            snap.upsert_isvc(isvc("a-x", "p")),
            IsvcEdit::Inserted { at: 0 }
        );
        let mut changed = isvc("b", "x");
        changed
            .annotations
            .insert("alfred.ome.io/note".into(), "1".into());
        assert!(matches!(
            snap.upsert_isvc(changed),
            IsvcEdit::Replaced { at: 2, .. }
        ));
        assert_eq!(snap.isvcs[2].annotation("alfred.ome.io/note"), Some("1"));
        assert_eq!(snap.delete_isvc("a", "x"), IsvcEdit::Removed { at: 1 });
        assert_eq!(snap.delete_isvc("a", "x"), IsvcEdit::Absent);
        assert_eq!(snap.isvcs.len(), 2);
    }

    #[test]
    fn nodes_stay_in_name_order_through_edits() {
        let mut snap = ClusterSnapshot {
            nodes: vec![node("a", 8), node("c", 8)].into(),
            ..Default::default()
        };
        assert_eq!(snap.upsert_node(node("b", 4)), NodeEdit::Inserted { at: 1 });
        let edit = snap.upsert_node(node("c", 2));
        assert!(matches!(edit, NodeEdit::Replaced { at: 2, ref old } if old.gpu_allocatable == 8));
        assert!(matches!(
            snap.delete_node("a"),
            NodeEdit::Removed { at: 0, .. }
        ));
        assert_eq!(snap.delete_node("zz"), NodeEdit::Absent);
        let names: Vec<&str> = snap.nodes.iter().map(|n| n.name.as_ref()).collect();
        assert_eq!(names, ["b", "c"]);
    }
}
