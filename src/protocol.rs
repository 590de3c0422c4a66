//! The messages that cross the boundary between a data source (the live cluster layer, the demo
//! simulation, a snapshot file) and the app: the latest [`Feed`] on a `tokio::sync::watch`
//! channel, operator [`Command`]s in on a bounded channel, on-demand reads ([`Fetch`]) in on
//! another, [`Update`]s back.
//!
//! Owns: `SourceKind` (and `demo_cluster_name`), `Feed`, `ApiStatus`, `SourceState`, `Permissions`, `Op`, `Command`, `OpOutcome`, `Fetch`,
//! `Update`.

use std::sync::Arc;

use crate::engine::analysis::Analysis;
use crate::engine::model::{ClusterSnapshot, Name, Time};

/// Where the data comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceKind {
    /// Watching a cluster through kube-rs; the string is the kubeconfig context name.
    Live(String),
    /// Replaying a snapshot file (offline; actions disabled); the string is its path.
    Snapshot(String),
    /// The embedded simulated fleet of `ome-top demo`; the seed.
    Demo(u64),
}

impl SourceKind {
    /// The cluster's name as the Fleet view lists it: the kubeconfig context, or the demo
    /// cluster's `demo-<seed>` (`ome-top demo --clusters N` names its clusters so); `None`
    /// for a snapshot.
    pub fn cluster_name(&self) -> Option<String> {
        match self {
            SourceKind::Live(ctx) => Some(ctx.clone()),
            SourceKind::Demo(seed) => Some(demo_cluster_name(*seed)),
            SourceKind::Snapshot(_) => None,
        }
    }
}

/// The name of the simulated cluster of `seed`: `demo-1`.
pub fn demo_cluster_name(seed: u64) -> String {
    format!("demo-{seed}")
}

/// The connection to the API server, as the header shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiStatus {
    /// Initial lists in progress; nothing complete yet.
    Connecting,
    /// Every watcher is running.
    Connected,
    /// A watcher failed and is backing off; data is the last known, marked stale.
    Reconnecting {
        /// When the first failure of this outage was seen.
        since: Time,
        /// The last error, one line.
        error: String,
    },
    /// The API server refused the identity (401/403 on a required list).
    Forbidden {
        /// What was refused, e.g. `list nodes`.
        what: String,
    },
    /// Offline replay: no API server.
    Offline,
    /// The demo simulation.
    Simulated,
}

/// Whether one watched source exists and is readable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Not yet listed.
    Pending,
    /// Listed; the object (or at least the resource) exists.
    Present,
    /// A named object (e.g. `alfred-dispatch-state`) does not exist: a normal state.
    Absent,
    /// The CRD is not installed (404 on the resource): a normal state, shown as such.
    CrdAbsent,
    /// The identity may not list/watch it.
    Forbidden,
}

/// One watched source (a resource kind or a named ConfigMap) and its freshness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceState {
    /// Short name shown in the header, e.g. `nodes`, `pods`, `recommendations`, `journal`.
    pub name: &'static str,
    /// Existence and readability.
    pub presence: Presence,
    /// When this source last changed (an event arrived or the initial list completed).
    pub last_change: Option<Time>,
    /// Objects currently held for it.
    pub objects: usize,
    /// While a list of it runs (the first one, or a relist after an outage): the objects
    /// received so far; `None` otherwise.
    pub listing: Option<usize>,
}

/// An operator capability that needs a write permission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capability {
    /// `patch nodes` (cordon / uncordon).
    CordonNode,
    /// `patch inferenceservices.ome.io` (approve a move: migration-request annotation).
    ApproveMove,
    /// `patch inferenceservices.ome.io` (opt a workload out, or back in).
    OptOut,
    /// `update configmaps` in Alfred's namespace (clear a journal entry).
    ClearJournalEntry,
    /// `create events.events.k8s.io` (the Event every action records).
    RecordEvent,
}

impl Capability {
    /// Every capability, in display order.
    pub const ALL: [Capability; 5] = [
        Capability::CordonNode,
        Capability::ApproveMove,
        Capability::OptOut,
        Capability::ClearJournalEntry,
        Capability::RecordEvent,
    ];

    /// The permission it needs, as `verb resource` (the text a refusal names).
    pub fn permission(self) -> &'static str {
        match self {
            Capability::CordonNode => "patch nodes",
            Capability::ApproveMove | Capability::OptOut => "patch inferenceservices.ome.io",
            Capability::ClearJournalEntry => "update configmaps",
            Capability::RecordEvent => "create events.events.k8s.io",
        }
    }
}

