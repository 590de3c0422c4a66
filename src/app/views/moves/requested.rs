//! The moves this session requested, on the Moves view after their move row is gone (a
//! completed move removes the source Instance, so neither Alfred nor ome-top lists it any
//! more): one row per request under the move row's own key, so the selection stays on it,
//! saying where the workload runs now (`landing`), and its detail.
//!
//! Owns: `requested_row`, `latest_requests`, `requested_detail`. Plain data.

use std::collections::HashMap;

use crate::app::detail::{DetailKind, DetailModel, Lines};
use crate::app::model::moves::RequestedMove;
use crate::app::table::{Cell, RowModel, Tone};
use crate::app::views::context::ViewContext;
use crate::app::views::moves::landing::{landing, landing_short, landing_words, Landing};
use crate::app::views::moves::words::policy_word;
use crate::engine::model::vocab::MigrationPhase;
use crate::engine::model::ClusterSnapshot;
use crate::fmt::{relative, span, when};
use crate::protocol::Feed;

/// The row key of a request: the key of the move row it was approved on.
pub fn request_key(r: &RequestedMove) -> String {
    format!("{}|{}|{}|{}", r.policy, r.workload, r.component, r.instance)
}

/// The newest request per move row key, with its index in `requested`, oldest key first.
pub fn latest_requests(requested: &[RequestedMove]) -> Vec<(String, usize)> {
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut keys: Vec<String> = Vec::new();
    for (i, r) in requested.iter().enumerate() {
        let key = request_key(r);
        if at.insert(key.clone(), i).is_none() {
            keys.push(key);
        }
    }
    keys.into_iter()
        .filter_map(|k| at.get(&k).map(|i| (k.clone(), *i)))
        .collect()
}

/// The OME-TOP cell of a request: what became of it.
pub fn landing_cell(l: &Landing) -> Cell {
    match l {
        Landing::Moved(e) if e.exists && !e.to.is_empty() => {
            let back = e.from.as_ref().is_some_and(|f| e.to.contains(f));
            match back {
                true => Cell::text("moved back").tone(Tone::Degraded),
                false => Cell::text("moved").tone(Tone::Ok),
            }
        }
        Landing::Moved(_) => Cell::text("moved").tone(Tone::Degraded),
        Landing::Failed { .. } => Cell::text("failed").tone(Tone::Failed),
        Landing::Moving { .. } | Landing::Unacknowledged => Cell::text("requested").tone(Tone::Ok),
    }
}

/// The Moves row of request `r` (in the Moves columns' order), `source` its entry.
pub fn requested_row(
    snap: &ClusterSnapshot,
    (r, seen): (&RequestedMove, Option<&MigrationPhase>),
    (key, source): (String, usize),
) -> RowModel {
    let l = landing(snap, r, seen);
    let to = match &l {
        Landing::Moved(e) if !e.to.is_empty() => e.to.join(", "),
        _ => "-".to_string(),
    };
    let cells = vec![
        Cell::text(""),
        landing_cell(&l),
        Cell::text("-").tone(Tone::Muted),
        Cell::text(r.workload.as_str()),
        Cell::text(format!("{}/{}", r.component, r.instance)),
        Cell::text(landing_short(&l)).tone(Tone::Accent),
        Cell::text(policy_word(&r.policy)),
        Cell::text(r.from_node.as_deref().unwrap_or("-")),
        Cell::text(to),
        Cell::num(f64::NEG_INFINITY, "-"),
        Cell::text("-"),
        Cell::text("-"),
    ];
    RowModel::new(key, source, cells)
}

/// The detail of request `r`, once its move row is gone.
pub fn requested_detail(cx: &ViewContext<'_>, feed: &Feed, r: &RequestedMove) -> DetailModel {
    let (snap, now) = (&feed.snapshot, feed.analysis.now);
    let l = landing(snap, r, cx.phases.get(&r.uuid));
    let mut out = Lines::default();
    out.heading("Move");
    out.line(format!(
        "{} / {} / instance {}",
        r.workload, r.component, r.instance
    ));
    out.line(format!(
        "policy {} · from {}",
        r.policy,
        r.from_node.as_deref().unwrap_or("-")
    ));
    out.line(format!(
        "requested here as {} {}",
        r.uuid,
        when(now, r.at, cx.utc_offset)
    ));
    out.heading("Where it ended");
    let tone = match &l {
        Landing::Failed { .. } => Tone::Failed,
        Landing::Moved(e) if e.exists && !e.to.is_empty() => Tone::Ok,
        Landing::Moved(_) => Tone::Degraded,
        _ => Tone::Accent,
    };
    out.push(landing_words(&l, now), tone);
    if let Landing::Moved(e) = &l {
        if let Some(t) = e.at {
            out.line(format!(
                "completed {}{}",
                when(now, t, cx.utc_offset),
                e.took
                    .map_or_else(String::new, |d| format!(" · took {}", span(d)))
            ));
        }
    }
    if let Landing::Moving { phase } = &l {
        out.line(format!(
            "phase {phase} · next: {}",
            crate::app::views::moves::flight::next_words(Some(phase))
        ));
    }
    out.push(
        format!(
            "ome-top and Alfred list no move for this Instance now (requested {})",
            relative(now, r.at)
        ),
        Tone::Muted,
    );
    DetailModel {
        kind: DetailKind::Move(request_key(r)),
        title: format!("move {}", r.workload),
        lines: out.0,
    }
}
