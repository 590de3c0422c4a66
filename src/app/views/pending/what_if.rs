//! The what-if pane of a change to one node: a cordon, a drain-like evacuation or Alfred's
//! maintenance label, analysed on a copy of the shown data (`engine::analysis::scenario`):
//! the Instances it displaces, the largest request one node fits and each pool's score before
//! and after, and how much of the arbiter's budget moving them takes. Nothing is written, and
//! the pane says so first.
//!
//! Owns: `what_if_pane`, `change_of`, `NoChange`, `options_of`, `WHAT_IF_MARK`. Plain data.

use crate::app::detail::{DetailKind, DetailModel, Lines};
use crate::app::model::pending::WhatIfKind;
use crate::app::table::Tone;
use crate::engine::alfred_config::TriggerMatcher;
use crate::engine::analysis::scenario::{what_if_change, Change, PoolDelta, Scenario};
use crate::engine::analysis::{Analysis, AnalysisOptions, ExecutorSetting, ALFRED_CONFIG};
use crate::engine::model::ClusterSnapshot;
use crate::protocol::Feed;

/// The first line of every what-if pane.
pub const WHAT_IF_MARK: &str = "WHAT IF — nothing is written: this runs on a copy of the data";

/// What the kind does, in the title.
pub fn verb(kind: WhatIfKind) -> &'static str {
    match kind {
        WhatIfKind::Cordon => "cordoned",
        WhatIfKind::Evacuate => "evacuated (drained)",
        WhatIfKind::Maintenance => "under maintenance",
        WhatIfKind::Policy => "given new policy values",
    }
}

/// Why a what-if has no change to analyse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoChange {
    /// Alfred's config names no label among its maintenance triggers.
    #[error(
        "Alfred's config has no maintenance trigger on a node label: a label would start nothing"
    )]
    NoMaintenanceLabel,
    /// New policy values change no node (`policy` analyses them).
    #[error("new policy values change no node")]
    NotANodeChange,
}

/// The change of `kind` on `node`, and the words saying it; `Err`: why there is none.
pub fn change_of(a: &Analysis, node: &str, kind: WhatIfKind) -> Result<(Change, String), NoChange> {
    let nodes = vec![node.to_string()];
    match kind {
        WhatIfKind::Cordon => Ok((Change::Cordon(nodes), format!("cordon node {node}"))),
        WhatIfKind::Evacuate => Ok((
            Change::Evacuate(nodes),
            format!("cordon node {node} and put every pod on it back to Pending, as a drain would"),
        )),
        WhatIfKind::Policy => Err(NoChange::NotANodeChange),
        WhatIfKind::Maintenance => {
            let triggers = &a.config.policies.node_health.maintenance.triggers;
            let label = triggers.iter().find_map(|t| match &t.matcher {
                TriggerMatcher::Label {
                    key,
                    value,
                    value_is_start_time,
                } => {
                    let v = match (value, value_is_start_time) {
                        (Some(v), _) => v.clone(),
                        // A start time in the past asks maintenance at once.
                        (None, true) => "0".to_string(),
                        (None, false) => "true".to_string(),
                    };
                    Some((t.name.clone(), key.clone(), v))
                }
                _ => None,
            });
            let Some((name, key, value)) = label else {
                return Err(NoChange::NoMaintenanceLabel);
            };
            let words =
                format!("label node {node} {key}={value} (Alfred's maintenance trigger {name})");
            Ok((Change::MaintenanceLabel { nodes, key, value }, words))
        }
    }
}

/// The analysis options of the shown analysis, as far as it tells them (the time, Alfred's
/// namespace from its config's ConfigMap, the executor as it was found).
pub fn options_of(snap: &ClusterSnapshot, a: &Analysis) -> AnalysisOptions {
    let ns = snap
        .config_maps
        .iter()
        .find(|c| c.name.as_ref() == ALFRED_CONFIG)
        .map_or_else(|| "ome".to_string(), |c| c.namespace.to_string());
    AnalysisOptions {
        now: a.now,
        alfred_namespace: ns,
        executor: if a.executor_available {
            ExecutorSetting::Available
        } else {
            ExecutorSetting::Unavailable
        },
        placement: Default::default(),
        instance_types: Default::default(),
    }
}

