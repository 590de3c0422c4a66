//! kube-scheduler's `NodeResourcesFit` MostAllocated score and the Gaudi guide's bin-packing
//! profile built on it (MostAllocated on `habana.ai/gaudi` weight 100 and `hugepages-2Mi`
//! weight 5), which the small-pods lint uses to name the node a repack would fill.
//!
//! Owns: the pure score functions.

/// kube-scheduler's `MaxNodeScore`.
pub const MAX_NODE_SCORE: i64 = 100;
/// The Gaudi guide's MostAllocated weight on `habana.ai/gaudi`.
pub const GAUDI_CARD_WEIGHT: i64 = 100;
/// The Gaudi guide's MostAllocated weight on `hugepages-2Mi`.
pub const GAUDI_HUGEPAGES_WEIGHT: i64 = 5;

/// One resource of a MostAllocated/LeastAllocated score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredResource {
    /// Requested on the node *including* the pod being scored (units of the resource).
    pub requested: i64,
    /// Allocatable on the node; 0 skips the resource.
    pub allocatable: i64,
    /// Weight.
    pub weight: i64,
}

fn weighted(resources: &[ScoredResource], per: impl Fn(i128, i128) -> i128) -> i64 {
    let (mut score, mut weights) = (0i128, 0i128);
    for r in resources.iter().filter(|r| r.allocatable > 0) {
        let requested = i128::from(r.requested.max(0));
        score += per(requested, i128::from(r.allocatable)) * i128::from(r.weight);
        weights += i128::from(r.weight);
    }
    if weights == 0 {
        return 0;
    }
    i64::try_from(score / weights).unwrap_or(0)
}

/// `NodeResourcesFit` MostAllocated: Σ weight × (min(requested, allocatable) × 100 /
/// allocatable) ÷ Σ weight over resources with allocatable > 0. In 0..=100; fuller is higher.
pub fn most_allocated_score(resources: &[ScoredResource]) -> i64 {
    weighted(resources, |req, cap| {
        req.min(cap) * i128::from(MAX_NODE_SCORE) / cap
    })
}

/// The Gaudi guide's bin-packing score of a node for a pod: MostAllocated on cards (weight
/// 100) and, when known, `hugepages-2Mi` as `(requested incl. pod, allocatable)` (weight 5).
/// `cards_used` excludes the pod; `pod_cards` is added.
pub fn gaudi_binpack_score(
    cards_used: u32,
    cards: u32,
    pod_cards: u32,
    hugepages: Option<(i64, i64)>,
) -> i64 {
    let cards = ScoredResource {
        requested: i64::from(cards_used) + i64::from(pod_cards),
        allocatable: i64::from(cards),
        weight: GAUDI_CARD_WEIGHT,
    };
    match hugepages {
        None => most_allocated_score(&[cards]),
        Some((requested, allocatable)) => most_allocated_score(&[
            cards,
            ScoredResource {
                requested,
                allocatable,
                weight: GAUDI_HUGEPAGES_WEIGHT,
            },
        ]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_allocated_matches_kube_scheduler() {
        let r = |requested, allocatable, weight| ScoredResource {
            requested,
            allocatable,
            weight,
        };
        assert_eq!(most_allocated_score(&[r(6, 8, 1)]), 75);
        assert_eq!(
            most_allocated_score(&[r(9, 8, 1)]),
            100,
            "requested is capped"
        );
        assert_eq!(
            most_allocated_score(&[r(4, 8, 1), r(1, 0, 5)]),
            50,
            "allocatable 0 is skipped"
        );
        assert_eq!(most_allocated_score(&[]), 0);
    }

    #[test]
    fn gaudi_profile_fills_the_fullest_node() {
        // 7 of 8 cards used + 1 requested ⇒ 100; an empty node ⇒ 12.
        assert_eq!(gaudi_binpack_score(7, 8, 1, None), 100);
        assert_eq!(gaudi_binpack_score(0, 8, 1, None), 12);
        // Hugepages weigh 5 against 100: (100·100 + 0·5) / 105.
        assert_eq!(gaudi_binpack_score(7, 8, 1, Some((0, 1024))), 95);
    }
}
