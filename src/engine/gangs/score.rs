//! Scores that explain where a new pod lands: OMEGangPack's standalone domain-packing score
//! (gangpack.md §4), kube-scheduler's `NodeResourcesFit` MostAllocated / LeastAllocated
//! scores, the Gaudi guide's bin-packing profile (MostAllocated on `habana.ai/gaudi` weight
//! 100 and `hugepages-2Mi` weight 5), and `explain_landing`, which ranks the nodes a pod of the
//! OME scheduler would be scored on.
//!
//! Owns: the pure score functions. Must not import anything outside `std` and `engine`.

use std::collections::BTreeMap;

use crate::engine::gangs::fit::FitContext;
use crate::engine::gangs::scheduler_config::SchedulerConfig;
use crate::engine::model::{Node, Pod, UNREPORTED};

/// kube-scheduler's `MaxNodeScore`.
pub const MAX_NODE_SCORE: i64 = 100;
/// The Gaudi guide's MostAllocated weight on `habana.ai/gaudi`.
pub const GAUDI_CARD_WEIGHT: i64 = 100;
/// The Gaudi guide's MostAllocated weight on `hugepages-2Mi`.
pub const GAUDI_HUGEPAGES_WEIGHT: i64 = 5;
/// The Gaudi guide's profile weight of `NodeResourcesFit` (tier 2).
pub const GAUDI_FIT_PLUGIN_WEIGHT: i64 = 25;

/// OMEGangPack's standalone packing score of each candidate node (§4): `domains[i]` is the
/// candidate's value of the plugin's `topologyKey` (`None` = unlabelled), `fits[i]` whether
/// the pod fits it. `free[d]` counts fitting candidates per domain (every candidate's domain
/// registered, with 0 if none fits); raw = `maxFree − free[d]` (0 unlabelled), normalised to
/// `raw × 100 / maxRaw` (all 0 when `maxRaw` is 0 or there is no domain). Scores in 0..=100.
pub fn domain_packing_scores(domains: &[Option<&str>], fits: &[bool]) -> Vec<i64> {
    let mut free: BTreeMap<&str, i64> = BTreeMap::new();
    for (d, f) in domains.iter().zip(fits) {
        if let Some(d) = d {
            *free.entry(d).or_default() += i64::from(*f);
        }
    }
    let max_free = free.values().copied().max().unwrap_or(0);
    let raw: Vec<i64> = domains
        .iter()
        .map(|d| d.and_then(|d| free.get(d)).map_or(0, |f| max_free - f))
        .collect();
    let max_raw = raw.iter().copied().max().unwrap_or(0);
    if max_raw == 0 {
        return vec![0; domains.len()];
    }
    raw.iter().map(|r| r * MAX_NODE_SCORE / max_raw).collect()
}

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

