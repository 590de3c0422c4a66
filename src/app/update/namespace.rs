//! `:ns NAME`: sets or clears the namespace scope of the workload views and rebuilds them;
//! refuses a namespace the shown data does not hold.

use crate::app::effect::Effect;
use crate::app::namespace::CLEAR_WORDS;
use crate::app::state::{AppState, NoticeLevel};
use crate::app::update::rows;

/// Whether `name` can be a Kubernetes namespace (an RFC 1123 label).
fn valid(name: &str) -> bool {
    (1..=63).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-')
}

/// `:ns NAME` (`None`, or `all` / `-`: every namespace): scopes the workload views; a name
/// no pod or InferenceService of the shown data lives in is refused with a warning (a typo
/// would empty every workload view), the scope in force kept.
pub fn set_scope(state: &mut AppState, name: Option<&str>) -> Vec<Effect> {
    let name = name.filter(|n| !CLEAR_WORDS.contains(n));
    if let Some(n) = name.filter(|n| !valid(n)) {
        state.notices.push(
            format!("not a namespace name: {n}"),
            NoticeLevel::Error,
            state.session.now,
        );
        return vec![Effect::Redraw];
    }
    let seen = state.shown().map(|f| crate::app::namespace::seen(f));
    if let (Some(n), Some(seen)) = (name, seen) {
        if !seen.iter().any(|s| s == n) {
            let kept = state
                .views
                .namespace_scope
                .as_deref()
                .unwrap_or("every namespace");
            let text = format!(
                "no namespace {n}: no pod or InferenceService of this cluster is in it (still showing {kept})"
            );
            state
                .notices
                .push(text, NoticeLevel::Error, state.session.now);
            return vec![Effect::Redraw];
        }
    }
    state.views.namespace_scope = name.map(str::to_string);
    let text = match name {
        Some(n) => format!("namespace {n}: Moves, Journal, Gangs and Lints show its rows"),
        None => "every namespace".to_string(),
    };
    state
        .notices
        .push(text, NoticeLevel::Info, state.session.now);
    // The Gangs tree is built scoped and the tables filter their rows as they refresh.
    rows::rebuild_models(state);
    vec![Effect::Redraw]
}
