//! The OMENative migration consumer of the demo (alfred.md §3.2): a request annotation is
//! accepted into InferenceReplica `status.migrations[]` and run Accepted → SurgePending (a
//! surge Instance is created and placed, hint targets first) → SurgeReady → Draining (the
//! source pods terminate) → Completed (the source Instance is gone), one phase per step after a
//! short dwell. Alfred's own requests mirror the phases into the journal (§2.2).
//!
//! Owns: `Migration`, `MigrationPhase`. Pure.

use std::sync::Arc;

use chrono::Duration;

use crate::engine::journal::Phase;
use crate::engine::migration::{ParsedRequest, REQUEST_ANNOTATION_PREFIX};
use crate::engine::model::{MigrationPhase as RowPhase, MigrationStatus, Name, Time};
use crate::sim::demo::churn::pod_pool;
use crate::sim::demo::objects::{bind, instance_pods, new_row, Shape};
use crate::sim::demo::place::{choose, free_devices, Strategy, POOLS};
use crate::sim::demo::{DemoWorld, Source};

/// Sim seconds a migration stays in a phase before the consumer moves it on.
pub const PHASE_DWELL_SECONDS: i64 = 5;
/// The consumer's deadline for a manual migration (`instanceReadyTimeout`), minutes.
pub const DEADLINE_MINUTES: i64 = 30;

/// A migration's lifecycle; the IR row phases of alfred.md §3.2 plus `Requested` (annotation
/// written, not yet consumed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MigrationPhase {
    /// The annotation is on the InferenceService; no IR row yet.
    Requested,
    /// IR row `Accepted`.
    Accepted,
    /// IR row `SurgePending`: the surge Instance is being placed.
    SurgePending,
    /// IR row `SurgeReady`: the surge Instance is Ready.
    SurgeReady,
    /// IR row `Draining`: the source pods are terminating.
    Draining,
    /// IR row `Completed` (terminal).
    Completed,
    /// IR row `Failed` (terminal).
    Failed,
}

impl MigrationPhase {
    /// The IR `status.migrations[].phase` value.
    pub fn row_phase(self) -> RowPhase {
        match self {
            MigrationPhase::Requested | MigrationPhase::Accepted => RowPhase::Accepted,
            MigrationPhase::SurgePending => RowPhase::SurgePending,
            MigrationPhase::SurgeReady => RowPhase::SurgeReady,
            MigrationPhase::Draining => RowPhase::Draining,
            MigrationPhase::Completed => RowPhase::Completed,
            MigrationPhase::Failed => RowPhase::Failed,
        }
    }

    /// Whether the migration has ended.
    pub fn is_terminal(self) -> bool {
        matches!(self, MigrationPhase::Completed | MigrationPhase::Failed)
    }
}

/// One migration request and its progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Migration {
    pub uuid: String,
    pub ns: Name,
    pub name: Name,
    pub source: i64,
    pub from_node: String,
    pub hints: Vec<String>,
    pub phase: MigrationPhase,
    pub since: Time,
    pub started: Time,
    pub surge: Option<i64>,
    /// Why it failed, as the consumer words it in the IR row's `message`.
    pub failure: Option<&'static str>,
    /// Alfred's own request (mirrored into the journal).
    pub alfred: bool,
}

impl DemoWorld {
    /// Whether `(ns, name)` has a migration in flight.
    pub(crate) fn migrating(&self, ns: &Name, name: &Name) -> bool {
        self.migrations
            .iter()
            .any(|m| !m.phase.is_terminal() && m.ns == *ns && m.name == *name)
    }

    /// Registers a request whose annotation was just written.
    pub(crate) fn start_migration(
        &mut self,
        (ns, name): (Name, Name),
        req: &ParsedRequest,
        alfred: bool,
    ) {
        self.migrations.push(Migration {
            uuid: req.uuid.clone(),
            ns,
            name,
            source: i64::from(req.instance),
            from_node: req.from_node.clone(),
            hints: req.hint_target_nodes.clone(),
            phase: MigrationPhase::Requested,
            since: self.now,
            started: self.now,
            surge: None,
            failure: None,
            alfred,
        });
    }

    /// Moves every migration on by at most one phase.
    pub(crate) fn advance_migrations(&mut self, now: Time) {
        for i in 0..self.migrations.len() {
            let m = &self.migrations[i];
            if m.phase.is_terminal() || now - m.since < Duration::seconds(PHASE_DWELL_SECONDS) {
                continue;
            }
            let next = match m.phase {
                MigrationPhase::Requested => self.accept(i, now),
                MigrationPhase::Accepted => self.create_surge(i, now),
                MigrationPhase::SurgePending => self.place_surge(i, now),
                MigrationPhase::SurgeReady => self.drain(i),
                MigrationPhase::Draining => self.finish(i),
                MigrationPhase::Completed | MigrationPhase::Failed => None,
            };
            let Some(next) = next else { continue };
            let m = &mut self.migrations[i];
            m.phase = next;
            m.since = now;
            if m.phase == MigrationPhase::Accepted {
                m.started = now;
            }
            self.write_row(i, now);
            if self.migrations[i].alfred {
                self.mirror_journal(i, now);
            }
        }
    }

