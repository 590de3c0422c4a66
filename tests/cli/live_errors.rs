//! The live commands' start-up errors through the real binary: a kubeconfig that does not
//! load or a context that does not exist is a one-line error with exit code 2; a cluster that
//! does not answer is exit code 3. No API server is needed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::PathBuf;
use std::process::Output;

fn ome_top(args: &[&str]) -> Output {
    crate::command::ome_top()
        .args(args)
        .env_remove("KUBECONFIG")
        .output()
        .unwrap()
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ome-top-live-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A kubeconfig whose only context points at a port nothing listens on.
fn closed_port_kubeconfig() -> PathBuf {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    temp_file(
        &format!("closed-{port}.yaml"),
        &format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: nowhere\n\
             clusters:\n- name: nowhere\n  cluster:\n    server: https://127.0.0.1:{port}\n    \
             insecure-skip-tls-verify: true\n\
             users:\n- name: someone\n  user:\n    token: not-a-real-token\n\
             contexts:\n- name: nowhere\n  context:\n    cluster: nowhere\n    user: someone\n"
        ),
    )
}

fn assert_one_line_error(out: &Output, code: i32, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(needle), "{needle:?} in {stderr}");
    assert!(out.stdout.is_empty(), "nothing on stdout");
}

#[test]
fn a_kubeconfig_that_does_not_load_is_exit_2() {
    let missing = std::env::temp_dir().join("ome-top-no-such-kubeconfig.yaml");
    for cmd in [vec!["analyze"], vec!["dump", "-o", "/dev/null"]] {
        let mut args = cmd.clone();
        args.extend(["--kubeconfig", missing.to_str().unwrap()]);
        assert_one_line_error(&ome_top(&args), 2, "cannot load kubeconfig");
    }
    let garbage = temp_file("garbage.yaml", "clusters: [this is: not: a kubeconfig\n");
    let out = ome_top(&["analyze", "--kubeconfig", garbage.to_str().unwrap()]);
    assert_one_line_error(&out, 2, "cannot load kubeconfig");
}

/// A missing kubeconfig names its path once, plainly (not `'"/path"'`), and points at the demo,
/// whether it came from `--kubeconfig`, `$KUBECONFIG` or the TUI's start.
#[test]
fn a_missing_kubeconfig_names_its_path_once_and_suggests_the_demo() {
    let missing = std::env::temp_dir().join("ome-top-no-such-kubeconfig.yaml");
    let path = missing.to_str().unwrap();
    let by_env = |args: &[&str]| {
        crate::command::ome_top()
            .args(args)
            .env("KUBECONFIG", path)
            .output()
            .unwrap()
    };
    let outputs = [
        ome_top(&["analyze", "--kubeconfig", path]),
        by_env(&["analyze"]),
        by_env(&[]),
    ];
    for out in &outputs {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
        assert_eq!(stderr.matches(path).count(), 1, "the path once: {stderr}");
        assert!(!stderr.contains("'\""), "no doubled quotes: {stderr}");
        assert!(stderr.contains("No such file"), "the cause: {stderr}");
        assert!(stderr.contains("`ome-top demo`"), "the demo: {stderr}");
    }
}

#[test]
fn a_context_that_does_not_exist_is_exit_2() {
    let kubeconfig = closed_port_kubeconfig();
    let out = ome_top(&[
        "analyze",
        "--kubeconfig",
        kubeconfig.to_str().unwrap(),
        "--context",
        "no-such-context",
    ]);
    assert_one_line_error(&out, 2, "no-such-context");
}

#[test]
fn an_unreachable_cluster_is_exit_3() {
    let kubeconfig = closed_port_kubeconfig();
    let path = kubeconfig.to_str().unwrap();
    assert_one_line_error(
        &ome_top(&["analyze", "--kubeconfig", path]),
        3,
        "cluster unreachable",
    );
    let out = ome_top(&["dump", "-o", "/dev/null", "--kubeconfig", path]);
    assert_one_line_error(&out, 3, "cluster unreachable");
    // The message names the server it could not reach.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cluster unreachable: https://127.0.0.1:"),
        "{err}"
    );
}

/// `--kubeconfig`, `--context`, `--config` and the other global options work before or after
/// the subcommand: the same file is read either way.
#[test]
fn global_options_work_before_or_after_the_subcommand() {
    let missing = std::env::temp_dir().join("ome-top-global-no-such-kubeconfig.yaml");
    let missing = missing.to_str().unwrap();
    for args in [
        vec!["--kubeconfig", missing, "analyze"],
        vec!["analyze", "--kubeconfig", missing],
        vec!["--kubeconfig", missing, "dump", "-o", "/dev/null"],
        vec!["fleet", "-o", "json", "--kubeconfig", missing],
        vec!["--kubeconfig", missing, "fleet", "-o", "json"],
    ] {
        let out = ome_top(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(missing),
            "{args:?} reads the file named: {stderr}"
        );
    }
    let bad = temp_file("bad-config.toml", "log-level = [not toml\n");
    let snapshot = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/examples/mixed-fleet.json"
    );
    for args in [
        vec![
            "--config",
            bad.to_str().unwrap(),
            "analyze",
            "--snapshot",
            snapshot,
        ],
        vec![
            "analyze",
            "--snapshot",
            snapshot,
            "--config",
            bad.to_str().unwrap(),
        ],
    ] {
        let out = ome_top(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("bad-config.toml"), "{args:?}: {stderr}");
    }
}
