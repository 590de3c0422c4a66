//! Driving the real `ome-top` binary in a real terminal: tmux with its own socket, keys sent
//! with `send-keys`, the screen read with `capture-pane`. Needs `tmux` (a missing tmux fails
//! with what to install).

#![allow(clippy::disallowed_methods)] // Waiting on a real terminal needs a monotonic deadline.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A tmux server of its own (socket per instance, so tests of one binary may run side by side)
/// running one command in a fixed-size pane.
pub struct Tmux {
    socket: String,
    pub session: &'static str,
    _home: tempfile::TempDir,
    size: (u16, u16),
}

/// Tmux instances started by this process (part of each socket name).
static STARTED: AtomicUsize = AtomicUsize::new(0);

impl Tmux {
    pub fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux is required for the end-to-end test: install it (apt install tmux)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Starts `ome-top ARGS` (the test binary's build) with a private HOME, so the history
    /// store and config live in a temp dir.
    pub fn start(cols: u16, rows: u16, args: &str) -> Tmux {
        let home = tempfile::tempdir().unwrap();
        let n = STARTED.fetch_add(1, Ordering::Relaxed);
        let t = Tmux {
            socket: format!("ome-top-e2e-{}-{n}", std::process::id()),
            session: "e2e",
            _home: home,
            size: (cols, rows),
        };
        t.launch(args);
        t
    }

    /// Quits the running `ome-top` with Ctrl-C (at once, from any view or detail; `q` would
    /// ask first) and starts `ome-top ARGS` again with the same HOME, hence the same history
    /// store and config.
    pub fn restart(&self, args: &str) {
        self.keys("C-c");
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.alive() {
            assert!(
                Instant::now() < deadline,
                "ctrl-c did not quit:\n{}",
                self.pane()
            );
            sleep(Duration::from_millis(100));
        }
        self.launch(args);
    }

    /// Starts `sh -c SCRIPT` with the same private HOME; `$OME_TOP` in the script is the
    /// binary (so a test can read what the shell sees after `ome-top` ends).
    pub fn start_script(cols: u16, rows: u16, script: &str) -> Tmux {
        let t = Tmux::start_idle(cols, rows);
        let quoted = script.replace('\'', "'\\''");
        let cmd = format!(
            "env HOME={} XDG_DATA_HOME={0}/data XDG_CONFIG_HOME={0}/config \
             XDG_STATE_HOME={0}/state XDG_CACHE_HOME={0}/cache OME_TOP={} sh -c '{quoted}'",
            t._home.path().display(),
            env!("CARGO_BIN_EXE_ome-top")
        );
        t.new_session(&cmd);
        t
    }

    /// A tmux server of its own with a private HOME, nothing started yet.
    fn start_idle(cols: u16, rows: u16) -> Tmux {
        let home = tempfile::tempdir().unwrap();
        let n = STARTED.fetch_add(1, Ordering::Relaxed);
        Tmux {
            socket: format!("ome-top-e2e-{}-{n}", std::process::id()),
            session: "e2e",
            _home: home,
            size: (cols, rows),
        }
    }

    fn new_session(&self, cmd: &str) {
        let (w, h) = (self.size.0.to_string(), self.size.1.to_string());
        self.run(&[
            "new-session",
            "-d",
            "-s",
            self.session,
            "-x",
            &w,
            "-y",
            &h,
            cmd,
        ]);
    }

    fn launch(&self, args: &str) {
        let cmd = format!(
            "env HOME={} XDG_DATA_HOME={0}/data XDG_CONFIG_HOME={0}/config \
             XDG_STATE_HOME={0}/state XDG_CACHE_HOME={0}/cache {} {args}",
            self._home.path().display(),
            env!("CARGO_BIN_EXE_ome-top")
        );
        let (w, h) = (self.size.0.to_string(), self.size.1.to_string());
        self.run(&[
            "new-session",
            "-d",
            "-s",
            self.session,
            "-x",
            &w,
            "-y",
            &h,
            &cmd,
        ]);
    }

    /// The private HOME the binary runs with (its history store lives below it).
    pub fn home(&self) -> &std::path::Path {
        self._home.path()
    }

    /// Everything in the binary's log directory (below the private HOME), oldest file first.
    pub fn log_text(&self) -> String {
        let dir = self.home().join("state/ome-top/log");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .collect()
    }

    pub fn pane(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", self.session])
    }

    pub fn keys(&self, keys: &str) {
        self.run(&["send-keys", "-t", self.session, keys]);
    }

    /// Types `text` literally (no key-name lookup).
    pub fn type_text(&self, text: &str) {
        self.run(&["send-keys", "-t", self.session, "-l", text]);
    }

    /// Waits until the pane shows `text` (the demo publishes a feed every second) and has
    /// settled: the terminal receives a frame in several writes, so a capture taken mid-frame
    /// may show a title before its rows. The pane is returned once two captures 150 ms apart
    /// agree.
    pub fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        // The last capture that showed `text`: returned once a second capture agrees, or when
        // the text has gone since (a notice lives a few sim seconds, which the demo's speed
        // makes a wall second or two, and a feed may redraw the pane meanwhile).
        let mut seen: Option<String> = None;
        loop {
            let pane = self.pane();
            if pane.contains(text) {
                // Past the deadline an unsettled pane is still the best evidence there is.
                if seen.as_ref() == Some(&pane) || Instant::now() >= deadline {
                    return pane;
                }
                seen = Some(pane);
                sleep(Duration::from_millis(150));
                continue;
            }
            if let Some(shown) = seen {
                return shown;
            }
            assert!(
                Instant::now() < deadline,
                "pane never showed {text:?}:\n{pane}"
            );
            sleep(Duration::from_millis(200));
        }
    }

    /// Waits until the pane shows `text` and returns that capture at once, polling every
    /// 50 ms: for a notice that the next one may replace within a second (an op's reply
    /// followed by the demo's migration phases).
    pub fn wait_for_brief(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        // Every notice line seen meanwhile, for the failure message.
        let mut notices: Vec<String> = Vec::new();
        loop {
            let pane = self.pane();
            if pane.contains(text) {
                return pane;
            }
            let rows: Vec<&str> = pane.lines().collect();
            let notice = rows.len().checked_sub(2).and_then(|i| rows.get(i));
            if let Some(line) = notice.map(|l| l.trim()).filter(|l| !l.is_empty()) {
                if notices.last().map(String::as_str) != Some(line) {
                    notices.push(line.to_string());
                }
            }
            assert!(
                Instant::now() < deadline,
                "pane never showed {text:?}; notices meanwhile: {notices:#?}\n{pane}"
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// The first capture within `wait` that shows `text`, if any (polled every 50 ms).
    pub fn seen_within(&self, text: &str, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            let pane = self.pane();
            if pane.contains(text) {
                return Some(pane);
            }
            sleep(Duration::from_millis(50));
        }
        None
    }

    /// Waits until the pane no longer shows `text` (e.g. an overlay closed). Needed after
    /// `Escape`: a key sent right behind it would arrive as Alt+key.
    pub fn wait_without(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.pane().contains(text) {
            assert!(
                Instant::now() < deadline,
                "pane kept showing {text:?}:\n{}",
                self.pane()
            );
            sleep(Duration::from_millis(100));
        }
    }

    pub fn alive(&self) -> bool {
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
