//! One shared `Name` per distinct string, as the live store publishes them: namespaces, label
//! keys and values, owner names and UIDs point at one allocation each, so equal names compare
//! by address (`fast::same`) and hot strings stay in cache. Likewise one shared `OwnerRef` per
//! controller: the pods of one ReplicaSet or InferenceReplica hold one pointer to it, not a
//! copy of its four names each. And one shared `ResourceList` per distinct list of other
//! requests or allocatable: the pods of one workload hold one pointer to theirs.
//!
//! Owns: `Interner`. Used by the cluster converters and by the simulated clusters (which must look
//! like what the live store publishes). Pure.

use std::collections::HashSet;
use std::sync::Arc;

use crate::engine::model::{Name, OwnerRef, ResourceList};

/// Shares repeated strings (namespaces, label keys and values, node names) between objects.
#[derive(Debug, Default)]
pub struct Interner {
    /// Each text once: the table is keyed by the shared `Name` itself (`Arc<str>` borrows as
    /// `str`), so a text is held by one allocation, not a key copy besides it.
    names: HashSet<Name>,
    /// Each controller reference once, keyed by its value (`Arc<T>` borrows as `T`).
    owners: HashSet<Arc<OwnerRef>>,
    /// Each resource list once, keyed by its value.
    resources: HashSet<Arc<ResourceList>>,
}

impl Interner {
    /// The shared copy of `s`.
    pub fn name(&mut self, s: &str) -> Name {
        if let Some(n) = self.names.get(s) {
            return n.clone();
        }
        let n: Name = Arc::from(s);
        self.names.insert(n.clone());
        n
    }

    /// The shared copy of `owner` (its names interned by the caller).
    pub fn owner(&mut self, owner: OwnerRef) -> Arc<OwnerRef> {
        if let Some(o) = self.owners.get(&owner) {
            return o.clone();
        }
        let o = Arc::new(owner);
        self.owners.insert(o.clone());
        o
    }

    /// The shared copy of `list` (its names interned by the caller); `None` when it is empty.
    pub fn resources(&mut self, list: ResourceList) -> Option<Arc<ResourceList>> {
        if list.is_empty() {
            return None;
        }
        if let Some(l) = self.resources.get(&list) {
            return Some(l.clone());
        }
        let l = Arc::new(list);
        self.resources.insert(l.clone());
        Some(l)
    }

    /// The shared copy of an optional string (`None` and `""` both give `None`).
    pub fn opt(&mut self, s: Option<&str>) -> Option<Name> {
        s.filter(|s| !s.is_empty()).map(|s| self.name(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_strings_share_one_allocation() {
        let mut i = Interner::default();
        let a = i.name("team-0");
        let b = i.name(&String::from("team-0"));
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &i.name("team-1")));
        assert_eq!(i.opt(Some("")), None);
        assert_eq!(i.opt(None), None);
        assert!(i.opt(Some("team-0")).is_some_and(|n| Arc::ptr_eq(&n, &a)));
    }

    #[test]
    fn equal_owners_share_one_allocation() {
        let mut i = Interner::default();
        let mut owner = |name: &str, uid: &str| OwnerRef {
            api_version: i.name("apps/v1"),
            kind: i.name("ReplicaSet"),
            name: i.name(name),
            uid: i.name(uid),
        };
        let (a, b, c) = (owner("rs", "u1"), owner("rs", "u1"), owner("rs", "u2"));
        let (a, b, c) = (i.owner(a), i.owner(b), i.owner(c));
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(a.uid.as_ref(), "u1");
    }

    #[test]
    fn equal_resource_lists_share_one_allocation_and_empty_ones_none() {
        let mut i = Interner::default();
        let list = || ResourceList::new(vec![(Arc::from("rdma/ib"), 2)]);
        let a = i.resources(list()).unwrap();
        let b = i.resources(list()).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(i.resources(ResourceList::default()).is_none());
    }
}
