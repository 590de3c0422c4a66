//! The offline source of `ome-top --snapshot FILE`: the file read and analysed once into the
//! one feed, every command refused (nothing is written offline), and every read answered from
//! the file itself, read again for it (the feed keeps only the compact model), so `y` shows the
//! object as the file holds it.
//!
//! Owns: `snapshot_feed`, `offline_channels`, `LOADING_SCREEN_FROM`. Composition only, no business logic.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::{mpsc, watch};

use crate::cluster::snapshot_file::{read_snapshot_with, SnapshotError};
use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use crate::engine::gangs::PlacementOptions;
use crate::engine::model::Time;
use crate::engine::nodes::ShapeTable;
use crate::protocol::{
    ApiStatus, Command, Feed, Fetch, FetchError, OpOutcome, Permissions, SourceKind, Update,
};
use crate::run::{Channels, TuiOptions};
use crate::ui::loading::Loading;

/// Files from this size on load behind the loading screen (`run::loading`); smaller ones load
/// in a blink.
pub const LOADING_SCREEN_FROM: u64 = 8 << 20;

/// Why a snapshot file gives no feed (the TUI then stops with exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum SnapshotFeedError {
    /// The file cannot be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a snapshot ome-top reads.
    #[error("{}", path.display())]
    Snapshot {
        /// The file.
        path: PathBuf,
        /// Why.
        source: SnapshotError,
    },
}

/// Reads and analyses a snapshot file into the one feed of offline mode, at `--now`, else
/// at the newest timestamp the snapshot holds, else at `wall`.
pub fn snapshot_feed(
    path: &Path,
    opts: &TuiOptions,
    wall: Time,
) -> Result<Feed, SnapshotFeedError> {
    let namespaces = (
        opts.alfred_namespace.as_str(),
        opts.scheduler_namespace.as_str(),
    );
    feed_with(
        path,
        namespaces,
        &opts.instance_types,
        (opts.snapshot_now, wall),
        &mut |_| {},
    )
}

