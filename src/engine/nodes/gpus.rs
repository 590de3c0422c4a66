//! GPU resources and pools (`alfred.md` §9): which resource names count as GPUs, and the pool
//! key of a node from `nvidia.com/gpu.product` or its instance-type shape.
//!
//! Owns: GPU resource recognition and pool keys. Pure.

use crate::engine::model::Labels;
use crate::engine::nodes::shape_table::ShapeTable;

/// Label carrying the GPU product, the first source of the pool key.
pub const GPU_PRODUCT_LABEL: &str = "nvidia.com/gpu.product";
/// Instance-type label, the second source of the pool key.
pub const INSTANCE_TYPE_LABEL: &str = "node.kubernetes.io/instance-type";
/// Legacy instance-type label, the fallback of [`INSTANCE_TYPE_LABEL`].
pub const BETA_INSTANCE_TYPE_LABEL: &str = "beta.kubernetes.io/instance-type";

/// Whether a resource name is a GPU resource: exact `nvidia.com/gpu`, `amd.com/gpu`,
/// `habana.ai/gaudi` (the Gaudi guide's accelerator), or prefixes `nvidia.com/mig-` and
/// `gpu.intel.com/` except names containing `memory`.
pub fn is_gpu_resource(name: &str) -> bool {
    match name {
        "nvidia.com/gpu" | "amd.com/gpu" | "habana.ai/gaudi" => true,
        _ => {
            (name.starts_with("nvidia.com/mig-") || name.starts_with("gpu.intel.com/"))
                && !name.contains("memory")
        }
    }
}

#[cfg(test)]
/// The pool key of a node (`GPUPoolForNode`): the product label if non-empty, else the mapped
/// instance type, else the GPU resource name. `None` for a node with no GPU resource and no
/// product label (not a GPU node).
pub fn pool_key(labels: &Labels, gpu_resource: Option<&str>) -> Option<String> {
    pool_key_str(labels, gpu_resource, &ShapeTable::default()).map(str::to_string)
}

/// `pool_key` with shape table `table`, without allocating: the key borrows the labels, the
/// table or the resource.
pub fn pool_key_str<'a>(
    labels: &'a Labels,
    gpu_resource: Option<&'a str>,
    table: &'a ShapeTable,
) -> Option<&'a str> {
    if let Some(product) = labels.get(GPU_PRODUCT_LABEL).filter(|p| !p.is_empty()) {
        return Some(product);
    }
    gpu_resource?;
    let shape = labels
        .get(INSTANCE_TYPE_LABEL)
        .filter(|s| !s.is_empty())
        .or_else(|| {
            labels
                .get(BETA_INSTANCE_TYPE_LABEL)
                .filter(|s| !s.is_empty())
        });
    match shape {
        Some(shape) => Some(table.product(shape)),
        None => gpu_resource,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        Labels::from_pairs(
            pairs
                .iter()
                .map(|(k, v)| (Arc::from(*k), Arc::from(*v)))
                .collect(),
        )
    }

    #[test]
    fn recognises_gpu_resources() {
        for yes in [
            "nvidia.com/gpu",
            "amd.com/gpu",
            "habana.ai/gaudi",
            "nvidia.com/mig-1g.10gb",
            "gpu.intel.com/i915",
        ] {
            assert!(is_gpu_resource(yes), "{yes}");
        }
        for no in [
            "cpu",
            "memory",
            "gpu.intel.com/memory.max",
            "nvidia.com/gpu.shared",
            "google.com/tpu",
        ] {
            assert!(!is_gpu_resource(no), "{no}");
        }
    }

    #[test]
    fn pool_key_precedence() {
        let product = labels(&[
            (GPU_PRODUCT_LABEL, "NVIDIA-H100-80GB-HBM3"),
            (INSTANCE_TYPE_LABEL, "BM.GPU4.8"),
        ]);
        assert_eq!(
            pool_key(&product, Some("nvidia.com/gpu")).as_deref(),
            Some("NVIDIA-H100-80GB-HBM3")
        );
        let shape = labels(&[(INSTANCE_TYPE_LABEL, "BM.GPU4.8")]);
        assert_eq!(
            pool_key(&shape, Some("nvidia.com/gpu")).as_deref(),
            Some("A100-40G")
        );
        let beta = labels(&[(BETA_INSTANCE_TYPE_LABEL, "p5.48xlarge")]);
        assert_eq!(
            pool_key(&beta, Some("nvidia.com/gpu")).as_deref(),
            Some("H100")
        );
        let unknown = labels(&[(INSTANCE_TYPE_LABEL, "custom-8gpu")]);
        assert_eq!(
            pool_key(&unknown, Some("nvidia.com/gpu")).as_deref(),
            Some("custom-8gpu")
        );
        let bare = labels(&[]);
        assert_eq!(
            pool_key(&bare, Some("habana.ai/gaudi")).as_deref(),
            Some("habana.ai/gaudi")
        );
        assert_eq!(pool_key(&bare, None), None);
    }

    #[test]
    fn every_shape_maps() {
        assert_eq!(
            ShapeTable::default().product("BM.GPU.A100-v2.8"),
            "A100-80G"
        );
        assert_eq!(ShapeTable::default().product("gpu-l40s"), "L40S");
        assert_eq!(ShapeTable::default().product("gd-8xl40-i128"), "L40");
        assert_eq!(ShapeTable::default().product("BM.GPU.B200.8"), "B200");
        assert_eq!(ShapeTable::default().product("gd-8xh200ib-i128"), "H200");
        assert_eq!(ShapeTable::default().product("BM.GPU.A10.4"), "A10");
    }
}
