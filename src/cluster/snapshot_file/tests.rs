//! Unit tests of the snapshot reader: formats, bounds, identity rules, progress.

#![allow(clippy::unwrap_used, clippy::panic)] // Tests may fail loudly.

use super::*;

const CM: &str = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  \
                  metadata: {name: alfred-config, namespace: ome}\n  data:\n    config.yaml: |\n      \
                  schemaVersion: 1\n      mode: execute";

#[test]
fn yaml_snapshots_keep_config_map_text_as_go_yaml_reads_it() {
    // The file ends without a line break, so the block scalar gets none either.
    let (snap, warnings) = read_snapshot(CM.as_bytes()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let cm = snap.config_map("ome", "alfred-config").unwrap();
    assert_eq!(cm.data["config.yaml"], "schemaVersion: 1\nmode: execute");
    let (snap, _) = read_snapshot(format!("{CM}\n").as_bytes()).unwrap();
    let cm = snap.config_map("ome", "alfred-config").unwrap();
    assert_eq!(cm.data["config.yaml"], "schemaVersion: 1\nmode: execute\n");
}

#[test]
fn a_node_of_the_file_reads_as_yaml_without_managed_fields() {
    let file = r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"List",
        "items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"gpu-1",
        "labels":{"pool":"h100"},"managedFields":[{"manager":"kubelet"}]}}]}]}"#;
    let yaml = node_yaml(file.as_bytes(), "gpu-1").unwrap();
    assert!(yaml.contains("pool: h100"), "{yaml}");
    assert!(!yaml.contains("managedFields"), "{yaml}");
    let missing = node_yaml(file.as_bytes(), "gpu-2").unwrap_err().to_string();
    assert_eq!(missing, "nodes \"gpu-2\" not found in the snapshot file");
}

#[test]
fn unreadable_yaml_is_a_one_line_syntax_error() {
    for (bytes, want) in [
        (&b"kind: List\nitems: [\n"[..], "line 2"),
        (b"kind: List\nitems: !Items []\n", "tagged !Items"),
        (
            b"kind: List\nitems: []\n---\nkind: List\n",
            "more than one YAML document",
        ),
        (b"kind: \xff\n", "invalid utf-8"),
    ] {
        let Err(e @ SnapshotError::Syntax { .. }) = read_snapshot(bytes) else {
            panic!("{bytes:?} read");
        };
        let e = e.to_string();
        assert!(e.starts_with("snapshot is not valid YAML: "), "{e}");
        assert!(e.contains(want) && e.lines().count() == 1, "{e}");
    }
}

fn list(items: &str) -> String {
    format!(r#"{{"apiVersion":"v1","kind":"List","items":[{items}]}}"#)
}

const NODE: &str = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"gpu-1","uid":"u1"},
    "status":{"allocatable":{"nvidia.com/gpu":"8"}}}"#;

fn err(bytes: &[u8]) -> String {
    read_snapshot(bytes).unwrap_err().to_string()
}

#[test]
fn the_format_is_chosen_once_from_the_first_bytes() {
    assert_eq!(format_of(b"  \n{\"kind\": 1}"), Some(Format::Json));
    assert_eq!(format_of(b"\xEF\xBB\xBF{}"), Some(Format::Json));
    assert_eq!(format_of(b"[1]"), Some(Format::Json));
    assert_eq!(format_of(b"{kind: List, items: []}"), Some(Format::Yaml));
    assert_eq!(format_of(b"kind: List"), Some(Format::Yaml));
    assert_eq!(format_of(b" \n\t"), None);
    // A flow mapping is YAML; broken JSON is refused as JSON only, with its line and column.
    assert!(read_snapshot(b"{kind: List, items: []}").is_ok());
    let e = err(b"{\"kind\": \"List\",\n \"items\": [}");
    assert!(e.starts_with("snapshot is not valid JSON: "), "{e}");
    assert!(e.contains("line 2 column 12") && !e.contains("YAML"), "{e}");
    assert_eq!(err(b""), "snapshot file is empty");
    assert_eq!(err(b"\n  \n"), "snapshot file is empty");
    assert!(read_snapshot(format!("\u{feff}{}", list(NODE)).as_bytes()).is_ok());
}

