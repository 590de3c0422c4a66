//! The operator's writes: commands sent and not yet answered, the request UUIDs they carry,
//! the migration requests this session wrote and the phase each was last seen in, and the
//! moves the operator dismissed.
//!
//! Owns: `OpsState`, `PendingOp`, `IdSource`. Plain data.

use std::collections::{BTreeMap, HashMap};

use crate::app::model::moves::{Dismissed, RequestedMove};
use crate::engine::model::{MigrationPhase, Time};
use crate::protocol::Op;

/// A command sent and not yet answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingOp {
    /// What was sent.
    pub op: Op,
    /// When.
    pub sent_at: Time,
}

/// Produces request UUIDs (lower-case). `run.rs` passes a random source; tests a counter.
pub trait IdSource: Send {
    /// A fresh UUID.
    fn next_uuid(&mut self) -> String;
}

/// Commands in flight, the requests tracked, the dismissals.
pub struct OpsState {
    /// Commands sent, by id.
    pub(in crate::app) pending: BTreeMap<u64, PendingOp>,
    /// The next command id.
    pub(in crate::app) next_op_id: u64,
    /// Request UUIDs.
    pub(in crate::app) ids: Box<dyn IdSource>,
    /// Requests written this session.
    pub(in crate::app) requested: Vec<RequestedMove>,
    /// The IR `status.migrations[]` phase last seen per requested UUID (absent until the
    /// consumer records the request); see `app::update::track`.
    pub(in crate::app) request_phases: HashMap<String, MigrationPhase>,
    /// Dismissed moves: identity key → the dismissal.
    pub(in crate::app) dismissed: HashMap<String, Dismissed>,
}

impl OpsState {
    /// Nothing sent yet; UUIDs from `ids`.
    pub fn new(ids: Box<dyn IdSource>) -> Self {
        OpsState {
            pending: BTreeMap::new(),
            next_op_id: 1,
            ids,
            requested: Vec::new(),
            request_phases: HashMap::new(),
            dismissed: HashMap::new(),
        }
    }
}
