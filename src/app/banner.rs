//! What the screen says about ConfigMaps that exist but cannot be read: the header's badges
//! (every one, whatever the view) and the banner of the view that uses the ConfigMap ("the
//! recommendations are unreadable; these are only ome-top's own moves").
//!
//! Owns: `badges`, `view_banner`, `MAX_LINES`. Pure; reads the shown feed only.

use crate::app::state::{AppState, View};
use crate::engine::analysis::Analysis;
use crate::report::unreadable::{unreadable, Source, Unreadable};

/// The header's badges, one per kind of unreadable ConfigMap, in a fixed order.
pub fn badges(a: &Analysis) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = unreadable(a).iter().map(Unreadable::badge).collect();
    out.dedup();
    out
}

/// Whether `view` shows what `source` would have told it. The journal's own banner covers the
/// Journal view.
fn uses(view: View, source: Source) -> bool {
    match source {
        Source::AlfredConfig => matches!(view, View::Pools | View::Nodes | View::Moves),
        Source::Recommendations => view == View::Moves,
        Source::NodeRecord => view == View::Nodes,
        Source::SchedulerConfig => view == View::Gangs,
        Source::Journal => false,
    }
}

/// Most lines the banner takes.
pub const MAX_LINES: usize = 3;

/// The banner lines of the shown view, at most [`MAX_LINES`]: what it cannot read and what it
/// shows instead (several unreadable node records share one line).
pub fn view_banner(state: &AppState) -> Vec<Unreadable> {
    let Some(feed) = state.shown() else {
        return Vec::new();
    };
    let mut lines: Vec<Unreadable> = Vec::new();
    let mut records = 0usize;
    for u in unreadable(&feed.analysis) {
        if !uses(state.view, u.source) {
            continue;
        }
        if u.source == Source::NodeRecord {
            records += 1;
            if records > 1 {
                continue;
            }
        }
        lines.push(u);
    }
    if let Some(first) = lines.iter_mut().find(|u| u.source == Source::NodeRecord) {
        if records > 1 {
            first.why = format!("{} (and {} more)", first.why, records - 1);
        }
    }
    lines.truncate(MAX_LINES);
    lines
}
