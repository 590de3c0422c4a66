//! Opening the history file: connection settings, version check, integrity check, migration,
//! and moving a corrupt file aside (never truncating it).
//!
//! Owns: `open_connection`. Reads no clock (the time for the aside name is an argument).

use std::path::{Path, PathBuf};
use std::time::Duration as StdDuration;

use crate::history::error::{ErrorKind, HistoryError, Result};
use rusqlite::{Connection, ErrorCode};

use crate::engine::model::Time;
use crate::history::schema::{check_version, migrate, user_version};
use crate::history::BUSY_TIMEOUT_MS;

/// Why a file could not be opened.
enum OpenError {
    /// Not a SQLite database, or damaged: move it aside. The string says what was found.
    Corrupt(String),
    /// Anything else (busy, permissions, a newer schema, a full disk): report, touch nothing.
    Other(HistoryError),
}

impl From<HistoryError> for OpenError {
    fn from(e: HistoryError) -> Self {
        OpenError::Other(e)
    }
}

/// Classifies a SQLite error: "not a database" and "malformed" are corruption.
fn classify(e: rusqlite::Error, doing: &'static str) -> OpenError {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => {
            OpenError::Corrupt(e.to_string())
        }
        _ => OpenError::Other(
            ErrorKind::Sql {
                doing: doing.into(),
                source: e,
            }
            .into(),
        ),
    }
}

/// Opens `path` ready for use. A corrupt file (and its `-wal`/`-shm` companions) is renamed to
/// `<path>.corrupt-<now>` and replaced by a fresh database; `notices` then gets one sentence
/// naming both files.
pub fn open_connection(path: &Path, now: Time, notices: &mut Vec<String>) -> Result<Connection> {
    match try_open_patiently(path) {
        Ok(conn) => Ok(conn),
        Err(OpenError::Other(e)) => Err(e),
        Err(OpenError::Corrupt(why)) => {
            let aside = move_aside(path, now)?;
            notices.push(format!(
                "history database {} was unreadable ({why}); it was moved aside to {} and a \
                 new, empty history was started",
                path.display(),
                aside.display()
            ));
            try_open(path).map_err(|e| match e {
                OpenError::Corrupt(why) => ErrorKind::StillUnreadable {
                    path: path.to_path_buf(),
                    why,
                }
                .into(),
                OpenError::Other(e) => e,
            })
        }
    }
}

/// Attempts before a lock held by another process is reported.
const LOCKED_ATTEMPTS: u32 = 50;
/// Pause between those attempts.
const LOCKED_PAUSE: StdDuration = StdDuration::from_millis(100);

/// `try_open`, retried while another process holds the file locked: switching a fresh file to
/// WAL needs an exclusive lock, and SQLite reports that conflict at once instead of waiting
/// for the busy timeout when two processes open the same new file together.
fn try_open_patiently(path: &Path) -> Result<Connection, OpenError> {
    let mut attempt = 0;
    loop {
        match try_open(path) {
            Err(OpenError::Other(e)) if attempt < LOCKED_ATTEMPTS && e.is_locked() => {
                attempt += 1;
                std::thread::sleep(LOCKED_PAUSE);
            }
            other => return other,
        }
    }
}

/// One attempt: settings that only read come first, so a refused file (newer schema) is left
/// byte-for-byte untouched; WAL mode and migrations write.
fn try_open(path: &Path) -> Result<Connection, OpenError> {
    let shown = path.display().to_string();
    let mut conn = Connection::open(path).map_err(|e| classify(e, "opening the history file"))?;
    conn.busy_timeout(StdDuration::from_millis(BUSY_TIMEOUT_MS))
        .map_err(|e| classify(e, "setting the busy timeout"))?;
    let version = user_version(&conn).map_err(|e| match e.into_kind() {
        ErrorKind::Sql { source, .. } | ErrorKind::Sqlite(source) => {
            classify(source, "reading the schema version")
        }
        other => OpenError::Other(other.into()),
    })?;
    check_version(version, &shown)?;
    quick_check(&conn)?;
    let mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .map_err(|e| classify(e, "switching to WAL mode"))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(OpenError::Other(
            ErrorKind::WalRefused { shown, mode }.into(),
        ));
    }
    conn.execute_batch("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")
        .map_err(|e| classify(e, "setting pragmas"))?;
    migrate(&mut conn, &shown)?;
    Ok(conn)
}

/// `PRAGMA quick_check`: one row `ok`, or rows describing the damage.
fn quick_check(conn: &Connection) -> Result<(), OpenError> {
    let mut stmt = conn
        .prepare("PRAGMA quick_check")
        .map_err(|e| classify(e, "checking the history file"))?;
    let rows: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .and_then(|rows| rows.collect())
        .map_err(|e| classify(e, "checking the history file"))?;
    match rows.as_slice() {
        [ok] if ok == "ok" => Ok(()),
        [] => Err(OpenError::Corrupt("quick_check returned nothing".into())),
        [first, ..] => Err(OpenError::Corrupt(format!("quick_check: {first}"))),
    }
}

/// Renames `path` and its `-wal`/`-shm` files to `<path>.corrupt-<YYYYMMDDTHHMMSSZ>[-n]`
/// (a stale WAL next to a fresh file would be replayed into it). Returns the new main name.
fn move_aside(path: &Path, now: Time) -> Result<PathBuf> {
    let stamp = now.format("%Y%m%dT%H%M%SZ").to_string();
    let base = format!("{}.corrupt-{stamp}", path.display());
    let aside = (0..1000)
        .map(|n| match n {
            0 => PathBuf::from(&base),
            n => PathBuf::from(format!("{base}-{n}")),
        })
        .find(|p| !p.exists())
        .ok_or_else(|| ErrorKind::NoAsideName {
            path: path.to_path_buf(),
        })?;
    std::fs::rename(path, &aside).map_err(|source| ErrorKind::Io {
        doing: format!(
            "moving the unreadable history file {} aside to {}",
            path.display(),
            aside.display()
        ),
        source,
    })?;
    for suffix in ["-wal", "-shm"] {
        let companion = PathBuf::from(format!("{}{suffix}", path.display()));
        if companion.exists() {
            let target = PathBuf::from(format!("{}{suffix}", aside.display()));
            std::fs::rename(&companion, &target).map_err(|source| ErrorKind::Io {
                doing: format!(
                    "moving {} aside to {}",
                    companion.display(),
                    target.display()
                ),
                source,
            })?;
        }
    }
    Ok(aside)
}
