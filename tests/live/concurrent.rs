//! A concurrent writer edits the journal ConfigMap 1,000 times through its own compare-and-swap
//! loop (adding entries, updating the fields of its entries and `backoffUntil`, writing other
//! data keys and annotations of the ConfigMap) while ome-top clears stalled entries, retrying
//! each conflict by looking again as the UI does. At the end nothing the writer wrote is lost
//! and exactly the cleared entries are gone.
//!
//! The writer keeps `state.json` strictly valid: Alfred rejects unknown fields inside it, so
//! the writer's "unknown" content lives where it is legal, in other data keys and annotations.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use kube::Client;
use ome_top::cluster::ops::execute;
use ome_top::engine::journal::parse_journal;
use ome_top::protocol::OpOutcome;
use serde_json::{json, Value};

use crate::fixtures::{create_journal, ctx, entry, journal, read_journal, state_of, uuid};
use crate::journal::clear;
use crate::support::cluster::TestCluster;

const WRITES: usize = 1_000;
const STALLED: usize = 12;
const KEPT_STALLED: usize = 3;
const OWNED: usize = 8;
const MAX_ADDED: usize = 100;
const CM: &str = "alfred-dispatch-state";

/// What the writer believes it last wrote (the test's oracle).
#[derive(Default)]
struct Written {
    /// uuid → stamp of the writer's entries.
    entries: BTreeMap<String, u64>,
    backoff: Option<String>,
    keys: BTreeMap<String, String>,
    annotations: BTreeMap<String, String>,
}

/// Applies write number `i` to a ConfigMap read from the server.
fn edit(cm: &mut ConfigMap, i: usize, w: &mut Written) {
    let data = cm.data.get_or_insert_with(Default::default);
    let mut doc: Value = serde_json::from_str(&data["state.json"]).unwrap();
    let stamp = i as u64 + 100;
    match i % 5 {
        0 if w.entries.len() < OWNED + MAX_ADDED => {
            let id = uuid(5, i);
            doc["entries"]
                .as_array_mut()
                .unwrap()
                .push(entry(&id, "submitted", stamp));
            w.entries.insert(id, stamp);
        }
        0 | 1 => {
            let owned: Vec<String> = w.entries.keys().cloned().collect();
            let id = owned[i % owned.len()].clone();
            let entries = doc["entries"].as_array_mut().unwrap();
            let slot = entries
                .iter_mut()
                .find(|e| e["uuid"] == id.as_str())
                .unwrap();
            *slot = entry(&id, "submitted", stamp);
            w.entries.insert(id, stamp);
        }
        2 => {
            let key = format!("writer-{}", i % 17);
            data.insert(key.clone(), format!("value-{i}"));
            w.keys.insert(key, format!("value-{i}"));
        }
        3 => {
            let key = format!("writer.example/n-{}", i % 13);
            let annotations = cm.metadata.annotations.get_or_insert_with(Default::default);
            annotations.insert(key.clone(), format!("{i}"));
            w.annotations.insert(key, format!("{i}"));
        }
        _ => {
            let backoff = format!("2026-10-{:02}T00:00:00Z", 1 + i % 28);
            doc["backoffUntil"] = json!(backoff);
            w.backoff = Some(backoff);
        }
    }
    let data = cm.data.get_or_insert_with(Default::default);
    data.insert("state.json".into(), doc.to_string());
}

/// The other writer: GET, edit, PUT with the read resourceVersion; on 409 read again.
async fn writer(client: Client, ns: String, mut w: Written) -> (Written, usize) {
    let api = Api::<ConfigMap>::namespaced(client, &ns);
    let mut conflicts = 0;
    for i in 0..WRITES {
        loop {
            let mut cm = api.get(CM).await.unwrap();
            let mut attempt = std::mem::take(&mut w);
            let before = clone_written(&attempt);
            edit(&mut cm, i, &mut attempt);
            match api.replace(CM, &PostParams::default(), &cm).await {
                Ok(_) => {
                    w = attempt;
                    break;
                }
                Err(kube::Error::Api(s)) if s.code == 409 => {
                    conflicts += 1;
                    w = before;
                }
                Err(e) => panic!("writer: {e}"),
            }
        }
    }
    (w, conflicts)
}

