//! Child processes of the test control plane: free loopback ports, spawning with logs and pid
//! files, stopping, and the watchdog that tears everything down when the test binary exits.
//!
//! Teardown design (no `libc`, no `prctl`): statics are never dropped, so the processes cannot
//! be stopped from a destructor. Instead, a tiny `sh` watchdog is spawned first, with a pipe
//! as its stdin whose write end lives in the `TestCluster` static. When the test process
//! exits, normally or killed by any signal, the kernel closes that write end; the watchdog's
//! `read` returns at end of file and it sends SIGTERM (then SIGKILL after 5 s) to the process
//! group of every pid file under `<dir>/pids/` in reverse start order, then deletes the data
//! dir. Every child runs in its own process group (`process_group(0)`) so a terminal's Ctrl-C
//! reaches the test binary, whose death then triggers the watchdog, instead of killing etcd
//! halfway through. Rust opens pipes close-on-exec, so no other child holds the write end.
//!
//! Owns: `free_port`, `spawn`, `stop`, `Watchdog`, `log_tail`. Must not talk to the API.

use std::fs::{File, OpenOptions};
use std::net::TcpListener;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Duration;

use anyhow::{bail, Context, Result};

/// A free TCP port on 127.0.0.1 (bound, read, released). Another process may grab it before
/// the server binds it; the caller retries the start on "address already in use".
pub fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").context("binding 127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

/// The log file of component `name` (stdout and stderr, appended across restarts).
pub fn log_path(dir: &Path, name: &str) -> PathBuf {
    dir.join("logs").join(format!("{name}.log"))
}

fn pid_path(dir: &Path, order: u8, name: &str) -> PathBuf {
    dir.join("pids").join(format!("{order}-{name}"))
}

/// A running component.
#[derive(Debug)]
pub struct Proc {
    /// Component name (log and pid file stem).
    pub name: &'static str,
    /// Start order (1 = etcd); the watchdog stops in reverse order.
    pub order: u8,
    /// The child, its own process-group leader.
    pub child: Child,
}

/// Starts `program args` in `dir` with stdin closed, output appended to `logs/<name>.log`
/// (never an unread pipe, which would block the server once full), in a new process group,
/// and records its pid for the watchdog.
pub fn spawn(
    dir: &Path,
    order: u8,
    name: &'static str,
    program: &Path,
    args: &[String],
    envs: &[(&str, &Path)],
) -> Result<Proc> {
    std::fs::create_dir_all(dir.join("logs"))?;
    std::fs::create_dir_all(dir.join("pids"))?;
    let log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(log_path(dir, name))?;
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .process_group(0);
    for (key, value) in envs {
        cmd.env(key, value);
    }
    let child = cmd
        .spawn()
        .with_context(|| format!("starting {}", program.display()))?;
    std::fs::write(pid_path(dir, order, name), child.id().to_string())?;
    Ok(Proc { name, order, child })
}

/// Fails with the log tail when the component has exited.
pub fn ensure_running(dir: &Path, proc: &mut Proc) -> Result<()> {
    if let Some(status) = proc.child.try_wait()? {
        bail!(
            "{} exited ({status}); last lines of {}:\n{}",
            proc.name,
            log_path(dir, proc.name).display(),
            log_tail(dir, proc.name, 25)
        );
    }
    Ok(())
}

/// Stops a component: SIGTERM to its process group, up to 10 s for it to exit, then SIGKILL.
/// Removes its pid file so the watchdog does not signal a recycled pid.
pub fn stop(dir: &Path, mut proc: Proc) -> Result<()> {
    let _ = std::fs::remove_file(pid_path(dir, proc.order, proc.name));
    let group = format!("-{}", proc.child.id());
    let _ = Command::new("kill")
        .args(["-TERM", "--", &group])
        .stderr(Stdio::null())
        .status();
    for _ in 0..100 {
        if proc.child.try_wait()?.is_some() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    proc.child.kill()?;
    proc.child.wait()?;
    Ok(())
}

/// The last `lines` lines of a component's log.
pub fn log_tail(dir: &Path, name: &str, lines: usize) -> String {
    let text = std::fs::read_to_string(log_path(dir, name)).unwrap_or_default();
    let tail: Vec<&str> = text.lines().rev().take(lines).collect();
    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
}

/// The teardown watchdog (see the module doc). Dropping it, or the test process dying,
/// stops every recorded component and, unless `keep`, deletes the cluster dir.
#[derive(Debug)]
pub struct Watchdog {
    _stdin: ChildStdin,
    _child: Child,
}

const WATCHDOG: &str = r#"
read -r _ignored
cd /
alive() { for f in "$1"/pids/*; do [ -f "$f" ] && kill -0 -- "-$(cat "$f")" 2>/dev/null && return 0; done; return 1; }
for f in $(ls -r "$1/pids" 2>/dev/null); do kill -TERM -- "-$(cat "$1/pids/$f")" 2>/dev/null; done
i=0
while alive "$1" && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
for f in $(ls -r "$1/pids" 2>/dev/null); do kill -KILL -- "-$(cat "$1/pids/$f")" 2>/dev/null; done
[ "$2" = keep ] || rm -rf "$1"
"#;

/// Starts the watchdog for the cluster dir `dir`.
pub fn start_watchdog(dir: &Path, keep: bool) -> Result<Watchdog> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(WATCHDOG)
        .arg("ome-top-testcluster-watchdog")
        .arg(dir)
        .arg(if keep { "keep" } else { "delete" })
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .context("starting the watchdog sh")?;
    let stdin = child.stdin.take().context("watchdog stdin")?;
    Ok(Watchdog {
        _stdin: stdin,
        _child: child,
    })
}

/// Blocking `GET http://127.0.0.1:<port><path>` (etcd's plain-HTTP health endpoint); returns
/// the whole response, headers included, or `None` when the port does not answer yet.
pub fn http_get(port: u16, path: &str) -> Option<String> {
    use std::io::{Read as _, Write as _};
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut stream = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(1)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    let request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    Some(response)
}

/// Opens (creating) a file for appending; used for the harness's own notes.
pub fn append(path: &Path) -> Result<File> {
    Ok(OpenOptions::new().create(true).append(true).open(path)?)
}
