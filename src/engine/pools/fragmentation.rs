//! Alfred's fragmentation math (`alfred.md` §6.2): slots, frag(s), demand weights, the
//! first-fit repack ("best"), pending pressure and the pool score.
//!
//! Owns: the pure formulas over bins. Knows nothing of Kubernetes objects.

use crate::engine::fast::small_key_sort::{is_non_decreasing, stable_sort_by_small_key};
use crate::engine::pools::fit::FirstFit;

/// One schedulable bin (a node that could take a new pod) of a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bin {
    /// Free GPUs, whole devices.
    pub free: u32,
    /// Allocatable GPUs (`TotalGPUs`), whole devices.
    pub cap: u32,
}

/// Snaps a GPU count onto the ladder: the smallest size ≥ `gpus`, else the largest size.
/// `ladder` is ascending and non-empty; an empty ladder snaps to `gpus` itself.
pub fn snap(gpus: u32, ladder: &[u32]) -> u32 {
    ladder
        .iter()
        .copied()
        .find(|s| *s >= gpus)
        .or_else(|| ladder.last().copied())
        .unwrap_or(gpus)
}

/// How many size-`size` Instances the bins can seat. Sizes up to the largest bin use
/// `Σ floor(free/size)`; larger sizes use the multi-node rule
/// `floor(fullyFreeMaxCapBins / ceil(size / maxCap))`.
pub fn slots<I>(bins: I, size: u32) -> u64
where
    I: Iterator<Item = Bin> + Clone,
{
    if size == 0 {
        return 0;
    }
    let max_cap = bins.clone().map(|b| b.cap).max().unwrap_or(0);
    if max_cap == 0 {
        return 0;
    }
    if size <= max_cap {
        bins.map(|b| u64::from(b.free / size)).sum()
    } else {
        let fully_free = bins.filter(|b| b.cap == max_cap && b.free == b.cap).count() as u64;
        fully_free / u64::from(size.div_ceil(max_cap))
    }
}

/// `frag(s) = max(0, 1 − slots·s / total_free)`, 0 when `total_free` is 0. `total_free` is
/// always the *observed* free total, also for a repacked distribution.
pub fn frag(slots: u64, size: u32, total_free: u64) -> f64 {
    if total_free == 0 {
        return 0.0;
    }
    (1.0 - (slots as f64) * f64::from(size) / (total_free as f64)).max(0.0)
}

/// Demand weights `w(s) = (1−λ)·share(s) + λ·prior(s)`; `demand[i]` are GPUs at ladder size
/// `i`, `prior` is normalised to sum 1. With no demand the weights sum to λ.
pub fn weights(demand: &[u64], prior: &[f64], lambda: f64) -> Vec<f64> {
    let total: u64 = demand.iter().sum();
    demand
        .iter()
        .zip(prior)
        .map(|(d, p)| {
            let share = if total == 0 {
                0.0
            } else {
                *d as f64 / total as f64
            };
            (1.0 - lambda) * share + lambda * p
        })
        .collect()
}

/// Per-size slots and frag, and the weighted sum `F = Σ w(s)·frag(s)`, over `bins`.
#[derive(Debug, Clone, PartialEq)]
pub struct FragProfile {
    /// `slots(s)` per ladder size.
    pub slots: Vec<u64>,
    /// `frag(s)` per ladder size, unweighted, in [0, 1].
    pub frag: Vec<f64>,
    /// The weighted fragmentation, in [0, Σw].
    pub weighted: f64,
}

/// Computes the profile of `bins` with `weights` aligned to `ladder`.
pub fn profile(bins: &[Bin], ladder: &[u32], weights: &[f64], total_free: u64) -> FragProfile {
    let slots: Vec<u64> = ladder
        .iter()
        .map(|s| slots(bins.iter().copied(), *s))
        .collect();
    let frag: Vec<f64> = slots
        .iter()
        .zip(ladder)
        .map(|(n, s)| frag(*n, *s, total_free))
        .collect();
    let weighted = frag.iter().zip(weights).map(|(f, w)| f * w).sum();
    FragProfile {
        slots,
        frag,
        weighted,
    }
}

#[cfg(test)]
/// A movable pod footprint for the repack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepackItem {
    /// GPUs of the pod (> 0).
    pub gpus: u32,
    /// Index of the bin the pod runs on, `None` when its node is not a bin (excluded node).
    pub home: Option<usize>,
    /// `ns/podName`, the tie-break of the item order.
    pub key: String,
}

