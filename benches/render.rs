//! Frame rendering benchmark (product.md §10: ≤ 4 ms per frame of any view at 200×60 with
//! 10,000 rows behind it). The fleet is `sim::fleet` with 10,000 nodes and 100,000 pods; the
//! frame is drawn into a ratatui `TestBackend`. Also measured: building every view's rows
//! from a new feed (once per feed) and one filter keystroke over the 10,000 nodes.

#![allow(clippy::unwrap_used)] // A benchmark fails loudly on bad setup.

use std::sync::Arc;

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, Criterion};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use ome_top::app::keys_config::ConfigKeys;
use ome_top::app::state::{AppState, IdSource};
use ome_top::app::{update, Event};
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::protocol::{ApiStatus, Feed, Permissions, SourceKind};
use ome_top::sim::fleet::{generate_fleet, FleetSpec};
use ome_top::ui::theme::Theme;

struct Ids;

impl IdSource for Ids {
    fn next_uuid(&mut self) -> String {
        "00000000-0000-4000-8000-000000000001".into()
    }
}

fn feed() -> Feed {
    let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap();
    let spec = FleetSpec {
        seed: 7,
        nodes: 10_000,
        pods: 100_000,
    };
    let snap = generate_fleet(&spec, now);
    let opts = AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
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
    let now = s.now;
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

criterion_group!(benches, bench_render);
criterion_main!(benches);
