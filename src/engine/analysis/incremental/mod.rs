//! The analysis kept up to date one watch event at a time: a pod or node added, changed or
//! removed updates the snapshot and re-runs only the parts of the analysis that read it — the
//! node's allocation, the workload components the pod feeds and their verdicts, the pools
//! whose bins, demand, repack items or pending pods it touches, and, when any of those
//! changed, the fleet-wide stages (the decision pass, gangs, lints) — and reuses everything
//! else from the previous analysis, renumbering the pod indices it holds.
//!
//! Invariant: after every change, `analysis()` equals `analyze(snapshot(), options)` (the
//! property test in `tests.rs` checks the whole value after each event of random sequences).
//! It holds by construction, not by event order: each part is rebuilt by the same function
//! the full analysis runs for that part (`isvc_components`, `component_verdicts`,
//! `pool_data` + `score_pool`, …) from per-node, per-component and per-pool records keyed by
//! stable identity, and a change marks a part stale by what the part reads (`Stale`), whatever
//! came before. An InferenceService changed in place re-runs its own components (`isvcs.rs`).
//! Anything the records do not follow — an InferenceService added, removed or reshaped,
//! replicas, ConfigMaps, PodGroups, models, a node added or removed, a node's pool changed,
//! another time — runs the full analysis.
//!
//! Owns: `Incremental`, `Change`. Pure: time arrives in the options; no clock, no I/O.

mod clock;
mod diff;
mod isvcs;
mod lists;
mod members;
mod moves;
mod parts;
mod pods;
mod renumber;
mod rescore;
mod routes;
mod stages;

use std::sync::Arc;

use crate::engine::analysis::{pipeline, Analysis, AnalysisOptions, Deadlines};
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, Event, InferenceService, Name, Node, NodeEdit, Pod};
use crate::engine::nodes::{node_state, same_pool_inputs};

pub use clock::Advance;
pub use diff::{changes_between, changes_in, Changed, MAX_CHANGES};
use parts::Parts;
use stages::Stale;
pub use stages::{MovesRerun, Rerun};

/// One change to the observed cluster.
#[derive(Debug, Clone)]
pub enum Change {
    /// A pod added or changed (keyed by `namespace/name`).
    Pod(Arc<Pod>),
    /// The pod `namespace/name` deleted.
    PodDeleted {
        /// Namespace.
        namespace: Name,
        /// Name.
        name: Name,
    },
    /// A node added or changed (keyed by name).
    Node(Node),
    /// The node `name` deleted.
    NodeDeleted(Name),
    /// The core Events replaced (only the gang engine reads them).
    Events(Vec<Event>),
    /// An InferenceService added or changed (keyed by `namespace/name`).
    Isvc(Box<InferenceService>),
    /// The InferenceService `namespace/name` deleted.
    IsvcDeleted {
        /// Namespace.
        namespace: Name,
        /// Name.
        name: Name,
    },
    /// Anything else: the whole snapshot replaced (a full analysis).
    Snapshot(Box<ClusterSnapshot>),
}

/// A snapshot, its analysis, and the records that let a change re-run only what it touches.
#[derive(Debug, Clone)]
pub struct Incremental {
    // Shared, so that a published feed holds the same allocations until the next change
    // copies what it edits (`Arc::make_mut`): one copy of each at rest.
    snap: Arc<ClusterSnapshot>,
    opts: AnalysisOptions,
    analysis: Arc<Analysis>,
    parts: Parts,
    rerun: Rerun,
    // When the analysis changes by time alone (`clock.rs`).
    deadlines: Deadlines,
}

impl Incremental {
    /// The full analysis of `snap`, ready for changes.
    pub fn new(snap: ClusterSnapshot, opts: AnalysisOptions) -> Self {
        Self::from_shared(Arc::new(snap), opts)
    }

    /// `new` on a shared snapshot (not copied until a change edits it).
    pub fn from_shared(snap: Arc<ClusterSnapshot>, opts: AnalysisOptions) -> Self {
        let (analysis, owners) = pipeline(&snap, &opts, &mut |_| {}, true);
        let parts = Parts::new(&snap, &analysis, owners);
        let deadlines = Deadlines::of(&snap, &analysis);
        Incremental {
            snap,
            opts,
            analysis: Arc::new(analysis),
            parts,
            rerun: Rerun {
                full: true,
                ..Rerun::default()
            },
            deadlines,
        }
    }

    /// The current snapshot.
    pub fn snapshot(&self) -> &ClusterSnapshot {
        &self.snap
    }

    /// The analysis of the current snapshot.
    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// The current snapshot, shared (what a feed publishes).
    pub fn shared_snapshot(&self) -> Arc<ClusterSnapshot> {
        self.snap.clone()
    }

    /// The analysis, shared (what a feed publishes).
    pub fn shared_analysis(&self) -> Arc<Analysis> {
        self.analysis.clone()
    }

    /// The index of the current snapshot (equal to `SnapshotIndex::new(snapshot())`).
    pub fn index(&self) -> &SnapshotIndex {
        &self.parts.index
    }

    /// What the last change re-ran.
    pub fn last_rerun(&self) -> Rerun {
        self.rerun
    }

    /// The options every analysis runs with.
    pub fn options(&self) -> &AnalysisOptions {
        &self.opts
    }