/// Whether the identity may use a capability.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Permission {
    /// Not probed yet (or no API server to ask).
    Unknown,
    /// SelfSubjectAccessReview allowed it.
    Allowed,
    /// Refused; the text names the missing permission and why the action is disabled.
    Denied(String),
}

/// The result of the RBAC probe and the read-only switches, per capability.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Permissions {
    /// `(capability, permission)` for every capability in `Capability::ALL` order.
    pub entries: Vec<(Capability, Permission)>,
    /// Why every action is disabled regardless of RBAC (`--readonly`, `--snapshot`), if so.
    pub read_only: Option<String>,
}

impl Permissions {
    /// All capabilities allowed (the demo).
    pub fn all_allowed() -> Self {
        Permissions {
            entries: Capability::ALL
                .iter()
                .map(|c| (*c, Permission::Allowed))
                .collect(),
            read_only: None,
        }
    }

    /// Every action disabled for `reason`.
    pub fn read_only(reason: impl Into<String>) -> Self {
        Permissions {
            entries: Capability::ALL
                .iter()
                .map(|c| (*c, Permission::Unknown))
                .collect(),
            read_only: Some(reason.into()),
        }
    }

    /// `Ok(())` when `cap` may be used, else why not (displayed as the sentence to show).
    pub fn check(&self, cap: Capability) -> Result<(), NotPermitted> {
        if let Some(why) = &self.read_only {
            return Err(NotPermitted::ReadOnly(why.clone()));
        }
        match self.entries.iter().find(|(c, _)| *c == cap).map(|(_, p)| p) {
            Some(Permission::Allowed) => Ok(()),
            Some(Permission::Denied(why)) => Err(NotPermitted::Denied(why.clone())),
            _ => Err(NotPermitted::Unknown(cap.permission())),
        }
    }
}

/// Why a capability may not be used ([`Permissions::check`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotPermitted {
    /// The whole session is read-only: the reason as the session states it.
    #[error("{0}")]
    ReadOnly(String),
    /// The RBAC probe found it denied: the probe's sentence.
    #[error("{0}")]
    Denied(String),
    /// The probe has not answered yet: the permission asked for.
    #[error("permission not yet known: {0} (RBAC probe pending)")]
    Unknown(&'static str),
}

/// The latest complete view of the cluster: what every screen draws from. Published as a
/// whole (`Arc`) on a watch channel; the newest value wins.
#[derive(Debug, Clone)]
pub struct Feed {
    /// Increments with every new snapshot and analysis (0 = the first); a feed that only
    /// refreshes the sources' states (a list's progress) repeats its analysis's generation.
    pub generation: u64,
    /// Where the data comes from.
    pub source: SourceKind,
    /// The API connection.
    pub api: ApiStatus,
    /// Per-source freshness, in a stable order.
    pub sources: Vec<SourceState>,
    /// The snapshot the analysis was computed from.
    pub snapshot: Arc<ClusterSnapshot>,
    /// The analysis of `snapshot` at `analysis.now`.
    pub analysis: Arc<Analysis>,
    /// What the operator may do.
    pub permissions: Permissions,
    /// Conversion warnings (objects that could not be understood), one line each with names.
    pub warnings: Vec<String>,
}

/// A write the operator confirmed. Every variant carries the resourceVersion the operator saw;
/// the write is a compare-and-swap on it and a conflict is reported, never overwritten.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// Set `spec.unschedulable: true`.
    Cordon {
        /// Node name.
        node: Name,
        /// resourceVersion seen.
        resource_version: Name,
        /// Optional reason, written into the Event and the audit row.
        reason: Option<String>,
    },
    /// Set `spec.unschedulable: false`.
    Uncordon {
        /// Node name.
        node: Name,
        /// resourceVersion seen.
        resource_version: Name,
        /// Optional reason, written into the Event and the audit row.
        reason: Option<String>,
    },
    /// Write the `ome.io/migration-request-v1-<uuid>` annotation (alfred.md §3.1).
    ApproveMove {
        /// InferenceService namespace.
        namespace: Name,
        /// InferenceService name.
        name: Name,
        /// `metadata.uid` seen.
        uid: Name,
        /// resourceVersion seen.
        resource_version: Name,
        /// The request UUID (lower-case, generated by the caller).
        uuid: String,
        /// The annotation value, already built and validated by the engine.
        value: String,
        /// What the operator overrode to approve it — ome-top's verdict and failed pre-checks
        /// as reason strings (`NoSurgeHeadroom`, `InstanceNotReady, OMENativeStateIneligible`);
        /// `None` for a move ome-top says can run. Recorded in the Event and the audit row.
        overrode: Option<String>,
    },
    /// Opt a workload out: `alfred.ome.io/movable: "false"` and `alfred.ome.io/opt-out-reason`.
    OptOut {
        /// InferenceService namespace.
        namespace: Name,
        /// InferenceService name.
        name: Name,
        /// `metadata.uid` seen.
        uid: Name,
        /// resourceVersion seen.
        resource_version: Name,
        /// The reason written to `alfred.ome.io/opt-out-reason`.
        reason: String,
    },
    /// Undo an opt-out: remove `alfred.ome.io/movable` and `alfred.ome.io/opt-out-reason`,
    /// so the workload follows Alfred's `defaultMovable` again.
    OptIn {
        /// InferenceService namespace.
        namespace: Name,
        /// InferenceService name.
        name: Name,
        /// `metadata.uid` seen.
        uid: Name,
        /// resourceVersion seen.
        resource_version: Name,
    },
    /// Remove exactly one stalled entry from `alfred-dispatch-state` `state.json`.
    ClearJournalEntry {
        /// Alfred's namespace.
        namespace: Name,
        /// The entry's UUID.
        uuid: String,
        /// The ConfigMap's resourceVersion seen.
        resource_version: Name,
        /// The operator overrode failing §2.4 checks explicitly.
        override_checks: bool,
    },
}

