//! The crate's layers, one rule per folder under `src/` (docs/architecture.md, "Module map"):
//! which other layers its files may import and which outside crates, std modules and clock
//! reads it must not name. Every `.rs` file under `src/` is found by walking the tree and
//! belongs to the layer of its first folder (or is a layer of its own, `fmt.rs`), so a new
//! file or folder cannot escape: one without a rule fails.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use super::code_lines;
use super::imports::{imports, sources};

/// A layer: the crate modules its files may import (besides its own), and what it must not
/// name at all (outside crates, std I/O, clock reads), test code included.
pub struct Layer {
    /// The first folder (or file stem) under `src/`.
    pub name: &'static str,
    /// The other layers it may import.
    pub may_import: &'static [&'static str],
    /// Substrings no code line of it may contain.
    pub forbidden: &'static [&'static str],
}

/// Every layer, lowest first: a layer imports only layers above it in this list.
pub const LAYERS: &[Layer] = &[
    Layer {
        name: "engine",
        may_import: &[],
        forbidden: &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "json_patch",
            "ratatui",
            "crossterm",
            "tui_tree_widget",
            "directories",
            "anyhow",
            "std::fs",
            "std::io",
            "std::net",
            "std::process",
            "std::thread",
            "std::env",
            "async ",
            ".await",
            "Utc::now",
            "Local::now",
            "Instant::now",
            "SystemTime::now",
            "rand::",
            "tracing",
        ],
    },
    Layer {
        name: "fmt",
        may_import: &["engine"],
        forbidden: &[
            "tokio",
            "kube::",
            "ratatui",
            "crossterm",
            "std::fs",
            "tracing",
            "Utc::now",
            "Local::now",
            "Instant::now",
            "SystemTime::now",
        ],
    },
    Layer {
        name: "action",
        may_import: &[],
        forbidden: &["tokio", "kube::", "ratatui", "crossterm"],
    },
    Layer {
        name: "protocol",
        may_import: &["engine"],
        forbidden: &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "ratatui",
            "crossterm",
            "anyhow",
        ],
    },
    Layer {
        name: "config",
        may_import: &["action"],
        forbidden: &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "ratatui::widgets",
            "ratatui::layout",
            "ratatui::text",
            "ratatui::buffer",
            "ratatui::backend",
            "ratatui::Frame",
            "ratatui::Terminal",
            "crossterm::terminal",
            "crossterm::execute",
            "event::read",
            "event::poll",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
        ],
    },
    Layer {
        name: "report",
        may_import: &["engine", "fmt"],
        forbidden: &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
        ],
    },
    Layer {
        name: "sim",
        may_import: &["engine", "protocol"],
        forbidden: &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "std::fs",
            "std::net",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
        ],
    },
    Layer {
        name: "history",
        may_import: &["engine"],
        forbidden: &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "ratatui",
            "crossterm",
            "Utc::now",
            "Local::now",
            "Instant::now",
            "SystemTime::now",
            "anyhow",
        ],
    },
    Layer {
        name: "logging",
        may_import: &["config"],
        forbidden: &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "ratatui",
            "crossterm",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
            "anyhow",
        ],
    },
    Layer {
        name: "cluster",
        may_import: &["engine", "protocol"],
        forbidden: &["ratatui", "crossterm", "anyhow"],
    },
    Layer {
        name: "app",
        may_import: &["engine", "fmt", "action", "protocol", "report"],
        forbidden: &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "ratatui",
            "std::fs",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
            "tracing",
        ],
    },
    Layer {
        name: "ui",
        may_import: &["engine", "fmt", "action", "protocol", "config", "app"],
        forbidden: &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "Utc::now",
            "Instant::now",
            "tracing",
        ],
    },
    Layer {
        name: "cli",
        may_import: &[
            "engine", "fmt", "action", "protocol", "config", "report", "sim", "history", "logging",
            "cluster",
        ],
        forbidden: &[],
    },
    Layer {
        name: "run",
        may_import: &[
            "engine", "fmt", "action", "protocol", "config", "report", "sim", "history", "logging",
            "cluster", "app", "ui", "cli",
        ],
        forbidden: &[],
    },
    // The program both binaries run: parses the command line and dispatches every command.
    Layer {
        name: "program",
        may_import: &[
            "engine", "fmt", "action", "protocol", "config", "report", "sim", "history", "logging",
            "cluster", "app", "ui", "cli", "run",
        ],
        forbidden: &[],
    },
    Layer {
        name: "lib",
        may_import: &[
            "engine", "fmt", "action", "protocol", "config", "report", "sim", "history", "logging",
            "cluster", "app", "ui", "cli", "run", "program",
        ],
        forbidden: &[],
    },
    // The binary reaches the library as `ome_top::…`, never `crate::…`.
    Layer {
        name: "main",
        may_import: &[],
        forbidden: &[],
    },
    // The kubectl plugin's binary, like `main`.
    Layer {
        name: "bin",
        may_import: &[],
        forbidden: &[],
    },
];