    /// The snapshot and its analysis.
    pub fn into_parts(self) -> (ClusterSnapshot, Analysis) {
        (
            Arc::unwrap_or_clone(self.snap),
            Arc::unwrap_or_clone(self.analysis),
        )
    }

    /// Changes the options (a new observation time, say): a full analysis unless they are the
    /// same.
    pub fn set_options(&mut self, opts: AnalysisOptions) {
        let same = opts.now == self.opts.now
            && opts.alfred_namespace == self.opts.alfred_namespace
            && opts.executor == self.opts.executor
            && opts.placement == self.opts.placement;
        if !same {
            self.opts = opts;
            self.rebuild();
        }
    }

    /// Applies one change and brings the analysis up to date.
    pub fn apply(&mut self, change: Change) {
        self.rerun = Rerun::default();
        self.note_change(&change);
        match change {
            Change::Pod(pod) => {
                let edit = Arc::make_mut(&mut self.snap).upsert_pod(pod);
                self.apply_pod(edit);
            }
            Change::PodDeleted { namespace, name } => {
                let edit = Arc::make_mut(&mut self.snap).delete_pod(&namespace, &name);
                self.apply_pod(edit);
            }
            Change::Node(node) => {
                let edit = Arc::make_mut(&mut self.snap).upsert_node(node);
                self.apply_node(edit);
            }
            Change::NodeDeleted(name) => {
                let edit = Arc::make_mut(&mut self.snap).delete_node(&name);
                self.apply_node(edit);
            }
            Change::Events(events) => {
                Arc::make_mut(&mut self.snap).events = events.into();
                let stale = Stale {
                    gangs: true,
                    ..Stale::default()
                };
                self.refresh(stale);
            }
            Change::Isvc(isvc) => {
                let edit = Arc::make_mut(&mut self.snap).upsert_isvc(*isvc);
                self.apply_isvc(edit);
            }
            Change::IsvcDeleted { namespace, name } => {
                let edit = Arc::make_mut(&mut self.snap).delete_isvc(&namespace, &name);
                self.apply_isvc(edit);
            }
            Change::Snapshot(snap) => {
                self.snap = Arc::new(*snap);
                self.rebuild();
            }
        }
        self.check_gates();
    }

    /// A full analysis of the current snapshot.
    fn rebuild(&mut self) {
        let (analysis, owners) = pipeline(&self.snap, &self.opts, &mut |_| {}, true);
        self.parts = Parts::new(&self.snap, &analysis, owners);
        self.deadlines = Deadlines::of(&self.snap, &analysis);
        self.analysis = Arc::new(analysis);
        self.rerun = Rerun {
            full: true,
            ..Rerun::default()
        };
    }

    /// A node replaced in place keeps every pod's resolution and the pools, unless what its
    /// pool key is made of changed (its product, shape or GPU resource: its pool, or its
    /// shape group's agreement, may change with it); anything else about nodes is a full
    /// analysis.
    fn apply_node(&mut self, edit: NodeEdit) {
        let (at, old) = match edit {
            NodeEdit::Replaced { at, old } => (at, old),
            NodeEdit::Absent => return,
            NodeEdit::Inserted { .. } | NodeEdit::Removed { .. } => return self.rebuild(),
        };
        let Some(node) = self.snap.nodes.get(at) else {
            return self.rebuild();
        };
        if !same_pool_inputs(&old, node) {
            return self.rebuild();
        }
        let relabelled = old.labels != node.labels;
        let per_card =
            old.gpu_allocatable != node.gpu_allocatable || old.allocatable != node.allocatable;
        let (allocated, occupants) = self.parts.allocation(at);
        let table = &self.opts.instance_types;
        let mut state = node_state(node, &self.analysis.config, table, self.opts.now);
        state.set_allocation(allocated, occupants);
        let Some(previous) = Arc::make_mut(&mut self.analysis).nodes.get_mut(at) else {
            return self.rebuild();
        };
        // The same inputs give the same pool; a reconciled one only the whole snapshot knows.
        state.pool = previous.pool.clone();
        state.reconciled = previous.reconciled;
        *previous = state;
        // Labels decide which pool a pending pod's selector points to (nothing else of a
        // node does: `attribute_pending_in`).
        let mut stale = match relabelled {
            true => self.parts.reattribute_pending(&self.snap),
            false => Stale::default(),
        };
        stale.pools.extend(self.parts.pool_of(at));
        // Its bins, targets and spot flag: the rows of the pool that read its profile read
        // them (every row when the rescored pool's flags change).
        stale.plan_profiles.extend(self.parts.pool_of(at));
        stale.plan = true;
        // The gang engine reads a node's labels (domains), and its free resources only when
        // it predicts pins (`reads_node_capacity`).
        stale.gangs = relabelled || self.parts.gangs_read_capacity;
        // No pod, pool or allocation changed: only the lints that read node states.
        stale.node_lints = Some(per_card);
        self.refresh(stale);
    }

    /// Re-runs the stale parts (all of them when one cannot be rebuilt alone).
    fn refresh(&mut self, stale: Stale) {
        let (snap, opts) = (&self.snap, &self.opts);
        let analysis = Arc::make_mut(&mut self.analysis);
        match stages::refresh(snap, opts, analysis, &mut self.parts, stale) {
            Some(rerun) => self.rerun = rerun,
            None => self.rebuild(),
        }
    }
}
