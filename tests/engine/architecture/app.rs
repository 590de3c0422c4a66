//! The app's one-way shape (docs/architecture.md, "The app, one way"), by folder: every file
//! and folder directly under `src/app` belongs to one of the app's layers (`APP_LAYERS`; a new
//! one without a layer fails), and a file imports from `crate::app` only its own layer and the
//! layers that layer may import. Views never take `&mut AppState`, only the reducer applies
//! actions, and no import cycle joins two folders of the app; file-level cycles are `cycles`'s.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::cycles::cycles;
use super::imports::{imports, sources};
use super::rust_files;

/// The app's layers, lowest first: `(layer, its files and folders under src/app, the layers
/// below it that it may import)`. A layer imports itself and the layers named.
const APP_LAYERS: &[(&str, &[&str], &[&str])] = &[
    (
        "leaf types",
        &[
            "areas", "contexts", "detail", "dialogs", "effect", "event", "filter", "fleet", "keys",
            "line", "model", "msg", "notices", "setup", "state", "table", "wrap",
        ],
        &[],
    ),
    (
        "views",
        &["views", "layout", "banner", "namespace"],
        &["leaf types"],
    ),
    ("query", &["query"], &["leaf types", "views"]),
    // Input decodes keys and clicks into messages (`app::msg`), reading the state only.
    (
        "input",
        &["input", "palette"],
        &["leaf types", "views", "query"],
    ),
    // The reducer hands key and mouse events to input and carries out what it answers.
    (
        "reducer",
        &["update"],
        &["leaf types", "views", "query", "input"],
    ),
];

fn app_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app")
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layer of an entry directly under `src/app` (`update`, `state`).
fn app_layer(
    entry: &str,
) -> Option<&'static (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
)> {
    APP_LAYERS
        .iter()
        .find(|(_, entries, _)| entries.contains(&entry))
}

#[test]
fn every_app_file_has_a_layer() {
    let mut missing = Vec::new();
    for entry in fs::read_dir(app_dir()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let name = name.trim_end_matches(".rs");
        if name != "mod" && app_layer(name).is_none() {
            missing.push(format!("src/app/{name}"));
        }
    }
    assert!(
        missing.is_empty(),
        "no app layer for (add them to APP_LAYERS and docs/architecture.md): {missing:?}"
    );
}

#[test]
fn app_files_import_only_their_layer_and_those_below() {
    let mut violations = Vec::new();
    let app: Vec<_> = sources(&src_dir())
        .into_iter()
        .filter(|s| s.module.first().is_some_and(|m| m == "app") && !s.is_test)
        .collect();
    assert!(app.len() > 50, "src/app moved; update this test");
    for source in app.iter().filter(|s| s.module.len() > 1) {
        let Some((layer, _, below)) = app_layer(&source.module[1]) else {
            continue; // `every_app_file_has_a_layer` names it
        };
        for import in imports(source) {
            if import.path.len() < 2 || import.path[0] != "app" {
                continue;
            }
            let Some((target, ..)) = app_layer(&import.path[1]) else {
                continue;
            };
            if target != layer && !below.contains(target) {
                violations.push(format!(
                    "src/{}:{}: {layer} ({}) may not import {target} (`{}`): `{}`",
                    source.shown,
                    import.line,
                    source.module[1],
                    import.path.join("::"),
                    import.code
                ));
            }
        }
    }
    violations.dedup();
    assert!(
        violations.is_empty(),
        "app layers broken:\n{}",
        violations.join("\n")
    );
}

/// Folder-level import edges inside `src/app`: entry → entries its files import.
fn folder_edges() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut out: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let app = sources(&src_dir())
        .into_iter()
        .filter(|s| s.module.len() > 1 && s.module[0] == "app" && !s.is_test);
    for source in app {
        let from = vec![source.module[1].clone()];
        let targets = out.entry(from.clone()).or_default();
        for import in imports(&source) {
            if import.path.len() >= 2 && import.path[0] == "app" {
                let to = vec![import.path[1].clone()];
                if to != from {
                    targets.insert(to);
                }
            }
        }
    }
    out
}

#[test]
fn no_import_cycle_joins_two_app_folders() {
    let graph = folder_edges();
    assert!(graph.len() > 15, "src/app moved; update this test");
    let found: Vec<String> = cycles(&graph)
        .into_iter()
        .map(|c| format!("{c:?}"))
        .collect();
    assert!(
        found.is_empty(),
        "import cycles between folders of src/app:\n{}",
        found.join("\n")
    );
}

/// Code lines of `files` before their test module containing one of `needles`.
fn lines_naming(files: &[PathBuf], needles: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        for (n, line) in product_text(file).lines().enumerate() {
            let line = line.trim_start();
            if line.starts_with("//") {
                continue;
            }
            for needle in needles.iter().filter(|x| line.contains(*x)) {
                found.push(format!(
                    "{}:{}: `{needle}` in `{line}`",
                    file.display(),
                    n + 1
                ));
            }
        }
    }
    found
}

/// Files of `src/app/<entry>` (a file or a folder).
fn files_of(entry: &str) -> Vec<PathBuf> {
    let path = app_dir().join(entry);
    if path.is_file() {
        return vec![path];
    }
    let mut files = Vec::new();
    rust_files(&path, &mut files);
    files
}

/// The text before the file's test module, as the cycle script reads it.
fn product_text(file: &Path) -> String {
    let text = fs::read_to_string(file).unwrap();
    text.split("#[cfg(test)]").next().unwrap_or("").to_string()
}

#[test]
fn views_never_change_the_state() {
    let files = files_of("views");
    assert!(files.len() > 5, "app/views moved; update this test");
    let found = lines_naming(&files, &["&mut AppState"]);
    assert!(
        found.is_empty(),
        "views change the state:\n{}",
        found.join("\n")
    );
}

/// Input and the palette decode keys and clicks into messages: they read the state, never
/// write it, and never reach into the reducer that carries the messages out.
#[test]
fn input_only_decodes() {
    let files: Vec<PathBuf> = ["input", "palette"]
        .into_iter()
        .flat_map(files_of)
        .collect();
    assert!(
        files.len() > 2,
        "app/input or app/palette moved; update this test"
    );
    let found = lines_naming(&files, &["&mut AppState", "app::update", "super::update"]);
    assert!(
        found.is_empty(),
        "input changes the state or calls the reducer:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_the_reducer_applies_actions() {
    let files: Vec<PathBuf> = files_of("")
        .into_iter()
        .filter(|f| !f.starts_with(app_dir().join("update")))
        .collect();
    let found = lines_naming(&files, &["apply_action("]);
    assert!(
        found.is_empty(),
        "a call back into the reducer:\n{}",
        found.join("\n")
    );
}
