//! Builds a view's row models from one feed, once per feed generation and only for views
//! that are shown, plus the small
//! formatting helpers they share (ages, health words, fragmentation bands).
//!
//! Owns: `build_view`, `build_models`, `age`, `health_cell`, `frag_tone`. Plain data.

pub mod gang_pin;
pub mod gangs;
pub mod journal;
pub mod lints;
pub mod map;
pub mod moves;
pub mod node_detail;
mod node_sections;
mod node_timeline;
pub mod nodes;
pub mod pools;

use crate::app::state::{Models, View};
use crate::app::table::{Cell, Tone};
use crate::app::views::gangs::GangTree;
use crate::app::views::moves::MoveOptions;
use crate::engine::model::Time;
use crate::engine::nodes::HealthState;
use crate::protocol::Feed;

/// Builds the row model of `view` from `feed` into `models` (Moves in the shape `moves` asks
/// for, hiding dismissed moves whose content is unchanged; the Gangs tree holds only
/// `namespace`'s gangs when given) and records the generation it was built from.
pub fn build_view(
    models: &mut Models,
    feed: &Feed,
    moves: &MoveOptions<'_>,
    view: View,
    namespace: Option<&str>,
) {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    match view {
        View::Pools => {
            models.pools = crate::app::views::pools::pool_rows(a);
            models.pool_maps = crate::app::views::map::pool_maps(snap, a);
        }
        View::Nodes => models.nodes = crate::app::views::nodes::node_rows(snap, a),
        View::Moves => (models.moves, models.move_index) = moves::move_rows(feed, moves),
        View::Journal => models.journal = crate::app::views::journal::journal_rows(a),
        View::Gangs => models.gangs = GangTree::build(snap, a, namespace),
        View::Lints => models.lints = crate::app::views::lints::lint_rows(a),
    }
    models.built[view.index()] = Some(feed.generation);
}

/// Builds every view's rows (tests and tools; the app builds views lazily).
pub fn build_models(feed: &Feed, moves: &MoveOptions<'_>) -> Models {
    let mut models = Models::default();
    for v in View::ALL {
        build_view(&mut models, feed, moves, v, None);
    }
    models.generation = Some(feed.generation);
    models
}

/// A compact age: `45s`, `12m`, `3h`, `2d`; `-` when unknown; `in 5m` for the future.
pub fn age(now: Time, then: Option<Time>) -> String {
    let Some(then) = then else {
        return "-".to_string();
    };
    let secs = (now - then).num_seconds();
    let (future, s) = if secs < 0 {
        (true, -secs)
    } else {
        (false, secs)
    };
    let text = match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m", s / 60),
        3600..=172_799 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    };
    if future {
        format!("in {text}")
    } else {
        text
    }
}

/// Seconds since `then` (sort key; unknown sorts first).
pub fn age_secs(now: Time, then: Option<Time>) -> f64 {
    then.map_or(-1.0, |t| (now - t).num_seconds() as f64)
}

/// Symbol, word and tone of a health state: readable without colour.
pub fn health_label(h: &HealthState) -> (&'static str, Tone) {
    match h {
        HealthState::Clear => ("✓ Clear", Tone::Ok),
        HealthState::Suspect { .. } => ("~ Suspect", Tone::Degraded),
        HealthState::Unknown => ("? Unknown", Tone::Unknown),
        HealthState::Unhealthy => ("✗ Unhealthy", Tone::Failed),
    }
}

/// The health cell of a node.
pub fn health_cell(h: &HealthState) -> Cell {
    let (label, tone) = health_label(h);
    let rank = match h {
        HealthState::Clear => 0.0,
        HealthState::Suspect { .. } => 1.0,
        HealthState::Unknown => 2.0,
        HealthState::Unhealthy => 3.0,
    };
    Cell::num(rank, label).tone(tone)
}

/// Fragmentation band of `score` against Alfred's `threshold`: high above it, mid above half.
pub fn frag_tone(score: f64, threshold: f64) -> Tone {
    if score > threshold {
        Tone::FragHigh
    } else if score > threshold / 2.0 {
        Tone::FragMid
    } else {
        Tone::FragLow
    }
}

/// The band's word, printed next to the score so the band reads without colour.
pub fn frag_word(tone: Tone) -> &'static str {
    match tone {
        Tone::FragHigh => "high",
        Tone::FragMid => "mid",
        _ => "low",
    }
}
