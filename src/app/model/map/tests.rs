//! Unit tests of the pool map's cell model and layout: glyphs and bands, exclusion marks,
//! grouping by the pool's topology domain, the answer lines, and aggregation at 10,000 nodes.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::layout::{Level, MapLayout, MAX_PAGES};
use super::*;
use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use crate::engine::model::testkit::{at, node, pod};
use crate::engine::model::{ConfigMap, Labels, Node, NodeCondition, Taint};

fn cell(free: u32, total: u32) -> MapCell {
    MapCell {
        free,
        total,
        exclusion: None,
        not_ready: false,
    }
}

fn excluded(e: Exclusion) -> MapCell {
    MapCell {
        free: 8,
        total: 8,
        exclusion: Some(e),
        not_ready: false,
    }
}

#[test]
fn a_cell_reads_its_free_gpus_or_its_exclusion_without_colour() {
    let glyphs: String = [0, 1, 5, 8, 9, 10, 16]
        .iter()
        .map(|f| cell(*f, 16).glyph())
        .collect();
    assert_eq!(glyphs, "·1589++");
    let marks: String = Exclusion::ALL
        .iter()
        .map(|e| excluded(*e).glyph())
        .collect();
    assert_eq!(marks, "!✗?~MCRS");
    assert_eq!(cell(0, 8).band(), Band::None);
    assert_eq!(cell(3, 8).band(), Band::Some);
    assert_eq!(cell(8, 8).band(), Band::Whole);
    assert_eq!(excluded(Exclusion::Spot).band(), Band::Excluded);
}

fn state(health: HealthState) -> NodeState {
    NodeState {
        pool: None,
        health,
        maintenance: Vec::new(),
        cordoned: false,
        to_be_deleted: false,
        preemptible: false,
        excluded_as_target: false,
        total: 8,
        allocated: 0,
        free: 8,
        ome_occupants: 0,
        reconciled: false,
    }
}

#[test]
fn the_most_serious_exclusion_marks_the_node() {
    let mut s = state(HealthState::Suspect {
        until: at(11, 0, 0),
    });
    s.cordoned = true;
    s.maintenance = vec!["bios-update".into()];
    assert_eq!(Exclusion::of(&s, true, true), Some(Exclusion::Suspect));
    s.health = HealthState::Clear;
    assert_eq!(Exclusion::of(&s, true, true), Some(Exclusion::Maintenance));
    s.maintenance.clear();
    assert_eq!(Exclusion::of(&s, true, true), Some(Exclusion::Cordoned));
    let mut spot = state(HealthState::Clear);
    spot.preemptible = true;
    assert_eq!(Exclusion::of(&spot, true, true), Some(Exclusion::Spot));
    assert_eq!(
        Exclusion::of(&spot, false, true),
        None,
        "spot nodes not avoided"
    );
    spot.to_be_deleted = true;
    assert_eq!(Exclusion::of(&spot, false, true), Some(Exclusion::Removing));
    assert_eq!(
        Exclusion::of(&state(HealthState::Unknown), false, true),
        Some(Exclusion::Unknown)
    );
}

fn racked(name: &str, rack: Option<&str>) -> Node {
    let mut n = node(name, 8);
    let mut pairs = n.labels.0.clone();
    if let Some(r) = rack {
        pairs.push((Arc::from("ome.io/rack"), Arc::from(r)));
    }
    n.labels = Labels::from_pairs(pairs);
    n
}

/// The OME scheduler's configuration with `topologyKey: ome.io/rack`.
fn scheduler_config() -> ConfigMap {
    let yaml = concat!(
        "profiles:\n- schedulerName: ome-scheduler\n  pluginConfig:\n  - name: OMEGangPack\n",
        "    args:\n      topologyKey: ome.io/rack\n      gcIntervalSeconds: 60\n",
    );
    let mut data = BTreeMap::new();
    data.insert("config.yaml".to_string(), yaml.to_string());
    ConfigMap {
        namespace: Arc::from("ome"),
        name: Arc::from("ome-scheduler-config"),
        resource_version: Arc::from("1"),
        data,
    }
}

