//! Whether the kubelet reports a node ready: its `Ready` condition, and the node controller's
//! `not-ready` / `unreachable` taints. Alfred does not read it (a node whose `Ready` is
//! `Unknown` still counts as free room, spec-faithfully); ome-top shows it beside the numbers.

use crate::engine::model::Node;

/// What the kubelet and the node controller say of a node that is not plainly ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotReady {
    /// `Ready=False`, or the `node.kubernetes.io/not-ready` taint.
    NotReady,
    /// `Ready=Unknown` (the kubelet stopped reporting), or the `node.kubernetes.io/unreachable`
    /// taint.
    Unreachable,
}

impl NotReady {
    /// The operator's word.
    pub fn word(self) -> &'static str {
        match self {
            NotReady::NotReady => "not ready",
            NotReady::Unreachable => "unreachable",
        }
    }
}

/// `None` for a ready node, or one that reports no `Ready` condition (nothing to say).
pub fn not_ready(node: &Node) -> Option<NotReady> {
    let taint = |key: &str| node.taints.iter().any(|t| t.key.as_ref() == key);
    let ready = node
        .conditions
        .iter()
        .find(|c| c.kind.as_ref() == "Ready")
        .map(|c| c.status.as_ref());
    if ready == Some("Unknown") || taint("node.kubernetes.io/unreachable") {
        Some(NotReady::Unreachable)
    } else if ready == Some("False") || taint("node.kubernetes.io/not-ready") {
        Some(NotReady::NotReady)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::node;
    use crate::engine::model::{NodeCondition, Taint};
    use std::sync::Arc;

    fn ready(status: &str) -> NodeCondition {
        NodeCondition {
            kind: Arc::from("Ready"),
            status: Arc::from(status),
            last_transition: None,
        }
    }

    #[test]
    fn ready_condition_and_controller_taints() {
        let mut n = node("a", 8);
        assert_eq!(not_ready(&n), None, "no Ready condition: nothing to say");
        n.conditions = vec![ready("True")];
        assert_eq!(not_ready(&n), None);
        n.conditions = vec![ready("False")];
        assert_eq!(not_ready(&n), Some(NotReady::NotReady));
        n.conditions = vec![ready("Unknown")];
        assert_eq!(not_ready(&n), Some(NotReady::Unreachable));
        n.conditions = vec![ready("True")];
        n.taints = vec![Taint {
            key: Arc::from("node.kubernetes.io/unreachable"),
            value: Arc::from(""),
            effect: Arc::from("NoExecute"),
        }];
        assert_eq!(not_ready(&n), Some(NotReady::Unreachable));
    }
}
