//! A component's deployment mode as Alfred reads it from the InferenceService alone: the
//! component's mode annotation, then the service's `spec.deploymentMode`, then its shape.
//!
//! Owns: `DeploymentMode`, `component_mode`. Pure.

use crate::engine::model::{ComponentSpec, InferenceService};

/// A component's deployment mode as Alfred reads it (ISVC only; unknown values never appear,
/// they fall through the precedence rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum DeploymentMode {
    /// OMENative: Instances from the InferenceReplica; the only movable mode.
    OMENative,
    /// RawDeployment: one Instance per scheduled pod; always advice.
    RawDeployment,
    /// MultiNode (LeaderWorkerSet): one Instance with all pods; advice.
    MultiNode,
    /// VirtualDeployment: no Instances, no rows.
    VirtualDeployment,
}

impl DeploymentMode {
    fn parse(s: &str) -> Option<Self> {
        match s {
            "OMENative" => Some(DeploymentMode::OMENative),
            "RawDeployment" => Some(DeploymentMode::RawDeployment),
            "MultiNode" => Some(DeploymentMode::MultiNode),
            "VirtualDeployment" => Some(DeploymentMode::VirtualDeployment),
            _ => None,
        }
    }
}

/// The mode of component `c` (index into `COMPONENTS`), `None` when the component is absent
/// (`inferencereplica.md` §4.1).
pub fn component_mode(isvc: &InferenceService, c: usize) -> Option<DeploymentMode> {
    if isvc.components[0].is_none() {
        // A null engine makes every component RawDeployment so its pods stay visible.
        return Some(DeploymentMode::RawDeployment);
    }
    let spec: &ComponentSpec = isvc.components.get(c)?.as_ref()?;
    let from_annotation = spec
        .mode_annotation
        .as_deref()
        .and_then(DeploymentMode::parse);
    let from_isvc = isvc
        .deployment_mode
        .as_deref()
        .and_then(DeploymentMode::parse);
    let from_shape =
        (c < 2 && (spec.has_leader || spec.has_worker)).then_some(DeploymentMode::OMENative);
    Some(
        from_annotation
            .or(from_isvc)
            .or(from_shape)
            .unwrap_or(DeploymentMode::RawDeployment),
    )
}
