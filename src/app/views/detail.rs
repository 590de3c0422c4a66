//! The detail pane of the open object, built from one feed: a node, a move, a journal entry
//! or a placement lint (a reservation cordon's with its fix key), and why an open pane's object left
//! the feed.

use std::collections::HashMap;

use crate::app::detail::{DetailKind, DetailModel, Lines};
use crate::app::model::moves::RequestedMove;
use crate::app::table::Tone;
use crate::app::views::context::ViewContext;
use crate::engine::lints::LintRule;
use crate::engine::model::MigrationPhase;
use crate::protocol::{Capability, Feed, NotPermitted};

/// Builds the pane for `kind` from `feed`; `None` when the object is gone.
pub fn build_detail(cx: &ViewContext<'_>, feed: &Feed, kind: &DetailKind) -> Option<DetailModel> {
    match kind {
        DetailKind::Node(name) => crate::app::views::nodes::detail::node_detail(cx, feed, name),
        DetailKind::Move(key) => crate::app::views::moves::move_detail(cx, feed, key),
        DetailKind::Journal(uuid) => crate::app::views::journal::journal_detail(cx, feed, uuid),
        DetailKind::Lint(key) => lint_detail(cx, feed, key),
        DetailKind::Pending(key) => {
            crate::app::views::pending::explain::explain_detail(cx, feed, key)
        }
        // Computed once when asked: a feed does not run the second analysis again.
        DetailKind::WhatIf(_) => cx.what_if.map(|w| w.pane.clone()),
    }
}

/// A lint in full: the rule it breaks, the object, the message with its fix.
fn lint_detail(cx: &ViewContext<'_>, feed: &Feed, key: &str) -> Option<DetailModel> {
    let row = cx.models.lints.rows.iter().find(|r| r.key == key)?;
    let lint = feed.analysis.lints.get(row.source)?;
    let mut out = Lines::default();
    out.heading("Lint");
    out.push(format!("rule: {}", lint.rule.id()), Tone::Degraded);
    out.line(format!("object: {}", lint.object));
    out.heading("Message and fix");
    for part in lint.message.split("; ") {
        out.line(part.to_string());
    }
    if lint.rule == LintRule::ReservationCordon {
        if let Some(node) = lint.object.strip_prefix("Node ") {
            out.heading("Fix it from here");
            match feed.permissions.check(Capability::CordonNode) {
                Err(why @ (NotPermitted::ReadOnly(_) | NotPermitted::Denied(_))) => out.push(
                    format!("uncordoning node {node} is not possible here: {why}"),
                    Tone::Muted,
                ),
                _ => out.push(
                    format!(
                        "u uncordons node {node}: the same confirm, compare-and-swap and audit as in Nodes"
                    ),
                    Tone::Accent,
                ),
            }
        }
    }
    Some(DetailModel {
        kind: DetailKind::Lint(key.to_string()),
        title: format!("lint {}", lint.rule.id()),
        lines: out.0,
    })
}

/// Why the open detail's object left the feed, as far as this session knows (a move it
/// requested says how the request ended).
pub fn gone_words(
    requested: &[RequestedMove],
    phases: &HashMap<String, MigrationPhase>,
    kind: &DetailKind,
) -> String {
    let key = match kind {
        DetailKind::Move(key) => key,
        DetailKind::Lint(_) => {
            return "the lint no longer holds (fixed, or its object changed)".into()
        }
        DetailKind::Node(_) => return "the node is gone from the cluster".into(),
        DetailKind::Journal(_) => return "the entry is gone from Alfred's journal".into(),
        DetailKind::Pending(_) => {
            return "the pod is no longer a pending GPU pod (it was placed, or deleted)".into()
        }
        DetailKind::WhatIf(_) => return "the what-if is closed".into(),
    };
    let ended = requested.iter().rev().find_map(|r| {
        let phase = phases.get(&r.uuid)?;
        let k = format!("|{}|{}|{}", r.workload, r.component, r.instance);
        key.ends_with(&k)
            .then(|| format!("migration {} requested here: {phase}", r.uuid))
    });
    ended.unwrap_or_else(|| {
        "the move is no longer computed nor published (it ran, or its Instance changed)".into()
    })
}
