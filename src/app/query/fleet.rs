//! Whether the Fleet view (every watched cluster at once) can be shown in this run: the palette
//! lists `:fleet` only where it can, the reducer and the refusals word why not.
//!
//! Owns: `unavailable`. A plain function of the state.

use crate::app::state::AppState;
use crate::protocol::SourceKind;

/// Why the Fleet view cannot be shown here: not a live run, or no kubeconfig context to watch.
pub fn unavailable(state: &AppState) -> Option<String> {
    if state.clusters.fleet.is_some() {
        return None;
    }
    match state.feed.latest.as_ref().map(|f| &f.source) {
        Some(SourceKind::Demo(_)) => {
            return Some(
                "this demo simulates one cluster: `ome-top demo --clusters 3` simulates a fleet"
                    .to_string(),
            )
        }
        Some(SourceKind::Snapshot(_)) => {
            return Some("the fleet watches live clusters: this is a snapshot".to_string())
        }
        Some(SourceKind::Live(_)) | None => {}
    }
    state
        .clusters
        .contexts
        .list
        .is_empty()
        .then(|| "the fleet needs kubeconfig contexts: none were read".to_string())
}
