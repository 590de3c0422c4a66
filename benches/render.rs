//! Frame rendering benchmark (product.md §10: ≤ 4 ms per frame of any view at 200×60 with
//! 10,000 rows behind it). The fleet is `sim::cluster` with 10,000 nodes and 100,000 pods; the
//! frame is drawn into a ratatui `TestBackend`. Also measured: building every view's rows
//! from a new feed (once per feed), one filter keystroke over the 10,000 nodes, and the
//! Pools view's map full-size at 200×60 and 80×24 with and without topology domains.

#![allow(clippy::unwrap_used)] // A benchmark fails loudly on bad setup.

use std::sync::Arc;

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, Criterion};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use ome_top::app::model::map::pool_maps;
use ome_top::app::state::{AppState, IdSource, View};
use ome_top::app::{update, Event};
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::model::ClusterSnapshot;
use ome_top::protocol::{ApiStatus, Feed, Permissions, SourceKind};
use ome_top::run::keymap::ConfigKeys;
use ome_top::sim::cluster::{generate_cluster, ClusterSpec};
use ome_top::sim::gang_heavy::make_gang_heavy;
use ome_top::ui::theme::Theme;

struct Ids;

impl IdSource for Ids {
    fn next_uuid(&mut self) -> String {
        "00000000-0000-4000-8000-000000000001".into()
    }
}

fn feed() -> Feed {
    feed_of(|_| {})
}

/// The benchmark fleet, changed by `shape` before the analysis.
fn feed_of(shape: impl FnOnce(&mut ClusterSnapshot)) -> Feed {
    let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap();
    let spec = ClusterSpec {
        seed: 7,
        nodes: 10_000,
        pods: 100_000,
    };
    let mut snap = generate_cluster(&spec, now);
    shape(&mut snap);
    let opts = AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let analysis = analyze(&snap, &opts);
    Feed {
        generation: 1,
        source: SourceKind::Demo(7),
        api: ApiStatus::Simulated,
        sources: Vec::new(),
        snapshot: Arc::new(snap),
        analysis: Arc::new(analysis),
        permissions: Permissions::all_allowed(),
        warnings: Vec::new(),
    }
}

fn key(s: &mut AppState, c: KeyCode) {
    let now = s.now();
    update(s, Event::Key(KeyEvent::new(c, KeyModifiers::NONE)), now);
}

fn bench_render(c: &mut Criterion) {
    let feed = Arc::new(feed());
    let now = feed.analysis.now;
    let keys = ConfigKeys::shipped("default").unwrap();
    let mut state = AppState::new(Box::new(keys), Box::new(Ids), now);
    update(&mut state, Event::Resize(200, 60), now);
    update(&mut state, Event::Feed(feed.clone()), now);
    let theme = Theme::default_theme();
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
    let mut group = c.benchmark_group("render_200x60");
    group.sample_size(30);
    let views = [
        ('1', "pools"),
        ('2', "nodes"),
        ('3', "moves"),
        ('4', "journal"),
        ('5', "gangs"),
        ('6', "lints"),
    ];
    for (k, name) in views {
        key(&mut state, KeyCode::Char(k));
        key(&mut state, KeyCode::Char('G'));
        group.bench_function(name, |b| {
            b.iter(|| {
                terminal
                    .draw(|f| ome_top::ui::draw(f, &state, &theme))
                    .unwrap()
                    .area
            })
        });
    }
    key(&mut state, KeyCode::Char('2'));
    key(&mut state, KeyCode::Enter);
    group.bench_function("node_detail", |b| {
        b.iter(|| {
            terminal
                .draw(|f| ome_top::ui::draw(f, &state, &theme))
                .unwrap()
                .area
        })
    });
    group.finish();
    let mut rows = c.benchmark_group("rows");
    rows.sample_size(10);
    let mut generation = 1;
    rows.bench_function("feed_to_rows_10k_nodes", |b| {
        b.iter(|| {
            generation += 1;
            let mut f = (*feed).clone();
            f.generation = generation;
            update(&mut state, Event::Feed(Arc::new(f)), now)
        })
    });
    key(&mut state, KeyCode::Esc);
    key(&mut state, KeyCode::Char('/'));
    rows.bench_function("filter_keystroke_10k_nodes", |b| {
        b.iter(|| {
            key(&mut state, KeyCode::Char('7'));
            key(&mut state, KeyCode::Backspace);
        })
    });
    rows.finish();
}

/// A state of `w`×`h` showing the full-size map of the largest pool of `feed`.
fn full_map(feed: &Arc<Feed>, w: u16, h: u16) -> AppState {
    let now = feed.analysis.now;
    let keys = ConfigKeys::shipped("default").unwrap();
    let mut state = AppState::new(Box::new(keys), Box::new(Ids), now);
    update(&mut state, Event::Resize(w, h), now);
    update(&mut state, Event::Feed(feed.clone()), now);
    let pools = &feed.analysis.pools;
    let largest = (0..pools.len())
        .max_by_key(|i| pools[*i].nodes.len())
        .unwrap();
    while state.selected_source(View::Pools) != Some(largest) {
        key(&mut state, KeyCode::Char('j'));
    }
    key(&mut state, KeyCode::Char('m'));
    assert!(state.pool_map().full);
    state
}

/// The full-size map of the largest pool (≈ 5,000 nodes) at 200×60 and 80×24: on the fleet
/// as generated (no topology key: one run of cells), and with racks of 16 under `ome.io/rack`
/// that its gangs pin to (`sim::gang_heavy`: grouped by rack; at 80×24 one cell per rack).
/// Also the map models of every pool from one feed (built once per feed).
fn bench_pool_map(c: &mut Criterion) {
    let theme = Theme::default_theme();
    let flat = Arc::new(feed());
    let racks = Arc::new(feed_of(make_gang_heavy));
    let mut group = c.benchmark_group("pool_map");
    group.sample_size(30);
    for (name, feed) in [("flat", &flat), ("racks", &racks)] {
        for (w, h) in [(200, 60), (80, 24)] {
            let state = full_map(feed, w, h);
            let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
            group.bench_function(format!("{name}_{w}x{h}"), |b| {
                b.iter(|| {
                    terminal
                        .draw(|f| ome_top::ui::draw(f, &state, &theme))
                        .unwrap()
                        .area
                })
            });
        }
    }
    group.sample_size(10);
    group.bench_function("models_10k_nodes", |b| {
        b.iter(|| pool_maps(&racks.snapshot, &racks.analysis))
    });
    group.finish();
}

criterion_group!(benches, bench_render, bench_pool_map);
criterion_main!(benches);
