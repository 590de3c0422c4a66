//! The terminal can never hold the process: `ome-top demo` on a pseudo-terminal of the test's
//! own. Losing the terminal (its other end closed, as when the tmux server is killed or the
//! ssh session drops; with and without it being the process's controlling terminal, so with
//! and without the kernel's SIGHUP) ends the TUI as SIGHUP does, with status 129, never an
//! abort or a spin; and each of SIGTERM, SIGINT, SIGQUIT and SIGHUP ends it with 128 + n
//! while nothing reads the terminal and the TUI's writes are stuck.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rustix::fs::{Mode, OFlags};
use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};

use crate::support::command::ome_top;

/// A pseudo-terminal: the test holds the master, the TUI gets the slave.
fn open_pty(cols: u16, rows: u16) -> (File, File) {
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let name = ptsname(&master, Vec::new()).unwrap();
    let flags = OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC;
    let slave = rustix::fs::open(name.as_c_str(), flags, Mode::empty()).unwrap();
    let size = rustix::termios::Winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    rustix::termios::tcsetwinsize(&slave, size).unwrap();
    (File::from(master), File::from(slave))
}

/// `ome-top demo --seed 1` on the slave; with `controlling`, in a session of its own whose
/// controlling terminal it is (`setsid --ctty`), as a login shell's child would be.
fn spawn_demo(slave: &File, controlling: bool) -> Child {
    let bin = ome_top();
    let mut cmd = if controlling {
        let mut c = Command::new("setsid");
        c.arg("--ctty").arg(bin.get_program());
        c.envs(bin.get_envs().filter_map(|(k, v)| Some((k, v?))));
        c
    } else {
        bin
    };
    cmd.args(["demo", "--seed", "1"])
        .env("TERM", "xterm-256color");
    let io = || Stdio::from(slave.try_clone().unwrap());
    cmd.stdin(io()).stdout(io()).stderr(io()).spawn().unwrap()
}

/// Reads the master until the first screen has been drawn (the tab line shows).
fn read_first_screen(master: &mut File) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    let mut buf = [0u8; 65536];
    while !String::from_utf8_lossy(&seen).contains("Pools") {
        assert!(Instant::now() < deadline, "no first screen in 60 s");
        let fd = master.as_fd();
        let mut fds = [rustix::event::PollFd::new(
            &fd,
            rustix::event::PollFlags::IN,
        )];
        let tick = rustix::event::Timespec {
            tv_sec: 0,
            tv_nsec: 200_000_000,
        };
        if rustix::event::poll(&mut fds, Some(&tick)).unwrap() > 0 {
            let n = master.read(&mut buf).unwrap();
            seen.extend_from_slice(&buf[..n]);
        }
    }
}

/// Waits up to `limit` for the child's exit: its status code (`None`: ended by a signal) and
/// how long it took. A child still running is killed and the test fails.
fn exit_within(child: &mut Child, limit: Duration, case: &str) -> (Option<i32>, Duration) {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code(), start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let wchan = std::fs::read_to_string(format!("/proc/{}/wchan", child.id()));
    let _ = child.kill();
    let _ = child.wait();
    panic!("{case}: still running {limit:?} later (wchan {wchan:?})");
}

#[test]
fn losing_the_terminal_ends_the_tui_as_a_hangup() {
    for controlling in [true, false] {
        let (mut master, slave) = open_pty(120, 40);
        let mut child = spawn_demo(&slave, controlling);
        drop(slave);
        read_first_screen(&mut master);
        drop(master);
        let case = format!("controlling terminal: {controlling}");
        let (code, took) = exit_within(&mut child, Duration::from_secs(10), &case);
        assert_eq!(
            code,
            Some(129),
            "controlling terminal: {controlling}; ended after {took:?} (None: by a signal, \
             an abort)"
        );
        assert!(
            took < Duration::from_secs(3),
            "controlling terminal: {controlling}: {took:?}"
        );
    }
}

#[test]
fn a_signal_ends_the_tui_while_nothing_reads_its_terminal() {
    for (signal, number) in [("TERM", 15), ("INT", 2), ("QUIT", 3), ("HUP", 1)] {
        let (mut master, slave) = open_pty(200, 60);
        let mut child = spawn_demo(&slave, true);
        drop(slave);
        read_first_screen(&mut master);
        // From here nothing reads the terminal: view switches redraw the whole screen until
        // the terminal's buffer is full and the TUI's writes wait.
        for key in b"2341".iter().cycle().take(60) {
            let _ = master.write_all(&[*key]);
            std::thread::sleep(Duration::from_millis(40));
        }
        let sent = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{signal}");
        let case = format!("SIG{signal}");
        let (code, took) = exit_within(&mut child, Duration::from_secs(10), &case);
        assert_eq!(code, Some(128 + number), "SIG{signal} after {took:?}");
        assert!(took < Duration::from_secs(3), "SIG{signal}: {took:?}");
        drop(master);
    }
}
