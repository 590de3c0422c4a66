//! Alfred's and the scheduler's ConfigMaps that exist but cannot be read, and what ome-top
//! shows instead: one fact per ConfigMap key, worded for `analyze` warnings, for a header
//! badge and for the banner of the view that uses it.
//!
//! Owns: `Unreadable`, `Source`, `unreadable`. Reads engine results only.

use crate::engine::analysis::Analysis;
use crate::engine::planning::JournalView;

/// Which ConfigMap (or key) could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `alfred-config` rejected: Alfred's defaults are in force.
    AlfredConfig,
    /// `alfred-recommendations` `last-cycle.json`: only ome-top's own moves are shown.
    Recommendations,
    /// An `alfred-recommendations` node record.
    NodeRecord,
    /// `alfred-dispatch-state`: Alfred withholds every submission.
    Journal,
    /// `ome-scheduler-config`: the scheduler chart's defaults are assumed.
    SchedulerConfig,
}

/// One ConfigMap that exists but was not read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// Which one.
    pub source: Source,
    /// Why, as the reader said it.
    pub why: String,
}

impl Unreadable {
    /// The badge word of the header (`alfred-config rejected`).
    pub fn badge(&self) -> &'static str {
        match self.source {
            Source::AlfredConfig => "alfred-config rejected",
            Source::Recommendations => "recommendations unreadable",
            Source::NodeRecord => "node record unreadable",
            Source::Journal => "journal unreadable",
            Source::SchedulerConfig => "scheduler config rejected",
        }
    }

    /// The sentence of a banner or warning in three parts: what, why (as the reader said
    /// it), and what is shown instead; a narrow banner shortens only the middle.
    pub fn parts(&self) -> (&'static str, &str, &'static str) {
        let why = self.why.as_str();
        match self.source {
            Source::AlfredConfig => ("alfred-config rejected: ", why, "; using defaults"),
            Source::Recommendations => (
                "recommendations unreadable: ",
                why,
                "; showing computed moves only",
            ),
            Source::NodeRecord => ("alfred-recommendations node record unreadable: ", why, ""),
            Source::Journal => (
                "journal unreadable: ",
                why,
                "; Alfred withholds every submission",
            ),
            Source::SchedulerConfig => ("scheduler config rejected: ", why, ""),
        }
    }

    /// The whole sentence of [`Unreadable::parts`].
    pub fn text(&self) -> String {
        let (what, why, instead) = self.parts();
        [what, why, instead].concat()
    }
}

/// Every ConfigMap of the analysis that exists but was not read, in a fixed order.
pub fn unreadable(a: &Analysis) -> Vec<Unreadable> {
    let mut out = Vec::new();
    let mut push = |source, why: &str| {
        out.push(Unreadable {
            source,
            why: why.to_string(),
        });
    };
    if let Some(e) = &a.config_error {
        push(Source::AlfredConfig, e);
    }
    if let Some(Some(Err(e))) = a.published.as_ref().map(|p| p.last_cycle.as_ref()) {
        push(Source::Recommendations, &e.to_string());
    }
    for entry in a.published.iter().flat_map(|p| &p.nodes) {
        if let Err(e) = &entry.record {
            push(Source::NodeRecord, &e.to_string());
        }
    }
    if let JournalView::Unreadable(e) = &a.journal {
        push(Source::Journal, e);
    }
    if let Some(e) = &a.gangs.config_error {
        push(Source::SchedulerConfig, e);
    }
    out
}
