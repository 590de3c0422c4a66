//! Tolerant reader of the ConfigMap `alfred-recommendations` (spec §1): `last-cycle.json`
//! (one decision pass), node records (delegated to `node_record`), freshness of the
//! pass (§11 step 2) and a client-side display order of rows (§8.1).
//!
//! Tolerance (§0, §12): unknown keys, unknown members at every level and unknown enum strings
//! (E1/E3) are kept and never an error; a malformed row is skipped with a warning; only a value
//! that is not a JSON object fails, and only for its own key. Pure: no I/O, no clock (`now` is an
//! argument).
//!
//! This file owns the key constants, the key classification and the whole-ConfigMap reader;
//! `wire` the string-backed enums, `row` the row types, `cycle` the `last-cycle.json` reader and
//! `order` freshness, row identity and the display order.

mod node_record;

use std::collections::BTreeMap;

use crate::engine::recommendations::node_record::parse_node_record;

mod cycle;
mod order;
mod row;
#[cfg(test)]
mod tests;
mod value_error;
mod wire;

pub use node_record::NodeRecord;

pub use cycle::{parse_last_cycle, LastCycle};
pub use order::{freshness, row_identity, sort_rows_for_display, stale_at, Freshness, RowIdentity};
pub use row::{Placement, PodRef, Row, Scheduling};
pub use value_error::ValueError;
pub use wire::{
    AdvisoryReason, DispatchReason, DispatchStatus, Mode, Outcome, Policy, Reason, RejectReason,
    SchedulingStatus, WithholdReason,
};

/// The key holding the latest decision pass.
pub const LAST_CYCLE_KEY: &str = "last-cycle.json";
/// Prefix of a node record key whose remainder is the node name.
pub const NODE_KEY_PREFIX: &str = "node.";
/// Prefix of a node record key used when `node.<name>` would exceed 253 characters.
pub const NODE_HASH_KEY_PREFIX: &str = "node-hash.";
/// A pass older than this many decision-loop intervals is stale (reference CLI convention).
pub const STALE_AFTER_INTERVALS: u32 = 2;

/// One node record key. `node_name` is `Some` for `node.<name>` keys and `None` for
/// `node-hash.<prefix>.<sha256hex>` keys: the name is not recoverable from the hash and the
/// record does not carry it, so the caller matches the record to a Node by `nodeUID` (E2+).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRecordEntry {
    /// The ConfigMap key, verbatim.
    pub key: String,
    /// The node name taken from a `node.<name>` key.
    pub node_name: Option<String>,
    /// The record, or why the value is not a JSON object.
    pub record: Result<NodeRecord, ValueError>,
}

/// Everything read from the ConfigMap's `data`. Errors live in the `Result`s and are not
/// repeated in `warnings`; `warnings` hold per-field/per-row problems prefixed by their key.
#[derive(Debug, Clone, PartialEq)]
pub struct Recommendations {
    /// `None` when the key is absent (e.g. the chart's empty, pre-created ConfigMap).
    pub last_cycle: Option<Result<LastCycle, ValueError>>,
    /// Node records in key order.
    pub nodes: Vec<NodeRecordEntry>,
    /// Keys this reader does not know (e.g. the OEP's `recommendations.json`), in key order.
    pub unknown_keys: Vec<String>,
    /// Tolerated problems, each naming its key (and row index / field).
    pub warnings: Vec<String>,
}

/// What a ConfigMap key holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind<'a> {
    /// `last-cycle.json`.
    LastCycle,
    /// `node.<name>` with a non-empty name.
    Node(&'a str),
    /// `node-hash.<prefix>.<sha256hex>`.
    NodeHash,
    /// Anything else.
    Unknown,
}

/// Classifies a key. Node names may contain dots, so everything after `node.` is the name.
pub fn classify_key(key: &str) -> KeyKind<'_> {
    if key == LAST_CYCLE_KEY {
        return KeyKind::LastCycle;
    }
    if key.starts_with(NODE_HASH_KEY_PREFIX) {
        return KeyKind::NodeHash;
    }
    match key.strip_prefix(NODE_KEY_PREFIX) {
        Some(name) if !name.is_empty() => KeyKind::Node(name),
        _ => KeyKind::Unknown,
    }
}

/// Parses the whole ConfigMap `data`. Total: never panics, never fails as a whole.
pub fn parse_recommendations(data: &BTreeMap<String, String>) -> Recommendations {
    let mut out = Recommendations {
        last_cycle: None,
        nodes: Vec::new(),
        unknown_keys: Vec::new(),
        warnings: Vec::new(),
    };
    for (key, text) in data {
        let node_name = match classify_key(key) {
            KeyKind::LastCycle => {
                out.last_cycle = Some(parse_last_cycle(text, &mut out.warnings));
                continue;
            }
            KeyKind::Unknown => {
                out.unknown_keys.push(key.clone());
                continue;
            }
            KeyKind::Node(name) => Some(name.to_string()),
            KeyKind::NodeHash => None,
        };
        let record = parse_node_record(key, text, &mut out.warnings);
        out.nodes.push(NodeRecordEntry {
            key: key.clone(),
            node_name,
            record,
        });
    }
    out
}
