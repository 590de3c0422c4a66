//! What every fuzz target checks, one function per target: the parser never panics (a panic
//! is the failure libFuzzer reports), and what it accepts keeps the promises its callers rely
//! on. Included by each target in `fuzz_targets/` and by `tests/cli/fuzz_corpus.rs`, which runs
//! the committed corpus and every regression input through the same functions in CI, where
//! cargo-fuzz is not installed.

#![allow(dead_code)] // Each target uses one function.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Failing loudly is the point.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use ome_top::cluster::snapshot_file::{node_yaml, read_snapshot};
use ome_top::config::keymap_file::parse_keymap;
use ome_top::config::settings::parse_settings;
use ome_top::config::theme::parse_theme;
use ome_top::config::{Key, KeyCode, Keymap, Mode, Theme};
use ome_top::engine::alfred_config::{effective_alfred_config, parse_alfred_config};
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::journal::{parse_journal, remove_entry_checked, EditError};
use ome_top::engine::model::{ClusterSnapshot, ConfigMap};
use ome_top::engine::recommendations::parse_recommendations;
use ome_top::engine::workloads::{check_rows, decode_rows};
use ome_top::report::json::{analysis_json, Source};

fn options() -> AnalysisOptions {
    AnalysisOptions {
        now: "2026-09-28T10:15:00Z".parse().unwrap(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    }
}

/// The snapshot reader: accepted files hold each object once (by kind, namespace and name),
/// and analyse and print without a panic; reading one node as YAML never panics.
pub fn snapshot(data: &[u8]) {
    if let Ok((snap, warnings)) = read_snapshot(data) {
        let mut nodes: Vec<&str> = snap.nodes.iter().map(|n| n.name.as_ref()).collect();
        let listed = nodes.len();
        nodes.sort_unstable();
        nodes.dedup();
        assert_eq!(nodes.len(), listed, "a node listed twice survived the read");
        let mut pods: Vec<(&str, &str)> = snap
            .pods
            .iter()
            .map(|p| (p.namespace.as_ref(), p.name.as_ref()))
            .collect();
        let listed = pods.len();
        pods.sort_unstable();
        pods.dedup();
        assert_eq!(pods.len(), listed, "a pod listed twice survived the read");
        assert!(nodes.iter().all(|n| !n.is_empty()), "a node without a name");
        let a = analyze(&snap, &options());
        let _ = analysis_json(&snap, &a, Source::Snapshot, &warnings);
        if let Some(first) = nodes.first() {
            assert!(
                node_yaml(data, first).is_ok(),
                "node {first} read but not shown"
            );
        }
    }
}

/// The journal's strict reader and its one-entry edit: removing any entry of a journal that
/// reads keeps every other entry, `version` and `backoffUntil` as they were (the checked edit
/// verifies that itself; only a refusal to write a number or text it cannot keep is allowed).
pub fn journal(data: &[u8]) {
    let Ok(journal) = parse_journal(data) else {
        return;
    };
    let text =
        std::str::from_utf8(data).expect("the strict reader accepted bytes that are not UTF-8");
    for entry in &journal.entries {
        match remove_entry_checked(text, &entry.uuid) {
            Ok(out) => {
                let after = parse_journal(out.as_bytes()).expect("the edit's output reads");
                assert_eq!(after.entries.len() + 1, journal.entries.len());
                assert!(after.entries.iter().all(|e| e.uuid != entry.uuid));
            }
            Err(EditError::NumberNotPreserved { .. } | EditError::Reserialise(_)) => {}
            Err(e) => panic!("removing {} from a journal that reads: {e}", entry.uuid),
        }
    }
}

/// The recommendations reader: `last-cycle.json` and node records (both key forms) of any
/// text; never fails as a whole.
pub fn recommendations(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut cm = BTreeMap::new();
    for key in [
        "last-cycle.json",
        "node.gpu-1",
        "node-hash.gpu.0123",
        "recommendations.json",
    ] {
        cm.insert(key.to_string(), text.clone());
    }
    let r = parse_recommendations(&cm);
    assert_eq!(r.nodes.len(), 2);
    assert_eq!(r.unknown_keys, ["recommendations.json"]);
    assert!(r.last_cycle.is_some());
}

/// alfred-config's strict validator: a config it accepts is the effective one; one it
/// refuses leaves the defaults in force with the reason.
pub fn alfred_config(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (effective, error) = effective_alfred_config(Some(&text));
    match parse_alfred_config(&text) {
        Ok(config) => {
            assert!(error.is_none());
            assert_eq!(format!("{config:?}"), format!("{effective:?}"));
        }
        Err(_) => assert!(error.is_some()),
    }
}

/// The scheduler's configuration: read from its ConfigMap in an analysis; a text it cannot
/// read is one warning and the chart's defaults.
pub fn scheduler_config(data: &[u8]) {
    let mut data_map = BTreeMap::new();
    data_map.insert(
        "config.yaml".to_string(),
        String::from_utf8_lossy(data).into_owned(),
    );
    let snap = ClusterSnapshot {
        config_maps: vec![ConfigMap {
            namespace: Arc::from("ome"),
            name: Arc::from("ome-scheduler-config"),
            resource_version: Arc::from("1"),
            data: data_map,
        }]
        .into(),
        ..ClusterSnapshot::default()
    };
    let a = analyze(&snap, &options());
    if a.gangs.config_error.is_some() {
        static DEFAULTS: OnceLock<String> = OnceLock::new();
        let defaults = DEFAULTS.get_or_init(|| {
            let empty = analyze(&ClusterSnapshot::default(), &options());
            format!("{:?}", empty.gangs.config)
        });
        assert_eq!(&format!("{:?}", a.gangs.config), defaults);
    }
}

/// The InferenceReplica status decoders (DenseV1 and ColumnarV2, chosen by the status):
/// ColumnarV2 never expands past the bound it is given. DenseV1 rows are stored rows, not
/// expanded, so the decoder does not bound them (a fuzzing find against an earlier version of
/// this check); `check_rows` does, as Alfred's step 8 (10,000 rows).
pub fn irstatus(data: &[u8]) {
    let Ok(status) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let marker = status
        .get("instanceStatusEncoding")
        .and_then(|m| m.as_str());
    for max in [4, 10_000] {
        if let Ok(rows) = decode_rows(&status, max) {
            if marker == Some("ColumnarV2") {
                assert!(
                    rows.len() <= max,
                    "{} rows expanded with a bound of {max}",
                    rows.len()
                );
            }
            if check_rows(&rows).is_ok() {
                assert!(
                    rows.len() <= 10_000,
                    "{} rows passed the row checks",
                    rows.len()
                );
            }
        }
    }
}

/// The shipped default keymap, the base a user keymap overlays.
fn base_keymap() -> &'static Keymap {
    static BASE: OnceLock<Keymap> = OnceLock::new();
    BASE.get_or_init(|| ome_top::config::builtin().unwrap().keymap)
}

