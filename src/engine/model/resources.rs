//! Requests and allocatable of the resources besides CPU, memory, pod slots and a pod's GPU
//! count: ephemeral storage, `hugepages-*`, extended resources (`vpc.amazonaws.com/efa`,
//! `rdma/*`, a second GPU resource, …) by name, as the Kubernetes scheduler's resource fit
//! counts them. Few pods and every node carry some; a pod holds them behind one shared pointer
//! (`Pod::other_requests`), identical lists interned once, so the common pod does not grow.
//!
//! Owns: `ResourceList`, `counts_in_fit`. Pure data.

use crate::engine::model::Name;

/// Amounts by resource name, sorted by name, one entry per name. Amounts are whole units as
/// Kubernetes' `Value()` gives them (bytes for storage and hugepages, devices otherwise).
/// Unknown names are kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ResourceList(Box<[(Name, u64)]>);

impl ResourceList {
    /// The list of `pairs` (any order; a repeated name keeps its last amount).
    pub fn new(mut pairs: Vec<(Name, u64)>) -> Self {
        pairs.reverse();
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        pairs.dedup_by(|later, kept| later.0 == kept.0);
        ResourceList(pairs.into_boxed_slice())
    }

    /// The amount of `name` (0 when absent, as the scheduler reads a resource a node does
    /// not list).
    pub fn get(&self, name: &str) -> u64 {
        self.0
            .binary_search_by(|(n, _)| n.as_ref().cmp(name))
            .map_or(0, |i| self.0[i].1)
    }

    /// Whether `name` is listed.
    pub fn contains(&self, name: &str) -> bool {
        self.0
            .binary_search_by(|(n, _)| n.as_ref().cmp(name))
            .is_ok()
    }

    /// Every `(name, amount)`, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, u64)> + '_ {
        self.0.iter().map(|(n, a)| (n, *a))
    }

    /// Whether nothing is listed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Whether the scheduler's resource fit counts a request of `name` (besides `cpu`, `memory`
/// and the pod-slot check): `ephemeral-storage`, `hugepages-*`, `attachable-volumes-*` and
/// every prefixed name (extended resources such as `nvidia.com/gpu` or `rdma/ib`, and prefixed
/// native ones). An unprefixed name it does not know is kept in the model but not counted
/// (the scheduler ignores it; the API server refuses such a request anyway).
pub fn counts_in_fit(name: &str) -> bool {
    name == "ephemeral-storage"
        || name.starts_with("hugepages-")
        || name.starts_with("attachable-volumes-")
        || (name.contains('/') && !name.starts_with("requests."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_list_is_sorted_by_name_and_reads_absent_names_as_zero() {
        let l = ResourceList::new(vec![
            (Arc::from("rdma/ib"), 2),
            (Arc::from("ephemeral-storage"), 10),
            (Arc::from("rdma/ib"), 4),
        ]);
        let names: Vec<&str> = l.iter().map(|(n, _)| n.as_ref()).collect();
        assert_eq!(names, ["ephemeral-storage", "rdma/ib"]);
        assert_eq!(l.get("rdma/ib"), 4, "the last amount of a repeated name");
        assert_eq!(l.get("vpc.amazonaws.com/efa"), 0);
        assert!(!l.contains("hugepages-2Mi"));
    }

    #[test]
    fn the_fit_counts_storage_hugepages_and_prefixed_names_only() {
        for counted in [
            "ephemeral-storage",
            "hugepages-1Gi",
            "vpc.amazonaws.com/efa",
            "rdma/hca_shared_devices_a",
            "nvidia.com/gpu",
            "attachable-volumes-aws-ebs",
        ] {
            assert!(counts_in_fit(counted), "{counted}");
        }
        for ignored in ["storage", "pods", "cpu"] {
            assert!(!counts_in_fit(ignored), "{ignored}");
        }
    }
}