/// The what-if pane of `kind` on `node` in `feed`; `next_key`: the key that shows the next
/// kind, if bound.
pub fn what_if_pane(
    feed: &Feed,
    node: &str,
    kind: WhatIfKind,
    next_key: Option<&str>,
) -> DetailModel {
    let (snap, a) = (&*feed.snapshot, &*feed.analysis);
    let mut out = Lines::default();
    out.push(WHAT_IF_MARK, Tone::Danger);
    match change_of(a, node, kind) {
        Ok((change, words)) => {
            out.heading("The change (not made)");
            out.line(words);
            let opts = options_of(snap, a);
            let s = what_if_change(snap, &opts, a, &change);
            scenario_lines(&mut out, &s, kind);
        }
        Err(why) => out.push(why.to_string(), Tone::Muted),
    }
    out.push("", Tone::Normal);
    if let Some(k) = next_key {
        let next = verb(kind.next());
        out.push(
            format!("{k} shows the next what-if: {node} {next}"),
            Tone::Accent,
        );
    }
    DetailModel {
        kind: DetailKind::WhatIf(node.to_string()),
        title: format!("what if {node} is {} — nothing is written", verb(kind)),
        lines: out.0,
    }
}

/// The answer of a scenario: displaced Instances, the pools before → after, the budget, the
/// moves Alfred would admit.
pub fn scenario_lines(out: &mut Lines, s: &Scenario, kind: WhatIfKind) {
    for n in &s.unknown_nodes {
        out.push(format!("node {n} is not in the data"), Tone::Failed);
    }
    out.heading("Displaced Instances");
    if kind == WhatIfKind::Cordon {
        out.line("none: a cordon leaves running pods where they are; new pods go elsewhere");
    } else if kind == WhatIfKind::Policy {
        out.line("none: new policy values move no pod by themselves");
    } else if s.displaced.is_empty() {
        out.line("none");
    }
    for d in &s.displaced {
        let room = match d.room_elsewhere {
            Some(true) => ("· room elsewhere now", Tone::Ok),
            Some(false) => ("· no room elsewhere now", Tone::Failed),
            None => ("· Alfred's surge moves it", Tone::Normal),
        };
        let pods = if d.pods == 1 { "pod" } else { "pods" };
        let text = format!(
            "  {} {} Instance {}: {} GPUs in {} {pods} {}",
            d.workload, d.component, d.instance, d.gpus, d.pods, room.0
        );
        out.push(text, room.1);
    }
    pool_lines(out, &s.pools);
    if kind != WhatIfKind::Cordon {
        let b = &s.budget;
        out.heading(match kind {
            WhatIfKind::Policy => "Alfred's budget under the new caps",
            _ => "Alfred's budget for moving them",
        });
        let caps = format!(
            "in flight {} of cap {} · last hour {} of cap {}",
            b.in_flight, b.in_flight_cap, b.last_hour, b.hourly_cap
        );
        if kind == WhatIfKind::Policy {
            out.line(format!("  {caps}"));
        } else {
            let noun = if b.moves == 1 { "move" } else { "moves" };
            let now = b.startable_now();
            out.line(format!(
                "  {} {noun} · {caps} · {now} could start now",
                b.moves
            ));
        }
    }
    let (before, after) = s.admitted;
    out.line(format!(
        "Moves Alfred would admit this pass: {before} → {after}"
    ));
}

fn score(x: Option<f64>, above: bool) -> String {
    match x {
        Some(v) if above => format!("{v:.3}▲"),
        Some(v) => format!("{v:.3}"),
        None => "-".into(),
    }
}

fn pool_lines(out: &mut Lines, pools: &[PoolDelta]) {
    out.heading("Per pool: largest request one node fits, score (▲ above Alfred's threshold)");
    let width = pools.iter().map(|p| p.pool.len()).max().unwrap_or(4).max(4);
    out.push(
        format!(
            "  {:<width$}  {:>13}  {:>15}",
            "POOL", "LARGEST FIT", "SCORE"
        ),
        Tone::Muted,
    );
    for p in pools {
        let changed = p.largest_fit_before != p.largest_fit_after
            || p.above_threshold_before != p.above_threshold_after;
        let fit = format!("{} → {}", p.largest_fit_before, p.largest_fit_after);
        let sc = format!(
            "{} → {}",
            score(p.score_before, p.above_threshold_before),
            score(p.score_after, p.above_threshold_after)
        );
        let tone = if changed {
            Tone::Degraded
        } else {
            Tone::Normal
        };
        out.push(format!("  {:<width$}  {fit:>13}  {sc:>15}", p.pool), tone);
    }
}
