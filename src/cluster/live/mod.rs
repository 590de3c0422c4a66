//! The live cluster layer: kube-rs watchers feed compact stores; a snapshot task analyses
//! them and publishes the latest `protocol::Feed` on a `tokio::sync::watch` channel.
//!
//! Retry policy: every watcher uses kube's default backoff (exponential, capped) and never
//! gives up; an outage shows as `ApiStatus::Reconnecting` with the last data kept, and a
//! relist replaces each store exactly. A 404 on a CRD is `Presence::CrdAbsent`, a refusal
//! `Presence::Forbidden`; neither is retried faster than the backoff.
//!
//! Owns: `LiveOptions`; the session (`session`: `LiveSession`, `connect`), the kubeconfig and
//! a reachable client (`kubeconfig`) and why a session could not start (`error`: `LiveError`)
//! are re-exported. Never reads the clock (the composition root hands in `LiveOptions::clock`).

pub mod cause;
pub mod crd;
pub mod delta;
pub mod dump;
mod error;
pub mod fetch;
pub mod hub;
pub mod identity;
mod kubeconfig;
pub mod rbac;
mod session;
pub mod slot;
pub mod snapshot;
pub mod sources;
pub mod store;
pub mod stores;
pub mod watch;
pub use error::{one_line, LiveError};
pub use kubeconfig::{
    client, context_name, context_names, context_server, kubeconfig_contexts, REACH_TIMEOUT,
    USER_AGENT,
};
pub use session::{connect, EventCounts, LiveSession};

use std::path::PathBuf;

use crate::engine::analysis::AnalysisOptions;
use crate::engine::model::Time;

/// What to watch and how.
#[derive(Debug, Clone)]
pub struct LiveOptions {
    /// Kubeconfig file; `None` = `$KUBECONFIG` or `~/.kube/config`.
    pub kubeconfig: Option<PathBuf>,
    /// Context; `None` = the kubeconfig's current context.
    pub context: Option<String>,
    /// Workload namespace (`-n`); `None` = all namespaces. Nodes are always cluster-wide.
    pub namespace: Option<String>,
    /// Alfred's namespace.
    pub alfred_namespace: String,
    /// The OME scheduler's namespace.
    pub scheduler_namespace: String,
    /// Why the session may not write (`--readonly`, a read-only context, a headless command):
    /// no RBAC probe (it is a create request) and every action disabled. `None`: writable.
    pub read_only: Option<String>,
    /// Options of every analysis; `now` is replaced by `clock()` each time, and the
    /// namespaces by the two fields above.
    pub analysis: AnalysisOptions,
    /// The wall clock (read only by the composition root's function).
    pub clock: fn() -> Time,
}
