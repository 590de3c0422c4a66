//! A large snapshot loads behind a screen that says how far it is, then the TUI opens on it;
//! one that turns out unreadable gives the terminal back and exits 2 with the reason. The file
//! is written here: kwok-shaped pods (tests/fixtures/k8s) on 8-GPU nodes, past the size from
//! which the loading screen shows.

use std::fmt::Write as _;
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::tmux::Tmux;

const POD: &str = include_str!("../fixtures/k8s/wire-pod-kwok.json");

/// A List of `nodes` nodes with 8 pods each, as JSON text.
fn big_snapshot(nodes: usize) -> String {
    let pod: Value = serde_json::from_str(POD).unwrap();
    let mut out = String::from(r#"{"apiVersion":"v1","kind":"List","items":["#);
    for n in 0..nodes {
        let node = format!(
            r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"gpu-{n}","uid":"n-{n}",
            "labels":{{"nvidia.com/gpu.product":"H100"}}}},"status":{{"allocatable":
            {{"nvidia.com/gpu":"8"}}}}}}"#
        );
        out.push_str(if n == 0 { "" } else { "," });
        out.push_str(&node);
        for p in 0..8 {
            let mut pod = pod.clone();
            pod["metadata"]["name"] = format!("raw-{n}-{p}").into();
            pod["metadata"]["uid"] = format!("p-{n}-{p}").into();
            pod["spec"]["nodeName"] = format!("gpu-{n}").into();
            let _ = write!(out, ",{pod}");
        }
    }
    out.push_str("]}");
    out
}

fn flags(t: &Tmux) -> String {
    let f = "#{alternate_on} #{cursor_flag}";
    t.run(&["display", "-p", "-t", t.session, f])
        .trim()
        .to_string()
}

#[test]
fn a_large_snapshot_loads_behind_a_progress_screen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    let text = big_snapshot(900);
    assert!(
        text.len() as u64 > ome_top::run::LOADING_SCREEN_FROM,
        "{}",
        text.len()
    );
    std::fs::write(&path, &text).unwrap();
    let t = Tmux::start(120, 40, &format!("--snapshot {}", path.display()));
    // Watch the pane until the TUI shows the pools, keeping every loading screen seen.
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut screens = Vec::new();
    let pools = loop {
        let pane = t.pane();
        if pane.contains("Pools [1/1]") {
            break pane;
        }
        if pane.contains("reading a snapshot") {
            screens.push(pane);
        } else {
            assert!(Instant::now() < deadline, "no pools:\n{pane}");
        }
        sleep(Duration::from_millis(50));
    };
    let loading = screens.first().expect("the loading screen was never shown");
    assert!(loading.contains(&path.display().to_string()), "{loading}");
    assert!(
        loading.contains(" MB") && loading.contains("objects"),
        "{loading}"
    );
    assert!(pools.contains("H100") && pools.contains("900"), "{pools}");
    assert!(!pools.contains("reading a snapshot"), "{pools}");

    // Cut short: the screen shows the load, then the shell gets the terminal back and the
    // reason, with exit status 2.
    let cut = dir.path().join("cut.json");
    let past = ome_top::run::LOADING_SCREEN_FROM as usize + 1_000_000;
    std::fs::write(&cut, &text[..past]).unwrap();
    let script = format!(
        "\"$OME_TOP\" --snapshot {}; echo \"exit=$?\"; sleep 600",
        cut.display()
    );
    let t = Tmux::start_script(120, 40, &script);
    let pane = t.wait_for("exit=");
    assert!(pane.contains("exit=2"), "{pane}");
    assert!(
        pane.contains("snapshot is not valid JSON: EOF while parsing"),
        "{pane}"
    );
    assert_eq!(flags(&t), "0 1", "{pane}");
}
