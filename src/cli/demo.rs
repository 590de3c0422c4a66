//! `ome-top demo`'s flags and the checks of their values (a bad value is exit 2, never
//! clamped).
//!
//! Owns: `DemoArgs`, `DemoArgError`, `MAX_DEMO_SPEED`.

use clap::Args;

/// Flags of `ome-top demo`.
#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Seed of the simulated cluster (the same seed gives the same cluster).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// GPU nodes in each simulated cluster (40–2000).
    #[arg(long, default_value_t = crate::sim::demo::DEFAULT_NODES, value_parser = demo_nodes)]
    pub nodes: usize,
    /// Simulated clusters, each its own world (seeds `seed`, `seed+1`, …; named `demo-<seed>`):
    /// the first is shown, `7` or `:fleet` shows them all in the Fleet view (1–8).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=8))]
    pub clusters: u16,
    /// Sim seconds per wall second (more than 0, at most 3600).
    #[arg(long, default_value_t = 5.0, value_parser = demo_speed, allow_negative_numbers = true)]
    pub speed: f64,
}

/// Fastest demo: an hour of the cluster per wall second.
pub const MAX_DEMO_SPEED: f64 = 3600.0;

/// A `demo` option out of its range; clap prints it after the option's name (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum DemoArgError {
    /// `--nodes` is not a whole number in the cluster's range.
    #[error(
        "a whole number of GPU nodes from {} to {}",
        crate::sim::demo::MIN_NODES,
        crate::sim::demo::MAX_NODES
    )]
    Nodes,
    /// `--speed` is not a number in (0, [`MAX_DEMO_SPEED`]].
    #[error("sim seconds per wall second, a number more than 0 and at most {MAX_DEMO_SPEED}")]
    Speed,
}

/// `--nodes`: a whole number in the cluster's range (a bad value is exit 2, never clamped).
fn demo_nodes(text: &str) -> Result<usize, DemoArgError> {
    use crate::sim::demo::{MAX_NODES, MIN_NODES};
    match text.trim().parse::<usize>() {
        Ok(n) if (MIN_NODES..=MAX_NODES).contains(&n) => Ok(n),
        _ => Err(DemoArgError::Nodes),
    }
}

/// `--speed`: a finite number of sim seconds per wall second, above 0 and at most
/// [`MAX_DEMO_SPEED`] (`nan`, `inf`, `0` and `1e308` are refused).
fn demo_speed(text: &str) -> Result<f64, DemoArgError> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= MAX_DEMO_SPEED => Ok(v),
        _ => Err(DemoArgError::Speed),
    }
}
