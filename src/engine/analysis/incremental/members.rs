//! Which components have demand or repack pods in each pool, so that rescoring one pool walks
//! the pods of the components there, in the order the full analysis walks them (component
//! after component), rather than every component's pods.
//!
//! Invariant: a component is listed under every pool one of its demand or repack pods sits
//! in. It holds by construction: a component's pools are set again from its own lists each
//! time it is rebuilt, and every pod edit rebuilds the components the pod feeds (a pod that
//! moves to another node is such an edit); a node's pool never changes between full analyses.
//!
//! Owns: `PoolMembers`. Pure.

use smallvec::SmallVec;

/// The pools of one component, ascending and distinct.
pub type ComponentPools = SmallVec<[usize; 2]>;

/// See the module doc.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PoolMembers {
    /// Per pool: the components with a demand or repack pod there, ascending.
    by_pool: Vec<Vec<usize>>,
    /// Per component: its pools.
    by_component: Vec<ComponentPools>,
}

impl PoolMembers {
    /// No component in any of `pools` pools yet; room for `components` components.
    pub fn new(pools: usize, components: usize) -> Self {
        PoolMembers {
            by_pool: vec![Vec::new(); pools],
            by_component: vec![ComponentPools::new(); components],
        }
    }

    /// Component `c` now has pods in `pools` (any order, repeats allowed) and no other pool.
    pub fn set(&mut self, c: usize, mut pools: ComponentPools) {
        pools.sort_unstable();
        pools.dedup();
        pools.retain(|q| *q < self.by_pool.len());
        let Some(old) = self.by_component.get_mut(c) else {
            return;
        };
        if *old == pools {
            return;
        }
        let old = std::mem::replace(old, pools.clone());
        for q in old.iter().filter(|q| !pools.contains(q)) {
            let list = &mut self.by_pool[*q];
            if let Ok(at) = list.binary_search(&c) {
                list.remove(at);
            }
        }
        for q in pools.iter().filter(|q| !old.contains(q)) {
            let list = &mut self.by_pool[*q];
            if let Err(at) = list.binary_search(&c) {
                list.insert(at, c);
            }
        }
    }

    /// The components with pods in pool `q`, ascending.
    pub fn of_pool(&self, q: usize) -> &[usize] {
        self.by_pool.get(q).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smallvec::smallvec;

    #[test]
    fn components_are_listed_under_their_pools_in_order() {
        let mut m = PoolMembers::new(3, 4);
        m.set(2, smallvec![1, 0, 1]);
        m.set(0, smallvec![1]);
        m.set(3, smallvec![2, 9]);
        assert_eq!(
            (m.of_pool(0), m.of_pool(1), m.of_pool(2)),
            (&[2][..], &[0, 2][..], &[3][..])
        );
        m.set(2, smallvec![2]);
        assert_eq!(
            (m.of_pool(0), m.of_pool(1), m.of_pool(2)),
            (&[][..], &[0][..], &[2, 3][..])
        );
        m.set(0, smallvec![]);
        m.set(7, smallvec![0]);
        assert_eq!((m.of_pool(1), m.of_pool(5)), (&[][..], &[][..]));
    }
}
