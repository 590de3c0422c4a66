//! The history database's schema: the ordered list of migrations and `PRAGMA user_version`.
//!
//! Owns: `MIGRATIONS`, `SCHEMA_VERSION`, `migrate`, `check_version`. Reads no clock.

use crate::history::error::{Context, ErrorKind, Result};
use rusqlite::{Connection, TransactionBehavior};

/// Migration `i` (0-based) takes a database from `user_version = i` to `i + 1`. Append only:
/// a shipped migration is never edited, a change is a new entry.
pub const MIGRATIONS: &[&str] = &[V1, V2, V3, V4];

/// The schema version this build writes (`PRAGMA user_version` after `migrate`).
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// v1. Times are UTC Unix milliseconds; booleans are 0/1; lists are newline-joined text.
const V1: &str = "
CREATE TABLE clusters (
    id  INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE
);
CREATE TABLE node_transitions (
    id            INTEGER PRIMARY KEY,
    cluster_id    INTEGER NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    node          TEXT NOT NULL,
    at_ms         INTEGER NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('Clear', 'Suspect', 'Unknown', 'Unhealthy')),
    suspect_until_ms INTEGER,
    reason        TEXT NOT NULL,
    triggers      TEXT NOT NULL,
    cordoned      INTEGER NOT NULL CHECK (cordoned IN (0, 1))
);
CREATE INDEX node_transitions_by_node ON node_transitions (cluster_id, node, at_ms);
CREATE INDEX node_transitions_by_time ON node_transitions (at_ms);
CREATE TABLE audit_log (
    id               INTEGER PRIMARY KEY,
    cluster_id       INTEGER NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    at_ms            INTEGER NOT NULL,
    actor            TEXT NOT NULL,
    action           TEXT NOT NULL,
    object_kind      TEXT NOT NULL,
    object_namespace TEXT NOT NULL,
    object_name      TEXT NOT NULL,
    rv_before        TEXT,
    rv_after         TEXT,
    result           TEXT NOT NULL,
    message          TEXT NOT NULL
);
CREATE INDEX audit_log_by_object ON audit_log (cluster_id, object_kind, object_name, at_ms);
CREATE INDEX audit_log_by_time ON audit_log (at_ms);
CREATE TABLE dismissals (
    id           INTEGER PRIMARY KEY,
    cluster_id   INTEGER NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    workload     TEXT NOT NULL,
    component    TEXT NOT NULL,
    instance     INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    reason       TEXT NOT NULL,
    actor        TEXT NOT NULL,
    at_ms        INTEGER NOT NULL,
    UNIQUE (cluster_id, workload, component, instance)
);
CREATE INDEX dismissals_by_time ON dismissals (at_ms);
";

/// v2: what the operator overrode to confirm an action (`NULL` when nothing was), e.g. the
/// verdict `NoSurgeHeadroom` of a move approved against it. Rows written before stay `NULL`.
const V2: &str = "ALTER TABLE audit_log ADD COLUMN overrode TEXT;";

/// v3. Node rows carry the times the node's conditions give (`since_ms`: when the state
/// began; `cleared_ms`: when the trigger conditions last turned `False`) and the node's pool;
/// a cluster keeps when it was last observed (`seen_ms`: open episodes lasted at least until
/// then);
/// rows older stores wrote at every start that repeat the state of the row before them
/// (same state, triggers and cordon: only the Suspect deadline moved) are removed, so every
/// remaining row is a transition.
const V3: &str = "
ALTER TABLE node_transitions ADD COLUMN since_ms INTEGER;
ALTER TABLE node_transitions ADD COLUMN cleared_ms INTEGER;
ALTER TABLE node_transitions ADD COLUMN pool TEXT;
ALTER TABLE clusters ADD COLUMN seen_ms INTEGER;
DELETE FROM node_transitions WHERE id IN (
    SELECT id FROM (
        SELECT id, state, triggers, cordoned,
            lag(state) OVER w AS prev_state,
            lag(triggers) OVER w AS prev_triggers,
            lag(cordoned) OVER w AS prev_cordoned
        FROM node_transitions
        WINDOW w AS (PARTITION BY cluster_id, node ORDER BY at_ms, id)
    )
    WHERE state = prev_state AND triggers = prev_triggers AND cordoned = prev_cordoned
);
";