#[test]
fn documents_that_are_not_lists_say_what_they_are() {
    for (text, want) in [
        ("[]", "found an array"),
        ("\"x\"", "found a string"),
        ("{}", "found an object without kind without an items array"),
        ("{\"kind\": \"Pod\"}", "found Pod without an items array"),
        ("{\"items\": null}", "found items: null, not an array"),
        ("{\"items\": [], \"items\": []}", "two items members"),
        ("kind: Node\n", "found Node without an items array"),
        ("- a\n", "found an array"),
        ("# only a comment\n", "found nothing"),
    ] {
        let e = err(text.as_bytes());
        assert!(
            e.starts_with("snapshot is not a Kubernetes List: "),
            "{text}: {e}"
        );
        assert!(e.contains(want), "{text}: {e}");
    }
}

#[test]
fn deep_nesting_is_refused_at_once_naming_the_format_and_where() {
    let n = 200_000;
    let deep = "[".repeat(n) + &"]".repeat(n);
    let json = list(&format!(
        r#"{NODE},{{"apiVersion":"v1","kind":"ConfigMap","data":{{"a":{deep}}}}}"#
    ));
    let e = err(json.as_bytes());
    assert!(
        e.starts_with("snapshot is not valid JSON: items[1]: recursion limit exceeded"),
        "{e}"
    );
    assert!(e.contains("of the item"), "{e}");
    let unclosed = list(&"[".repeat(n));
    assert!(err(unclosed.as_bytes()).starts_with("snapshot is not valid JSON: "));
    for yaml in [
        format!("kind: List\nitems: {deep}\n"),
        format!("kind: List\nitems:\n- a: {}\n", "{a: ".repeat(n)),
    ] {
        let e = err(yaml.as_bytes());
        assert!(e.starts_with("snapshot is not valid YAML: "), "{e}");
        assert!(e.contains("line 2") || e.contains("line 3"), "{e}");
    }
    // Lists inside items nest 8 deep at most.
    let mut nested = NODE.to_string();
    for _ in 0..10 {
        nested = format!(r#"{{"kind":"List","items":[{nested}]}}"#);
    }
    assert!(err(list(&nested).as_bytes()).contains("Lists nested deeper than 8"));
}

#[test]
fn objects_without_the_names_kubernetes_requires_are_refused() {
    let nameless = r#"{"apiVersion":"v1","kind":"Node","metadata":{}}"#;
    let e = err(list(&format!("{NODE},{nameless}")).as_bytes());
    assert_eq!(
        e,
        "items[1] (Node): metadata.name: missing; every Node has a name"
    );
    let pod =
        r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[]}}"#;
    let e = err(list(pod).as_bytes());
    assert!(
        e.starts_with("items[0] (Pod p): metadata.namespace: missing"),
        "{e}"
    );
    let inner = format!(r#"{{"kind":"List","items":[{NODE},{nameless}]}}"#);
    assert!(err(list(&inner).as_bytes()).starts_with("items[0].items[1] (Node)"));
    // YAML items are named the same way.
    let yaml = "kind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: a}}\n- {apiVersion: v1, kind: Node}\n";
    assert!(err(yaml.as_bytes()).starts_with("items[1] (Node): metadata.name"));
}

#[test]
fn a_spec_of_the_wrong_type_is_an_error_naming_the_field() {
    let isvc = r#"{"apiVersion":"ome.io/v1beta1","kind":"InferenceService",
        "metadata":{"name":"llm","namespace":"serving"},"spec":"RawDeployment"}"#;
    assert_eq!(
        err(list(isvc).as_bytes()),
        "InferenceService serving/llm: spec: a string, not an object"
    );
    let pod =
        r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"s"},"spec":null}"#;
    assert_eq!(
        err(list(pod).as_bytes()),
        "Pod s/p: spec: null, not an object"
    );
}

