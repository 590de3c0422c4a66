//! A new feed taken in (the pools' score history recorded, the rows rebuilt unless frozen,
//! requests followed) and `freeze`, which keeps showing the current one.
//!
//! Owns: `apply_feed`, `toggle_freeze`. Plain data.

use std::sync::Arc;

use crate::app::state::{AppState, SCORE_HISTORY};
use crate::app::update::rows::rebuild_models;
use crate::protocol::Feed;

/// `freeze`: keep showing the current feed while new ones keep arriving.
pub fn toggle_freeze(state: &mut AppState) {
    if state.feed.frozen.take().is_none() {
        state.feed.frozen = state.feed.latest.clone();
    } else {
        rebuild_models(state);
    }
}

/// Takes in a new feed: record the score history, and unless frozen rebuild the rows.
pub fn apply_feed(state: &mut AppState, feed: Arc<Feed>) {
    let new_generation = state
        .feed
        .latest
        .as_ref()
        .is_none_or(|f| f.generation != feed.generation);
    if new_generation {
        for p in &feed.analysis.pools {
            let h = state
                .history
                .score_history
                .entry(p.name.clone())
                .or_default();
            h.push_back((p.score.clamp(0.0, 1.0) * 1000.0).round() as u64);
            while h.len() > SCORE_HISTORY {
                h.pop_front();
            }
        }
    }
    state.feed.latest = Some(feed);
    if state.feed.frozen.is_none() {
        let view = state.views.view;
        let before = state.table(view).selected_key.clone();
        rebuild_models(state);
        crate::app::update::slid::after_feed(state, view, before);
        crate::app::update::track::track_requests(state);
    }
}
