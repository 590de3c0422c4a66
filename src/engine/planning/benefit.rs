//! The benefit of one planned move (`alfred.md` §6.4 "Benefit/cost"): the pool's weighted
//! fragmentation before minus after, where a move changes only its target and source bins, so
//! the after-value is computed from per-size slot deltas instead of re-scoring the pool.
//!
//! Owns: `PoolProfile`, `move_benefit`. Pure.

use smallvec::{smallvec, SmallVec};

use crate::engine::pools::{frag, Bin};

/// Bins a plan's moves may touch before `after_moves_iter` falls back to a `Vec`.
const FEW_BINS: usize = 8;

/// What the benefit of a move in one pool needs: the observed bins, weights and slots.
#[derive(Debug, Clone, Default)]
pub struct PoolProfile {
    /// Bins by node index (`None` for nodes that are not bins of the pool).
    bins: Vec<Option<Bin>>,
    /// Ladder sizes.
    pub ladder: Vec<u32>,
    /// Weights aligned with `ladder`.
    pub weights: Vec<f64>,
    /// Observed slots aligned with `ladder`.
    pub slots: Vec<u64>,
    /// Observed `TotalFree`.
    pub total_free: u64,
    /// Largest bin capacity.
    pub max_cap: u32,
    /// Bins with `cap == max_cap` and every GPU free.
    pub fully_free: u64,
    /// Observed weighted fragmentation.
    pub observed: f64,
    /// Largest free block on one bin now.
    pub max_free: u32,
}

impl PoolProfile {
    /// Builds the profile from `(node, bin)` pairs and the per-size weights and slots.
    pub fn new(bins: &[(usize, Bin)], ladder: &[u32], weights: &[f64], slots: &[u64]) -> Self {
        let max_cap = bins.iter().map(|(_, b)| b.cap).max().unwrap_or(0);
        let fully_free = bins
            .iter()
            .filter(|(_, b)| b.cap == max_cap && b.free == b.cap)
            .count() as u64;
        let total_free = bins.iter().map(|(_, b)| u64::from(b.free)).sum();
        let observed = ladder
            .iter()
            .zip(slots)
            .zip(weights)
            .map(|((s, n), w)| w * frag(*n, *s, total_free))
            .sum();
        let mut dense = vec![None; bins.iter().map(|(n, _)| n + 1).max().unwrap_or(0)];
        for (n, b) in bins {
            dense[*n] = Some(*b);
        }
        PoolProfile {
            bins: dense,
            ladder: ladder.to_vec(),
            weights: weights.to_vec(),
            slots: slots.to_vec(),
            total_free,
            max_cap,
            fully_free,
            observed,
            max_free: bins.iter().map(|(_, b)| b.free).max().unwrap_or(0),
        }
    }

    /// The bin of node `node`, if it is a bin of the pool.
    pub fn bin(&self, node: usize) -> Option<Bin> {
        self.bins.get(node).copied().flatten()
    }

    fn slot_count(&self, b: Bin, size: u32) -> u64 {
        u64::from(b.free / size)
    }

    fn is_fully_free(&self, b: Bin) -> bool {
        b.cap == self.max_cap && b.free == b.cap
    }

    /// Weighted fragmentation after `moves` `(source node, target node, gpus)`: each move is
    /// subtracted from its target bin (which must have room, else `None`), then each footprint
    /// is added back to its source when the source is a bin (clamped at its capacity).
    pub fn after_moves(&self, moves: &[(usize, usize, u32)]) -> Option<f64> {
        self.after_moves_iter(moves.iter().copied())
    }