/// Narrower rules inside a layer: files under `folder` (a path below `src/`) must not import
/// these module paths, nor name these substrings.
pub const INNER: &[(&str, &[&str], &[&str])] = &[
    // The UI reads the state and the views' models; it never reaches the reducer or input.
    ("ui", &["app::update", "app::input"], &[]),
    // The demo's driving task is handed its clock and speaks only `protocol`.
    (
        "run/demo.rs",
        &["app", "ui", "cluster"],
        &[
            "kube::",
            "ratatui",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
        ],
    ),
];

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn layer_of(name: &str) -> Option<&'static Layer> {
    LAYERS.iter().find(|l| l.name == name)
}

/// Whether `path` (below `crate::`) starts with `prefix` (`app::update`).
fn under(path: &[String], prefix: &str) -> bool {
    let prefix: Vec<&str> = prefix.split("::").collect();
    path.len() >= prefix.len() && path.iter().zip(&prefix).all(|(a, b)| a == b)
}

#[test]
fn every_file_imports_only_the_layers_its_folder_may() {
    let mut violations = Vec::new();
    let all = sources(&src());
    assert!(all.len() > 300, "src/ moved; update this test");
    for source in &all {
        let Some(layer) = layer_of(&source.module[0]) else {
            violations.push(format!(
                "src/{}: no layer rule for `{}` (add it to LAYERS and docs/architecture.md)",
                source.shown, source.module[0]
            ));
            continue;
        };
        let inner: Vec<_> = INNER
            .iter()
            .filter(|(folder, ..)| source.shown.starts_with(folder))
            .collect();
        let text = fs::read_to_string(&source.file).unwrap();
        for (n, line) in code_lines(&text) {
            let named = layer.forbidden.iter().chain(inner.iter().flat_map(|i| i.2));
            for bad in named.filter(|b| line.contains(*b)) {
                violations.push(format!(
                    "src/{}:{n}: {} must not name `{bad}`: `{line}`",
                    source.shown, layer.name
                ));
            }
        }
        if source.is_test {
            continue;
        }
        for import in imports(source) {
            let Some(target) = import.path.first() else {
                continue;
            };
            let own = *target == source.module[0];
            if !own && !layer.may_import.contains(&target.as_str()) {
                violations.push(format!(
                    "src/{}:{}: {} may not import `{}`: `{}`",
                    source.shown,
                    import.line,
                    layer.name,
                    import.path.join("::"),
                    import.code
                ));
            }
            for (folder, paths, _) in &inner {
                for p in paths.iter().filter(|p| under(&import.path, p)) {
                    violations.push(format!(
                        "src/{}:{}: {folder} may not import `{p}` (`{}`): `{}`",
                        source.shown,
                        import.line,
                        import.path.join("::"),
                        import.code
                    ));
                }
            }
        }
    }
    violations.dedup();
    assert!(
        violations.is_empty(),
        "layer rules broken:\n{}",
        violations.join("\n")
    );
}

/// The layers point one way: each imports only layers listed before it, so no two layers
/// import each other (the cli ↔ run cycle cannot come back).
#[test]
fn the_layers_point_one_way() {
    let mut before = BTreeSet::new();
    for layer in LAYERS {
        for target in layer.may_import {
            assert!(
                before.contains(target),
                "{} may import {target}, which is not below it in LAYERS",
                layer.name
            );
        }
        before.insert(layer.name);
    }
}

/// Every folder and file at the top of `src/` has a layer rule, and every rule a folder.
#[test]
fn every_top_level_module_has_a_layer() {
    let mut tops = BTreeSet::new();
    for entry in fs::read_dir(src()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        tops.insert(name.trim_end_matches(".rs").to_string());
    }
    let ruled: BTreeSet<String> = LAYERS.iter().map(|l| l.name.to_string()).collect();
    assert_eq!(tops, ruled, "src/ and LAYERS disagree");
}

/// docs/architecture.md's layer table states exactly `LAYERS`' imports.
#[test]
fn the_architecture_doc_states_the_layers() {
    let doc = fs::read_to_string(src().join("../docs/architecture.md")).unwrap();
    let section = doc
        .split("### Layers (enforced)")
        .nth(1)
        .and_then(|s| s.split("\n#").next())
        .expect("docs/architecture.md has a \"Layers (enforced)\" section");
    let mut stated: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').collect();
        let names = super::ticked(cells[1]);
        let allowed: BTreeSet<String> = super::ticked(cells[2]).into_iter().collect();
        for n in names {
            stated.insert(n, allowed.clone());
        }
    }
    let enforced: BTreeMap<String, BTreeSet<String>> = LAYERS
        .iter()
        .map(|l| {
            let allowed = l.may_import.iter().map(|a| a.to_string()).collect();
            (l.name.to_string(), allowed)
        })
        .collect();
    assert_eq!(stated, enforced, "docs/architecture.md and LAYERS disagree");
}
