//! Measuring the `ome-top` binary (this bench's release build) as a separate process: the
//! hidden headless `analyze --watch` (one line per published feed, timestamped here on
//! arrival), one-shot `analyze -o json` wall time, the TUI in tmux, and memory from
//! `/proc/<pid>/status` and `/proc/<pid>/smaps_rollup`.
//!
//! Owns: `binary`, `use_binary`, `Watcher`, `FeedLine`, `Memory`, `analyze_once`, `memory`, `cpu_ticks`, `cpu_share`,
//! `share`, `Tui`.
//! Never talks to the API itself.

#![allow(clippy::disallowed_methods)] // Wall times of a separate process need a clock.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};
use serde_json::Value;

/// The binary under test (built with this bench's profile, i.e. release).
pub const OME_TOP: &str = env!("CARGO_BIN_EXE_ome-top");

/// The binary the probes start: `OME_TOP` unless `use_binary` chose another build.
static BINARY: std::sync::RwLock<Option<String>> = std::sync::RwLock::new(None);

/// The binary the probes start now.
pub fn binary() -> String {
    let chosen = BINARY.read().unwrap().clone();
    chosen.unwrap_or_else(|| OME_TOP.to_string())
}

/// Makes the probes start `path` (`None`: this bench's build).
pub fn use_binary(path: Option<&str>) {
    *BINARY.write().unwrap() = path.map(str::to_string);
}

/// One `analyze --watch` line.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedLine {
    /// When the line arrived.
    pub at: Instant,
    /// Feed generation.
    pub generation: u64,
    /// `connecting`, `connected`, …
    pub api: String,
    /// Nodes in the feed's snapshot.
    pub nodes: usize,
    /// Pods in the feed's snapshot.
    pub pods: usize,
    /// Object events applied by the watchers when the line was printed.
    pub applied: u64,
    /// Object events included in the latest published feed.
    pub in_feed: u64,
}

fn field<T: std::str::FromStr>(line: &str, key: &str) -> Option<T> {
    line.split(' ')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
}

fn parse(line: &str, at: Instant) -> Option<FeedLine> {
    Some(FeedLine {
        at,
        generation: field(line, "generation")?,
        api: field(line, "api")?,
        nodes: field(line, "nodes")?,
        pods: field(line, "pods")?,
        applied: field(line, "events_applied")?,
        in_feed: field(line, "events_in_feed")?,
    })
}

/// A running `ome-top analyze --watch`.
pub struct Watcher {
    child: Child,
    /// When the process was started.
    pub started: Instant,
    lines: Receiver<FeedLine>,
}

impl Watcher {
    /// Starts `ome-top analyze --watch --kubeconfig K` (read-only, like `analyze`).
    pub fn start(kubeconfig: &Path) -> Result<Watcher> {
        let started = Instant::now();
        let mut child = Command::new(binary())
            .args(["analyze", "--watch", "--kubeconfig"])
            .arg(kubeconfig)
            .env_remove("KUBECONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("starting ome-top analyze --watch")?;
        let stdout = child.stdout.take().context("watch stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(parsed) = parse(&line, Instant::now()) {
                    if tx.send(parsed).is_err() {
                        return;
                    }
                }
            }
        });
        Ok(Watcher {
            child,
            started,
            lines,
        })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the first line satisfying `done`; returns it and every line seen meanwhile.
    pub fn wait(
        &self,
        timeout: Duration,
        done: impl Fn(&FeedLine) -> bool,
    ) -> Result<(FeedLine, Vec<FeedLine>)> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if done(&line) => return Ok((line, seen)),
                Ok(line) => seen.push(line),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(anyhow!("no matching feed after {timeout:?}; last {seen:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(anyhow!("ome-top analyze --watch ended"))
                }
            }
        }
    }

    /// Every line that arrived since the last call.
    pub fn drain(&self) -> Vec<FeedLine> {
        self.lines.try_iter().collect()
    }

    /// Stops the process.
    pub fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Memory of a process, from `/proc/<pid>/status` and `smaps_rollup`, in KiB.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Memory {
    /// Resident set now.
    pub rss: u64,
    /// Peak resident set.
    pub hwm: u64,
    /// Anonymous resident memory (the heap, mostly).
    pub anon: u64,
    /// Resident file-backed memory (the mapped binary and libraries).
    pub file: u64,
}

/// Reads a process's memory figures.
pub fn memory(pid: u32) -> Result<Memory> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let kib = |key: &str| -> u64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    Ok(Memory {
        rss: kib("VmRSS:"),
        hwm: kib("VmHWM:"),
        anon: kib("RssAnon:"),
        file: kib("RssFile:"),
    })
}

/// CPU time (user + system, every thread) a process used so far, in clock ticks.
pub fn cpu_ticks(pid: u32) -> Result<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `utime` and `stime` are fields 14 and 15 of the line, 12 and 13 after the name.
    let tick = |i: usize| -> u64 { fields.get(i).and_then(|v| v.parse().ok()).unwrap_or(0) };
    Ok(tick(11) + tick(12))
}

/// Ticks a second of `/proc/<pid>/stat` (`USER_HZ`: 100 on Linux, whatever the kernel's HZ).
const TICKS_PER_SECOND: f64 = 100.0;

