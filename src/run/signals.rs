//! The signals that end the TUI: SIGHUP (the terminal went away), SIGINT, SIGQUIT and SIGTERM.
//! Each is caught (none may end the process with the terminal still taken) and reported with
//! its number, so the exit status can follow the shell's 128 + n convention. Once the TUI
//! runs, a task of their own waits for them (`Signals::watch`): it tells the event loop, and
//! if the process has not ended a moment later (the loop stuck writing to a terminal nobody
//! reads), it gives the terminal back as far as it can and exits itself.

/// How the TUI ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The operator quit (or the terminal's input closed).
    Quit,
    /// A signal arrived: its number (`SIGHUP` 1, `SIGINT` 2, `SIGQUIT` 3, `SIGTERM` 15).
    Signal(i32),
}

impl Ended {
    /// The process's exit status: 0 after quitting, 128 + the signal's number after a signal
    /// (as a shell reports a process a signal ended), so scripts can tell.
    pub fn exit_code(self) -> i32 {
        match self {
            Ended::Quit => 0,
            Ended::Signal(n) => 128 + n,
        }
    }
}

/// How long after a signal the process may take to end by itself before the signal task ends
/// it: the TUI ends within a second of a signal, whatever its terminal does.
pub const GRACE: std::time::Duration = std::time::Duration::from_millis(600);

/// The event loop's end of `Signals::watch`.
pub struct SignalWatch {
    caught: tokio::sync::oneshot::Receiver<(&'static str, i32)>,
}

impl SignalWatch {
    /// Waits for the signal the watch task caught: its name and number.
    pub async fn next(&mut self) -> (&'static str, i32) {
        match (&mut self.caught).await {
            Ok(caught) => caught,
            // The task is gone (the runtime shuts down): nothing more will come.
            Err(_) => std::future::pending().await,
        }
    }
}

/// The TUI's ending signals, registered before the terminal is taken.
pub struct Signals {
    #[cfg(unix)]
    streams: Vec<(&'static str, i32, tokio::signal::unix::Signal)>,
}

impl Signals {
    /// Registers the handlers (on a platform without them, only Ctrl-C is heard).
    pub fn new() -> std::io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let kinds = [
                ("SIGHUP", 1, SignalKind::hangup()),
                ("SIGINT", 2, SignalKind::interrupt()),
                ("SIGQUIT", 3, SignalKind::quit()),
                ("SIGTERM", 15, SignalKind::terminate()),
            ];
            let mut streams = Vec::with_capacity(kinds.len());
            for (name, number, kind) in kinds {
                streams.push((name, number, signal(kind)?));
            }
            Ok(Signals { streams })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// Hands the signals to a task of their own on the current runtime: the first one is
    /// passed to the returned watch, and `grace` later, if the process still runs, the task
    /// gives the terminal back (bounded: `restore_terminal`) and exits with 128 + n.
    pub fn watch(mut self, grace: std::time::Duration) -> SignalWatch {
        let (tx, caught) = tokio::sync::oneshot::channel();
        tokio::spawn(async move {
            let (name, number) = self.next().await;
            let _ = tx.send((name, number));
            tokio::time::sleep(grace).await;
            tracing::warn!(
                signal = name,
                "the TUI did not end within {grace:?} of the signal: exiting without it"
            );
            super::restore_terminal();
            std::process::exit(Ended::Signal(number).exit_code());
        });
        SignalWatch { caught }
    }

    /// Waits for the next signal: its name and number.
    pub async fn next(&mut self) -> (&'static str, i32) {
        #[cfg(unix)]
        {
            let waits = self.streams.iter_mut().map(|(name, number, s)| {
                Box::pin(async move {
                    // A stream that can never fire again waits forever instead.
                    if s.recv().await.is_none() {
                        std::future::pending::<()>().await;
                    }
                    (*name, *number)
                })
            });
            futures::future::select_all(waits).await.0
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            ("SIGINT", 2)
        }
    }
}
