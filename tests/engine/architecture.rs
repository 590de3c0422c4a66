//! Enforces the import rules of docs/architecture.md: walks each module group's source files
//! and fails on a forbidden path. This stands in for a crate boundary.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::fs;
use std::path::{Path, PathBuf};

/// (module directory under src/, forbidden substrings in code lines).
const RULES: &[(&str, &[&str])] = &[
    (
        "engine",
        &[
            "crate::cluster",
            "crate::report",
            "crate::sim",
            "crate::cli",
            "crate::app",
            "crate::ui",
            "crate::config",
            "crate::history",
            "tokio",
            "kube::",
            "k8s_openapi",
            "ratatui",
            "crossterm",
            "tui_tree_widget",
            "directories",
            "anyhow",
            "std::fs",
            "std::net",
            "std::process",
            "std::thread",
            "std::env",
            "Utc::now",
            "Local::now",
            "Instant::now",
            "SystemTime::now",
            "rand::",
        ],
    ),
    (
        "sim",
        &[
            "crate::cluster",
            "crate::ui",
            "crate::app",
            "tokio",
            "kube::",
            "k8s_openapi",
            "std::fs",
            "std::net",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
        ],
    ),
    (
        "report",
        &[
            "crate::cluster",
            "crate::ui",
            "crate::app",
            "tokio",
            "kube::",
            "k8s_openapi",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
        ],
    ),
    (
        "cluster",
        &[
            "crate::app",
            "crate::ui",
            "crate::config::theme",
            "ratatui",
            "crossterm",
        ],
    ),
    (
        "app",
        &[
            "tokio",
            "kube::",
            "k8s_openapi",
            "ratatui",
            "crate::cluster",
            "crate::ui",
            "crate::run",
            "std::fs",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
        ],
    ),
    (
        "run/demo",
        &[
            "crate::app",
            "crate::ui",
            "crate::cluster",
            "kube::",
            "ratatui",
            "Utc::now",
            "Instant::now",
            "SystemTime::now",
        ],
    ),
    (
        "action",
        &["crate::", "tokio", "kube::", "ratatui", "crossterm"],
    ),
    (
        "protocol",
        &[
            "crate::cluster",
            "crate::app",
            "crate::ui",
            "crate::config",
            "crate::history",
            "tokio",
            "kube::",
            "k8s_openapi",
            "ratatui",
            "crossterm",
        ],
    ),
    (
        "config",
        &[
            "crate::engine",
            "crate::cluster",
            "crate::app",
            "crate::ui",
            "crate::history",
            "crate::report",
            "crate::sim",
            "crate::cli",
            "crate::protocol",
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
    ),
    (
        "ui",
        &[
            "crate::cluster",
            "crate::run",
            "tokio",
            "kube::",
            "k8s_openapi",
            "Utc::now",
            "Instant::now",
        ],
    ),
    (
        "history",
        &[
            "crate::app",
            "crate::ui",
            "crate::cluster",
            "crate::cli",
            "crate::report",
            "crate::sim",
            "tokio",
            "kube::",
            "k8s_openapi",
            "ratatui",
            "crossterm",
            "Utc::now",
            "Local::now",
            "Instant::now",
            "SystemTime::now",
        ],
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let single = dir.with_extension("rs");
    if single.is_file() {
        out.push(single);
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Code lines only: comments and doc comments may name anything.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l.trim_start()))
        .filter(|(_, l)| !l.starts_with("//"))
}

#[test]
fn module_groups_respect_their_import_rules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = Vec::new();
    for (module, forbidden) in RULES {
        let mut files = Vec::new();
        rust_files(&src.join(module), &mut files);
        for file in files {
            let text = fs::read_to_string(&file).unwrap();
            for (n, line) in code_lines(&text) {
                for bad in forbidden.iter().filter(|b| line.contains(*b)) {
                    violations.push(format!("{}:{n}: `{bad}` in `{line}`", file.display()));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "import rules broken:\n{}",
        violations.join("\n")
    );
}

#[test]
fn engine_has_files_to_check() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine"),
        &mut files,
    );
    assert!(files.len() > 5, "the engine directory moved; update RULES");
}

#[test]
fn every_module_file_starts_with_a_module_doc() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let missing: Vec<String> = files
        .iter()
        .filter(|f| {
            !fs::read_to_string(f)
                .unwrap()
                .trim_start()
                .starts_with("//!")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "files without a //! module doc: {missing:?}"
    );
}