    /// `after_moves` over an iterator of moves (walked twice, hence `Clone`).
    pub fn after_moves_iter<I>(&self, moves: I) -> Option<f64>
    where
        I: Iterator<Item = (usize, usize, u32)> + Clone,
    {
        // A move touches a handful of bins: they fit a buffer on the stack.
        let mut few = [(0usize, Bin { free: 0, cap: 0 }); FEW_BINS];
        let mut len = 0;
        let mut fits = true;
        'count: for (source, target, _) in moves.clone() {
            for node in [target, source] {
                if !few[..len].iter().any(|(n, _)| *n == node) {
                    let Some(slot) = few.get_mut(len) else {
                        fits = false;
                        break 'count;
                    };
                    *slot = (node, Bin { free: 0, cap: 0 });
                    len += 1;
                }
            }
        }
        if !fits {
            let changed = self.changed_bins_iter(moves)?;
            return Some(self.weighted_after(&changed));
        }
        let changed = self.apply_moves(moves, &mut few[..len])?;
        Some(self.weighted_after(changed))
    }

    /// `changed_bins_iter` into `slots`, which holds every node the moves touch (values
    /// unset); returns the touched bins in first-touched order.
    fn apply_moves<'s, I>(
        &self,
        moves: I,
        slots: &'s mut [(usize, Bin)],
    ) -> Option<&'s [(usize, Bin)]>
    where
        I: Iterator<Item = (usize, usize, u32)> + Clone,
    {
        let mut len = 0;
        fn entry(
            changed: &mut [(usize, Bin)],
            len: &mut usize,
            node: usize,
            bin: Bin,
        ) -> Option<usize> {
            let pos = match changed[..*len].iter().position(|(n, _)| *n == node) {
                Some(pos) => pos,
                None => {
                    *changed.get_mut(*len)? = (node, bin);
                    *len += 1;
                    *len - 1
                }
            };
            Some(pos)
        }
        for (_, target, gpus) in moves.clone() {
            let pos = entry(slots, &mut len, target, self.bin(target)?)?;
            let bin = &mut slots[pos].1;
            bin.free = bin.free.checked_sub(gpus)?;
        }
        for (source, _, gpus) in moves {
            if let Some(b) = self.bin(source) {
                let pos = entry(slots, &mut len, source, b)?;
                let bin = &mut slots[pos].1;
                bin.free = bin.free.saturating_add(gpus).min(bin.cap);
            }
        }
        Some(&slots[..len])
    }

    /// The bins a set of moves changes, with their free GPUs after the moves (each node once,
    /// in first-touched order; a move touches a handful of bins).
    pub fn changed_bins(&self, moves: &[(usize, usize, u32)]) -> Option<Vec<(usize, Bin)>> {
        self.changed_bins_iter(moves.iter().copied())
    }

    fn changed_bins_iter<I>(&self, moves: I) -> Option<Vec<(usize, Bin)>>
    where
        I: Iterator<Item = (usize, usize, u32)> + Clone,
    {
        let mut changed: Vec<(usize, Bin)> = Vec::with_capacity(4);
        fn entry(changed: &mut Vec<(usize, Bin)>, node: usize, bin: Bin) -> &mut Bin {
            let pos = match changed.iter().position(|(n, _)| *n == node) {
                Some(pos) => pos,
                None => {
                    changed.push((node, bin));
                    changed.len() - 1
                }
            };
            &mut changed[pos].1
        }
        for (_, target, gpus) in moves.clone() {
            let bin = entry(&mut changed, target, self.bin(target)?);
            bin.free = bin.free.checked_sub(gpus)?;
        }
        for (source, _, gpus) in moves {
            if let Some(b) = self.bin(source) {
                let bin = entry(&mut changed, source, b);
                bin.free = bin.free.saturating_add(gpus).min(bin.cap);
            }
        }
        Some(changed)
    }

    fn weighted_after(&self, changed: &[(usize, Bin)]) -> f64 {
        // One walk over the changed bins collects every size's slot delta: each bin's
        // observed state is read once, and bins whose free GPUs did not change are skipped.
        let mut delta: SmallVec<[i64; 8]> = smallvec![0; self.ladder.len()];
        let mut fully_free = self.fully_free as i64;
        for (node, after) in changed {
            let before = self.bin(*node);
            if let Some(before) = before {
                fully_free +=
                    i64::from(self.is_fully_free(*after)) - i64::from(self.is_fully_free(before));
            }
            let before = before.unwrap_or(*after);
            if before.free == after.free {
                continue;
            }
            for (d, size) in delta.iter_mut().zip(&self.ladder) {
                if *size != 0 {
                    *d += self.slot_count(*after, *size) as i64
                        - self.slot_count(before, *size) as i64;
                }
            }
        }
        self.ladder
            .iter()
            .zip(&delta)
            .enumerate()
            .map(|(i, (size, delta))| {
                let slots = if *size == 0 || self.max_cap == 0 {
                    0
                } else if *size <= self.max_cap {
                    (self.slots[i] as i64 + delta).max(0) as u64
                } else {
                    fully_free.max(0) as u64 / u64::from(size.div_ceil(self.max_cap))
                };
                self.weights[i] * frag(slots, *size, self.total_free)
            })
            .sum()
    }
}

