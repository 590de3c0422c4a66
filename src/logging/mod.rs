//! The log file: `tracing` events of ome-top and kube-rs, written by a background thread to a
//! daily file in the platform's state directory (docs/logs.md). Nothing is ever written to
//! the terminal: the TUI owns it, and the headless commands keep stdout and stderr for their
//! output.
//!
//! Owns: `LogSession`, `choose_for`, `start`, `StderrLog`; `filter` (which events), `paths`
//! (where).

pub mod filter;
pub mod paths;

use std::io::Write;
use std::path::{Path, PathBuf};

use tracing_appender::non_blocking::WorkerGuard;
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::filter::{EnvFilter, FilterExt};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::Layer;

use crate::config::{load_settings, ConfigPaths, LogLevel};
pub use filter::{Choice, Chosen, Source};

/// Lines the log's writer thread may have queued (more are dropped until it catches up).
const LOG_QUEUE_LINES: usize = 8_192;

/// The log filter the program would use with `--log-level` = `flag` and config.toml at
/// `config`: reads `OME_TOP_LOG`, `RUST_LOG` and the file's `log-level`. A config.toml that
/// does not load counts as not setting a level; its error is returned beside the choice.
pub fn choose_for(flag: Option<LogLevel>, config: &ConfigPaths) -> (Choice, Option<String>) {
    let (file_level, config_error) = match load_settings(config) {
        Ok(settings) => (settings.log_level, None),
        Err(e) => (None, Some(e.to_string())),
    };
    let ome_top_log = std::env::var(filter::ENV_VAR).ok();
    let rust_log = std::env::var(filter::RUST_LOG).ok();
    let choice = filter::choose(
        flag,
        ome_top_log.as_deref(),
        rust_log.as_deref(),
        file_level,
    );
    (choice, config_error)
}

/// A running log: keep it until the process ends. Dropping it writes out what is queued
/// (`std::process::exit` skips destructors, so drop it before exiting).
pub struct LogSession {
    _guard: Option<WorkerGuard>,
    /// The directory written to, when a log is being written.
    pub dir: Option<PathBuf>,
}

impl LogSession {
    /// No log (level `off`, no home directory, or the file could not be opened).
    pub fn none() -> LogSession {
        LogSession {
            _guard: None,
            dir: None,
        }
    }
}

/// Why no log is written; the program goes on without one.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// No home directory, so no state directory.
    #[error("no home directory: no place for a log file")]
    NoHome,
    /// The chosen level does not make a filter.
    #[error("log filter: {0}")]
    Filter(tracing_subscriber::filter::ParseError),
    /// The log directory cannot be made.
    #[error("cannot create the log directory {}: {error}", dir.display())]
    Directory {
        /// The directory.
        dir: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The daily file cannot be opened.
    #[error("cannot open a log file in {}: {error}", dir.display())]
    File {
        /// The directory.
        dir: PathBuf,
        /// Why.
        error: tracing_appender::rolling::InitError,
    },
    /// A subscriber is already installed.
    #[error("logging already started: {0}")]
    Started(tracing_subscriber::util::TryInitError),
}

/// Starts logging as `choice` says into `dir` (`paths::log_dir()` in the program). Level
/// `off` creates no file. `Err` says why no log is written; the program goes on without one.
pub fn start(choice: &Choice, dir: Option<&Path>) -> Result<LogSession, LogError> {
    if choice.is_off() {
        return Ok(LogSession::none());
    }
    let dir = dir.ok_or(LogError::NoHome)?;
    let env_filter = EnvFilter::builder()
        .parse(filter::directives(&choice.chosen))
        .map_err(LogError::Filter)?;
    // Made here: the appender prunes old files before creating the directory, and says so on
    // stderr when it is missing.
    std::fs::create_dir_all(dir).map_err(|error| LogError::Directory {
        dir: dir.to_path_buf(),
        error,
    })?;
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(paths::FILE_PREFIX)
        .filename_suffix(paths::FILE_SUFFIX)
        .max_log_files(paths::KEEP_FILES)
        .build(dir)
        .map_err(|error| LogError::File {
            dir: dir.to_path_buf(),
            error,
        })?;
    // The writer thread's queue is a bounded channel whose slots are written when it is made:
    // tracing-appender's default of 128,000 lines kept ≈ 4 MiB resident for the whole run
    // (docs/performance.md, the allocator row of *Mechanisms*). A full queue drops lines
    // (lossy, the default), which at this depth takes a burst no configured level produces.
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_QUEUE_LINES)
        .finish(appender);
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(writer)
        .with_ansi(false)
        .with_filter(env_filter.and(filter::caps()));
    tracing_subscriber::registry()
        .with(layer)
        .try_init()
        .map_err(LogError::Started)?;
    Ok(LogSession {
        _guard: Some(guard),
        dir: Some(dir.to_path_buf()),
    })
}

/// A writer in front of stderr that also logs each complete line it passes on, so a
/// command's error messages are in the log beside what led to them.
pub struct StderrLog<W: Write> {
    inner: W,
    line: Vec<u8>,
}

impl<W: Write> StderrLog<W> {
    /// Wraps `inner` (stderr in the program).
    pub fn new(inner: W) -> StderrLog<W> {
        StderrLog {
            inner,
            line: Vec::new(),
        }
    }

    fn log_line(&mut self) {
        let text = String::from_utf8_lossy(&self.line);
        let text = text.trim_end();
        if !text.is_empty() {
            tracing::warn!(target: "ome_top::stderr", "{text}");
        }
        self.line.clear();
    }
}

impl<W: Write> Write for StderrLog<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        for &b in &buf[..n] {
            if b == b'\n' {
                self.log_line();
            } else {
                self.line.push(b);
            }
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for StderrLog<W> {
    fn drop(&mut self) {
        self.log_line();
    }
}
