//! The formatting helpers the views share: compact ages, health words and cells,
//! fragmentation bands. Pure functions of their arguments.

use crate::app::table::{Cell, Tone};
use crate::engine::model::Time;
use crate::engine::nodes::HealthState;

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