/// Keymap files: a file that parses overlays the default keymap or is refused with a reason,
/// and the result resolves any keys.
pub fn keymap(data: &[u8]) {
    let Ok(table) = std::str::from_utf8(data).map(toml::from_str::<toml::Table>) else {
        return;
    };
    let Ok(table) = table else { return };
    let Ok(file) = parse_keymap("fuzz.toml", &table) else {
        return;
    };
    let Ok(keymap) = Keymap::overlay("fuzz", base_keymap(), &file) else {
        return;
    };
    let keys: Vec<Key> = data
        .iter()
        .take(4)
        .map(|b| Key {
            code: KeyCode::Char(char::from(*b)),
            ctrl: b % 3 == 0,
            alt: false,
            shift: false,
        })
        .collect();
    for mode in [Mode::Global, Mode::Table, Mode::Detail, Mode::Palette] {
        let _ = keymap.resolve_keys(mode, &keys);
        let _ = keymap.bindings(mode);
    }
    let _ = keymap.shadow_notices();
}

/// Theme files: a file that parses becomes a theme with a style for every slot.
pub fn theme(data: &[u8]) {
    let Ok(Ok(table)) = std::str::from_utf8(data).map(toml::from_str::<toml::Table>) else {
        return;
    };
    let mut notices = Vec::new();
    if let Ok(file) = parse_theme("fuzz.toml", &table, &mut notices) {
        let theme = Theme::from_file("fuzz", &file);
        let _ = Theme::overlay("fuzz", &theme, &file);
    }
}

/// config.toml: any table parses into settings or is refused with a reason.
pub fn settings(data: &[u8]) {
    let Ok(Ok(table)) = std::str::from_utf8(data).map(toml::from_str::<toml::Table>) else {
        return;
    };
    if let Ok(s) = parse_settings("fuzz.toml", &table) {
        let _ = s.read_only_for("any");
    }
}
