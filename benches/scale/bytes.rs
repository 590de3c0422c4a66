//! Where the bytes go (`SCALE_BYTES=1`, no cluster): the scale plan's nodes, pods and
//! InferenceServices, rendered as the API server returns them (uid, resourceVersion, times,
//! kwok's status), decoded slim and applied to the live stores exactly as the watchers do;
//! then the snapshot, the analysis with its incremental records (as the live snapshot task
//! holds them) and the TUI's state taking that feed, each step's growth of
//! this process's anonymous resident memory printed. One object is built, decoded and
//! dropped at a time, so the figures are what is held, not the wire.
//!
//! Owns: `run`. Never talks to a cluster.

use std::sync::Arc;

use chrono::{TimeZone, Utc};
use k8s_openapi::api::core::v1 as core;
use kube::api::DynamicObject;
use kube::runtime::watcher::Event;
use serde_json::{json, Value};

use ome_top::app::state::{AppState, IdSource};
use ome_top::app::{update, Event as AppEvent};
use ome_top::cluster::live::slot::Slot;
use ome_top::cluster::live::sources;
use ome_top::cluster::live::store::Conversion;
use ome_top::cluster::live::stores::Stores;
use ome_top::cluster::wire::Slim;
use ome_top::engine::analysis::{AnalysisOptions, ExecutorSetting, Incremental};
use ome_top::engine::model::Time;
use ome_top::protocol::{ApiStatus, Feed, Permissions, SourceKind};
use ome_top::run::keymap::ConfigKeys;

use crate::plan::{self, Plan};
use crate::probe;
use crate::support::objects::gpu_node;
use crate::{Config, Results};

fn now() -> Time {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0)
        .single()
        .unwrap_or_default()
}

struct Ids(u64);

impl IdSource for Ids {
    fn next_uuid(&mut self) -> String {
        self.0 += 1;
        format!("00000000-0000-4000-8000-{:012x}", self.0)
    }
}

/// A uid shaped like the API server's (36 characters).
fn uid(kind: u8, i: usize) -> String {
    format!("{kind:02x}345678-9abc-4def-8123-{i:012x}")
}

/// What the API server adds to a created object, and kwok's status of a Running pod.
fn served(mut obj: Value, kind: u8, i: usize, running: bool) -> Value {
    let t = "2026-12-01T11:00:00Z";
    obj["metadata"]["uid"] = json!(uid(kind, i));
    obj["metadata"]["resourceVersion"] = json!(format!("{}", 1000 + i));
    obj["metadata"]["creationTimestamp"] = json!(t);
    if running {
        let cond = |c: &str| json!({"type": c, "status": "True", "lastTransitionTime": t});
        obj["status"] = json!({"phase": "Running", "hostIP": "10.0.0.1", "podIP": "10.244.1.2",
            "startTime": t, "conditions": [cond("Initialized"), cond("Ready"),
                cond("ContainersReady"), cond("PodScheduled")],
            "containerStatuses": [{"name": "main", "ready": true, "restartCount": 0,
                "image": "registry.invalid/x:1", "imageID": "", "state": {"running": {"startedAt": t}}}]});
    }
    obj
}

fn node_json(name: &str, product: &str, i: usize) -> Value {
    let mut node = serde_json::to_value(gpu_node(name, product)).unwrap_or_default();
    let t = "2026-12-01T11:59:00Z";
    let cond = |c: &str, s: &str| {
        json!({"type": c, "status": s, "lastHeartbeatTime": t, "lastTransitionTime": t,
        "reason": "KubeletReady", "message": "kwok"})
    };
    node["status"]["conditions"] = json!([
        cond("Ready", "True"),
        cond("MemoryPressure", "False"),
        cond("DiskPressure", "False"),
        cond("PIDPressure", "False")
    ]);
    node["status"]["nodeInfo"] = json!({"kubeletVersion": "fake", "architecture": "amd64",
        "operatingSystem": "linux", "machineID": "", "systemUUID": "", "bootID": "",
        "kernelVersion": "", "osImage": "", "containerRuntimeVersion": "", "kubeProxyVersion": ""});
    served(node, 1, i, false)
}

/// Lists `objects` into `slot` as a watcher's first list does, one object decoded at a time.
fn list_into<K, T: Clone>(
    slot: &Slot<T>,
    conv: &Conversion<K, T>,
    objects: impl Iterator<Item = Value>,
) where
    K: serde::de::DeserializeOwned,
{
    slot.on_event(Event::<K>::Init, conv, now());
    for value in objects {
        if let Ok(obj) = serde_json::from_value::<K>(value) {
            slot.on_event(Event::InitApply(obj), conv, now());
        }
    }
    slot.on_event(Event::<K>::InitDone, conv, now());
}

