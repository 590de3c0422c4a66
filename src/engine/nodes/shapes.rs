//! Pools as operators name them (`alfred.md` §9, newer Alfred versions): an unlabelled node
//! (no `nvidia.com/gpu.product`) adopts the product that the product-labelled nodes of its
//! instance-type shape agree on, so one node shape never splits into a pool named by the
//! product and one named by the shape table when only some of its nodes carry GPU feature
//! discovery's label.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::model::{Labels, Node};
use crate::engine::nodes::gpus::{
    BETA_INSTANCE_TYPE_LABEL, GPU_PRODUCT_LABEL, INSTANCE_TYPE_LABEL,
};

/// The node's instance-type shape: its instance-type label, else the legacy one (non-empty).
pub fn shape_of(labels: &Labels) -> Option<&str> {
    let get = |k: &str| labels.get(k).filter(|v| !v.is_empty());
    get(INSTANCE_TYPE_LABEL).or_else(|| get(BETA_INSTANCE_TYPE_LABEL))
}

/// The non-empty GPU product label of a node.
pub fn product_of(labels: &Labels) -> Option<&str> {
    labels.get(GPU_PRODUCT_LABEL).filter(|v| !v.is_empty())
}

/// Whether two versions of a node have the same pool inputs: product, shape and GPU resource.
pub fn same_pool_inputs(a: &Node, b: &Node) -> bool {
    product_of(&a.labels) == product_of(&b.labels)
        && shape_of(&a.labels) == shape_of(&b.labels)
        && a.gpu_resource == b.gpu_resource
}

/// Per shape, the product its labelled GPU nodes agree on (`None`: they disagree).
#[derive(Debug, Default)]
pub struct ShapeProducts<'a> {
    by_shape: HashMap<&'a str, Option<&'a str>>,
}

impl<'a> ShapeProducts<'a> {
    /// Reads the shapes and products of `nodes` (nothing when no node could adopt one: every
    /// GPU node labelled, or none with a shape).
    pub fn new(nodes: &'a [Node]) -> Self {
        let could_adopt = |n: &Node| {
            n.gpu_resource.is_some()
                && product_of(&n.labels).is_none()
                && shape_of(&n.labels).is_some()
        };
        if !nodes.iter().any(could_adopt) {
            return ShapeProducts::default();
        }
        let mut by_shape: HashMap<&'a str, Option<&'a str>> = HashMap::default();
        for n in nodes {
            let (Some(shape), Some(product)) = (shape_of(&n.labels), product_of(&n.labels)) else {
                continue;
            };
            by_shape
                .entry(shape)
                .and_modify(|agreed| {
                    if *agreed != Some(product) {
                        *agreed = None;
                    }
                })
                .or_insert(Some(product));
        }
        ShapeProducts { by_shape }
    }

    /// The product an unlabelled GPU node adopts from its shape group, if the group agrees on
    /// one; `None` for a labelled node, a node without GPUs or shape, or a group that
    /// disagrees.
    pub fn adopted(&self, node: &Node) -> Option<&'a str> {
        if product_of(&node.labels).is_some() || node.gpu_resource.is_none() {
            return None;
        }
        self.by_shape
            .get(shape_of(&node.labels)?)
            .copied()
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::node;
    use std::sync::Arc;

    fn with(mut n: Node, pairs: &[(&str, &str)]) -> Node {
        let mut all: Vec<(Arc<str>, Arc<str>)> = Vec::new();
        for (k, v) in pairs {
            all.push((Arc::from(*k), Arc::from(*v)));
        }
        n.labels = Labels::from_pairs(all);
        n
    }

    #[test]
    fn an_unlabelled_node_adopts_the_product_its_shape_agrees_on() {
        let shape = (INSTANCE_TYPE_LABEL, "BM.GPU.H100.8");
        let product = (GPU_PRODUCT_LABEL, "NVIDIA-H100-80GB-HBM3");
        let nodes = vec![
            with(node("a", 8), &[shape, product]),
            with(node("b", 8), &[shape]),
            with(node("c", 8), &[(INSTANCE_TYPE_LABEL, "BM.GPU4.8")]),
        ];
        let products = ShapeProducts::new(&nodes);
        assert_eq!(products.adopted(&nodes[1]), Some("NVIDIA-H100-80GB-HBM3"));
        assert_eq!(products.adopted(&nodes[0]), None, "labelled: its own label");
        assert_eq!(
            products.adopted(&nodes[2]),
            None,
            "no labelled node of its shape"
        );
    }

    #[test]
    fn a_shape_whose_labelled_nodes_disagree_adopts_nothing() {
        let shape = (INSTANCE_TYPE_LABEL, "p5.48xlarge");
        let nodes = vec![
            with(
                node("a", 8),
                &[shape, (GPU_PRODUCT_LABEL, "NVIDIA-H100-80GB-HBM3")],
            ),
            with(
                node("b", 8),
                &[shape, (GPU_PRODUCT_LABEL, "NVIDIA-H100-SXM")],
            ),
            with(node("c", 8), &[shape]),
        ];
        assert_eq!(ShapeProducts::new(&nodes).adopted(&nodes[2]), None);
    }
}