fn clone_written(w: &Written) -> Written {
    Written {
        entries: w.entries.clone(),
        backoff: w.backoff.clone(),
        keys: w.keys.clone(),
        annotations: w.annotations.clone(),
    }
}

/// ome-top: clear each stalled entry; on Conflict look again and ask again.
async fn clearer(client: Client, ns: String, targets: Vec<String>) -> usize {
    let mut conflicts = 0;
    for id in targets {
        loop {
            let rv = read_journal(&client, &ns)
                .await
                .metadata
                .resource_version
                .unwrap();
            match execute(&client, &clear(&ns, &id, &rv), &ctx(&ns)).await {
                OpOutcome::Done { .. } => break,
                OpOutcome::Conflict { message } => {
                    assert!(message.starts_with("changed since you looked"), "{message}");
                    conflicts += 1;
                }
                other => panic!("clear {id}: {other:?}"),
            }
        }
    }
    conflicts
}

#[tokio::test]
async fn a_concurrent_writer_loses_nothing_and_exactly_the_cleared_entries_go() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("ops-race").await;
    let admin = tc.admin_client().await;
    let mut entries: Vec<Value> = (0..STALLED + KEPT_STALLED)
        .map(|i| entry(&uuid(4, i), "stalled", i as u64))
        .collect();
    let mut oracle = Written::default();
    for i in 0..OWNED {
        let id = uuid(5, 10_000 + i);
        entries.push(entry(&id, "submitted", 1));
        oracle.entries.insert(id, 1);
    }
    create_journal(&admin, &ns, &journal(entries)).await;
    let targets: Vec<String> = (0..STALLED).map(|i| uuid(4, i)).collect();

    let writing = tokio::spawn(writer(tc.admin_client().await, ns.clone(), oracle));
    let clearing = tokio::spawn(clearer(
        tc.admin_client().await,
        ns.clone(),
        targets.clone(),
    ));
    let (written, writer_conflicts) = writing.await.unwrap();
    let clear_conflicts = clearing.await.unwrap();
    eprintln!("writer conflicts: {writer_conflicts}, clear conflicts: {clear_conflicts}");

    let cm = read_journal(&admin, &ns).await;
    let state = state_of(&cm);
    let parsed = parse_journal(state.as_bytes()).expect("the final journal is strictly valid");
    let doc: Value = serde_json::from_str(&state).unwrap();
    let by_uuid: BTreeMap<String, &Value> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["uuid"].as_str().unwrap().to_string(), e))
        .collect();
    for id in &targets {
        assert!(!by_uuid.contains_key(id), "cleared entry {id} is back");
    }
    for i in STALLED..STALLED + KEPT_STALLED {
        assert!(
            by_uuid.contains_key(&uuid(4, i)),
            "uncleared stalled entry lost"
        );
    }
    for (id, stamp) in &written.entries {
        assert_eq!(
            by_uuid.get(id).copied(),
            Some(&entry(id, "submitted", *stamp)),
            "{id}"
        );
    }
    assert_eq!(parsed.entries.len(), KEPT_STALLED + written.entries.len());
    assert_eq!(doc["backoffUntil"].as_str(), written.backoff.as_deref());
    let data = cm.data.as_ref().unwrap();
    for (k, v) in &written.keys {
        assert_eq!(data.get(k), Some(v), "data key {k}");
    }
    let annotations = cm.metadata.annotations.as_ref().unwrap();
    for (k, v) in &written.annotations {
        assert_eq!(annotations.get(k), Some(v), "annotation {k}");
    }
    assert_eq!(data["other-key"], "kept");
}
