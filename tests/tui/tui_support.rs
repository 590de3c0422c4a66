//! Shared builders for the TUI tests: feeds from the repository's fixtures at a fixed `now`,
//! an app state with a shipped keymap (`keymaps/*.toml`, loaded as the binary loads it) and a
//! counting UUID source, key helpers, and rendering into a ratatui `TestBackend`.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::json;

use ome_top::app::state::{AppState, IdSource};
use ome_top::app::{update, Effect, Event};
use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::model::{
    Allocatable, ClusterSnapshot, ConfigMap, Event as NodeEvent, OmeLabels, OwnerRef, Taint,
};
use ome_top::protocol::{ApiStatus, Feed, Permissions, Presence, SourceKind, SourceState};
use ome_top::run::keymap::ConfigKeys;
use ome_top::ui::theme::Theme;

/// The fixed observation time of every TUI test.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap()
}

/// UUIDs `00000000-0000-4000-8000-00000000000N`, counting from 1.
pub struct CountingIds(pub u64);

impl IdSource for CountingIds {
    fn next_uuid(&mut self) -> String {
        self.0 += 1;
        format!("00000000-0000-4000-8000-{:012x}", self.0)
    }
}

fn journal_entry(i: usize, phase: &str, reason: &str) -> serde_json::Value {
    json!({
        "uuid": format!("00000000-0000-4000-8000-{i:012x}"),
        "workload": {"Namespace": "prod", "Name": "chat"},
        "workloadUID": "isvc-uid-1",
        "irName": "chat-engine",
        "irUID": "ir-uid-1",
        "component": "engine",
        "instance": i,
        "fromNode": "h100-04",
        "targets": ["h100-07"],
        "payload": "{\"schemaVersion\":\"v1\",\"component\":\"engine\",\"instance\":0,\"from_node\":\"h100-04\",\"reason\":\"NodeUnhealthy\",\"requested_at\":\"2026-09-28T09:15:02Z\",\"requested_by\":\"alfred\"}",
        "sourceFingerprint": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "createdAt": "2026-09-28T09:15:02Z",
        "lastAttempt": "2026-09-28T09:15:03Z",
        "phase": phase,
        "reason": reason,
    })
}

/// Adds `ome/alfred-dispatch-state` with one stalled and one acknowledged entry.
pub fn add_journal(snap: &mut ClusterSnapshot) {
    let state = json!({
        "version": "v1",
        "entries": [
            journal_entry(1, "stalled", "AcknowledgementTimeout"),
            journal_entry(2, "acknowledged", "UUIDStatusObserved"),
        ],
    });
    let mut data = BTreeMap::new();
    data.insert("state.json".to_string(), state.to_string());
    snap.config_maps.push(ConfigMap {
        namespace: Arc::from("ome"),
        name: Arc::from("alfred-dispatch-state"),
        resource_version: Arc::from("4711"),
        data,
    });
}

/// One `last-cycle.json` row of Alfred's.
fn alfred_row(workload: &str, instance: i64, policy: &str, outcome: &str) -> serde_json::Value {
    let reason = if policy == "nodehealth" {
        "NodeUnhealthy"
    } else {
        "Fragmentation"
    };
    json!({"workload": workload, "component": "engine", "instance": instance,
        "policy": policy, "reason": reason, "outcome": outcome, "score": 0.0})
}