/// The share of one core that `before` → `after` ticks over `elapsed` are.
pub fn share(before: u64, after: u64, elapsed: Duration) -> f64 {
    let used = after.saturating_sub(before) as f64 / TICKS_PER_SECOND;
    used / elapsed.as_secs_f64().max(1e-3)
}

/// The share of one core a process used over the next `window` (0.5 = half a core).
pub fn cpu_share(pid: u32, window: Duration) -> Result<f64> {
    let before = cpu_ticks(pid)?;
    let start = Instant::now();
    std::thread::sleep(window);
    let used = cpu_ticks(pid)?.saturating_sub(before) as f64 / TICKS_PER_SECOND;
    Ok(used / start.elapsed().as_secs_f64())
}

/// Runs `ome-top ARGS` once under GNU time; returns its wall time, peak RSS (KiB) and the
/// JSON it printed, or an error naming `what` with its stderr when it failed.
pub fn timed_json(
    args: &[&str],
    envs: &[(&str, PathBuf)],
    what: &str,
) -> Result<(Duration, u64, Value)> {
    let start = Instant::now();
    let out = Command::new("/usr/bin/time")
        .args(["-f", "maxrss_kib=%M", &binary()])
        .args(args)
        .env_remove("KUBECONFIG")
        .envs(envs.iter().map(|(k, v)| (k, v)))
        .output()
        .with_context(|| format!("running /usr/bin/time {what}"))?;
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(anyhow!("{what} failed: {stderr}"));
    }
    let maxrss = stderr
        .lines()
        .find_map(|l| l.strip_prefix("maxrss_kib="))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    Ok((took, maxrss, serde_json::from_slice(&out.stdout)?))
}

/// Runs `ome-top analyze --kubeconfig K -o json` once; returns its wall time, peak RSS
/// (KiB, from GNU time) and how many nodes the analysis lists.
pub fn analyze_once(kubeconfig: &Path) -> Result<(Duration, u64, usize)> {
    let kubeconfig = kubeconfig.to_string_lossy();
    let args = ["analyze", "-o", "json", "--kubeconfig", &kubeconfig];
    let (took, maxrss, json) = timed_json(&args, &[], "ome-top analyze")?;
    let nodes = json["nodes"].as_array().map_or(0, Vec::len);
    Ok((took, maxrss, nodes))
}

/// tmux servers started by this process (each `Tui` has its own socket).
static SESSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A terminal program (the TUI, `ome-top --readonly`, or a peer) in a detached tmux session
/// of its own.
pub struct Tui {
    socket: String,
    /// The TUI's pid.
    pub pid: u32,
    /// When it was started.
    pub started: Instant,
    _home: tempfile::TempDir,
}

impl Tui {
    fn tmux(socket: &str, args: &[&str]) -> Result<String> {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(socket)
            .args(args)
            .output()?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Starts the TUI at 200×60 with a private HOME and finds its pid.
    pub fn start(kubeconfig: &Path) -> Result<Tui> {
        Tui::run(&format!(
            "{} --readonly --kubeconfig {}",
            binary(),
            kubeconfig.display()
        ))
    }

    /// Starts `command` (a shell command line) at 200×60 with a private HOME (and XDG
    /// directories under it), no `KUBECONFIG`, in a tmux server of its own; finds its pid.
    pub fn run(command: &str) -> Result<Tui> {
        let home = tempfile::tempdir()?;
        let socket = format!(
            "ome-top-scale-{}-{}",
            std::process::id(),
            SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let cmd = format!(
            "exec env -u KUBECONFIG HOME={h} XDG_DATA_HOME={h}/data XDG_CONFIG_HOME={h}/config \
             XDG_STATE_HOME={h}/state XDG_CACHE_HOME={h}/cache {command}",
            h = home.path().display(),
        );
        let started = Instant::now();
        Self::tmux(
            &socket,
            &[
                "new-session",
                "-d",
                "-s",
                "scale",
                "-x",
                "200",
                "-y",
                "60",
                &cmd,
            ],
        )?;
        let pid = Self::tmux(&socket, &["list-panes", "-t", "scale", "-F", "#{pane_pid}"])?
            .trim()
            .parse()
            .context("the tmux pane's pid")?;
        Ok(Tui {
            socket,
            pid,
            started,
            _home: home,
        })
    }

    /// The visible screen.
    pub fn screen(&self) -> String {
        Self::tmux(&self.socket, &["capture-pane", "-p", "-t", "scale"]).unwrap_or_default()
    }

    /// Waits until the screen contains `text`; returns the time since the start.
    pub fn wait_for(&self, text: &str, timeout: Duration) -> Result<Duration> {
        self.wait_until(|screen| screen.contains(text), timeout)
            .map_err(|e| anyhow!("{text:?}: {e}"))
    }

    /// Waits until `done(screen)`, polling every 100 ms; returns the time since the start.
    pub fn wait_until(&self, done: impl Fn(&str) -> bool, timeout: Duration) -> Result<Duration> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if done(&self.screen()) {
                return Ok(self.started.elapsed());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(anyhow!(
            "not on screen after {timeout:?}:\n{}",
            self.screen()
        ))
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        let _ = Self::tmux(&self.socket, &["kill-server"]);
    }
}