#[cfg(test)]
/// The first-fit repack of `alfred.md` §6.2: lift every item off its home bin, sort items by
/// GPUs desc then key, bins by lifted free asc then `names`, place each item in the first bin
/// with room (its own node allowed), and put back what fits nowhere. Returns the repacked bins
/// in the input order.
pub fn repack(bins: &[Bin], names: &[&str], items: &[RepackItem]) -> Vec<Bin> {
    repack_by(
        bins,
        names,
        items,
        |i| (i.gpus, i.home),
        |a, b| a.key.cmp(&b.key),
    )
}

/// `repack` over any item type: `footprint` gives an item's `(gpus, home)`, `key_order`
/// compares two items' keys, and `names` may be any bin order key (e.g. node name ranks).
pub fn repack_by<N: Ord, T>(
    bins: &[Bin],
    names: &[N],
    items: &[T],
    footprint: impl Fn(&T) -> (u32, Option<usize>),
    key_order: impl Fn(&T, &T) -> std::cmp::Ordering,
) -> Vec<Bin> {
    let mut lifted: Vec<Bin> = bins.to_vec();
    for item in items {
        let (gpus, home) = footprint(item);
        if let Some(b) = home.and_then(|h| lifted.get_mut(h)) {
            b.free = b.free.saturating_add(gpus);
        }
    }
    let order = bin_order(&lifted, names);
    let mut position = vec![0usize; order.len()];
    for (pos, bin) in order.iter().enumerate() {
        position[*bin] = pos;
    }
    let item_order = item_order(items, &footprint, &key_order);
    // The fit tree holds, per sorted position, the room an item may use: min(free, cap) bounds
    // both conditions of the first-fit rule (`free ≥ gpus` and `gpus ≤ cap`) in one number.
    let room: Vec<u32> = order
        .iter()
        .map(|i| lifted[*i].free.min(lifted[*i].cap))
        .collect();
    let mut fit = FirstFit::new(&room);
    for item in item_order {
        let (gpus, home) = footprint(item);
        match fit.first_at_least(gpus) {
            Some(pos) => {
                let bin = &mut lifted[order[pos]];
                bin.free -= gpus;
                fit.set(pos, bin.free.min(bin.cap));
            }
            None => {
                if let Some(h) = home.filter(|h| *h < position.len()) {
                    let bin = &mut lifted[h];
                    bin.free = bin.free.saturating_sub(gpus);
                    fit.set(position[h], bin.free.min(bin.cap));
                }
            }
        }
    }
    lifted
}

/// Bins by lifted free GPUs ascending, then `names`. Bins usually arrive in name order; then
/// a stable counting sort by free GPUs alone gives the same order in linear time.
fn bin_order<N: Ord>(lifted: &[Bin], names: &[N]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..lifted.len()).collect();
    let in_name_order = names.len() >= lifted.len() && is_non_decreasing(names.iter());
    if in_name_order {
        stable_sort_by_small_key(&mut order, |b| lifted[*b].free);
    } else {
        order.sort_by(|a, b| {
            lifted[*a]
                .free
                .cmp(&lifted[*b].free)
                .then_with(|| names.get(*a).cmp(&names.get(*b)))
        });
    }
    order
}

/// Items by GPUs descending, then key. A stable sort by GPUs first leaves each GPU class in
/// input order, which is nearly key order (items come workload by workload), so the stable
/// key sort of each class runs in close to linear time; the result equals one stable sort by
/// `(GPUs desc, key)`.
fn item_order<'t, T>(
    items: &'t [T],
    footprint: &impl Fn(&T) -> (u32, Option<usize>),
    key_order: &impl Fn(&T, &T) -> std::cmp::Ordering,
) -> Vec<&'t T> {
    let mut order: Vec<&T> = items.iter().collect();
    let most = order.iter().map(|t| footprint(t).0).max().unwrap_or(0);
    stable_sort_by_small_key(&mut order, |t| most - footprint(t).0);
    for class in order.chunk_by_mut(|a, b| footprint(a).0 == footprint(b).0) {
        class.sort_by(|a, b| key_order(a, b));
    }
    order
}

/// Urgency of one pending pod: `1 − exp(−age/τ)`, age clamped at 0, both in minutes.
pub fn urgency(age_minutes: f64, tau_minutes: f64) -> f64 {
    if tau_minutes <= 0.0 {
        return 0.0;
    }
    1.0 - (-(age_minutes.max(0.0)) / tau_minutes).exp()
}

/// Combines urgencies: `P = 1 − Π(1 − u)`.
pub fn pending_pressure<I: IntoIterator<Item = f64>>(urgencies: I) -> f64 {
    1.0 - urgencies.into_iter().map(|u| 1.0 - u).product::<f64>()
}

