//! The formatting helpers the views share: health words and cells, fragmentation bands
//! (ages are `crate::fmt`'s). Pure functions of their arguments.

use crate::app::table::{Cell, Tone};
use crate::engine::nodes::HealthState;

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