/// Adds `ome/alfred-recommendations` to the mixed fleet: Alfred's pass 40 s ago, agreeing with
/// ome-top on some rows and not on others (a withheld row ome-top calls advice, a different
/// advisory reason, a request in flight only Alfred reports).
pub fn add_alfred(snap: &mut ClusterSnapshot) {
    let mut rows = vec![
        alfred_row("prod/chat", 2, "nodehealth", "advisory"),
        alfred_row("prod/chat", 0, "defragmentation", "withheld"),
        alfred_row("prod/chat", 1, "defragmentation", "advisory"),
        alfred_row("legacy/llm", 0, "defragmentation", "advisory"),
        alfred_row("legacy/llm", 1, "defragmentation", "advisory"),
        alfred_row("prod/chat", 1, "nodehealth", "submitted"),
    ];
    let set = |r: &mut serde_json::Value, k: &str, v: serde_json::Value| r[k] = v;
    set(
        &mut rows[0],
        "advisoryReason",
        "ProfileNotConfigured".into(),
    );
    set(&mut rows[0], "fromNode", "h100-04".into());
    set(&mut rows[0], "hintTargets", json!(["h100-01", "h100-02"]));
    set(&mut rows[0], "score", 0.5.into());
    set(&mut rows[1], "dispatchStatus", "withheld".into());
    set(&mut rows[1], "dispatchReason", "SerialDispatchLimit".into());
    set(&mut rows[1], "fromNode", "h100-01".into());
    set(&mut rows[1], "target", "h100-03".into());
    set(&mut rows[1], "score", 0.0421.into());
    set(
        &mut rows[2],
        "advisoryReason",
        "NonExecutableObservedFragmentation".into(),
    );
    set(&mut rows[2], "fromNode", "h100-02".into());
    set(
        &mut rows[3],
        "advisoryReason",
        "RawDeploymentMigrationUnsupported".into(),
    );
    set(&mut rows[3], "fromNode", "h100-01".into());
    set(&mut rows[4], "advisoryReason", "NoSurgeHeadroom".into());
    set(&mut rows[4], "fromNode", "h100-03".into());
    set(&mut rows[5], "dispatchStatus", "submitted".into());
    set(&mut rows[5], "dispatchReason", "RequestSubmitted".into());
    set(
        &mut rows[5],
        "requestUUID",
        "0a0b0c0d-0000-4000-8000-000000000042".into(),
    );
    set(&mut rows[5], "fromNode", "h100-02".into());
    let stamp = (now() - chrono::Duration::seconds(40)).to_rfc3339();
    let cycle = json!({"timestamp": stamp, "mode": "execute", "recommendations": rows});
    let mut data = BTreeMap::new();
    data.insert("last-cycle.json".to_string(), cycle.to_string());
    snap.config_maps.push(ConfigMap {
        namespace: Arc::from("ome"),
        name: Arc::from("alfred-recommendations"),
        resource_version: Arc::from("5120"),
        data,
    });
}

/// The mixed fleet with its journal and Alfred's published pass (`add_alfred`).
pub fn alfred_feed() -> Feed {
    let mut snap = snapshot("docs/examples/mixed-fleet.json");
    add_journal(&mut snap);
    add_alfred(&mut snap);
    let mut feed = feed_of(snap, 1);
    for s in &mut feed.sources {
        if s.name == "recommendations" {
            s.presence = Presence::Present;
            s.last_change = Some(now() - chrono::Duration::seconds(40));
        }
    }
    feed
}

/// Reads a fixture (path relative to the crate root) into a snapshot.
pub fn snapshot(path: &str) -> ClusterSnapshot {
    let bytes = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    read_snapshot(&bytes).unwrap().0
}

