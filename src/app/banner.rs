//! What the screen says about what it cannot count as it should: ConfigMaps that exist but
//! cannot be read (the header's badges, whatever the view, and the banner of the view that
//! uses the ConfigMap: "the recommendations are unreadable; these are only ome-top's own
//! moves"), and GPU pods of an InferenceService that no Instance holds (a header badge, and a
//! line in Pools and Moves, whose demand and moves leave them out).
//!
//! Owns: `badges`, `BannerLine`, `view_banner`, `unowned_badge`, `MAX_LINES`. Pure; reads the
//! shown feed only.

use crate::app::state::{AppState, View};
use crate::engine::analysis::Analysis;
use crate::engine::workloads::unowned_pods;
use crate::protocol::Feed;
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

/// One banner line in three parts: what, why, and what is shown instead; a narrow screen
/// shortens only the middle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BannerLine {
    /// What (kept whole).
    pub what: String,
    /// Why (shortened on a narrow screen).
    pub why: String,
    /// What is shown instead (kept whole).
    pub instead: String,
}

impl From<&Unreadable> for BannerLine {
    fn from(u: &Unreadable) -> Self {
        let (what, why, instead) = u.parts();
        BannerLine {
            what: what.into(),
            why: why.into(),
            instead: instead.into(),
        }
    }
}

/// The header's badge for GPU pods no Instance holds ("3 GPU pods without an Instance").
pub fn unowned_badge(feed: &Feed) -> Option<String> {
    let pods: u64 = feed
        .analysis
        .workloads
        .components
        .iter()
        .map(|c| c.unowned.len() as u64)
        .sum();
    let noun = if pods == 1 { "GPU pod" } else { "GPU pods" };
    (pods > 0).then(|| format!("{pods} {noun} without an Instance"))
}

/// The banner lines of the shown view, at most [`MAX_LINES`]: what it cannot read and what it
/// shows instead (several unreadable node records share one line), then, in Pools and Moves,
/// the GPU pods no Instance holds.
pub fn view_banner(state: &AppState) -> Vec<BannerLine> {
    let mut lines: Vec<BannerLine> = unreadable_lines(state)
        .iter()
        .map(BannerLine::from)
        .collect();
    if let Some(feed) = state.shown() {
        if matches!(state.views.view, View::Pools | View::Moves) {
            for u in unowned_pods(&feed.snapshot, &feed.analysis.workloads) {
                lines.push(BannerLine {
                    what: format!("{} without an Instance: ", u.short()),
                    why: u.why.clone(),
                    instead: String::new(),
                });
            }
        }
    }
    lines.truncate(MAX_LINES);
    lines
}

/// The unreadable ConfigMaps the shown view uses.
fn unreadable_lines(state: &AppState) -> Vec<Unreadable> {
    let Some(feed) = state.shown() else {
        return Vec::new();
    };
    let mut lines: Vec<Unreadable> = Vec::new();
    let mut records = 0usize;
    for u in unreadable(&feed.analysis) {
        if !uses(state.views.view, u.source) {
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