/// `S = 1 − (1 − reclaimable)(1 − pressure)`.
pub fn score(reclaimable: f64, pressure: f64) -> f64 {
    1.0 - (1.0 - reclaimable) * (1.0 - pressure)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LADDER: [u32; 4] = [1, 2, 4, 8];
    const PRIOR: [f64; 4] = [0.1, 0.1, 0.2, 0.6];

    fn bins(v: &[(u32, u32)]) -> Vec<Bin> {
        v.iter()
            .map(|(free, cap)| Bin {
                free: *free,
                cap: *cap,
            })
            .collect()
    }

    #[test]
    fn snap_onto_ladder() {
        assert_eq!(snap(1, &LADDER), 1);
        assert_eq!(snap(3, &LADDER), 4);
        assert_eq!(snap(8, &LADDER), 8);
        assert_eq!(snap(16, &LADDER), 8);
    }

    #[test]
    fn multi_node_rule_for_sizes_above_the_largest_node() {
        // Two fully free 8-GPU nodes, one 4-GPU node fully free, one 8-GPU node half free.
        let b = bins(&[(8, 8), (8, 8), (4, 4), (4, 8)]);
        assert_eq!(slots(b.iter().copied(), 16), 1);
        assert_eq!(slots(b.iter().copied(), 24), 0);
        assert_eq!(
            slots(b.iter().copied(), 9),
            1,
            "ceil(9/8) = 2 nodes per Instance"
        );
        assert_eq!(slots(b.iter().copied(), 8), 2);
        assert_eq!(slots(std::iter::empty(), 8), 0);
    }

    #[test]
    fn frag_uses_observed_total() {
        assert_eq!(frag(0, 8, 0), 0.0);
        assert!((frag(6, 2, 13) - (1.0 - 12.0 / 13.0)).abs() < 1e-12);
        assert_eq!(frag(20, 1, 13), 0.0, "clamped at 0");
    }

    #[test]
    fn weights_without_demand_sum_to_lambda() {
        let w = weights(&[0, 0, 0, 0], &PRIOR, 0.3);
        assert!((w.iter().sum::<f64>() - 0.3).abs() < 1e-12);
    }

    #[test]
    fn worked_example_6_5() {
        // Nodes A (free 6), B (free 7), C (free 0), all 8-GPU; demand size1 = 3, size8 = 8.
        let observed = bins(&[(6, 8), (7, 8), (0, 8)]);
        let w = weights(&[3, 0, 0, 8], &PRIOR, 0.3);
        assert!((w[0] - 0.220_909).abs() < 1e-5);
        assert!((w[3] - 0.689_090).abs() < 1e-5);
        let before = profile(&observed, &LADDER, &w, 13);
        assert_eq!(before.slots, vec![13, 6, 2, 0]);
        assert!(
            (before.weighted - 0.7145).abs() < 5e-5,
            "{}",
            before.weighted
        );
        let items: Vec<RepackItem> = [("a1", 0), ("a2", 0), ("b1", 1)]
            .iter()
            .map(|(k, h)| RepackItem {
                gpus: 1,
                home: Some(*h),
                key: format!("ns/{k}"),
            })
            .collect();
        let best_bins = repack(&observed, &["A", "B", "C"], &items);
        assert_eq!(best_bins, bins(&[(5, 8), (8, 8), (0, 8)]));
        let best = profile(&best_bins, &LADDER, &w, 13);
        assert_eq!(best.slots, vec![13, 6, 3, 1]);
        assert!((best.weighted - 0.2720).abs() < 5e-5, "{}", best.weighted);
        let reclaimable = (before.weighted - best.weighted).max(0.0);
        assert!((reclaimable - 0.4425).abs() < 5e-5);
        assert!((score(reclaimable, 0.0) - 0.4425).abs() < 5e-5);
    }

    #[test]
    fn unplaceable_item_returns_home() {
        // A 4-GPU item on a bin; the other bin is smaller than the item.
        let b = bins(&[(0, 4), (2, 2)]);
        let items = [RepackItem {
            gpus: 4,
            home: Some(0),
            key: "ns/p".into(),
        }];
        // Lifted: (4,4), (2,2); sorted asc: bin1 (2), bin0 (4); item fits bin0 (its home).
        assert_eq!(repack(&b, &["a", "b"], &items), b);
        // An item on an excluded node lifts nothing and lands on the fullest bin that fits.
        let off = [RepackItem {
            gpus: 2,
            home: None,
            key: "ns/q".into(),
        }];
        assert_eq!(repack(&b, &["a", "b"], &off), bins(&[(0, 4), (0, 2)]));
    }

    #[test]
    fn pressure_and_urgency() {
        assert_eq!(urgency(-5.0, 30.0), 0.0);
        assert!((urgency(30.0, 30.0) - (1.0 - (-1.0f64).exp())).abs() < 1e-12);
        let p = pending_pressure([0.5, 0.5]);
        assert!((p - 0.75).abs() < 1e-12);
        assert_eq!(pending_pressure(std::iter::empty()), 0.0);
    }
}