/// A live-looking feed of `snap` at `now()` with every action allowed.
pub fn feed_of(snap: ClusterSnapshot, generation: u64) -> Feed {
    let opts = AnalysisOptions {
        now: now(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let analysis = analyze(&snap, &opts);
    let t = |mins: i64| Some(now() - chrono::Duration::minutes(mins));
    let source = |name, presence, last_change| SourceState {
        name,
        presence,
        last_change,
        objects: 1,
        listing: None,
    };
    Feed {
        generation,
        source: SourceKind::Live("prod-gpu".into()),
        api: ApiStatus::Connected,
        sources: vec![
            source("nodes", Presence::Present, t(0)),
            source("pods", Presence::Present, t(0)),
            source("recommendations", Presence::Absent, None),
            source("journal", Presence::Present, t(3)),
        ],
        snapshot: Arc::new(snap),
        analysis: Arc::new(analysis),
        permissions: Permissions::all_allowed(),
        warnings: Vec::new(),
    }
}

/// The mixed fleet (docs/examples) with a journal holding a stalled entry.
pub fn fleet_feed() -> Feed {
    let mut snap = snapshot("docs/examples/mixed-fleet.json");
    add_journal(&mut snap);
    feed_of(snap, 1)
}

/// What a `kubectl describe node` of h100-04 shows besides OME: a taint, a DaemonSet pod and a
/// finished pod without GPUs beside its GPU pod, and two Alfred Events (a Warning seen three
/// times, a Normal one).
pub fn add_node_extras(snap: &mut ClusterSnapshot) {
    let node = snap
        .nodes
        .iter_mut()
        .find(|n| n.name.as_ref() == "h100-04")
        .unwrap();
    node.capacity = Allocatable {
        cpu_milli: 96_000,
        memory: 1032 << 30,
        pods: 110,
    };
    node.taints.push(Taint {
        key: Arc::from("nvidia.com/gpu"),
        value: Arc::from("present"),
        effect: Arc::from("NoSchedule"),
    });
    let template = snap
        .pods
        .iter()
        .find(|p| p.node.as_deref() == Some("h100-04"))
        .unwrap()
        .clone();
    for (ns, name, kind, owner, done) in [
        (
            "kube-system",
            "nvidia-device-plugin-x7k2p",
            "DaemonSet",
            "nvidia-device-plugin",
            false,
        ),
        (
            "batch",
            "nightly-report-28790",
            "Job",
            "nightly-report",
            true,
        ),
    ] {
        let mut pod = template.clone();
        pod.namespace = Arc::from(ns);
        pod.name = Arc::from(name);
        pod.gpus = 0;
        pod.gpu_resource = None;
        pod.ome = OmeLabels::default();
        pod.controller = Some(Arc::new(OwnerRef {
            api_version: Arc::from("apps/v1"),
            kind: Arc::from(kind),
            name: Arc::from(owner),
            uid: Arc::from(format!("uid-{owner}")),
        }));
        if done {
            pod.phase = ome_top::engine::model::PodPhase::Succeeded;
        }
        snap.pods.push(pod);
    }
    let event = |reason: &str, kind: &str, message: &str, mins: i64, count: i64| NodeEvent {
        namespace: Arc::from("default"),
        object_kind: Arc::from("Node"),
        object_namespace: Arc::from(""),
        object_name: Arc::from("h100-04"),
        reason: Arc::from(reason),
        message: message.to_string(),
        source: Arc::from("alfred"),
        kind: Arc::from(kind),
        last_seen: Some(now() - chrono::Duration::minutes(mins)),
        count,
    };
    snap.events.push(event(
        "NodeRepairNeeded",
        "Warning",
        "node h100-04 has an observed health concern; repair investigation requested",
        30,
        3,
    ));
    snap.events.push(event(
        "NodeDrainedForRepair",
        "Normal",
        "node h100-04 has no observed OME GPU occupants; this does not establish whole-node maintenance safety",
        5,
        1,
    ));
}

/// The mixed fleet with [`add_node_extras`].
pub fn node_detail_feed() -> Feed {
    let mut snap = snapshot("docs/examples/mixed-fleet.json");
    add_journal(&mut snap);
    add_node_extras(&mut snap);
    feed_of(snap, 1)
}

/// The demo world of `ome-top demo --seed 1` on 120 nodes, ten sim minutes in, at `now()`.
pub fn demo_feed() -> Feed {
    let start = now() - chrono::Duration::minutes(10);
    let mut w = ome_top::sim::demo::DemoWorld::new(1, 120, start);
    let mut t = start;
    while t < now() {
        t += chrono::Duration::seconds(10);
        w.step(t);
    }
    w.feed_default(1, now())
}

/// The shipped keymap `name` through `config::load`, as the binary loads it.
pub fn shipped_keys(name: &str) -> Box<ConfigKeys> {
    Box::new(ConfigKeys::shipped(name).unwrap())
}

/// A state of `w`×`h` with the `default` keymap that has received `feed`.
pub fn state_with(feed: Feed, w: u16, h: u16) -> AppState {
    state_with_keymap(feed, w, h, "default")
}

/// A state of `w`×`h` with the shipped keymap `keymap` that has received `feed`.
pub fn state_with_keymap(feed: Feed, w: u16, h: u16, keymap: &str) -> AppState {
    let mut s = AppState::new(shipped_keys(keymap), Box::new(CountingIds(0)), now());
    s.set_themes(vec!["default".into(), "mono".into()], "default");
    update(&mut s, Event::Resize(w, h), now());
    update(&mut s, Event::Feed(Arc::new(feed)), now());
    s
}

/// A key press event.
pub fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Types `text` key by key; returns every effect.
pub fn type_keys(s: &mut AppState, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| update(s, key(KeyCode::Char(c)), now()))
        .collect()
}

/// Presses `code`.
pub fn press(s: &mut AppState, code: KeyCode) -> Vec<Effect> {
    update(s, key(code), now())
}

/// Renders `s` with the default theme into a test terminal of its size.
pub fn render(s: &AppState) -> Terminal<TestBackend> {
    render_with(s, &Theme::default_theme())
}

/// Renders `s` with `theme`.
pub fn render_with(s: &AppState, theme: &Theme) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(s.size().0, s.size().1)).unwrap();
    t.draw(|f| ome_top::ui::draw(f, s, theme)).unwrap();
    t
}
