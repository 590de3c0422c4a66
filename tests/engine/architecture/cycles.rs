//! No file-level import cycle in `src/app` spans more than `MAX_CYCLE` files — a port of
//! `../shared/tools/rust_cycles.py`: file-level `use` and `crate::`/`super::` paths as text,
//! a `mod.rs` standing for its folder — and the cycle finder the app's folder check shares.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::rust_files;

/// The most files one import cycle of `src/app` may span.
const MAX_CYCLE: usize = 2;

/// The text before the file's test module, as the cycle script reads it.
fn product_text(file: &Path) -> String {
    let text = fs::read_to_string(file).unwrap();
    text.split("#[cfg(test)]").next().unwrap_or("").to_string()
}

/// Module path (segments below `src/`) → file, as `rust_cycles.py` builds it: `mod.rs`
/// stands for its folder; `tests.rs` and files in `tests` folders are left out.
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut files = Vec::new();
    rust_files(&src.join("app"), &mut files);
    let mut mods = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap().with_extension("");
        let mut path: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let last = path.last().cloned().unwrap_or_default();
        if last == "tests" || path.iter().any(|p| p == "tests") {
            continue;
        }
        if last == "mod" {
            path.pop();
        }
        mods.insert(path, file);
    }
    mods
}

/// The longest module path that is a file, for an imported path.
fn resolve(mods: &BTreeMap<Vec<String>, PathBuf>, path: &[String]) -> Option<Vec<String>> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| mods.contains_key(p))
}

/// The import paths of `text`: `use` trees split at their first brace, and every
/// `crate::…`/`super::…` path.
fn import_heads(text: &str) -> Vec<String> {
    let uses = Regex::new(r"\buse\s+([^;]+);").unwrap();
    let paths = Regex::new(r"\b((?:crate|super)(?:::\w+)+)").unwrap();
    let spaces = Regex::new(r"\s+").unwrap();
    let found = uses
        .captures_iter(text)
        .chain(paths.captures_iter(text))
        .map(|c| spaces.replace_all(&c[1], "").into_owned());
    let mut heads = Vec::new();
    for used in found {
        match used.split_once('{') {
            Some((base, rest)) => {
                for part in rest.trim_end_matches('}').split(',') {
                    let part = part.split('{').next().unwrap_or("");
                    heads.push(format!("{base}{}", part.trim_matches(':')));
                }
            }
            None => heads.push(used),
        }
    }
    heads
}

/// File-level import edges inside `src/app`.
fn edges(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mods = modules(src);
    let mut out: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (m, file) in &mods {
        let here: Vec<String> = if file.ends_with("mod.rs") {
            m.clone()
        } else {
            m[..m.len() - 1].to_vec()
        };
        let targets = out.entry(m.clone()).or_default();
        for head in import_heads(&product_text(file)) {
            let parts: Vec<&str> = head
                .split("::")
                .filter(|p| !p.is_empty() && *p != "self")
                .collect();
            let path: Vec<String> = match parts.first() {
                Some(&"crate") => parts[1..].iter().map(|p| p.to_string()).collect(),
                Some(&"super") => {
                    let ups = parts.iter().take_while(|p| **p == "super").count();
                    let mut base = here[..here.len().saturating_sub(ups)].to_vec();
                    base.extend(parts[ups..].iter().map(|p| p.to_string()));
                    base
                }
                _ => continue,
            };
            if let Some(t) = resolve(&mods, &path) {
                if t != *m && t[0] == "app" {
                    targets.insert(t);
                }
            }
        }
    }
    out
}

/// Strongly connected components of more than one module, largest first (Tarjan's algorithm,
/// recursive: the app has tens of files).
pub fn cycles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<String>>,
    }
    fn strong<'a>(w: &mut Walk<'a>, v: &'a Vec<String>) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        w.on.insert(v);
        let targets = w.edges.get(v).into_iter().flatten();
        for t in targets {
            if !w.index.contains_key(t) {
                strong(w, t);
                let lt = w.low[t];
                let lv = w.low.get_mut(v).unwrap();
                *lv = (*lv).min(lt);
            } else if w.on.contains(t) {
                let it = w.index[t];
                let lv = w.low.get_mut(v).unwrap();
                *lv = (*lv).min(it);
            }
        }
        if w.low[v] == w.index[v] {
            let mut comp = Vec::new();
            while let Some(x) = w.stack.pop() {
                w.on.remove(x);
                comp.push(x.join("/"));
                if x == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                w.out.push(comp);
            }
        }
    }
    let mut w = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !w.index.contains_key(v) {
            strong(&mut w, v);
        }
    }
    w.out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    w.out
}

#[test]
fn no_import_cycle_in_the_app_spans_more_than_two_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = edges(&src);
    assert!(graph.len() > 20, "src/app moved; update this test");
    let big: Vec<String> = cycles(&graph)
        .into_iter()
        .filter(|c| c.len() > MAX_CYCLE)
        .map(|c| format!("{} files: {c:?}", c.len()))
        .collect();
    assert!(
        big.is_empty(),
        "import cycles in src/app (no more than {MAX_CYCLE} files):\n{}",
        big.join("\n")
    );
}

#[test]
fn the_cycle_finder_sees_a_cycle() {
    let edge = |a: &str, b: &str| (vec![a.to_string()], BTreeSet::from([vec![b.to_string()]]));
    let graph = BTreeMap::from([edge("a", "b"), edge("b", "c"), edge("c", "a")]);
    assert_eq!(cycles(&graph), vec![vec!["a", "b", "c"]]);
    let heads = import_heads("use crate::app::{state::AppState, views::x};");
    assert!(
        heads.contains(&"crate::app::state::AppState".to_string()),
        "{heads:?}"
    );
    assert!(
        heads.contains(&"crate::app::views::x".to_string()),
        "{heads:?}"
    );
}