    /// The `(IR uid, surge Instance)` of every migration whose surge copy is not placed yet.
    pub(crate) fn surges_in_flight(&self) -> Vec<(Name, i64)> {
        self.migrations
            .iter()
            .enumerate()
            .filter(|(_, m)| m.phase == MigrationPhase::SurgePending)
            .filter_map(|(i, m)| {
                Some((
                    self.snap.replicas[self.migration_ir(i)?].uid.clone(),
                    m.surge?,
                ))
            })
            .collect()
    }

    /// The IR of migration `i` (engine component).
    fn migration_ir(&self, i: usize) -> Option<usize> {
        let m = &self.migrations[i];
        self.snap.replicas.iter().position(|r| {
            r.namespace == m.ns
                && r.parent.as_ref() == Some(&m.name)
                && r.component.as_ref() == "engine"
        })
    }

    /// Pods of Instance `index` of IR `ir` (snapshot indices).
    fn instance_pod_indices(&self, ir: usize, index: i64) -> Vec<usize> {
        let uid = &self.snap.replicas[ir].uid;
        (0..self.snap.pods.len())
            .filter(|p| {
                let pod = &self.snap.pods[*p];
                pod.controller.as_ref().is_some_and(|o| o.uid == *uid)
                    && pod.ome.instance_index.value() == Some(index)
            })
            .collect()
    }

    /// The consumer validates the request and records it; the annotation is removed (the
    /// consumer owns removal). An invalid request fails at once.
    fn accept(&mut self, i: usize, now: Time) -> Option<MigrationPhase> {
        self.remove_request_annotation(i);
        let valid = self.migration_ir(i).is_some_and(|ir| {
            let m = &self.migrations[i];
            self.instance_pod_indices(ir, m.source)
                .iter()
                .any(|p| self.snap.pods[*p].node.as_deref() == Some(m.from_node.as_str()))
        });
        let _ = now;
        if valid {
            return Some(MigrationPhase::Accepted);
        }
        self.migrations[i].failure = Some("the source Instance does not run on fromNode");
        Some(MigrationPhase::Failed)
    }

    fn remove_request_annotation(&mut self, i: usize) {
        let m = &self.migrations[i];
        let key = format!("{REQUEST_ANNOTATION_PREFIX}{}", m.uuid);
        let (ns, name) = (m.ns.clone(), m.name.clone());
        let Some(s) = self
            .snap
            .isvcs
            .iter()
            .position(|s| *s.namespace() == ns && *s.name() == name)
        else {
            return;
        };
        if self.snap.isvcs[s]
            .annotations
            .remove(key.as_str())
            .is_some()
        {
            self.snap.isvcs[s].resource_version = self.bump();
            self.touch(Source::Services);
        }
    }

    /// Allocates the surge index, adds its row and its (pending) pods.
    fn create_surge(&mut self, i: usize, now: Time) -> Option<MigrationPhase> {
        let Some(ir) = self.migration_ir(i) else {
            self.migrations[i].failure = Some("the InferenceReplica is gone");
            return Some(MigrationPhase::Failed);
        };
        let source = self.instance_pod_indices(ir, self.migrations[i].source);
        let Some(first) = source.first().map(|p| &self.snap.pods[*p]) else {
            self.migrations[i].failure = Some("the source Instance has no pods");
            return Some(MigrationPhase::Failed);
        };
        let pool = pod_pool(first).unwrap_or(0);
        let shape = Shape {
            pool,
            gpus: first.gpus,
            pods: source.len() as i64,
        };
        let replica = &mut self.snap.replicas[ir];
        let rows = replica.status.rows.as_mut().ok()?;
        let surge = rows.iter().map(|r| r.index).max().unwrap_or(-1) + 1;
        rows.push(new_row(surge, &replica.status.current_revision));
        let pods = instance_pods(replica, surge, shape, POOLS[pool].resource, now);
        self.snap.pods.extend(pods);
        self.migrations[i].surge = Some(surge);
        self.touch(Source::Pods);
        Some(MigrationPhase::SurgePending)
    }

