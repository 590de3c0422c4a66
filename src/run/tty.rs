//! The terminal's input, read on a thread of its own, and whether the terminal is still there.
//!
//! crossterm's reader never gives up on a terminal that is gone: on end of file or a read
//! error it reads again at once, forever (a core spinning on `read(0) = 0`, the caller stuck
//! inside it). So the event loop never calls it. A thread does, after checking that the
//! terminal has not hung up, and hands each event over a channel; a hang-up or an error ends
//! the channel with an error, which the loop takes as the terminal lost. Because the thread
//! may be inside crossterm when the terminal goes, the loop also asks `Tty::hung_up` on its
//! tick; the process then exits and the thread with it.

use std::fs::File;
use std::io::{self, IsTerminal};
use std::os::fd::{AsFd, BorrowedFd};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use crossterm::event::Event as TermEvent;
use futures::Stream;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

/// How long the input thread waits in crossterm before looking at the terminal again.
const INPUT_POLL: Duration = Duration::from_millis(200);

/// The terminal crossterm reads: standard input when it is one, else `/dev/tty`.
pub struct Tty {
    stdin: io::Stdin,
    dev_tty: Option<File>,
}

impl Tty {
    /// The terminal of this process, as crossterm picks it.
    pub fn open() -> Tty {
        let dev_tty = if io::stdin().is_terminal() {
            None
        } else {
            File::open("/dev/tty").ok()
        };
        Tty {
            stdin: io::stdin(),
            dev_tty,
        }
    }

    fn fd(&self) -> BorrowedFd<'_> {
        match &self.dev_tty {
            Some(f) => f.as_fd(),
            None => self.stdin.as_fd(),
        }
    }

    /// Whether the terminal is gone: hung up (its other end closed: the ssh session dropped,
    /// the tmux server killed), in error, or not open.
    pub fn hung_up(&self) -> bool {
        use rustix::event::{poll, PollFd, PollFlags};
        let mut fds = [PollFd::from_borrowed_fd(self.fd(), PollFlags::IN)];
        let zero = rustix::event::Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        match poll(&mut fds, Some(&zero)) {
            Ok(_) => fds[0]
                .revents()
                .intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL),
            Err(e) => e != rustix::io::Errno::INTR,
        }
    }
}

/// The terminal's events as the input thread hands them over; an error item, or the end,
/// means the terminal is lost.
pub struct TerminalInput {
    events: UnboundedReceiver<io::Result<TermEvent>>,
}

impl Stream for TerminalInput {
    type Item = io::Result<TermEvent>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.events.poll_recv(cx)
    }
}

/// Starts the input thread on the process's terminal.
pub fn spawn_input() -> io::Result<TerminalInput> {
    let (tx, events) = unbounded_channel();
    std::thread::Builder::new()
        .name("terminal-input".into())
        .spawn(move || read_input(&Tty::open(), &tx))?;
    Ok(TerminalInput { events })
}

fn read_input(tty: &Tty, tx: &UnboundedSender<io::Result<TermEvent>>) {
    loop {
        if tx.is_closed() {
            return;
        }
        if tty.hung_up() {
            let _ = tx.send(Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the terminal hung up",
            )));
            return;
        }
        let next = match crossterm::event::poll(INPUT_POLL) {
            Ok(false) => continue,
            Ok(true) => crossterm::event::read(),
            Err(e) => Err(e),
        };
        let failed = next.is_err();
        if tx.send(next).is_err() || failed {
            return;
        }
    }
}
