//! Where each component's Instances sit in a decision pass's flat per-Instance lists (facts,
//! verdicts): every component's, in component order, for the whole pass; only the listed
//! components', for the rows of a few (`PlanContext::for_components`), so that a context for
//! one component costs what that component has, not what the fleet has.
//!
//! Owns: `Layout`, `Focus`. Pure.

/// The components a context is built for, with what the caller already keeps of the fleet.
#[derive(Debug, Clone, Copy)]
pub struct Focus<'a> {
    /// The components whose rows are wanted: ascending and distinct.
    pub components: &'a [usize],
    /// The pool (index into the pool reports) of each node, aligned with the snapshot's
    /// nodes: the membership the pool reports were built from.
    pub node_pool: &'a [Option<usize>],
}

/// See the module doc.
#[derive(Debug, Clone)]
pub enum Layout {
    /// Every component: where each starts, plus the end.
    Every(Vec<usize>),
    /// Only `components` (ascending, distinct): where each starts, plus the end.
    Listed {
        /// The components laid out.
        components: Vec<usize>,
        /// Start of each, plus the end.
        starts: Vec<usize>,
    },
}

impl Layout {
    /// Every one of `count` components, or only the `listed` ones (any out of range or
    /// repeated dropped, so the list is ascending and distinct whatever the caller passed);
    /// `instances(c)` is component `c`'s Instance count.
    pub fn new(count: usize, instances: impl Fn(usize) -> usize, listed: Option<&[usize]>) -> Self {
        let Some(listed) = listed else {
            return Layout::Every(starts(0..count, instances));
        };
        let mut components: Vec<usize> = listed.iter().copied().filter(|&c| c < count).collect();
        components.sort_unstable();
        components.dedup();
        let starts = starts(components.iter().copied(), instances);
        Layout::Listed { components, starts }
    }

    /// The range of component `c`'s Instances, if it is laid out.
    pub fn range(&self, c: usize) -> Option<(usize, usize)> {
        match self {
            Layout::Every(offsets) => Some((*offsets.get(c)?, *offsets.get(c + 1)?)),
            Layout::Listed { components, starts } => {
                let k = components.binary_search(&c).ok()?;
                Some((*starts.get(k)?, *starts.get(k + 1)?))
            }
        }
    }

    /// The number of Instances laid out.
    pub fn total(&self) -> usize {
        let ends = match self {
            Layout::Every(offsets) => offsets,
            Layout::Listed { starts, .. } => starts,
        };
        ends.last().copied().unwrap_or(0)
    }

    /// The components laid out, ascending (`count` components in all when every one is).
    pub fn components(&self, count: usize) -> Box<dyn Iterator<Item = usize> + '_> {
        match self {
            Layout::Every(_) => Box::new(0..count),
            Layout::Listed { components, .. } => Box::new(components.iter().copied()),
        }
    }
}

/// Where each of `components` starts when laid out one after another, plus the end.
fn starts(
    components: impl ExactSizeIterator<Item = usize>,
    instances: impl Fn(usize) -> usize,
) -> Vec<usize> {
    let mut out = Vec::with_capacity(components.len() + 1);
    out.push(0);
    let mut at = 0;
    for c in components {
        at += instances(c);
        out.push(at);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(sizes: &[usize], listed: Option<&[usize]>) -> Layout {
        Layout::new(sizes.len(), |c| sizes[c], listed)
    }

    #[test]
    fn every_component_is_laid_out_in_order() {
        let l = layout(&[2, 0, 3], None);
        assert_eq!(l.range(0), Some((0, 2)));
        assert_eq!(l.range(1), Some((2, 2)));
        assert_eq!(l.range(2), Some((2, 5)));
        assert_eq!(l.range(3), None);
        assert_eq!(l.total(), 5);
        assert_eq!(l.components(3).collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    #[test]
    fn listed_components_are_sorted_deduplicated_and_bounded() {
        let l = layout(&[2, 1, 3], Some(&[2, 0, 2, 7]));
        assert_eq!(l.range(0), Some((0, 2)));
        assert_eq!(l.range(1), None);
        assert_eq!(l.range(2), Some((2, 5)));
        assert_eq!(l.total(), 5);
        assert_eq!(l.range(7), None);
        assert_eq!(l.components(3).collect::<Vec<_>>(), vec![0, 2]);
    }
}