#[test]
fn duplicates_are_one_object_and_the_last_one_listed_wins() {
    let again = NODE.replace("\"8\"", "\"4\"");
    let (snap, warnings) = read_snapshot(list(&format!("{NODE},{again}")).as_bytes()).unwrap();
    assert_eq!(snap.nodes.len(), 1);
    assert_eq!(snap.nodes[0].gpu_allocatable, 4);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].starts_with("1 duplicate Node object(s) (same namespace and name: gpu-1)"));
    // Same UID under another name: one object, the later one.
    let renamed = NODE.replace("gpu-1", "gpu-2");
    let (snap, warnings) = read_snapshot(list(&format!("{NODE},{renamed}")).as_bytes()).unwrap();
    let names: Vec<&str> = snap.nodes.iter().map(|n| n.name.as_ref()).collect();
    assert_eq!(names, ["gpu-2"]);
    assert!(warnings[0].contains("share a UID"), "{warnings:?}");
    let pod = |uid: &str| {
        format!(
            r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"p","namespace":"s","uid":"{uid}"}},
            "spec":{{"containers":[],"nodeName":"gpu-1","schedulerName":"{uid}"}}}}"#
        )
    };
    let items = format!("{NODE},{},{},{}", pod("a"), pod("b"), pod("b"));
    let (snap, warnings) = read_snapshot(list(&items).as_bytes()).unwrap();
    assert_eq!(snap.pods.len(), 1);
    assert_eq!(snap.pods[0].scheduler_name.as_ref(), "b");
    assert!(
        warnings[0].starts_with("2 duplicate Pod object(s)"),
        "{warnings:?}"
    );
}

#[test]
fn progress_counts_the_bytes_and_objects_read() {
    let node = NODE.replace("gpu-1", "x");
    let text = list(&[node.as_str(); 3].join(","));
    let mut seen = Vec::new();
    let _ = read_snapshot_with(text.as_bytes(), &mut |p| seen.push(p));
    assert_eq!(seen.len(), 3);
    let last = seen[2];
    assert_eq!((last.objects, last.total), (3, text.len()));
    assert_eq!(last.bytes, 3 * node.len());
    assert!(seen.windows(2).all(|w| w[0].bytes < w[1].bytes));
}

#[test]
fn a_yaml_block_scalar_keeps_its_line_break_when_more_follows_the_items() {
    let text = format!("{CM}\nmetadata:\n  resourceVersion: |\n    x");
    let (snap, _) = read_snapshot(text.as_bytes()).unwrap();
    let cm = snap.config_map("ome", "alfred-config").unwrap();
    assert_eq!(cm.data["config.yaml"], "schemaVersion: 1\nmode: execute\n");
}

#[test]
fn node_yaml_finds_what_the_reader_kept() {
    // Found by fuzzing: a Node without apiVersion is read (the core group) and must be shown.
    let text = "kind: List\nitems:\n- kind: Node\n  metadata: {name: gpu-1}\n";
    assert_eq!(read_snapshot(text.as_bytes()).unwrap().0.nodes.len(), 1);
    assert!(node_yaml(text.as_bytes(), "gpu-1")
        .unwrap()
        .contains("name: gpu-1"));
    // A node listed twice is shown as the last one listed, the one the reader kept.
    let twice = list(&format!("{NODE},{}", NODE.replace("\"8\"", "\"4\"")));
    let yaml = node_yaml(twice.as_bytes(), "gpu-1").unwrap();
    assert!(
        yaml.contains("nvidia.com/gpu: '4'") || yaml.contains("nvidia.com/gpu: \"4\""),
        "{yaml}"
    );
    let json = list(r#"{"kind":"Node","metadata":{"name":"gpu-1"}}"#);
    assert!(node_yaml(json.as_bytes(), "gpu-1").is_ok());
}