#[cfg(test)]
/// `F_before − F_after` for the moves, `None` when a target lacks room or is not a bin.
pub fn move_benefit(profile: &PoolProfile, moves: &[(usize, usize, u32)]) -> Option<f64> {
    profile
        .after_moves(moves)
        .map(|after| profile.observed - after)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pools::{profile, weights};

    #[test]
    fn worked_example_6_5_candidates() {
        // Nodes 0 = A (free 6), 1 = B (free 7), 2 = C (free 0).
        let bins = [
            (0, Bin { free: 6, cap: 8 }),
            (1, Bin { free: 7, cap: 8 }),
            (2, Bin { free: 0, cap: 8 }),
        ];
        let ladder = [1, 2, 4, 8];
        let w = weights(&[3, 0, 0, 8], &[0.1, 0.1, 0.2, 0.6], 0.3);
        let plain: Vec<Bin> = bins.iter().map(|(_, b)| *b).collect();
        let before = profile(&plain, &ladder, &w, 13);
        let p = PoolProfile::new(&bins, &ladder, &w, &before.slots);
        // The instance on B moves to A: after = (A5, B8, C0) → benefit 0.4425 → score 0.2925.
        let b = move_benefit(&p, &[(1, 0, 1)]).unwrap();
        assert!((b - 0.4425).abs() < 5e-5, "{b}");
        assert!((b - 0.15 - 0.2925).abs() < 5e-5);
        // The instance on A moves to B: after (A7, B6) → benefit 0 → score −0.15.
        let a = move_benefit(&p, &[(0, 1, 1)]).unwrap();
        assert!(a.abs() < 1e-12, "{a}");
        // A target without room is not a plan.
        assert_eq!(move_benefit(&p, &[(0, 2, 1)]), None);
    }

    #[test]
    fn many_touched_bins_equal_a_full_rescoring() {
        // Ten bins, five moves touching all of them: more than the stack buffer holds.
        let bins: Vec<(usize, Bin)> = (0..10)
            .map(|n| {
                (
                    n,
                    Bin {
                        free: n as u32 % 4,
                        cap: 8,
                    },
                )
            })
            .collect();
        let ladder = [1, 2, 4, 8];
        let w = weights(&[1, 2, 4, 8], &[0.25; 4], 0.3);
        let plain: Vec<Bin> = bins.iter().map(|(_, b)| *b).collect();
        let total: u64 = plain.iter().map(|b| u64::from(b.free)).sum();
        let before = profile(&plain, &ladder, &w, total);
        let p = PoolProfile::new(&bins, &ladder, &w, &before.slots);
        let moves = [(0, 3, 1), (1, 7, 2), (2, 9, 1), (4, 6, 1), (8, 5, 1)];
        let mut after = plain.clone();
        for (source, target, gpus) in moves {
            after[target].free -= gpus;
            after[source].free = (after[source].free + gpus).min(8);
        }
        let full = profile(&after, &ladder, &w, total).weighted;
        let incremental = p.after_moves(&moves).unwrap();
        assert!(
            (full - incremental).abs() < 1e-12,
            "{full} vs {incremental}"
        );
        assert!(
            (p.after_moves(&moves[..1]).unwrap() - {
                let mut one = plain.clone();
                one[3].free -= 1;
                one[0].free += 1;
                profile(&one, &ladder, &w, total).weighted
            })
            .abs()
                < 1e-12
        );
    }

    #[test]
    fn incremental_equals_full_rescoring() {
        let bins = [
            (0, Bin { free: 3, cap: 8 }),
            (1, Bin { free: 8, cap: 8 }),
            (2, Bin { free: 5, cap: 8 }),
            (3, Bin { free: 1, cap: 4 }),
        ];
        let ladder = [1, 2, 4, 8, 16];
        let w = weights(&[1, 2, 4, 8, 16], &[0.2; 5], 0.3);
        let plain: Vec<Bin> = bins.iter().map(|(_, b)| *b).collect();
        let before = profile(&plain, &ladder, &w, 17);
        let p = PoolProfile::new(&bins, &ladder, &w, &before.slots);
        let after_bins = [
            Bin { free: 6, cap: 8 },
            Bin { free: 8, cap: 8 },
            Bin { free: 2, cap: 8 },
            Bin { free: 1, cap: 4 },
        ];
        let full = profile(&after_bins, &ladder, &w, 17).weighted;
        let incremental = p.after_moves(&[(0, 2, 3)]).unwrap();
        assert!((full - incremental).abs() < 1e-12);
    }
}
