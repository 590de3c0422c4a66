//! The log while the TUI owns the terminal: `ome-top demo --log-level debug` in tmux shows
//! only the TUI (no log line reaches the screen), and after `q` the log file holds the start
//! line, the demo's settings, why the TUI ended and the exit code.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.
#![allow(clippy::disallowed_methods)] // Waiting on a real terminal needs a monotonic deadline.

use crate::support;

use std::thread::sleep;
use std::time::{Duration, Instant};

use support::tmux::Tmux;

#[test]
fn the_tui_logs_to_its_file_and_never_to_the_screen() {
    let t = Tmux::start(120, 40, "demo --seed 3 --log-level debug");
    let pane = t.wait_for("Pools [3/3]");
    for stray in [" INFO ", " DEBUG ", "ome_top::", "ome-top starts"] {
        assert!(!pane.contains(stray), "{stray:?} on the screen:\n{pane}");
    }
    let running = t.log_text();
    assert!(running.contains("mode=\"demo\""), "{running}");
    assert!(running.contains("demo fleet seed=3"), "{running}");
    t.keys("C-c");
    let deadline = Instant::now() + Duration::from_secs(10);
    let log = loop {
        let log = t.log_text();
        if log.contains("ome-top exits") {
            break log;
        }
        assert!(Instant::now() < deadline, "no exit line:\n{log}");
        sleep(Duration::from_millis(100));
    };
    assert!(
        log.contains("the TUI ends reason=\"the operator quit\""),
        "{log}"
    );
    assert!(log.contains("ome-top exits exit_code=0"), "{log}");
}
