//! Enforces the import rules of docs/architecture.md. This stands in for crate boundaries:
//! every `.rs` file under `src/` is found by walking the tree and checked against the rule of
//! its folder (`layers`: which layers a folder may import, what it must never name; `app`: the
//! app's own layers by folder, and no import cycle between its folders), the engine's domains
//! against `ENGINE_LAYERS`; a failure names the file, the line and the import.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

mod app;
mod cycles;
mod imports;
mod layers;

use std::fs;
use std::path::{Path, PathBuf};

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

/// Product files that may still return `Result<_, String>`: none. A file named here would be
/// skipped by `product_code_has_typed_errors`.
const STRING_ERRORS_ALLOWED: &[&str] = &[];

/// The code lines of `text` outside `#[cfg(test)]` items (`mod tests;` files are skipped by
/// name).
fn non_test_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let (mut test_attr, mut depth) = (false, 0usize);
    for (n, line) in code_lines(text) {
        if depth > 0 {
            depth = (depth + line.matches('{').count()).saturating_sub(line.matches('}').count());
            continue;
        }
        if line.starts_with("#[cfg(test)]") {
            test_attr = true;
            continue;
        }
        if test_attr && line.contains('{') {
            depth = line
                .matches('{')
                .count()
                .saturating_sub(line.matches('}').count());
            test_attr = false;
            continue;
        }
        test_attr = test_attr && !line.ends_with(';');
        out.push((n, line));
    }
    out
}

