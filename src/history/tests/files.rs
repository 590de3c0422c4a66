//! Tests of the history file itself: migrations on disk, refusal of newer schemas, and corrupt
//! files moved aside (never truncated).

use std::path::{Path, PathBuf};

use super::super::audit::AuditResult;
use super::super::schema::SCHEMA_VERSION;
use super::{cordon_entry, count, nodes, open, record, temp};
use crate::engine::model::testkit::at;
use crate::history::*;

#[test]
fn a_v0_file_on_disk_is_migrated() {
    let (_dir, path) = temp();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch("CREATE TABLE unrelated (x INTEGER)")
        .unwrap();
    drop(raw);
    let store = open(&path, at(10, 0, 0));
    assert_eq!(schema::user_version(&store.conn).unwrap(), SCHEMA_VERSION);
    let mode: String = store
        .conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let fk: i64 = store
        .conn
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .unwrap();
    assert_eq!(fk, 1);
    assert_eq!(count(&store, "unrelated"), 0, "other tables are kept");
}

#[test]
fn a_newer_schema_is_refused_and_left_untouched() {
    let (_dir, path) = temp();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(&format!(
        "CREATE TABLE future (x INTEGER); PRAGMA user_version = {};",
        SCHEMA_VERSION + 1
    ))
    .unwrap();
    drop(raw);
    let before = std::fs::read(&path).unwrap();
    let err = HistoryStore::open_at(&path, StoreOptions::default(), at(10, 0, 0)).unwrap_err();
    let msg = format!("{err:#}");
    assert!(msg.contains("newer than this ome-top"), "{msg}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file was modified"
    );
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1
    );
}

fn asides(path: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".corrupt-"))
        .collect();
    found.sort();
    found
}

#[test]
fn a_file_that_is_not_a_database_is_moved_aside() {
    let (_dir, path) = temp();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let garbage = b"this is not a SQLite database, just some text\n".repeat(100);
    std::fs::write(&path, &garbage).unwrap();
    let opened = HistoryStore::open_at(&path, StoreOptions::default(), at(10, 0, 0)).unwrap();
    assert_eq!(opened.notices.len(), 1);
    let aside = path.with_file_name(format!("{FILE_NAME}.corrupt-20260928T100000Z"));
    assert!(
        opened.notices[0].contains(&aside.display().to_string()),
        "{:?}",
        opened.notices
    );
    assert_eq!(
        std::fs::read(&aside).unwrap(),
        garbage,
        "the old bytes are kept"
    );
    let mut store = opened.store;
    let key = ClusterKey::demo(1);
    assert_eq!(
        record(&mut store, &key, &nodes(false, false), at(10, 0, 0)),
        2
    );
    drop(store);
    // A second corrupt file in the same second gets its own name.
    std::fs::write(&path, &garbage).unwrap();
    let again = HistoryStore::open_at(&path, StoreOptions::default(), at(10, 0, 0)).unwrap();
    assert_eq!(again.notices.len(), 1);
    assert_eq!(asides(&path).len(), 2);
}

#[test]
fn a_damaged_database_is_moved_aside() {
    let (_dir, path) = temp();
    let key = ClusterKey::demo(1);
    let mut store = open(&path, at(10, 0, 0));
    for i in 0..400 {
        let mut e = cordon_entry(0, AuditResult::Done);
        e.message = format!("row {i} {}", "x".repeat(200));
        store.record_audit(&key, &e).unwrap();
    }
    drop(store); // The last close checkpoints the WAL into the main file.
    let mut bytes = std::fs::read(&path).unwrap();
    let page = 4096;
    assert!(bytes.len() > 6 * page, "{}", bytes.len());
    for b in &mut bytes[3 * page..5 * page] {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).unwrap();
    let opened = HistoryStore::open_at(&path, StoreOptions::default(), at(10, 30, 0)).unwrap();
    assert_eq!(opened.notices.len(), 1, "{:?}", opened.notices);
    assert_eq!(asides(&path).len(), 1);
    assert!(opened.store.recent_audit(&key, 10).unwrap().is_empty());
}