impl Op {
    /// The object the op writes, as `kind/ns/name` (for audit rows and messages).
    pub fn object(&self) -> String {
        match self {
            Op::Cordon { node, .. } | Op::Uncordon { node, .. } => format!("node/{node}"),
            Op::ApproveMove {
                namespace, name, ..
            }
            | Op::OptOut {
                namespace, name, ..
            }
            | Op::OptIn {
                namespace, name, ..
            } => format!("inferenceservice/{namespace}/{name}"),
            Op::ClearJournalEntry { namespace, .. } => {
                format!("configmap/{namespace}/alfred-dispatch-state")
            }
        }
    }

    /// The capability the op needs.
    pub fn capability(&self) -> Capability {
        match self {
            Op::Cordon { .. } | Op::Uncordon { .. } => Capability::CordonNode,
            Op::ApproveMove { .. } => Capability::ApproveMove,
            // Both write the same annotations with the same permission.
            Op::OptOut { .. } | Op::OptIn { .. } => Capability::OptOut,
            Op::ClearJournalEntry { .. } => Capability::ClearJournalEntry,
        }
    }
}

/// A confirmed op with the id the app waits on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// Unique per app run; replies carry it back.
    pub id: u64,
    /// What to write.
    pub op: Op,
}

/// How an op ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpOutcome {
    /// Written; the new resourceVersion when known.
    Done {
        /// One line for the notice bar.
        message: String,
        /// resourceVersion after the write.
        resource_version: Option<String>,
    },
    /// The object changed since the operator looked (409 / failed `test`): nothing written.
    Conflict {
        /// "changed since you looked: …".
        message: String,
    },
    /// Refused before sending (read-only, RBAC, a check failed, bad input): nothing written.
    Refused {
        /// Why.
        message: String,
    },
    /// The request failed (network, server error): nothing known to be written.
    Failed {
        /// Why.
        message: String,
    },
}

/// A read the operator asked for, answered by [`Update::Fetched`]. Never a write: it travels
/// on its own channel, apart from the [`Command`]s, and read-only sessions (`--readonly`,
/// `--snapshot`) answer it too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetch {
    /// The Node named here as YAML, without `metadata.managedFields`, as
    /// `kubectl get node NAME -o yaml` prints it.
    NodeYaml(Name),
}

impl Fetch {
    /// The object read, as `kind/name` (for messages).
    pub fn object(&self) -> String {
        match self {
            Fetch::NodeYaml(node) => format!("node/{node}"),
        }
    }
}

/// Messages from a data source to the app besides the feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Update {
    /// A command finished.
    OpDone {
        /// The command's id.
        id: u64,
        /// Its outcome.
        outcome: OpOutcome,
    },
    /// A read finished.
    Fetched {
        /// What was read.
        fetch: Fetch,
        /// The text (YAML), or why not.
        result: Result<String, FetchError>,
    },
}

/// Why a [`Fetch`] has no text; the app words it into a notice naming the object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The source could not answer (the API server's message, a snapshot file that cannot
    /// be read), in the source's words on one line.
    #[error("{0}")]
    Read(String),
    /// The node is not there; `place` says where it was looked for (" in the snapshot file",
    /// or empty).
    #[error("nodes \"{name}\" not found{place}")]
    NotFound {
        /// The node's name.
        name: String,
        /// Where it was looked for, as a phrase starting with a space; empty when obvious.
        place: &'static str,
    },
    /// The object was read but cannot be written as YAML: serde-saphyr's words.
    #[error("cannot write YAML: {0}")]
    Unwritable(String),
}