/// Five 8-GPU nodes in racks rack-2, rack-10 and none: gpu-a (rack-2, 3 used), gpu-b
/// (rack-10, unhealthy, neither cordoned nor tainted), gpu-c (rack-10, cordoned), gpu-d (rack-2, idle), gpu-e (no rack,
/// 8 used, being removed).
fn fleet() -> ClusterSnapshot {
    let mut b = racked("gpu-b", Some("rack-10"));
    b.conditions = vec![NodeCondition {
        kind: Arc::from("GpuUnhealthy"),
        status: Arc::from("True"),
        last_transition: Some(at(9, 0, 0)),
    }];
    let mut c = racked("gpu-c", Some("rack-10"));
    c.unschedulable = true;
    let mut e = racked("gpu-e", None);
    e.taints = vec![Taint {
        key: Arc::from("ToBeDeletedByClusterAutoscaler"),
        value: Arc::from(""),
        effect: Arc::from("NoSchedule"),
    }];
    let mut waiting = pod("ml", "big", None, 8);
    waiting.created = Some(at(8, 45, 0));
    ClusterSnapshot {
        nodes: vec![
            racked("gpu-a", Some("rack-2")),
            b,
            c,
            racked("gpu-d", Some("rack-2")),
            e,
        ]
        .into(),
        pods: vec![
            pod("x", "a", Some("gpu-a"), 3),
            pod("x", "e", Some("gpu-e"), 8),
            waiting,
        ]
        .into(),
        config_maps: vec![scheduler_config()].into(),
        replicas_listed: true,
        ..Default::default()
    }
}

