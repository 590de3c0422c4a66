//! Whether the default scheduler still places new pods on a node, whatever Alfred's health
//! says of it: an Unhealthy node that nobody cordoned or tainted keeps receiving pods (Alfred
//! only stops targeting it and evacuates it), which the pool map and the uncordon dialog say.
//!
//! Owns: `takes_new_pods`. Pure.

use crate::engine::model::Node;

/// `true` unless the node is cordoned or carries a `NoSchedule` / `NoExecute` taint other than
/// its own GPU resource's (GPU pods tolerate that one as a matter of course, so it keeps no
/// GPU pod away).
pub fn takes_new_pods(node: &Node) -> bool {
    let gpu = node.gpu_resource.as_deref();
    let blocking = node.taints.iter().any(|t| {
        matches!(t.effect.as_ref(), "NoSchedule" | "NoExecute") && Some(t.key.as_ref()) != gpu
    });
    !node.unschedulable && !blocking
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::model::testkit::node;
    use crate::engine::model::Taint;

    fn taint(key: &str, effect: &str) -> Taint {
        Taint {
            key: Arc::from(key),
            value: Arc::from(""),
            effect: Arc::from(effect),
        }
    }

    #[test]
    fn a_cordon_or_a_blocking_taint_stops_new_pods() {
        let open = node("gpu-a", 8);
        assert!(takes_new_pods(&open));
        let mut cordoned = open.clone();
        cordoned.unschedulable = true;
        assert!(!takes_new_pods(&cordoned));
        for effect in ["NoSchedule", "NoExecute"] {
            let mut tainted = open.clone();
            tainted.taints = vec![taint("gpu.example/unhealthy", effect)];
            assert!(!takes_new_pods(&tainted), "{effect}");
        }
    }

    #[test]
    fn the_gpu_taint_and_soft_taints_keep_it_open() {
        let mut n = node("gpu-a", 8);
        n.taints = vec![
            taint("nvidia.com/gpu", "NoSchedule"),
            taint("gpu.example/flaky", "PreferNoSchedule"),
        ];
        assert!(takes_new_pods(&n));
    }
}
