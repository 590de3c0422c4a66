//! The local history store (product.md §5): an embedded SQLite file, one per user, keyed by
//! cluster, recording node health transitions as observed, the operator's actions (audit) and
//! dismissed recommendations, with bounded retention.
//!
//! Owns: `HistoryStore`, `StoreOptions`, `ClusterKey`, `Opened`, the schema and its migrations.
//! Reads no clock: every time is an argument.

pub mod audit;
pub mod dismissals;
mod error;
mod node_rows;
mod open;
pub mod query;
pub mod schema;
pub mod transitions;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::history::error::{Context, Result};
use chrono::{DateTime, Duration};
pub use error::{ErrorKind, HistoryError};
use rusqlite::{Connection, OptionalExtension};

use crate::engine::model::Time;
use transitions::LastObservations;

/// File name of the store inside the data directory.
pub const FILE_NAME: &str = "history.sqlite3";
/// Default retention: rows older than this many days are deleted.
pub const DEFAULT_RETENTION_DAYS: u32 = 30;
/// How long SQLite waits for another process's write lock before giving up (milliseconds).
pub const BUSY_TIMEOUT_MS: u64 = 5_000;
/// Minimum spacing of the automatic prunes done while recording (minutes).
pub const AUTO_PRUNE_EVERY_MINUTES: i64 = 60;
/// Minimum spacing of the writes of a cluster's last observation time without new rows
/// (seconds of observation time).
pub const SEEN_EVERY_SECONDS: i64 = 60;

/// Which cluster rows belong to. Stored verbatim in `clusters.key`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClusterKey(String);

impl ClusterKey {
    /// A live cluster: `<API server URL>#<context name>`, so two contexts on one server (other
    /// users, other namespaces) keep separate histories.
    pub fn live(server_url: &str, context: &str) -> Self {
        ClusterKey(format!("{server_url}#{context}"))
    }

    /// The simulated cluster of seed `N`: `demo:<seed>` (tests; what older builds keyed every
    /// `ome-top demo --seed N` run by).
    pub fn demo(seed: u64) -> Self {
        ClusterKey(format!("demo:{seed}"))
    }

    /// One run of `ome-top demo --seed N`, a simulated world of its own:
    /// `demo:<seed>@<start, YYYYMMDDTHHMMSSZ>`.
    pub fn demo_run(seed: u64, started: Time) -> Self {
        ClusterKey(format!("demo:{seed}@{}", started.format("%Y%m%dT%H%M%SZ")))
    }

    /// The seed and start of a demo run's key (`demo:<seed>@<start>`); `None` for any other.
    pub fn demo_run_started(&self) -> Option<(u64, Time)> {
        let (seed, start) = self.0.strip_prefix("demo:")?.split_once('@')?;
        let start = chrono::NaiveDateTime::parse_from_str(start, "%Y%m%dT%H%M%SZ").ok()?;
        Some((seed.parse().ok()?, start.and_utc()))
    }

    /// Whether this key is a run of the demo of `seed` (either form).
    fn is_demo_of(&self, seed: u64) -> bool {
        let base = format!("demo:{seed}");
        self.0 == base || self.0.starts_with(&format!("{base}@"))
    }

    /// A replayed snapshot file: `snapshot:<path>` (the caller passes the path it wants kept,
    /// preferably canonical).
    pub fn snapshot(path: &Path) -> Self {
        ClusterKey(format!("snapshot:{}", path.display()))
    }

    /// A key exactly as stored (as printed by `ome-top history`, given to `--cluster`).
    pub fn raw(key: &str) -> Self {
        ClusterKey(key.to_owned())
    }

    /// The stored text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How a store behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreOptions {
    /// Rows older than `now − retention` are deleted on open, by `prune` and periodically while
    /// recording; `None` keeps everything (read-only tools such as `ome-top history`, which do
    /// not know the configured retention, must not prune with a default one).
    pub retention: Option<Duration>,
}

impl StoreOptions {
    /// Options keeping `days` days of history.
    pub fn with_retention_days(days: u32) -> Self {
        StoreOptions {
            retention: Some(Duration::days(i64::from(days))),
        }
    }

    /// Options that never prune.
    pub fn keep_everything() -> Self {
        StoreOptions { retention: None }
    }
}

impl Default for StoreOptions {
    fn default() -> Self {
        Self::with_retention_days(DEFAULT_RETENTION_DAYS)
    }
}

/// An opened store and what the operator must be told about opening it (a corrupt file moved
/// aside, for example). Notices are full sentences.
#[derive(Debug)]
pub struct Opened {
    /// The store, migrated to `schema::SCHEMA_VERSION` and pruned.
    pub store: HistoryStore,
    /// Messages for the operator; empty on a normal open.
    pub notices: Vec<String>,
}

/// Rows deleted by one prune.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Node health transitions deleted.
    pub transitions: usize,
    /// Audit rows deleted.
    pub audit: usize,
    /// Dismissals deleted (their recommendations show again).
    pub dismissals: usize,
}

/// Per-cluster state kept in memory: the row id and the last observation per node, loaded
/// from the file on first use so a restart does not record unchanged states again.
#[derive(Debug)]
struct ClusterCache {
    id: i64,
    last: LastObservations,
    /// The observation time last written to `clusters.seen_ms` by this connection.
    seen: Option<Time>,
}

/// The history store: one SQLite connection (WAL mode, busy timeout, foreign keys on).
#[derive(Debug)]
pub struct HistoryStore {
    conn: Connection,
    path: PathBuf,
    retention: Option<Duration>,
    clusters: HashMap<ClusterKey, ClusterCache>,
    last_prune: Option<Time>,
}