/// [`snapshot_feed`] with the Alfred and scheduler namespaces, telling `report` how far it is.
pub(super) fn feed_with(
    path: &Path,
    (alfred, scheduler): (&str, &str),
    instance_types: &Arc<ShapeTable>,
    (asked, wall): (Option<Time>, Time),
    report: &mut dyn FnMut(Loading),
) -> Result<Feed, SnapshotFeedError> {
    let bytes = std::fs::read(path).map_err(|source| SnapshotFeedError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut objects = 0;
    let (snap, warnings) = read_snapshot_with(&bytes, &mut |p| {
        objects = p.objects;
        report(Loading::Reading {
            bytes: p.bytes as u64,
            total: p.total as u64,
            objects: p.objects,
        });
    })
    .map_err(|source| SnapshotFeedError::Snapshot {
        path: path.to_path_buf(),
        source,
    })?;
    // The text is not needed past this point: the analysis works on the compact model.
    drop(bytes);
    report(Loading::Analysing { objects });
    // A snapshot is aged against its own time, never against the clock it is replayed by.
    let now = asked.or_else(|| snap.newest_time()).unwrap_or(wall);
    let options = AnalysisOptions {
        now,
        alfred_namespace: alfred.to_string(),
        executor: ExecutorSetting::Auto,
        placement: PlacementOptions {
            scheduler_namespace: scheduler.to_string(),
            ..PlacementOptions::default()
        },
        instance_types: instance_types.clone(),
    };
    let analysis = analyze(&snap, &options);
    Ok(Feed {
        generation: 0,
        source: SourceKind::Snapshot(path.display().to_string()),
        api: ApiStatus::Offline,
        sources: Vec::new(),
        snapshot: Arc::new(snap),
        analysis: Arc::new(analysis),
        permissions: Permissions::read_only("offline snapshot: actions disabled"),
        warnings,
    })
}

/// Channels of offline mode: one feed; every command is refused; a read is answered from the
/// snapshot file at `path`, read again for it (the feed keeps only the compact model).
pub(super) fn offline_channels(feed: Feed, path: PathBuf) -> Channels {
    let (feed_tx, feed_rx) = watch::channel(Arc::new(feed));
    let (cmd_tx, mut cmd_rx) = mpsc::channel::<Command>(16);
    let (fetch_tx, mut fetch_rx) = mpsc::channel::<Fetch>(16);
    let (upd_tx, upd_rx) = mpsc::channel::<Update>(16);
    let fetch_upd = upd_tx.clone();
    tokio::spawn(async move {
        while let Some(fetch) = fetch_rx.recv().await {
            let path = path.clone();
            let read = fetch.clone();
            let result = tokio::task::spawn_blocking(move || snapshot_answer(&path, &read))
                .await
                .unwrap_or_else(|e| Err(FetchError::Read(e.to_string())));
            if fetch_upd
                .send(Update::Fetched { fetch, result })
                .await
                .is_err()
            {
                break;
            }
        }
    });
    tokio::spawn(async move {
        let _keep = feed_tx;
        while let Some(c) = cmd_rx.recv().await {
            let outcome = OpOutcome::Refused {
                message: "offline snapshot: actions disabled".into(),
            };
            if upd_tx
                .send(Update::OpDone { id: c.id, outcome })
                .await
                .is_err()
            {
                break;
            }
        }
    });
    Channels {
        feed: feed_rx,
        commands: cmd_tx,
        fetches: fetch_tx,
        updates: upd_rx,
    }
}

/// Answers `fetch` from the snapshot file at `path`.
fn snapshot_answer(path: &Path, fetch: &Fetch) -> Result<String, FetchError> {
    use crate::cluster::snapshot_file::{node_yaml, NodeYamlError};
    let bytes = std::fs::read(path)
        .map_err(|e| FetchError::Read(format!("cannot read {}: {e}", path.display())))?;
    match fetch {
        Fetch::NodeYaml(node) => node_yaml(&bytes, node).map_err(|e| match e {
            NodeYamlError::NotFound(name) => FetchError::NotFound {
                name,
                place: " in the snapshot file",
            },
            NodeYamlError::Yaml(e) => e.into(),
            NodeYamlError::Snapshot(e) => FetchError::Read(e.to_string()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offline_feed_is_read_only() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/mixed-fleet.json");
        let now = chrono::DateTime::parse_from_rfc3339("2026-09-28T10:15:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        let feed = snapshot_feed(&path, &TuiOptions::default(), now).unwrap();
        assert_eq!(feed.api, ApiStatus::Offline);
        assert_eq!(
            feed.permissions
                .check(crate::protocol::Capability::CordonNode),
            Err(crate::protocol::NotPermitted::ReadOnly(
                "offline snapshot: actions disabled".to_string()
            ))
        );
        assert_eq!(feed.snapshot.nodes.len(), feed.analysis.nodes.len());
    }

    #[tokio::test]
    async fn a_read_is_answered_from_the_file_as_it_holds_the_object() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/mixed-fleet.json");
        let now = chrono::DateTime::parse_from_rfc3339("2026-09-28T10:15:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        let feed = snapshot_feed(&path, &TuiOptions::default(), now).unwrap();
        let mut ch = offline_channels(feed, path);
        let fetch = Fetch::NodeYaml(Arc::from("h100-04"));
        ch.fetches.send(fetch.clone()).await.unwrap();
        let Some(Update::Fetched { fetch: got, result }) = ch.updates.recv().await else {
            panic!("no answer");
        };
        assert_eq!(got, fetch);
        // The file's object, with what the compact model drops (a condition's reason).
        let yaml = result.unwrap();
        assert!(yaml.contains("name: h100-04"), "{yaml}");
        assert!(yaml.contains("reason: XidError"), "{yaml}");
        ch.fetches
            .send(Fetch::NodeYaml(Arc::from("gone")))
            .await
            .unwrap();
        let Some(Update::Fetched { result, .. }) = ch.updates.recv().await else {
            panic!("no answer");
        };
        assert_eq!(
            result.map_err(|e| e.to_string()),
            Err("nodes \"gone\" not found in the snapshot file".to_string())
        );
    }
}