/// v4: the reason the operator wrote when confirming an action (a cordon's, an uncordon's, an
/// opt-out's or a dismissal's; `NULL` when none was asked or given). Rows written before stay
/// `NULL` (a dismissal's reason is also in its message).
const V4: &str = "ALTER TABLE audit_log ADD COLUMN reason TEXT;";

/// Reads `PRAGMA user_version`.
pub fn user_version(conn: &Connection) -> Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
        .context("reading the schema version")
}

/// Refuses a database written by a newer ome-top (its schema is unknown here); nothing is
/// written to it. `shown` names the file in the message.
pub fn check_version(version: i64, shown: &str) -> Result<()> {
    if version > SCHEMA_VERSION {
        return Err(ErrorKind::NewerSchema {
            shown: shown.to_string(),
            version,
            known: SCHEMA_VERSION,
        }
        .into());
    }
    if version < 0 {
        return Err(ErrorKind::NegativeSchema {
            shown: shown.to_string(),
            version,
        }
        .into());
    }
    Ok(())
}

/// Applies the missing migrations, each with its version bump, in one immediate transaction.
/// The version is re-read inside the transaction so two processes opening a fresh file at once
/// migrate it exactly once. Returns the version found before migrating.
pub fn migrate(conn: &mut Connection, shown: &str) -> Result<i64> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .context("locking the history database to migrate it")?;
    let found = user_version(&tx)?;
    check_version(found, shown)?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(usize::try_from(found)?) {
        tx.execute_batch(sql)
            .with_context(|| format!("migrating the history database to version {}", i + 1))?;
        // PRAGMA takes no bound parameters; the value is our own integer.
        tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))?;
    }
    tx.commit().context("committing the schema migration")?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v0_database_migrates_to_the_latest_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        assert_eq!(user_version(&conn).unwrap(), 0);
        assert_eq!(migrate(&mut conn, "mem").unwrap(), 0);
        assert_eq!(user_version(&conn).unwrap(), SCHEMA_VERSION);
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN \
                 ('clusters', 'node_transitions', 'audit_log', 'dismissals')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 4);
        // A second run is a no-op and reports the current version.
        assert_eq!(migrate(&mut conn, "mem").unwrap(), SCHEMA_VERSION);
    }

    #[test]
    fn a_version_1_audit_row_survives_the_override_column() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(V1).unwrap();
        conn.execute_batch(
            "PRAGMA user_version = 1; INSERT INTO clusters (key) VALUES ('k'); \
             INSERT INTO audit_log (cluster_id, at_ms, actor, action, object_kind, \
             object_namespace, object_name, result, message) \
             VALUES (1, 0, 'a', 'cordon-node', 'Node', '', 'n', 'done', 'cordoned');",
        )
        .unwrap();
        assert_eq!(migrate(&mut conn, "mem").unwrap(), 1);
        let (message, overrode): (String, Option<String>) = conn
            .query_row("SELECT message, overrode FROM audit_log", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((message.as_str(), overrode), ("cordoned", None));
    }

    #[test]
    fn newer_version_is_refused_with_a_clear_message() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(&format!("PRAGMA user_version = {}", SCHEMA_VERSION + 1))
            .unwrap();
        let err = migrate(&mut conn, "/x/history.sqlite3").unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("newer than this ome-top"), "{msg}");
        assert!(msg.contains("/x/history.sqlite3"), "{msg}");
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .unwrap();
        assert_eq!(tables, 0, "nothing was created");
    }

    #[test]
    fn state_check_rejects_unknown_states() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn, "mem").unwrap();
        conn.execute("INSERT INTO clusters (key) VALUES ('k')", [])
            .unwrap();
        let bad = conn.execute(
            "INSERT INTO node_transitions (cluster_id, node, at_ms, state, reason, triggers, \
             cordoned) VALUES (1, 'n', 0, 'Gone', '', '', 0)",
            [],
        );
        assert!(bad.is_err());
    }
}