/// The default location: `<data dir of ome-top>/history.sqlite3` (e.g.
/// `~/.local/share/ome-top/history.sqlite3` on Linux). `None` when the platform has no home.
pub fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "ome-top").map(|d| d.data_dir().join(FILE_NAME))
}

impl HistoryStore {
    /// Opens (creating it and its directory if needed) the store at the default location.
    pub fn open_default(options: StoreOptions, now: Time) -> Result<Opened> {
        let path = default_path().ok_or(ErrorKind::NoHome)?;
        Self::open_at(&path, options, now)
    }

    /// Opens the store at `path`, creating it if needed. A file that is not a SQLite database
    /// or fails `PRAGMA quick_check` is renamed to `<path>.corrupt-<now>` and a fresh store is
    /// created (a notice says so). A file with a newer schema version is refused untouched.
    /// Rows older than the retention are pruned.
    pub fn open_at(path: &Path, options: StoreOptions, now: Time) -> Result<Opened> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| ErrorKind::Io {
                doing: format!("creating the history directory {}", dir.display()),
                source,
            })?;
        }
        let mut notices = Vec::new();
        // Every failure names the file: "database is locked" alone does not say which one.
        let in_store = |e: HistoryError| ErrorKind::Store {
            path: path.to_path_buf(),
            source: e,
        };
        let conn = open::open_connection(path, now, &mut notices).map_err(in_store)?;
        let mut store = HistoryStore {
            conn,
            path: path.to_path_buf(),
            retention: options.retention,
            clusters: HashMap::new(),
            last_prune: None,
        };
        store.prune(now).map_err(in_store)?;
        Ok(Opened { store, notices })
    }

    /// The file this store writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Deletes every row older than `now − retention` in one transaction (nothing when the
    /// store keeps everything).
    pub fn prune(&mut self, now: Time) -> Result<Pruned> {
        let Some(retention) = self.retention else {
            return Ok(Pruned::default());
        };
        let cutoff = to_ms(now - retention);
        let tx = self.write_transaction()?;
        let delete = |table: &str| -> Result<usize> {
            tx.execute(&format!("DELETE FROM {table} WHERE at_ms < ?1"), [cutoff])
                .with_context(|| format!("pruning {table}"))
        };
        let pruned = Pruned {
            transitions: delete("node_transitions")?,
            audit: delete("audit_log")?,
            dismissals: delete("dismissals")?,
        };
        tx.commit().context("committing the prune")?;
        if pruned.transitions > 0 {
            // Pruned nodes must be observed afresh, as after a restart.
            self.clusters.clear();
        }
        self.last_prune = Some(now);
        Ok(pruned)
    }

    /// Prunes when the last prune is older than `AUTO_PRUNE_EVERY_MINUTES`.
    fn prune_if_due(&mut self, now: Time) -> Result<()> {
        let due = self
            .last_prune
            .is_none_or(|last| now - last >= Duration::minutes(AUTO_PRUNE_EVERY_MINUTES));
        if due {
            self.prune(now)?;
        }
        Ok(())
    }

    /// An immediate (write-locking) transaction: taking the lock up front lets the busy
    /// timeout apply instead of failing on a read-to-write upgrade under contention.
    fn write_transaction(&mut self) -> Result<rusqlite::Transaction<'_>> {
        self.conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .context("locking the history database for writing")
    }

    /// The row id of `cluster`, created if `create`.
    fn cluster_id(&self, cluster: &ClusterKey, create: bool) -> Result<Option<i64>> {
        if create {
            self.conn
                .execute(
                    "INSERT INTO clusters (key) VALUES (?1) ON CONFLICT (key) DO NOTHING",
                    [cluster.as_str()],
                )
                .context("registering the cluster")?;
        }
        self.conn
            .query_row(
                "SELECT id FROM clusters WHERE key = ?1",
                [cluster.as_str()],
                |r| r.get(0),
            )
            .optional()
            .context("looking up the cluster")
    }

    /// Deletes every row of the earlier runs of the demo of `seed` (their worlds are gone), all
    /// but `keep`; returns how many runs were forgotten. A demo run starts its history fresh
    /// this way, so runs never pile up.
    pub fn forget_demo_runs(&mut self, seed: u64, keep: &ClusterKey) -> Result<usize> {
        let old: Vec<ClusterKey> = self
            .clusters()?
            .into_iter()
            .filter(|k| k.is_demo_of(seed) && k != keep)
            .collect();
        let tx = self.write_transaction()?;
        for key in &old {
            // Rows go with their cluster (ON DELETE CASCADE).
            tx.execute("DELETE FROM clusters WHERE key = ?1", [key.as_str()])
                .context("forgetting an earlier demo run")?;
        }
        tx.commit().context("committing the forgotten demo runs")?;
        for key in &old {
            self.clusters.remove(key);
        }
        Ok(old.len())
    }

    /// Every cluster key in the store, sorted.
    pub fn clusters(&self) -> Result<Vec<ClusterKey>> {
        let mut stmt = self.conn.prepare("SELECT key FROM clusters ORDER BY key")?;
        let keys = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .map(|k| k.map(ClusterKey))
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(keys)
    }
}

/// UTC Unix milliseconds, the stored time format.
pub(crate) fn to_ms(t: Time) -> i64 {
    t.timestamp_millis()
}

/// The time of stored milliseconds (out-of-range values read as an SQL conversion error).
pub(crate) fn from_ms(ms: i64) -> rusqlite::Result<Time> {
    DateTime::from_timestamp_millis(ms).ok_or(rusqlite::Error::IntegralValueOutOfRange(0, ms))
}

#[cfg(test)]
mod tests;
