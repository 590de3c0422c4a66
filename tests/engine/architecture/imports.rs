//! The crate paths a source file names, read as text the way `../shared/tools/rust_cycles.py`
//! reads them: every `use` tree (braces expanded), every `crate::…` and `super::…` path,
//! `super::` resolved against the file's own module. Comment lines and `#[cfg(test)]` items are
//! left out: the rules are about what ships.

use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::{non_test_lines, rust_files};

/// One crate path a file names.
#[derive(Debug, Clone)]
pub struct Import {
    /// The line it is on (1-based).
    pub line: usize,
    /// Its module path below `crate::` (`["app", "update", "nav"]`).
    pub path: Vec<String>,
    /// The code line, trimmed, for the failure message.
    pub code: String,
}

/// A source file and its module path below `src/` (`mod.rs` stands for its folder).
#[derive(Debug, Clone)]
pub struct Source {
    /// The file.
    pub file: PathBuf,
    /// Its path below `src/`, with `/` (`app/update/nav.rs`).
    pub shown: String,
    /// Its module path (`["app", "update", "nav"]`; `lib.rs` and `main.rs` are `["lib"]`,
    /// `["main"]`).
    pub module: Vec<String>,
    /// Whether the whole file is test code (`tests.rs`, a `tests/` folder, `testkit.rs`).
    pub is_test: bool,
}

/// Every `.rs` file under `src`, found by walking the tree.
pub fn sources(src: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let rel = file.strip_prefix(src).unwrap().to_path_buf();
            let shown = rel.to_string_lossy().replace('\\', "/");
            let mut module: Vec<String> = rel
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            let is_test = module.iter().any(|m| m == "tests" || m == "testkit");
            Source {
                file,
                shown,
                module,
                is_test,
            }
        })
        .collect()
}

/// The text of `file`'s shipped code: comment lines and `#[cfg(test)]` items blanked, line
/// numbers kept.
fn shipped_text(file: &Path) -> Vec<String> {
    let text = fs::read_to_string(file).unwrap();
    let mut lines = vec![String::new(); text.lines().count()];
    for (n, line) in non_test_lines(&text) {
        lines[n - 1] = line.to_string();
    }
    lines
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    // `x as y` keeps `x`: the marker survives the whitespace going.
    let tree = Regex::new(r"\s+as\s+").unwrap().replace_all(tree, "@");
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    expand_into("", &tree, &mut out);
    out
}

fn expand_into(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let (mut depth, mut start) = (0usize, 0usize);
    let mut parts = Vec::new();
    for (i, c) in tree.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&tree[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tree[start..]);
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        match part.split_once('{') {
            Some((base, rest)) => {
                let inner = rest.strip_suffix('}').unwrap_or(rest);
                expand_into(&format!("{prefix}{base}"), inner, out);
            }
            None => out.push(format!("{prefix}{part}")),
        }
    }
}

/// The module path a `crate::…`/`super::…` path names, from the module `here`; `None` for
/// any other path.
fn resolve(here: &[String], used: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = used
        .split("::")
        .map(|p| p.split(['@', ' ']).next().unwrap_or(p).trim())
        .filter(|p| !p.is_empty() && *p != "self" && *p != "*")
        .collect();
    match parts.first() {
        Some(&"crate") => Some(parts[1..].iter().map(|p| p.to_string()).collect()),
        Some(&"super") => {
            let ups = parts.iter().take_while(|p| **p == "super").count();
            let mut base = here[..here.len().saturating_sub(ups)].to_vec();
            base.extend(parts[ups..].iter().map(|p| p.to_string()));
            Some(base)
        }
        _ => None,
    }
}

/// The line of byte `offset` in `text` (1-based).
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// Every crate path the shipped code of `source` names.
pub fn imports(source: &Source) -> Vec<Import> {
    let lines = shipped_text(&source.file);
    let text = lines.join("\n");
    // `super` is the parent of the file's own module (a `mod.rs`'s module is its folder).
    let here = &source.module;
    let uses = Regex::new(r"\buse\s+([^;]+);").unwrap();
    let paths = Regex::new(r"\b(?:crate|super)(?:::\w+)+").unwrap();
    let mut found = Vec::new();
    let mut push = |offset: usize, used: &str| {
        if let Some(path) = resolve(here, used) {
            let line = line_of(&text, offset);
            let code = lines[line - 1].trim().to_string();
            found.push(Import { line, path, code });
        }
    };
    for m in uses.captures_iter(&text) {
        let tree = m.get(1).unwrap();
        for used in expand(tree.as_str()) {
            push(tree.start(), &used);
        }
    }
    for m in paths.find_iter(&text) {
        push(m.start(), m.as_str());
    }
    found
}

#[test]
fn use_trees_expand_and_super_resolves() {
    assert_eq!(
        expand("crate::app::{state::AppState, views::{a, b::C}}"),
        [
            "crate::app::state::AppState",
            "crate::app::views::a",
            "crate::app::views::b::C"
        ]
    );
    let here = ["app".to_string(), "update".to_string()];
    assert_eq!(
        resolve(&here, "super::input::key"),
        Some(vec!["app".into(), "input".into(), "key".into()])
    );
    assert_eq!(
        resolve(&here, "crate::fmt::age as age_of"),
        Some(vec!["fmt".into(), "age".into()])
    );
    assert_eq!(resolve(&here, "std::fs"), None);
}
