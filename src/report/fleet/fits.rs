//! "Where can a request of N GPUs start?" across the fleet: for each size the analyses use
//! (every pool's ladder and every pending request size), the pools where one node fits it now,
//! and those where it fits only after Alfred's repack. The room counted is the analysis's own:
//! pods of that size the pool has room for, one node each (`PendingSize::room_now`, else the
//! ladder's `slots`, which count the same for a size no larger than a node).
//!
//! Owns: `FitsLine`, `FitPlace`, `fits_lines`. Pure.

use std::fmt;

use crate::engine::pools::PoolReport;
use crate::report::fleet::{ClusterInput, ClusterState, Link};

/// One pool where a size fits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FitPlace {
    /// The kubeconfig context.
    pub context: String,
    /// The pool.
    pub pool: String,
    /// Requests of the size the pool has room for, one node each; `None` when the analysis
    /// has no count for this size in this pool (only that at least one fits).
    pub room: Option<u64>,
}

/// The answer for one request size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FitsLine {
    /// The request, GPUs on one node.
    pub gpus: u32,
    /// Pools where one node fits it now, most room first.
    pub now: Vec<FitPlace>,
    /// Pools where it fits only after the repack, most room first.
    pub after_repack: Vec<FitPlace>,
    /// Contexts whose answer is not known now (not answering, or stale data), with why.
    pub unknown: Vec<(String, &'static str)>,
}

/// The fits answer of every size the answering clusters' analyses use, smallest first.
pub fn fits_lines(clusters: &[ClusterInput<'_>]) -> Vec<FitsLine> {
    let mut pools: Vec<(&str, &PoolReport)> = Vec::new();
    let mut unknown = Vec::new();
    for c in clusters {
        match &c.state {
            ClusterState::Answered(a) if !matches!(a.link, Link::Reconnecting { .. }) => {
                pools.extend(a.analysis.pools.iter().map(|p| (c.context, p)));
            }
            ClusterState::Answered(_) => unknown.push((c.context.to_string(), "stale data")),
            ClusterState::Connecting => unknown.push((c.context.to_string(), "connecting")),
            ClusterState::Failed(_) => unknown.push((c.context.to_string(), "unreachable")),
        }
    }
    let mut sizes: Vec<u32> = pools
        .iter()
        .flat_map(|(_, p)| {
            let ladder = p.sizes.iter().map(|s| s.size);
            ladder.chain(p.pending_sizes.iter().map(|s| s.gpus))
        })
        .filter(|s| *s > 0)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .into_iter()
        .map(|gpus| line(gpus, &pools, &unknown))
        .collect()
}

fn line(gpus: u32, pools: &[(&str, &PoolReport)], unknown: &[(String, &'static str)]) -> FitsLine {
    let mut now = Vec::new();
    let mut after_repack = Vec::new();
    for (context, p) in pools {
        let place = |room| FitPlace {
            context: (*context).to_string(),
            pool: p.name.clone(),
            room,
        };
        if gpus <= p.largest_fit_now {
            now.push(place(room(p, gpus, true)));
        } else if gpus <= p.largest_fit_after {
            after_repack.push(place(room(p, gpus, false)));
        }
    }
    for places in [&mut now, &mut after_repack] {
        places.sort_by(|a, b| {
            b.room
                .cmp(&a.room)
                .then_with(|| a.context.cmp(&b.context))
                .then_with(|| a.pool.cmp(&b.pool))
        });
    }
    FitsLine {
        gpus,
        now,
        after_repack,
        unknown: unknown.to_vec(),
    }
}

/// The analysis's room for `gpus` in `p`, now or after the repack.
fn room(p: &PoolReport, gpus: u32, now: bool) -> Option<u64> {
    if let Some(s) = p.pending_sizes.iter().find(|s| s.gpus == gpus) {
        return Some(if now { s.room_now } else { s.room_after });
    }
    // The ladder's slots count pods of one node each for a size no larger than a node; a
    // size that fits on one node is no larger than one.
    p.sizes
        .iter()
        .find(|s| s.size == gpus)
        .map(|s| if now { s.slots_observed } else { s.slots_best })
}

impl fmt::Display for FitPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.context, self.pool)?;
        match self.room {
            Some(n) => write!(f, " ({n})"),
            None => Ok(()),
        }
    }
}

/// `8 GPUs: fits now in: prod-eu/H100 (3), prod-us/H100 (1); after repack also: prod-ap/H100
/// (2); not known: prod-x (unreachable)` (the counts: requests of that size with room, one
/// node each).
impl fmt::Display for FitsLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |places: &[FitPlace]| {
            if places.is_empty() {
                "none".to_string()
            } else {
                let shown: Vec<String> = places.iter().map(FitPlace::to_string).collect();
                shown.join(", ")
            }
        };
        let unit = if self.gpus == 1 { "GPU" } else { "GPUs" };
        write!(
            f,
            "{} {unit}: fits now in: {}; after repack also: {}",
            self.gpus,
            list(&self.now),
            list(&self.after_repack)
        )?;
        if !self.unknown.is_empty() {
            let shown: Vec<String> = self
                .unknown
                .iter()
                .map(|(c, why)| format!("{c} ({why})"))
                .collect();
            write!(f, "; not known: {}", shown.join(", "))?;
        }
        Ok(())
    }
}
