//! Where the log files live and what they are called. The directory is `log/` in the
//! platform's state directory (`$XDG_STATE_HOME/ome-top`, by default `~/.local/state/ome-top`);
//! platforms without one (macOS, Windows) use the local data directory instead
//! (`~/Library/Application Support/ome-top`, `%LOCALAPPDATA%\ome-top\data`).
//!
//! Owns: `log_dir`, `state_dir`, `newest_log_file`, the file names. Reads the platform
//! directories and lists the log directory; writes nothing.

use std::path::{Path, PathBuf};

/// Log files are `ome-top.<UTC date>.log`, one per day: this prefix ...
pub const FILE_PREFIX: &str = "ome-top";
/// ... and this suffix.
pub const FILE_SUFFIX: &str = "log";
/// Daily files kept; older ones are deleted when a new day's file is opened.
pub const KEEP_FILES: usize = 7;

fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "ome-top")
}

/// The platform's state directory for ome-top; `None` where the platform has none (macOS,
/// Windows) or there is no home directory.
pub fn state_dir() -> Option<PathBuf> {
    project_dirs().and_then(|d| d.state_dir().map(Path::to_path_buf))
}

/// The log directory: `log/` in `state_dir`, else in the local data directory. `None` when
/// there is no home directory (nothing is logged then).
pub fn log_dir() -> Option<PathBuf> {
    let base = state_dir().or_else(|| project_dirs().map(|d| d.data_local_dir().to_path_buf()))?;
    Some(base.join("log"))
}

/// Whether `name` is one of the daily log files (`ome-top.<date>.log`).
fn is_log_file(name: &str) -> bool {
    name.strip_prefix(FILE_PREFIX)
        .and_then(|rest| rest.strip_prefix('.'))
        .and_then(|rest| rest.strip_suffix(FILE_SUFFIX))
        .and_then(|date| date.strip_suffix('.'))
        .is_some_and(|date| {
            date.len() == 10 && date.bytes().all(|b| b.is_ascii_digit() || b == b'-')
        })
}

/// The newest daily log file in `dir` (the one being written today, or the last one written);
/// `None` when there is none. Dates are ISO, so the newest sorts last by name.
pub fn newest_log_file(dir: &Path) -> Option<PathBuf> {
    let entries = std::fs::read_dir(dir).ok()?;
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| is_log_file(name))
        .max()
        .map(|name| dir.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_daily_files_count_and_the_newest_wins() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(newest_log_file(dir.path()), None);
        for name in [
            "ome-top.2026-01-02.log",
            "ome-top.2026-01-10.log",
            "ome-top.log",
            "other.2026-12-31.log",
            "ome-top.2026-12-31.log.gz",
        ] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        assert_eq!(
            newest_log_file(dir.path()),
            Some(dir.path().join("ome-top.2026-01-10.log"))
        );
        assert_eq!(newest_log_file(&dir.path().join("absent")), None);
    }
}
