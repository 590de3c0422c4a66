//! Many short pod lists in one allocation: list `k` is `pods[starts[k]..starts[k + 1]]`.
//! Renumbering every pod after an insertion or removal is then one pass over one array (the
//! per-component lists of a large fleet hold tens of thousands of pods in thousands of lists,
//! and separate allocations cost a cache miss each).
//!
//! Owns: `FlatLists`. Pure.

/// See the module doc.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlatLists {
    /// Where each list starts in `pods`, plus the end.
    starts: Vec<usize>,
    /// Every list's pods, list after list.
    pods: Vec<usize>,
}

impl FlatLists {
    /// Lists from `(list, pod)` pairs, each list in the order its pairs come.
    pub fn from_pairs(count: usize, pairs: &[(usize, usize)]) -> Self {
        let mut starts = vec![0usize; count + 1];
        for (k, _) in pairs.iter().filter(|(k, _)| *k < count) {
            starts[k + 1] += 1;
        }
        for k in 0..count {
            starts[k + 1] += starts[k];
        }
        let mut fill = starts.clone();
        let mut pods = vec![0; starts[count]];
        for (k, p) in pairs.iter().filter(|(k, _)| *k < count) {
            pods[fill[*k]] = *p;
            fill[*k] += 1;
        }
        FlatLists { starts, pods }
    }

    /// Number of lists.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// List `k` (empty past the end).
    pub fn get(&self, k: usize) -> &[usize] {
        match (self.starts.get(k), self.starts.get(k + 1)) {
            (Some(a), Some(b)) => &self.pods[*a..*b],
            _ => &[],
        }
    }

    /// Replaces list `k` by `list`.
    pub fn replace(&mut self, k: usize, list: Vec<usize>) {
        let (Some(&a), Some(&b)) = (self.starts.get(k), self.starts.get(k + 1)) else {
            return;
        };
        let grown = list.len() as isize - (b - a) as isize;
        self.pods.splice(a..b, list);
        self.shift_starts(k + 1, grown);
    }

    /// Puts pod `p` into list `k` (ascending), unless it is there.
    pub fn insert_sorted(&mut self, k: usize, p: usize) {
        let Some(&a) = self.starts.get(k) else {
            return;
        };
        let list = self.get(k);
        if let Err(at) = list.binary_search(&p) {
            self.pods.insert(a + at, p);
            self.shift_starts(k + 1, 1);
        }
    }

    /// Takes pod `p` out of list `k` (ascending), if it is there.
    pub fn remove_sorted(&mut self, k: usize, p: usize) {
        let Some(&a) = self.starts.get(k) else {
            return;
        };
        if let Ok(at) = self.get(k).binary_search(&p) {
            self.pods.remove(a + at);
            self.shift_starts(k + 1, -1);
        }
    }

    /// Applies `f` to every pod of every list (`f` must keep each list's order).
    pub fn renumber(&mut self, f: &dyn Fn(usize) -> usize) {
        for p in &mut self.pods {
            *p = f(*p);
        }
    }

    fn shift_starts(&mut self, from: usize, by: isize) {
        for s in self.starts.iter_mut().skip(from) {
            *s = s.saturating_add_signed(by);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_keep_every_list_apart() {
        let mut l = FlatLists::from_pairs(3, &[(2, 9), (0, 1), (2, 4), (0, 3)]);
        assert_eq!(
            (l.get(0), l.get(1), l.get(2)),
            (&[1, 3][..], &[][..], &[9, 4][..])
        );
        l.insert_sorted(1, 5);
        l.insert_sorted(0, 2);
        l.insert_sorted(0, 2);
        assert_eq!((l.get(0), l.get(1)), (&[1, 2, 3][..], &[5][..]));
        l.remove_sorted(0, 1);
        l.remove_sorted(0, 7);
        l.replace(2, vec![6]);
        assert_eq!(
            (l.get(0), l.get(1), l.get(2)),
            (&[2, 3][..], &[5][..], &[6][..])
        );
        l.renumber(&|p| p * 10);
        assert_eq!(
            (l.get(0), l.get(1), l.get(2)),
            (&[20, 30][..], &[50][..], &[60][..])
        );
        assert_eq!((l.len(), l.get(3)), (3, &[][..]));
    }
}
