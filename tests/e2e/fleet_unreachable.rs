//! A fleet member behind a proxy whose API server is gone: the proxy answers `/version` but
//! every list with `503 Service Unavailable` and a plain-text body (as Envoy or a load
//! balancer does). Its Fleet row and its own views, opened with Enter, name the server's answer
//! (the HTTP status and the body's first line) within seconds — never "loading…" for minutes,
//! never kube's "Failed to parse error data". No control plane needed: the proxy is a thread of
//! this test on a loopback port.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};

use crate::support;

use support::tmux::Tmux;

const VERSION: &str = r#"{"major":"1","minor":"30","gitVersion":"v1.30.0","gitCommit":"","gitTreeState":"","buildDate":"","goVersion":"","compiler":"","platform":""}"#;
const GONE: &str =
    "upstream connect error or disconnect/reset before headers\nreset reason: overflow";

/// Answers one request: `/version` with a version, anything else with 503 and plain text.
fn answer(stream: TcpStream) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line.trim() != "" {
        line.clear();
    }
    let (status, kind, body) = if request.contains(" /version") {
        ("200 OK", "application/json", VERSION)
    } else {
        ("503 Service Unavailable", "text/plain", GONE)
    };
    let reply = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = stream;
    let _ = stream.write_all(reply.as_bytes());
}

/// A proxy in front of nothing, on a loopback port; returns its address.
fn dead_backend_proxy() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || answer(stream));
        }
    });
    format!("http://{addr}")
}

#[test]
fn a_member_behind_a_dead_proxy_says_the_servers_answer() {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    let server = dead_backend_proxy();
    std::fs::write(
        &kubeconfig,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: proxied\n\
             clusters:\n- name: proxied\n  cluster:\n    server: {server}\n\
             users:\n- name: u\n  user:\n    token: t\n\
             contexts:\n- name: proxied\n  context:\n    cluster: proxied\n    user: u\n"
        ),
    )
    .unwrap();
    let args = format!("fleet --readonly --kubeconfig {}", kubeconfig.display());
    let t = Tmux::start(120, 40, &args);
    let fleet = t.wait_for("HTTP 503 Service Unavailable: upstream connect error");
    assert!(!fleet.contains("Failed to parse"), "{fleet}");
    t.keys("Enter");
    let shown = t.wait_for("ctx proxied (fleet of 1 watched)");
    let shown = if shown.contains("HTTP 503") {
        shown
    } else {
        t.wait_for("HTTP 503")
    };
    assert!(shown.contains("API unreachable since"), "{shown}");
    assert!(!shown.contains("loading…"), "{shown}");
    assert!(!shown.contains("Failed to parse"), "{shown}");
}
