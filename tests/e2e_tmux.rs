//! End to end in a real terminal: runs the real `ome-top demo --seed 1` binary inside tmux,
//! walks every view with the default keys, opens a node detail and the help overlay, quits, and
//! checks the captured pane each time. Needs `tmux` (a missing tmux fails with what to install).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.
#![allow(clippy::disallowed_methods)] // Waiting on a real terminal needs a monotonic deadline.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
    session: &'static str,
    _home: tempfile::TempDir,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux is required for the end-to-end test: install it (apt install tmux)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn start(cols: u16, rows: u16) -> Tmux {
        let home = tempfile::tempdir().unwrap();
        let t = Tmux {
            socket: format!("ome-top-e2e-{}", std::process::id()),
            session: "e2e",
            _home: home,
        };
        let cmd = format!(
            "env HOME={} XDG_DATA_HOME={0}/data XDG_CONFIG_HOME={0}/config {} demo --seed 1",
            t._home.path().display(),
            env!("CARGO_BIN_EXE_ome-top")
        );
        let (w, h) = (cols.to_string(), rows.to_string());
        t.run(&[
            "new-session",
            "-d",
            "-s",
            t.session,
            "-x",
            &w,
            "-y",
            &h,
            &cmd,
        ]);
        t
    }

    fn pane(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", self.session])
    }

    fn keys(&self, keys: &str) {
        self.run(&["send-keys", "-t", self.session, keys]);
    }

    /// Waits until the pane shows `text` (the demo publishes a feed every second).
    fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let pane = self.pane();
            if pane.contains(text) {
                return pane;
            }
            assert!(
                Instant::now() < deadline,
                "pane never showed {text:?}:\n{pane}"
            );
            sleep(Duration::from_millis(200));
        }
    }

    fn alive(&self) -> bool {
        self.run(&["list-sessions"]).contains(self.session)
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

#[test]
fn demo_in_a_real_terminal_walks_every_view() {
    let t = Tmux::start(160, 45);
    let pools = t.wait_for("Pools [3/3]");
    assert!(pools.contains("demo seed 1"), "{pools}");
    assert!(pools.contains("NVIDIA-H100-80GB-HBM3"), "{pools}");
    assert!(pools.contains("gaudi2"), "{pools}");

    t.keys("2");
    let nodes = t.wait_for("Nodes [");
    assert!(
        nodes.contains("gpu-h100-") || nodes.contains("gpu-a100-"),
        "{nodes}"
    );
    t.keys("Enter");
    let detail = t.wait_for("health:");
    assert!(detail.contains("Node"), "{detail}");
    t.keys("Escape");

    t.keys("3");
    let moves = t.wait_for("Moves [");
    assert!(moves.contains("Fragmentation"), "{moves}");

    t.keys("4");
    let journal = t.wait_for("Journal [");
    assert!(journal.contains("stalled"), "{journal}");

    t.keys("5");
    let gangs = t.wait_for("Gangs [");
    assert!(gangs.contains("ome.io/rack"), "{gangs}");

    t.keys("6");
    let lints = t.wait_for("Lints [");
    assert!(lints.contains("reservation-cordon"), "{lints}");

    t.keys("?");
    t.wait_for("Keys (esc to close");
    t.keys("Escape");

    t.keys("q");
    let deadline = Instant::now() + Duration::from_secs(10);
    while t.alive() && Instant::now() < deadline {
        sleep(Duration::from_millis(100));
    }
    assert!(!t.alive(), "q did not quit:\n{}", t.pane());
}
