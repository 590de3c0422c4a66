//! `ome-top fleet -o json|table` without a cluster: which contexts it reads (`--contexts`
//! wins over `[fleet] contexts` in config.toml, which wins over every context of the
//! kubeconfig; names and glob patterns), an unknown name or an empty pattern named with exit
//! code 2, and contexts that do not answer (a closed port each) named on stderr with exit
//! code 1 and `"analysis": null` in the document.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

/// A kubeconfig with one context per name, each pointing at its own closed port.
fn kubeconfig(dir: &Path, names: &[&str]) -> PathBuf {
    let mut text = String::from("apiVersion: v1\nkind: Config\nusers:\n- name: someone\n  user:\n    token: not-a-real-token\nclusters:\n");
    let mut contexts = String::from("contexts:\n");
    for name in names {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        text.push_str(&format!(
            "- name: {name}\n  cluster:\n    server: https://127.0.0.1:{port}\n    \
             insecure-skip-tls-verify: true\n"
        ));
        contexts.push_str(&format!(
            "- name: {name}\n  context:\n    cluster: {name}\n    user: someone\n"
        ));
    }
    text.push_str(&contexts);
    let path = dir.join("kubeconfig");
    std::fs::write(&path, text).unwrap();
    path
}

fn fleet(dir: &Path, config: &str, args: &[&str]) -> Output {
    let config_path = dir.join("config.toml");
    std::fs::write(&config_path, config).unwrap();
    crate::command::ome_top()
        .arg("--config")
        .arg(&config_path)
        .args(["fleet", "--timeout", "20", "--kubeconfig"])
        .arg(dir.join("kubeconfig"))
        .args(args)
        .env_remove("KUBECONFIG")
        .env_remove("OME_TOP_CONFIG")
        .output()
        .unwrap()
}

fn contexts(out: &Output) -> Vec<String> {
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(c["analysis"], Value::Null, "{c}");
            assert!(c["error"]
                .as_str()
                .unwrap()
                .starts_with("cluster unreachable"));
            c["context"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn the_config_chooses_by_pattern_and_the_flag_wins() {
    let dir = tempfile::tempdir().unwrap();
    kubeconfig(dir.path(), &["prod-eu", "dev", "prod-us"]);
    let config = "[fleet]\ncontexts = [\"prod-*\"]\n";
    let out = fleet(dir.path(), config, &["-o", "json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "none answered: {stderr}");
    assert_eq!(contexts(&out), ["prod-eu", "prod-us"]);
    for name in ["prod-eu", "prod-us"] {
        assert!(
            stderr.contains(&format!("ome-top: context {name}: cluster unreachable")),
            "{stderr}"
        );
    }
    let out = fleet(
        dir.path(),
        config,
        &["-o", "json", "--contexts", "dev,prod-us"],
    );
    assert_eq!(contexts(&out), ["dev", "prod-us"]);
    let out = fleet(dir.path(), "", &["-o", "json"]);
    assert_eq!(
        contexts(&out),
        ["prod-eu", "dev", "prod-us"],
        "every context"
    );
}

#[test]
fn the_table_names_each_context_that_did_not_answer() {
    let dir = tempfile::tempdir().unwrap();
    kubeconfig(dir.path(), &["prod-eu", "prod-us"]);
    let out = fleet(dir.path(), "", &["-o", "table"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("CONTEXT "), "{text}");
    for name in ["prod-eu", "prod-us"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(name) && l.ends_with("unreachable")),
            "{text}"
        );
        assert!(
            text.contains(&format!("  - {name}: cluster unreachable")),
            "{text}"
        );
    }
}

#[test]
fn an_unknown_context_or_an_empty_pattern_is_named() {
    let dir = tempfile::tempdir().unwrap();
    kubeconfig(dir.path(), &["prod-eu", "prod-us"]);
    let out = fleet(
        dir.path(),
        "",
        &["-o", "json", "--contexts", "prod-eu,staging"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "ome-top: context \"staging\" does not exist in the kubeconfig"
    );
    assert!(out.stdout.is_empty());
    let out = fleet(
        dir.path(),
        "[fleet]\ncontexts = [\"dev-*\"]\n",
        &["-o", "table"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "ome-top: no context of the kubeconfig matches \"dev-*\""
    );
    let out = fleet(
        dir.path(),
        "[fleet]\ncontexts = \"prod-eu\"\n",
        &["-o", "json"],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("fleet.contexts = \"prod-eu\""), "{stderr}");
}

#[test]
fn a_kubeconfig_that_does_not_load_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = fleet(dir.path(), "", &["-o", "json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("ome-top: cannot load kubeconfig "),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}
