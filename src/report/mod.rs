//! Headless renderings of an analysis for `ome-top analyze` (`-o json` contract, `-o table`).
//!
//! Reads engine results only.

pub mod fleet;
pub mod json;
pub mod json_gangs;
pub mod json_moves;
pub mod pending;
pub mod room;
pub mod table;
pub mod unreadable;

use chrono::SecondsFormat;

use crate::engine::analysis::Analysis;
use crate::engine::model::{ClusterSnapshot, Time};

/// RFC 3339 in UTC with as many fractional digits as needed (`Z` suffix).
pub fn rfc3339(t: Time) -> String {
    t.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// Every warning of an analysis of `snap`: config rejection, executor state, ConfigMaps that
/// exist but cannot be read, drift from Alfred's rows, GPU pods that belong to no Instance,
/// the analysis's own, then `extra` (e.g. conversion warnings), in that order.
pub fn all_warnings(snap: &ClusterSnapshot, analysis: &Analysis, extra: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(e) = &analysis.config_error {
        out.push(format!(
            "alfred-config rejected, Alfred's defaults are in force: {e}"
        ));
    }
    if !analysis.config_present {
        out.push(
            "alfred-config absent: Alfred not installed or in another namespace; defaults in force"
                .into(),
        );
    }
    if !analysis.executor_available {
        out.push(
            "OMENative executor unavailable (no alfred-dispatch-state, migration.apiVersion unset): \
             nothing is movable, so best = observed and reclaimable, pending pressure and score are 0"
                .into(),
        );
    }
    // alfred-config's rejection is worded above and the scheduler's is among the analysis's
    // own warnings; the rest of what exists but cannot be read is said here.
    out.extend(
        unreadable::unreadable(analysis)
            .iter()
            .filter(|u| {
                !matches!(
                    u.source,
                    unreadable::Source::AlfredConfig | unreadable::Source::SchedulerConfig
                )
            })
            .map(unreadable::Unreadable::text),
    );
    if let Some(published) = &analysis.published {
        let interval = analysis.config.decision_loop_interval;
        out.extend(crate::engine::analysis::compare_moves(
            published,
            &analysis.moves,
            interval,
            analysis.now,
        ));
    }
    out.extend(crate::engine::workloads::unowned_warnings(
        snap,
        &analysis.workloads,
    ));
    out.extend(crate::engine::workloads::split_group_warnings(
        snap,
        &analysis.workloads,
    ));
    out.extend(analysis.warnings.iter().cloned());
    out.extend(extra.iter().cloned());
    out
}
