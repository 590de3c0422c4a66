//! The fuzz targets' checks (fuzz/checks.rs) on the committed seed corpus and on every input a
//! fuzzing campaign found (fuzz/regressions/<target>/), so CI keeps them without cargo-fuzz.

#![allow(clippy::unwrap_used)] // Tests may fail loudly.

#[path = "../../fuzz/checks.rs"]
mod checks;

use std::path::Path;

/// Every file under `fuzz/corpus/<target>` and `fuzz/regressions/<target>`.
fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut out = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
    out.sort();
    out
}

fn run(target: &str, check: fn(&[u8])) {
    let inputs = inputs(target);
    assert!(!inputs.is_empty(), "no seeds for {target}");
    for (path, data) in inputs {
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{target}: {path}");
    }
}

#[test]
fn snapshot_seeds_and_regressions() {
    run("snapshot", checks::snapshot);
}

#[test]
fn journal_seeds_and_regressions() {
    run("journal", checks::journal);
}

#[test]
fn recommendations_seeds_and_regressions() {
    run("recommendations", checks::recommendations);
}

#[test]
fn alfred_config_seeds_and_regressions() {
    run("alfred_config", checks::alfred_config);
}

#[test]
fn scheduler_config_seeds_and_regressions() {
    run("scheduler_config", checks::scheduler_config);
}

#[test]
fn irstatus_seeds_and_regressions() {
    run("irstatus", checks::irstatus);
}

#[test]
fn keymap_seeds_and_regressions() {
    run("keymap", checks::keymap);
}

#[test]
fn theme_seeds_and_regressions() {
    run("theme", checks::theme);
}

#[test]
fn settings_seeds_and_regressions() {
    run("settings", checks::settings);
}
