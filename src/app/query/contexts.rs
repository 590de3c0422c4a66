//! Whether `:ctx` can switch kubeconfig contexts in this run: the palette lists the contexts
//! only where it can, the reducer refuses a switch with the same words.
//!
//! Owns: `unavailable`. A plain function of the state.

use crate::app::state::AppState;
use crate::protocol::SourceKind;

/// Why `:ctx` cannot switch here, outside live mode.
pub fn unavailable(state: &AppState) -> Option<&'static str> {
    if state.clusters.fleet.is_some() {
        // The fleet's members are open already: `:ctx` shows one.
        return None;
    }
    match state.feed.latest.as_ref().map(|f| &f.source) {
        Some(SourceKind::Live(_)) => None,
        Some(SourceKind::Demo(_)) => {
            Some("switching context needs a live cluster: this is the demo")
        }
        Some(SourceKind::Snapshot(_)) => {
            Some("switching context needs a live cluster: this is a snapshot")
        }
        None => Some("not connected yet: switch context once the first data arrived"),
    }
}
