//! Bad input never panics: arbitrary bytes and randomly mutated valid snapshots go through the
//! snapshot reader and, when it accepts them, through the whole analysis and its JSON output.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use proptest::prelude::*;
use serde_json::{json, Value};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::report::json::{analysis_json, Source};

const FLEET: &str = include_str!("../../docs/examples/mixed-fleet.json");
const EXAMPLE: &str = include_str!("../../docs/examples/worked-example-6-5.json");

fn analyze_bytes(bytes: &[u8]) {
    if let Ok((snap, warnings)) = read_snapshot(bytes) {
        for executor in [ExecutorSetting::Available, ExecutorSetting::Unavailable] {
            let opts = AnalysisOptions {
                now: "2026-09-28T10:15:00Z".parse().unwrap(),
                alfred_namespace: "ome".into(),
                executor,
                placement: Default::default(),
                instance_types: Default::default(),
            };
            let a = analyze(&snap, &opts);
            let _ = analysis_json(&snap, &a, Source::Snapshot, &warnings);
        }
    }
}

/// Every leaf's path (object keys and array indices).
fn leaves(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                path.push(json!(k));
                leaves(child, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                path.push(json!(i));
                leaves(child, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, p| match p {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(n) => &mut v[n.as_u64().unwrap() as usize],
        _ => v,
    })
}

fn replacement(choice: u8) -> Value {
    match choice % 12 {
        0 => Value::Null,
        1 => json!(-1),
        2 => json!("garbage"),
        3 => json!(1e300),
        4 => json!(true),
        5 => json!(""),
        6 => json!([]),
        7 => json!({}),
        8 => json!("-8"),
        9 => json!("99999999999999999999"),
        10 => json!("ColumnarV2"),
        _ => json!(i64::MAX),
    }
}

fn mutated(base: &str, edits: &[(usize, u8)]) -> Vec<u8> {
    let mut doc: Value = serde_json::from_str(base).unwrap();
    let mut paths = Vec::new();
    leaves(&doc, &mut Vec::new(), &mut paths);
    for (i, choice) in edits {
        let path = &paths[i % paths.len()];
        *at(&mut doc, path) = replacement(*choice);
    }
    doc.to_string().into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        analyze_bytes(&bytes);
    }

    #[test]
    fn mutated_fleets_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..12)) {
        analyze_bytes(&mutated(FLEET, &edits));
        analyze_bytes(&mutated(EXAMPLE, &edits));
    }
}

fn node_item(name: &str, gpus: u8, uid: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "uid": uid},
        "status": {"allocatable": {"nvidia.com/gpu": gpus.to_string()}}})
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Nodes listed any number of times, in any order, read as an informer keeps them: one
    /// node per name, the last one listed; as JSON and as YAML alike.
    #[test]
    fn duplicates_resolve_to_the_last_one_listed(
        listed in proptest::collection::vec((0u8..4, 1u8..9), 1..24),
    ) {
        let items: Vec<Value> = listed
            .iter()
            .map(|(n, gpus)| node_item(&format!("gpu-{n}"), *gpus, &format!("uid-{n}")))
            .collect();
        let doc = json!({"apiVersion": "v1", "kind": "List", "items": items});
        let mut want = std::collections::BTreeMap::new();
        for (n, gpus) in &listed {
            want.insert(format!("gpu-{n}"), u32::from(*gpus));
        }
        let yaml = ome_top::cluster::object_yaml::object_yaml(doc.clone()).unwrap();
        for text in [doc.to_string(), yaml] {
            let (snap, warnings) = read_snapshot(text.as_bytes()).unwrap();
            let got: std::collections::BTreeMap<String, u32> = snap
                .nodes
                .iter()
                .map(|n| (n.name.to_string(), n.gpu_allocatable))
                .collect();
            prop_assert_eq!(snap.nodes.len(), want.len());
            prop_assert_eq!(&got, &want);
            let duplicates = listed.len() > want.len();
            prop_assert_eq!(warnings.iter().any(|w| w.contains("duplicate Node")), duplicates);
        }
    }

    /// A UID reused under another name keeps only the object listed last with it.
    #[test]
    fn a_reused_uid_keeps_the_last_object(names in proptest::collection::vec(0u8..5, 1..12)) {
        let items: Vec<Value> = names
            .iter()
            .map(|n| node_item(&format!("gpu-{n}"), 8, "one-uid"))
            .collect();
        let doc = json!({"apiVersion": "v1", "kind": "List", "items": items});
        let (snap, _) = read_snapshot(doc.to_string().as_bytes()).unwrap();
        prop_assert_eq!(snap.nodes.len(), 1);
        let last = format!("gpu-{}", names[names.len() - 1]);
        prop_assert_eq!(snap.nodes[0].name.as_ref(), last.as_str());
    }
}