fn anon() -> u64 {
    probe::memory(std::process::id()).map_or(0, |m| m.anon)
}

/// Records the growth since `*last` as `what`.
fn step(results: &mut Results, last: &mut u64, what: &str, per: Option<(usize, &str)>) {
    let at = anon();
    let grown = at.saturating_sub(*last);
    let mut text = format!(
        "+{:.1} MiB (anon {:.1} MiB)",
        grown as f64 / 1024.0,
        at as f64 / 1024.0
    );
    if let Some((n, unit)) = per.filter(|(n, _)| *n > 0) {
        text += &format!(", {:.0} B per {unit}", grown as f64 * 1024.0 / n as f64);
    }
    results.add(format!("bytes: {what}"), "—", text);
    *last = at;
}

fn load_stores(plan: &Plan, stores: &Stores, results: &mut Results, last: &mut u64) {
    let nodes = plan
        .nodes
        .iter()
        .enumerate()
        .map(|(i, (name, pool))| node_json(name, plan::POOLS[*pool].0, i));
    list_into::<Slim<core::Node>, _>(&stores.nodes, &sources::NODES, nodes);
    step(
        results,
        last,
        "node store",
        Some((plan.nodes.len(), "node")),
    );
    let isvcs = plan
        .isvcs
        .iter()
        .enumerate()
        .map(|(i, (ns, name))| served(plan::isvc_json(ns, name), 2, i, false));
    list_into::<DynamicObject, _>(&stores.isvcs, &sources::ISVCS, isvcs);
    step(
        results,
        last,
        "InferenceService store",
        Some((plan.isvcs.len(), "InferenceService")),
    );
    let pods = plan
        .pods
        .iter()
        .enumerate()
        .map(|(i, p)| served(plan::to_json(p, &plan.nodes), 3, i, p.node.is_some()));
    list_into::<Slim<core::Pod>, _>(&stores.pods, &sources::PODS, pods);
    step(results, last, "pod store", Some((plan.pods.len(), "pod")));
    // The other sources are listed empty, as on the scale cluster.
    for slot in &stores.named {
        list_into::<core::ConfigMap, _>(slot, &sources::CONFIG_MAPS, std::iter::empty());
    }
}

/// Measures each holder of the plan's objects in turn (see the module doc).
pub fn run(cfg: &Config, results: &mut Results) {
    let plan = plan::plan(cfg.nodes, cfg.pods, cfg.churn_pods, 1);
    let mut last = anon();
    results.add(
        "bytes: before anything (anon)",
        "—",
        format!("{:.1} MiB", last as f64 / 1024.0),
    );
    let stores = Stores::default();
    load_stores(&plan, &stores, results, &mut last);
    let snapshot = Arc::new(stores.snapshot());
    step(results, &mut last, "snapshot (node copies, pod Arcs)", None);
    let opts = AnalysisOptions {
        now: now(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    // As the live snapshot task holds it: the analysis and the records that let one event
    // re-run only what it touches, sharing the snapshot and the analysis with the feed.
    let inc = Incremental::from_shared(snapshot, opts);
    step(
        results,
        &mut last,
        "analysis with its incremental records",
        Some((plan.pods.len(), "pod")),
    );
    let (snapshot, analysis) = (inc.shared_snapshot(), inc.shared_analysis());
    let feed = Arc::new(Feed {
        generation: 1,
        source: SourceKind::Live("scale".into()),
        api: ApiStatus::Connected,
        sources: stores.source_states(),
        snapshot,
        analysis,
        permissions: Permissions::read_only("--readonly"),
        warnings: stores.warnings(),
    });
    let Ok(keys) = ConfigKeys::shipped("default") else {
        return;
    };
    let mut state = AppState::new(Box::new(keys), Box::new(Ids(0)), now());
    update(&mut state, AppEvent::Resize(200, 60), now());
    update(&mut state, AppEvent::Feed(feed.clone()), now());
    step(results, &mut last, "TUI state, Pools view", None);
    let nodes = AppEvent::Key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('2'),
    ));
    update(&mut state, nodes, now());
    step(results, &mut last, "TUI state, Nodes view shown too", None);
    drop(state);
    drop(inc);
}
