//! The history store's errors: a SQLite or file step that failed (named by what the store was
//! doing, the cause as the source), and the store's own refusals (a newer schema, WAL mode
//! refused, a file still unreadable after moving it aside). `ErrorKind` says which;
//! `HistoryError` carries it boxed and prints as anyhow prints a chain: `{}` the step, `{:#}`
//! the step and every cause after it (`history store F: locking …: database is locked`).
//!
//! Owns: `HistoryError`, `ErrorKind`, `Result`, `Context`.

use std::borrow::Cow;
use std::fmt;
use std::path::PathBuf;

/// A `Result` of the history store.
pub type Result<T, E = HistoryError> = std::result::Result<T, E>;

/// Why the history store could not do what it was asked: an [`ErrorKind`], boxed (a store
/// `Result` stays small).
#[derive(Debug)]
pub struct HistoryError(Box<ErrorKind>);

impl HistoryError {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0
    }

    /// What went wrong, by value.
    pub fn into_kind(self) -> ErrorKind {
        *self.0
    }
}

impl From<ErrorKind> for HistoryError {
    fn from(kind: ErrorKind) -> Self {
        HistoryError(Box::new(kind))
    }
}

impl From<rusqlite::Error> for HistoryError {
    fn from(e: rusqlite::Error) -> Self {
        ErrorKind::Sqlite(e).into()
    }
}

impl From<std::num::TryFromIntError> for HistoryError {
    fn from(e: std::num::TryFromIntError) -> Self {
        ErrorKind::Version(e).into()
    }
}

impl fmt::Display for HistoryError {
    /// The step; with `{:#}`, every cause after it, joined by `: ` as anyhow joins them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        if f.alternate() {
            let mut next = std::error::Error::source(&*self.0);
            while let Some(e) = next {
                write!(f, ": {e}")?;
                next = e.source();
            }
        }
        Ok(())
    }
}

impl std::error::Error for HistoryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // The kind's causes, not the kind: it prints as this error does.
        std::error::Error::source(&*self.0)
    }
}

/// Which failure a [`HistoryError`] is.
#[derive(Debug, thiserror::Error)]
pub enum ErrorKind {
    /// A SQLite call failed while the store was doing `doing` ("recording an audit row").
    #[error("{doing}")]
    Sql {
        /// The step, as the operator reads it.
        doing: Cow<'static, str>,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// A SQLite call failed on a step not worth naming.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// A file or directory could not be made or moved.
    #[error("{doing}")]
    Io {
        /// The step, naming the file.
        doing: String,
        /// The file system's error.
        source: std::io::Error,
    },
    /// A step of the store at `path` failed (every failure to open names the file).
    #[error("history store {}", path.display())]
    Store {
        /// The store's file.
        path: PathBuf,
        /// What failed.
        source: HistoryError,
    },
    /// The platform has no home directory.
    #[error("no home directory: cannot place the history store")]
    NoHome,
    /// The cluster's row was gone right after it was created.
    #[error("the cluster row vanished")]
    ClusterVanished,
    /// The file was written by a newer ome-top; it is left untouched.
    #[error(
        "history database {shown} has schema version {version}, newer than this ome-top \
         knows ({known}); it was left untouched. Upgrade ome-top, or pass --db to use another \
         file"
    )]
    NewerSchema {
        /// The file.
        shown: String,
        /// Its schema version.
        version: i64,
        /// The newest version this ome-top knows.
        known: i64,
    },
    /// A negative schema version; the file is left untouched.
    #[error("history database {shown} has a negative schema version {version}; left untouched")]
    NegativeSchema {
        /// The file.
        shown: String,
        /// Its schema version.
        version: i64,
    },
    /// The schema version does not fit an index.
    #[error(transparent)]
    Version(#[from] std::num::TryFromIntError),
    /// SQLite kept another journal mode.
    #[error("history database {shown}: WAL mode refused (journal mode is {mode})")]
    WalRefused {
        /// The file.
        shown: String,
        /// The journal mode SQLite reported.
        mode: String,
    },
    /// No `<path>.corrupt-<stamp>[-n]` name was free.
    #[error("no free name to move {} aside", path.display())]
    NoAsideName {
        /// The unreadable file.
        path: PathBuf,
    },
    /// The fresh file is unreadable too.
    #[error(
        "history database {} is still unreadable after moving the old file aside: {why}",
        path.display()
    )]
    StillUnreadable {
        /// The file.
        path: PathBuf,
        /// What SQLite or the integrity check found.
        why: String,
    },
}

impl HistoryError {
    /// Whether SQLite reported the file busy or locked somewhere in the chain.
    pub fn is_locked(&self) -> bool {
        let mut next: Option<&(dyn std::error::Error + 'static)> = Some(&*self.0);
        while let Some(e) = next {
            let locked = e.downcast_ref::<rusqlite::Error>().is_some_and(|r| {
                matches!(
                    r.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
                )
            });
            if locked {
                return true;
            }
            next = e.source();
        }
        false
    }
}

/// Names the step a SQLite call was, as anyhow's `context` did.
pub trait Context<T> {
    /// The error, as a failure of `doing`.
    fn context(self, doing: &'static str) -> Result<T>;
    /// The error, as a failure of the step `doing` returns (built only on failure).
    fn with_context(self, doing: impl FnOnce() -> String) -> Result<T>;
}

impl<T> Context<T> for std::result::Result<T, rusqlite::Error> {
    fn context(self, doing: &'static str) -> Result<T> {
        self.map_err(|source| {
            ErrorKind::Sql {
                doing: Cow::Borrowed(doing),
                source,
            }
            .into()
        })
    }

    fn with_context(self, doing: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|source| {
            ErrorKind::Sql {
                doing: Cow::Owned(doing()),
                source,
            }
            .into()
        })
    }
}