fn maps(snap: &ClusterSnapshot) -> Vec<PoolMap> {
    let opts = AnalysisOptions {
        now: at(10, 0, 0),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Available,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    pool_maps(snap, &analyze(snap, &opts))
}

fn text(pieces: &[Piece]) -> String {
    pieces.iter().map(|(t, _)| t.as_str()).collect()
}

#[test]
fn nodes_group_by_the_pools_topology_domain_in_natural_order_unlabelled_last() {
    let snap = fleet();
    let map = &maps(&snap)[0];
    assert_eq!(map.key.as_deref(), Some("ome.io/rack"));
    let groups: Vec<(&str, usize, usize)> = map
        .groups
        .iter()
        .map(|g| (g.domain.as_str(), g.start, g.len))
        .collect();
    assert_eq!(
        groups,
        [("rack-2", 0, 2), ("rack-10", 2, 2), (UNLABELLED, 4, 1)]
    );
    let labels: Vec<&str> = map.groups.iter().map(|g| g.label.as_str()).collect();
    assert_eq!(map.prefix, "rack-");
    assert_eq!(labels, ["2", "10", UNLABELLED]);
    let glyphs: String = map.cells.iter().map(MapCell::glyph).collect();
    // rack-2: gpu-a gpu-d; rack-10: gpu-b gpu-c; then gpu-e.
    assert_eq!(glyphs, "58!CR");
    let summaries: String = map.groups.iter().map(|g| g.summary.glyph()).collect();
    // rack-10 has no schedulable node: its most serious mark.
    assert_eq!(summaries, "8!R");
    assert_eq!(
        map.excluded,
        [
            (Exclusion::UnhealthySchedulable, 1),
            (Exclusion::Cordoned, 1),
            (Exclusion::Removing, 1)
        ]
    );
    assert_eq!(
        text(&map.fits),
        "13 GPUs free, +16 on unschedulable nodes · one node fits 8 now, 8 after repack"
    );
    assert_eq!(
        text(&map.pending),
        "pending: 8 GPUs ×1 waiting 1h 15m: room for 1 now"
    );
}

#[test]
fn an_unhealthy_node_reads_still_schedulable_until_cordoned_or_tainted() {
    let mut snap = fleet();
    let glyph_of_b = |snap: &ClusterSnapshot| maps(snap)[0].cells[2].glyph();
    assert_eq!(
        glyph_of_b(&snap),
        '!',
        "no cordon, no taint: pods still land"
    );
    assert_eq!(
        Exclusion::UnhealthySchedulable.word(),
        "unhealthy, still schedulable"
    );
    snap.nodes[1].taints = vec![Taint {
        key: Arc::from("nvidia.com/gpu"),
        value: Arc::from("present"),
        effect: Arc::from("NoSchedule"),
    }];
    assert_eq!(glyph_of_b(&snap), '!', "GPU pods tolerate the GPU taint");
    snap.nodes[1].taints[0].key = Arc::from("gpu.example/unhealthy");
    assert_eq!(glyph_of_b(&snap), '✗', "tainted NoSchedule");
    snap.nodes[1].taints.clear();
    snap.nodes[1].unschedulable = true;
    assert_eq!(glyph_of_b(&snap), '✗', "cordoned");
    let mut s = state(HealthState::Unhealthy);
    s.cordoned = true;
    assert_eq!(Exclusion::of(&s, false, false), Some(Exclusion::Unhealthy));
}

#[test]
fn without_a_topology_key_the_pool_is_one_group_in_name_order() {
    let mut snap = fleet();
    snap.config_maps.clear();
    let map = &maps(&snap)[0];
    assert_eq!(map.key, None);
    assert_eq!(map.groups.len(), 1);
    let glyphs: String = map.cells.iter().map(MapCell::glyph).collect();
    assert_eq!(glyphs, "5!C8R");
}

/// A pool of `n` 8-GPU nodes, `per_domain` to a domain (`None`: no topology key); node `i`
/// has `i % 9` GPUs free, every 100th is cordoned.
fn big(n: usize, per_domain: Option<usize>) -> PoolMap {
    let cells: Vec<MapCell> = (0..n)
        .map(|i| MapCell {
            free: (i % 9) as u32,
            total: 8,
            exclusion: (i % 100 == 99).then_some(Exclusion::Cordoned),
            not_ready: false,
        })
        .collect();
    let groups = match per_domain {
        None => vec![MapGroup {
            domain: String::new(),
            label: String::new(),
            start: 0,
            len: n,
            summary: MapCell::summary(&cells),
        }],
        Some(k) => (0..n)
            .step_by(k)
            .map(|start| MapGroup {
                domain: format!("rack-{:04}", start / k),
                label: format!("rack-{:04}", start / k),
                start,
                len: k.min(n - start),
                summary: MapCell::summary(&cells[start..(start + k).min(n)]),
            })
            .collect(),
    };
    PoolMap {
        pool: "H100".into(),
        key: per_domain.map(|_| "ome.io/rack".to_string()),
        cells,
        groups,
        ..Default::default()
    }
}

/// A segment as `(label, x, start, len)`.
type Seg = (Option<usize>, u16, usize, usize);

fn lines(layout: &MapLayout) -> Vec<Vec<Seg>> {
    (0..layout.lines.len())
        .map(|i| {
            let segs = layout.line(i).iter();
            segs.map(|s| (s.label, s.x, s.start, s.len)).collect()
        })
        .collect()
}

#[test]
fn cells_per_line_follow_the_width_and_large_domains_start_a_line() {
    let map = big(40, Some(16));
    let layout = MapLayout::new(&map, 20, 10);
    assert_eq!(layout.level, Level::Nodes);
    // Labels "rack-0000" are 9 wide plus a space: 10 cells a line, a rack wraps.
    assert_eq!(layout.label_width, 10);
    assert_eq!(
        lines(&layout),
        [
            vec![(Some(0), 0, 0, 10)],
            vec![(None, 0, 10, 6)],
            vec![(Some(1), 0, 16, 10)],
            vec![(None, 0, 26, 6)],
            vec![(Some(2), 0, 32, 8)]
        ]
    );
}

#[test]
fn small_domains_sit_side_by_side_on_a_grid() {
    // Racks of 4: a tile is label 10 + 4 cells + a gap of 2 = 16 columns; 3 fit in 50.
    let map = big(28, Some(4));
    let layout = MapLayout::new(&map, 50, 10);
    assert_eq!(layout.level, Level::Nodes);
    let got = lines(&layout);
    assert_eq!(got.len(), 3);
    assert_eq!(
        got[0],
        [(Some(0), 0, 0, 4), (Some(1), 16, 4, 4), (Some(2), 32, 8, 4)]
    );
    assert_eq!(got[2], [(Some(6), 0, 24, 4)]);
    // Without a topology key the pool is one run of cells, wrapped at the width.
    let flat = big(120, None);
    let got = lines(&MapLayout::new(&flat, 50, 10));
    assert_eq!(
        got,
        [
            vec![(None, 0, 0, 50)],
            vec![(None, 0, 50, 50)],
            vec![(None, 0, 100, 20)]
        ]
    );
}

#[test]
fn ten_thousand_nodes_aggregate_per_domain_then_per_block() {
    // Racks of 16: one line per rack is 625 lines, more than four pages of 14.
    let racks = big(10_000, Some(16));
    let layout = MapLayout::new(&racks, 76, 14);
    assert_eq!(layout.level, Level::Domains);
    assert!(
        layout.lines.len() <= MAX_PAGES * 14,
        "{}",
        layout.lines.len()
    );
    let first = layout.cell(&racks, 0).unwrap();
    assert_eq!(first.glyph(), '8', "rack 0's best node has 8 free");
    assert_eq!(layout.label_width, 10);
    // A wide pane shows every node.
    assert_eq!(MapLayout::new(&racks, 196, 200).level, Level::Nodes);
    // Without a key: blocks of consecutive nodes, the smallest power of two that fits.
    let flat = big(10_000, None);
    let layout = MapLayout::new(&flat, 76, 14);
    assert_eq!(layout.level, Level::Blocks(4));
    assert_eq!(layout.blocks.len(), 2_500);
    assert!(layout.lines.len() <= MAX_PAGES * 14);
    assert_eq!(layout.line(0)[0].len, 76);
    assert_eq!(
        layout.cell(&flat, 0).unwrap().free,
        3,
        "nodes 0-3: best has 3 free"
    );
    assert_eq!(
        layout.describe(&flat),
        "one cell per 4 nodes in name order: the best"
    );
    // At 196 columns 10,000 nodes are 52 lines: four pages of 14 is 56, no aggregation.
    assert_eq!(MapLayout::new(&flat, 196, 14).level, Level::Nodes);
}

#[test]
fn a_summary_is_the_best_schedulable_node_else_the_commonest_exclusion() {
    let all_out = [
        excluded(Exclusion::Cordoned),
        excluded(Exclusion::Maintenance),
        excluded(Exclusion::Cordoned),
    ];
    assert_eq!(
        MapCell::summary(&all_out).exclusion,
        Some(Exclusion::Cordoned)
    );
    let tie = [excluded(Exclusion::Spot), excluded(Exclusion::Unhealthy)];
    assert_eq!(MapCell::summary(&tie).exclusion, Some(Exclusion::Unhealthy));
    let mixed = [
        cell(2, 8),
        excluded(Exclusion::Spot),
        cell(6, 8),
        cell(6, 8),
    ];
    assert_eq!(MapCell::summary(&mixed), cell(6, 8));
    assert_eq!(MapCell::summary(&[]).exclusion, None);
}

#[test]
fn a_pending_pod_larger_than_every_node_says_so_instead_of_room() {
    use crate::engine::pools::PendingSize;
    let sizes = [
        PendingSize {
            gpus: 16,
            pods: 1,
            oldest_minutes: 60.0,
            room_now: 0,
            room_after: 0,
        },
        PendingSize {
            gpus: 8,
            pods: 2,
            oldest_minutes: 5.0,
            room_now: 1,
            room_after: 2,
        },
    ];
    let text: String = answer::pending_line(&sizes, 8)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(
        text,
        "pending: 16 GPUs ×1 waiting 1h: larger than any node of the pool: 16 > 8 · \
         8 GPUs ×2 waiting 5m: room for 1 now"
    );
}
