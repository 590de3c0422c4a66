//! Writing node health transitions: `record_observation` and the last-known-state cache.
//!
//! Owns: the `node_transitions` writes and the row ⇄ `NodeObservation` mapping. Reads no clock.

use crate::history::error::{Context, ErrorKind, Result};
use rusqlite::{Connection, OptionalExtension, Row};

use crate::engine::analysis::Analysis;
use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::nodes::HealthState;
use crate::history::transitions::{node_changes, LastObservations, NodeObservation};
use crate::history::{from_ms, to_ms, ClusterCache, ClusterKey, HistoryStore, SEEN_EVERY_SECONDS};

/// Columns read by `observation_from_row`, in order.
pub(crate) const OBSERVATION_COLUMNS: &str =
    "state, suspect_until_ms, reason, triggers, cordoned, since_ms, cleared_ms, pool";

/// The observation stored in a row selected with `OBSERVATION_COLUMNS` starting at `first`.
pub(crate) fn observation_from_row(
    row: &Row<'_>,
    first: usize,
) -> rusqlite::Result<NodeObservation> {
    let state: String = row.get(first)?;
    let until: Option<i64> = row.get(first + 1)?;
    let health = match (state.as_str(), until) {
        ("Clear", _) => HealthState::Clear,
        ("Suspect", Some(ms)) => HealthState::Suspect {
            until: from_ms(ms)?,
        },
        ("Unhealthy", _) => HealthState::Unhealthy,
        // `Unknown`, and a Suspect row without its deadline (never written by this build).
        _ => HealthState::Unknown,
    };
    let triggers: String = row.get(first + 3)?;
    let time = |i: usize| -> rusqlite::Result<Option<Time>> {
        row.get::<_, Option<i64>>(first + i)?
            .map(from_ms)
            .transpose()
    };
    Ok(NodeObservation {
        health,
        reason: row.get(first + 2)?,
        triggers: split_list(&triggers),
        cordoned: row.get(first + 4)?,
        since: time(5)?,
        cleared: time(6)?,
        pool: row.get(first + 7)?,
    })
}

/// Lists are stored newline-joined; `""` is the empty list.
pub(crate) fn split_list(text: &str) -> Vec<String> {
    text.split('\n')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The latest stored observation of `node`, if any.
fn latest(conn: &Connection, cluster_id: i64, node: &str) -> Result<Option<NodeObservation>> {
    conn.query_row(
        &format!(
            "SELECT {OBSERVATION_COLUMNS} FROM node_transitions WHERE cluster_id = ?1 AND \
             node = ?2 ORDER BY at_ms DESC, id DESC LIMIT 1"
        ),
        rusqlite::params![cluster_id, node],
        |r| observation_from_row(r, 0),
    )
    .optional()
    .context("reading a node's last state")
}

/// The latest stored observation of every node of a cluster.
fn load_last(conn: &Connection, cluster_id: i64) -> Result<LastObservations> {
    let mut stmt = conn.prepare(&format!(
        "SELECT node, {OBSERVATION_COLUMNS} FROM (SELECT *, row_number() OVER (PARTITION BY \
         node ORDER BY at_ms DESC, id DESC) AS rank FROM node_transitions WHERE cluster_id = ?1) \
         WHERE rank = 1"
    ))?;
    let rows = stmt.query_map([cluster_id], |r| {
        Ok((r.get::<_, String>(0)?, observation_from_row(r, 1)?))
    })?;
    rows.collect::<rusqlite::Result<LastObservations>>()
        .context("loading the last node states")
}

impl HistoryStore {
    /// Records the node health transitions of `analysis` (aligned with `snapshot.nodes`) at
    /// `now` for `cluster`, in one transaction: only nodes seen for the first time or whose
    /// health state, maintenance triggers or cordon changed against the last stored row
    /// (loaded from the file on first use, so a restart that finds the same states writes
    /// nothing; a moved Suspect deadline is not a change). A row another process already wrote
    /// with the same state is not written twice. Prunes when due.
    /// Returns the number of rows written.
    pub fn record_observation(
        &mut self,
        cluster: &ClusterKey,
        analysis: &Analysis,
        snapshot: &ClusterSnapshot,
        now: Time,
    ) -> Result<usize> {
        self.prune_if_due(now)?;
        self.ensure_cluster(cluster)?;
        let Some(cache) = self.clusters.get(cluster) else {
            return Ok(0);
        };
        let changes = node_changes(&cache.last, analysis, snapshot);
        let seen_due = cache
            .seen
            .is_none_or(|t| (now - t).num_seconds() >= SEEN_EVERY_SECONDS);
        if changes.is_empty() && !seen_due {
            return Ok(0);
        }
        let cluster_id = cache.id;
        let tx = self.write_transaction()?;
        tx.execute(
            "UPDATE clusters SET seen_ms = max(coalesce(seen_ms, ?1), ?1) WHERE id = ?2",
            rusqlite::params![to_ms(now), cluster_id],
        )
        .context("recording when the cluster was observed")?;
        let mut written = 0;
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO node_transitions (cluster_id, node, at_ms, state, \
                 suspect_until_ms, reason, triggers, cordoned, since_ms, cleared_ms, pool) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?;
            for change in &changes {
                let o = &change.observed;
                if latest(&tx, cluster_id, &change.node)?.is_some_and(|l| l.same_state(o)) {
                    continue;
                }
                insert
                    .execute(rusqlite::params![
                        cluster_id,
                        change.node,
                        to_ms(now),
                        o.health.name(),
                        o.health.suspect_until().map(to_ms),
                        o.reason,
                        o.triggers.join("\n"),
                        o.cordoned,
                        o.since.map(to_ms),
                        o.cleared.map(to_ms),
                        o.pool,
                    ])
                    .context("recording a node transition")?;
                written += 1;
            }
        }
        tx.commit().context("committing node transitions")?;
        if let Some(cache) = self.clusters.get_mut(cluster) {
            cache.seen = Some(now);
            for change in changes {
                cache.last.insert(change.node, change.observed);
            }
        }
        Ok(written)
    }

    /// When `cluster` was last observed (by any process): open episodes lasted at least until
    /// then. `None` for an unknown cluster or one recorded by an older build.
    pub fn seen(&self, cluster: &ClusterKey) -> Result<Option<Time>> {
        let ms: Option<Option<i64>> = self
            .conn
            .query_row(
                "SELECT seen_ms FROM clusters WHERE key = ?1",
                [cluster.as_str()],
                |r| r.get(0),
            )
            .optional()
            .context("reading when the cluster was observed")?;
        ms.flatten().map(from_ms).transpose().map_err(Into::into)
    }

    /// Loads `cluster`'s id and last node states into the cache, once.
    fn ensure_cluster(&mut self, cluster: &ClusterKey) -> Result<()> {
        if self.clusters.contains_key(cluster) {
            return Ok(());
        }
        let id = self
            .cluster_id(cluster, true)?
            .ok_or(ErrorKind::ClusterVanished)?;
        let last = load_last(&self.conn, id)?;
        self.clusters.insert(
            cluster.clone(),
            ClusterCache {
                id,
                last,
                seen: None,
            },
        );
        Ok(())
    }
}
