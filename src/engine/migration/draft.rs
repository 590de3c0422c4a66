//! A move's migration request as its row names it (`RequestDraft`), turned into the annotation
//! an operator's approval writes, and why that can fail (`DraftError`).

use std::fmt;

use crate::engine::migration::approval::MigrationRequest;
use crate::engine::migration::request::{annotation_key, Component, RequestError};
use crate::engine::model::Time;

/// The request of a move, before validation: the fields its row carries.
#[derive(Debug, Clone, Copy)]
pub struct RequestDraft<'a> {
    /// Component name.
    pub component: &'a str,
    /// Instance index.
    pub instance: i64,
    /// The node the Instance leaves.
    pub from_node: Option<&'a str>,
    /// The target the arbiter claimed.
    pub target: Option<&'a str>,
    /// Preferred targets.
    pub hints: &'a [&'a str],
    /// The row's reason, written verbatim.
    pub reason: &'a str,
}

/// Why a move's request cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraftError {
    /// Not `engine`, `decoder` or `router`.
    UnknownComponent(String),
    /// The Instance index does not fit the request's `int32`.
    InstanceOutOfRange,
    /// The row names no source node.
    NoSourceNode,
    /// The request breaks one of its rules (`MigrationRequest::validate`, the key's UUID).
    Invalid(RequestError),
}

impl fmt::Display for DraftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DraftError::UnknownComponent(c) => write!(f, "unknown component {c:?}"),
            DraftError::InstanceOutOfRange => f.write_str("instance out of range"),
            DraftError::NoSourceNode => f.write_str("the move names no source node"),
            DraftError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for DraftError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DraftError::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

impl From<RequestError> for DraftError {
    fn from(e: RequestError) -> Self {
        DraftError::Invalid(e)
    }
}

impl RequestDraft<'_> {
    /// The annotation `(key, value)` of request `uuid` made at `now` by `requested_by`: the
    /// claimed target first, then the hints not already listed and not the source, at most 8.
    pub fn annotation(
        &self,
        uuid: &str,
        now: Time,
        requested_by: &str,
    ) -> Result<(String, String), DraftError> {
        let component = Component::parse(self.component)
            .ok_or_else(|| DraftError::UnknownComponent(self.component.to_string()))?;
        let instance = i32::try_from(self.instance).map_err(|_| DraftError::InstanceOutOfRange)?;
        let from_node = self.from_node.ok_or(DraftError::NoSourceNode)?.to_string();
        let mut hints: Vec<String> = self.target.iter().map(|t| t.to_string()).collect();
        for h in self.hints {
            if !hints.iter().any(|x| x == h) && Some(*h) != self.from_node {
                hints.push(h.to_string());
            }
        }
        hints.truncate(8);
        let request = MigrationRequest {
            component,
            instance,
            from_node,
            hint_target_nodes: hints,
            reason: self.reason.to_string(),
            requested_at: now,
            requested_by: requested_by.to_string(),
        };
        let value = request.to_annotation_value()?;
        let key = annotation_key(uuid)?;
        Ok((key, value))
    }
}