    /// Binds the surge pods: hint targets first (soft affinity), then the fullest node that
    /// fits; `from_node` and the source's nodes are excluded. Fails after the deadline.
    fn place_surge(&mut self, i: usize, now: Time) -> Option<MigrationPhase> {
        let ir = self.migration_ir(i)?;
        let m = self.migrations[i].clone();
        let surge = self.instance_pod_indices(ir, m.surge?);
        let source_nodes: Vec<usize> = self
            .instance_pod_indices(ir, m.source)
            .iter()
            .filter_map(|p| self.node_index(self.snap.pods[*p].node.as_deref()?))
            .collect();
        let mut free = free_devices(&self.snap);
        for p in surge {
            if self.snap.pods[p].node.is_some() {
                continue;
            }
            let gpus = self.snap.pods[p].gpus;
            let pool = pod_pool(&self.snap.pods[p]).unwrap_or(0);
            let hinted = m.hints.iter().filter_map(|h| self.node_index(h)).find(|n| {
                !source_nodes.contains(n) && !self.snap.nodes[*n].unschedulable && free[*n] >= gpus
            });
            let target = hinted.or_else(|| {
                let want = (pool, gpus);
                choose(
                    &self.snap,
                    &free,
                    &mut self.rng,
                    want,
                    Strategy::MostAllocated,
                    &source_nodes,
                )
            });
            if let Some(n) = target {
                free[n] -= gpus;
                let node = self.snap.nodes[n].clone();
                bind(&mut self.snap.pods[p], &node, now);
                self.touch(Source::Pods);
            }
        }
        let placed = self
            .instance_pod_indices(ir, m.surge?)
            .iter()
            .all(|p| self.snap.pods[*p].node.is_some());
        if placed {
            Some(MigrationPhase::SurgeReady)
        } else if now - m.started > Duration::minutes(DEADLINE_MINUTES) {
            self.remove_instance(ir, m.surge?);
            self.migrations[i].failure =
                Some("no node had room for the surge copy before the deadline");
            Some(MigrationPhase::Failed)
        } else {
            None
        }
    }

    fn node_index(&self, name: &str) -> Option<usize> {
        self.snap.nodes.iter().position(|n| n.name.as_ref() == name)
    }

    /// Marks the source pods terminating.
    fn drain(&mut self, i: usize) -> Option<MigrationPhase> {
        let ir = self.migration_ir(i)?;
        for p in self.instance_pod_indices(ir, self.migrations[i].source) {
            self.snap.pods[p].terminating = true;
            self.snap.pods[p].ready = false;
        }
        self.touch(Source::Pods);
        Some(MigrationPhase::Draining)
    }

    /// Removes the source Instance (pods and row).
    fn finish(&mut self, i: usize) -> Option<MigrationPhase> {
        let ir = self.migration_ir(i)?;
        self.remove_instance(ir, self.migrations[i].source);
        Some(MigrationPhase::Completed)
    }

    fn remove_instance(&mut self, ir: usize, index: i64) {
        let uid = self.snap.replicas[ir].uid.clone();
        self.snap.pods.retain(|p| {
            p.controller.as_ref().is_none_or(|o| o.uid != uid)
                || p.ome.instance_index.value() != Some(index)
        });
        if let Ok(rows) = self.snap.replicas[ir].status.rows.as_mut() {
            rows.retain(|r| r.index != index);
        }
        self.touch(Source::Pods);
    }

    /// Writes migration `i`'s IR `status.migrations[]` row.
    fn write_row(&mut self, i: usize, now: Time) {
        let Some(ir) = self.migration_ir(i) else {
            return;
        };
        let m = &self.migrations[i];
        let row = MigrationStatus {
            request_uuid: Arc::from(m.uuid.as_str()),
            trigger: Arc::from("Manual"),
            source_instance: Some(m.source),
            surge_instance: m.surge,
            phase: m.phase.row_phase(),
            from_node: Some(Arc::from(m.from_node.as_str())),
            started_at: Some(m.started),
            deadline: Some(m.started + Duration::minutes(DEADLINE_MINUTES)),
            completed_at: m.phase.is_terminal().then_some(now),
            message: m.failure.map(Arc::from),
        };
        let rows = &mut self.snap.replicas[ir].status.migrations;
        match rows.iter_mut().find(|r| r.request_uuid == row.request_uuid) {
            Some(r) => *r = row,
            None => rows.push(row),
        }
        self.touch(Source::Replicas);
    }

    /// Mirrors an Alfred request's phase into its journal entry (alfred.md §2.2).
    fn mirror_journal(&mut self, i: usize, now: Time) {
        let m = &self.migrations[i];
        let Some(e) = self.journal.entries.iter_mut().find(|e| e.uuid == m.uuid) else {
            return;
        };
        match m.phase {
            MigrationPhase::Accepted => {
                e.phase = Phase::Acknowledged;
                e.reason = "UUIDStatusObserved";
                e.acknowledged = Some(now);
            }
            MigrationPhase::Completed | MigrationPhase::Failed => {
                e.phase = if m.phase == MigrationPhase::Completed {
                    Phase::Completed
                } else {
                    Phase::Failed
                };
                e.reason = "TerminalStatusObserved";
                e.acknowledged.get_or_insert(now);
                e.completed = Some(now);
            }
            _ => return,
        }
        self.write_journal_cm();
    }
}