/// `NodeResourcesFit` LeastAllocated: (allocatable − requested) × 100 / allocatable per
/// resource (0 when requested exceeds allocatable), weighted the same way.
pub fn least_allocated_score(resources: &[ScoredResource]) -> i64 {
    weighted(resources, |req, cap| {
        if req > cap {
            0
        } else {
            (cap - req) * i128::from(MAX_NODE_SCORE) / cap
        }
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

/// One scored candidate node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landing {
    /// Index into `snap.nodes`.
    pub node: usize,
    /// `NodeResourcesFit` score (0..=100) under the configured strategy and resources.
    pub fit_score: i64,
    /// OMEGangPack standalone packing score (0..=100; 0 when packing does not apply).
    pub packing_score: i64,
    /// `fitWeight × fit + gangPackWeight × packing`.
    pub total: i64,
}

fn allocatable_of(node: &Node, name: &str) -> u64 {
    let a = &node.allocatable;
    let v = match name {
        "cpu" => a.cpu_milli,
        "memory" => a.memory,
        n if node.gpu_resource.as_deref() == Some(n) => u64::from(node.gpu_allocatable),
        _ => 0,
    };
    if v == UNREPORTED {
        0
    } else {
        v
    }
}

fn fit_score(ctx: &FitContext<'_>, cfg: &SchedulerConfig, n: usize, pod: &Pod) -> i64 {
    let node = &ctx.snap.nodes[n];
    let free = &ctx.free[n];
    let resources: Vec<ScoredResource> = cfg
        .fit_resources
        .iter()
        .map(|r| {
            let allocatable = allocatable_of(node, &r.name);
            let (free, want) = match r.name.as_str() {
                "cpu" => (free.cpu_milli, pod.cpu_milli),
                "memory" => (free.memory, pod.memory),
                _ => (u64::from(free.gpus), u64::from(pod.gpus)),
            };
            let requested = allocatable.saturating_sub(free).saturating_add(want);
            ScoredResource {
                requested: i64::try_from(requested).unwrap_or(i64::MAX),
                allocatable: i64::try_from(allocatable).unwrap_or(i64::MAX),
                weight: r.weight,
            }
        })
        .collect();
    match cfg.fit_strategy.as_str() {
        "MostAllocated" => most_allocated_score(&resources),
        "LeastAllocated" => least_allocated_score(&resources),
        _ => 0,
    }
}

/// Ranks the nodes `pod` fits for the OME scheduler profile `cfg` (every node scored, as with
/// `percentageOfNodesToScore: 100`), best first, ties by node name. Standalone packing
/// applies only when enabled, the plugin's `topologyKey` is set and the pod is no gang member.
pub fn explain_landing(ctx: &FitContext<'_>, cfg: &SchedulerConfig, pod: &Pod) -> Vec<Landing> {
    let nodes = &ctx.snap.nodes;
    let candidates: Vec<usize> = (0..nodes.len()).filter(|&n| ctx.fits(n, pod)).collect();
    let key = cfg.gang_pack.topology_key.as_str();
    let packing =
        cfg.gang_pack.standalone_domain_packing && !key.is_empty() && pod.ome.pod_group.is_none();
    let packing_scores = if packing {
        let domains: Vec<Option<&str>> = candidates
            .iter()
            .map(|&n| nodes[n].labels.get(key).filter(|v| !v.is_empty()))
            .collect();
        domain_packing_scores(&domains, &vec![true; candidates.len()])
    } else {
        vec![0; candidates.len()]
    };
    let mut out: Vec<Landing> = candidates
        .iter()
        .zip(packing_scores)
        .map(|(&n, packing_score)| {
            let fit_score = fit_score(ctx, cfg, n, pod);
            Landing {
                node: n,
                fit_score,
                packing_score,
                total: cfg.fit_weight * fit_score + cfg.gang_pack_weight * packing_score,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.total
            .cmp(&a.total)
            .then_with(|| nodes[a.node].name.cmp(&nodes[b.node].name))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domain_packing_prefers_the_domain_with_fewest_free_nodes() {
        // Domain a has 1 fitting node, b has 3, c has 2 (one registered with 0 would too).
        let d = [
            Some("a"),
            Some("b"),
            Some("b"),
            Some("b"),
            Some("c"),
            Some("c"),
            None,
        ];
        let scores = domain_packing_scores(&d, &[true; 7]);
        assert_eq!(scores, vec![100, 0, 0, 0, 50, 50, 0]);
        let zero = domain_packing_scores(&[Some("a"), Some("b")], &[false, false]);
        assert_eq!(zero, vec![0, 0]);
        assert_eq!(
            domain_packing_scores(&[None, None], &[true, true]),
            vec![0, 0]
        );
        // A domain whose only candidates do not fit is registered with 0 free.
        assert_eq!(
            domain_packing_scores(&[Some("a"), Some("b")], &[false, true]),
            vec![100, 0]
        );
    }

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
        assert_eq!(least_allocated_score(&[r(2, 8, 1)]), 75);
        assert_eq!(least_allocated_score(&[r(9, 8, 1)]), 0);
    }

    #[test]
    fn landing_prefers_the_fuller_node_of_the_fuller_domain() {
        use crate::engine::analysis::index::SnapshotIndex;
        use crate::engine::gangs::scheduler_config::ResourceWeight;
        use crate::engine::model::testkit;
        use crate::engine::model::{ClusterSnapshot, Labels};
        use std::sync::Arc;
        let rack = |name: &str, r: &str| {
            let mut n = testkit::node(name, 8);
            n.labels = Labels::from_pairs(vec![(Arc::from("rack"), Arc::from(r))]);
            n
        };
        let snap = ClusterSnapshot {
            nodes: vec![rack("b2", "b"), rack("a1", "a"), rack("b1", "b")],
            pods: vec![testkit::pod("ns", "busy", Some("a1"), 4)].into(),
            ..Default::default()
        };
        let index = SnapshotIndex::new(&snap);
        let ctx = FitContext::new(&snap, &index);
        let mut cfg = SchedulerConfig::default();
        cfg.gang_pack.topology_key = "rack".into();
        cfg.fit_resources = vec![ResourceWeight {
            name: "nvidia.com/gpu".into(),
            weight: 1,
        }];
        let ranked = explain_landing(&ctx, &cfg, &testkit::pod("ns", "new", None, 1));
        let names: Vec<&str> = ranked
            .iter()
            .map(|l| snap.nodes[l.node].name.as_ref())
            .collect();
        assert_eq!(names, vec!["a1", "b1", "b2"]);
        assert_eq!((ranked[0].fit_score, ranked[0].packing_score), (62, 100));
        assert_eq!(
            (
                ranked[1].fit_score,
                ranked[1].packing_score,
                ranked[1].total
            ),
            (12, 0, 120)
        );
        // Without the plugin's topologyKey, packing is inert.
        cfg.gang_pack.topology_key.clear();
        let ranked = explain_landing(&ctx, &cfg, &testkit::pod("ns", "new", None, 1));
        assert!(ranked.iter().all(|l| l.packing_score == 0));
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