#[test]
fn product_code_has_typed_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let pattern = regex::Regex::new(r"Result<[^;]*, String>").unwrap();
    let mut found = Vec::new();
    for file in files {
        let shown = file.strip_prefix(root).unwrap().display().to_string();
        let test_file = shown.ends_with("tests.rs")
            || shown.contains("/tests/")
            || shown.ends_with("testkit.rs");
        if test_file || STRING_ERRORS_ALLOWED.iter().any(|a| shown.starts_with(a)) {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (n, line) in non_test_lines(&text) {
            if pattern.is_match(line) {
                found.push(format!("{shown}:{n}: {line}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "`Result<_, String>` in product code (use a thiserror enum of the layer):\n{}",
        found.join("\n")
    );
}

/// Which engine domains each engine domain may import (`crate::engine::<domain>`): the
/// dependencies point one way, from the analysis down to the model. Test modules (from
/// `mod tests {` on) may reach further. Kept in step with docs/architecture.md.
const ENGINE_LAYERS: &[(&str, &[&str])] = &[
    ("formats", &[]),
    ("model", &["fast"]),
    // The speed mechanisms sort move rows and Instances, so they see those row types.
    ("fast", &["model", "planning", "workloads"]),
    ("alfred_config", &["model", "fast", "formats"]),
    ("migration", &["model", "fast", "formats"]),
    ("recommendations", &["model", "fast", "formats"]),
    ("journal", &["model", "fast", "formats", "migration"]),
    ("index", &["model", "fast"]),
    ("nodes", &["model", "fast", "index", "alfred_config"]),
    (
        "workloads",
        &["model", "fast", "index", "alfred_config", "migration"],
    ),
    (
        "pools",
        &["model", "fast", "index", "alfred_config", "nodes"],
    ),
    ("gangs", &["model", "fast", "formats", "index"]),
    ("lints", &["model", "fast", "index", "gangs", "nodes"]),
    (
        "unblock",
        &[
            "model",
            "fast",
            "index",
            "gangs",
            "nodes",
            "pools",
            "planning",
            "workloads",
            "journal",
            "alfred_config",
            "explain",
        ],
    ),
    (
        "explain",
        &["model", "fast", "index", "gangs", "nodes", "pools"],
    ),
    (
        "timeline",
        &["model", "fast", "nodes", "alfred_config", "recommendations"],
    ),
    (
        "planning",
        &[
            "model",
            "fast",
            "index",
            "alfred_config",
            "nodes",
            "pools",
            "workloads",
            "journal",
            "migration",
        ],
    ),
];

/// The engine domains a code line names (`crate::engine::<domain>`).
fn engine_domains(line: &str) -> Vec<&str> {
    line.match_indices("crate::engine::")
        .map(|(at, m)| {
            let rest = &line[at + m.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// Code lines before the file's test module.
fn product_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    code_lines(text).take_while(|(_, l)| !l.starts_with("mod tests"))
}

#[test]
fn engine_domains_import_only_the_layers_below_them() {
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let mut violations = Vec::new();
    let mut seen = Vec::new();
    for entry in fs::read_dir(&engine).unwrap().flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        let domain = path.file_name().unwrap().to_string_lossy().to_string();
        if domain == "analysis" {
            continue; // the pipeline: it composes every domain
        }
        let Some((_, allowed)) = ENGINE_LAYERS.iter().find(|(d, _)| *d == domain) else {
            violations.push(format!("{domain}: no layer rule (add it to ENGINE_LAYERS)"));
            continue;
        };
        seen.push(domain.clone());
        let mut files = Vec::new();
        rust_files(&path, &mut files);
        // Unit-test files (`tests.rs`, `tests/`) may reach further, like inline test modules.
        let product = files.into_iter().filter(|f| {
            !f.components()
                .any(|c| c.as_os_str() == "tests" || c.as_os_str() == "tests.rs")
        });
        for file in product {
            let text = fs::read_to_string(&file).unwrap();
            for (n, line) in product_lines(&text) {
                for used in engine_domains(line) {
                    if used != domain && !allowed.contains(&used) {
                        violations.push(format!("{}:{n}: {domain} imports {used}", file.display()));
                    }
                }
            }
        }
    }
    assert!(
        seen.len() > 10,
        "the engine's domain folders moved; update ENGINE_LAYERS"
    );
    assert!(
        violations.is_empty(),
        "engine layers broken:\n{}",
        violations.join("\n")
    );
}

/// Pointer identity (addresses, `ptr::eq`, `Arc::ptr_eq`) is a speed mechanism: it lives in
/// `engine::fast`, next to the plain reference it is tested against, and nowhere else.
#[test]
fn pointer_identity_lives_only_in_the_speed_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let fast = src.join("engine/fast");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with(&fast)) {
        let text = fs::read_to_string(file).unwrap();
        for (n, line) in code_lines(&text) {
            for bad in ["as_ptr(", "ptr::eq", "ptr_eq("] {
                if line.contains(bad) {
                    violations.push(format!("{}:{n}: `{bad}` in `{line}`", file.display()));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "pointer identity outside engine::fast:\n{}",
        violations.join("\n")
    );
}

/// Backticked names of a Markdown table cell.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// docs/architecture.md's "Engine layers" table states exactly `ENGINE_LAYERS`.
#[test]
fn the_architecture_doc_states_the_enforced_layers() {
    let doc =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .unwrap();
    let section = doc
        .split("### Engine layers")
        .nth(1)
        .and_then(|s| s.split("\n### ").next())
        .expect("docs/architecture.md has an \"Engine layers\" section");
    let mut stated: Vec<(String, Vec<String>)> = Vec::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').collect();
        let (domains, allowed) = (ticked(cells[1]), ticked(cells[2]));
        for d in domains.into_iter().filter(|d| d != "analysis") {
            let mut allowed = allowed.clone();
            allowed.sort();
            stated.push((d, allowed));
        }
    }
    stated.sort();
    let mut enforced: Vec<(String, Vec<String>)> = ENGINE_LAYERS
        .iter()
        .map(|(d, allowed)| {
            let mut allowed: Vec<String> = allowed.iter().map(|a| a.to_string()).collect();
            allowed.sort();
            (d.to_string(), allowed)
        })
        .collect();
    enforced.sort();
    assert_eq!(
        stated, enforced,
        "docs/architecture.md and ENGINE_LAYERS disagree"
    );
}
