//! The `:ns` scope: the workload views (Moves, Journal, Gangs, Lints) show the rows of one
//! namespace; Pools and Nodes are cluster-wide and ignore it. Also the namespaces the data
//! holds (what `:ns` lists) and the namespace of a workload row.
//!
//! Owns: `applies`, `seen`, `row_namespace`, `set_scope`, `CLEAR_WORDS`. Plain data.

use std::collections::BTreeSet;

use crate::app::effect::Effect;
use crate::app::nav;
use crate::app::ops::notify;
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::views::moves::{Merged, MoveEntry, MoveIndex};
use crate::engine::analysis::Analysis;
use crate::engine::planning::JournalView;
use crate::protocol::Feed;

/// `:ns` arguments that clear the scope (every namespace).
pub const CLEAR_WORDS: [&str; 2] = ["all", "-"];

/// Whether the namespace scope filters `view`'s rows.
pub fn applies(view: View) -> bool {
    matches!(
        view,
        View::Moves | View::Journal | View::Gangs | View::Lints
    )
}

/// Every namespace the feed's pods and InferenceServices live in, sorted.
pub fn seen(feed: &Feed) -> Vec<String> {
    let snap = &feed.snapshot;
    let mut names: BTreeSet<&str> = BTreeSet::new();
    let mut last = "";
    // The store lists pods by `namespace/name`: consecutive pods mostly share a namespace.
    for ns in snap
        .pods
        .iter()
        .map(|p| p.namespace.as_ref())
        .chain(snap.isvcs.iter().map(|s| s.namespace().as_ref()))
    {
        if ns != last && !ns.is_empty() {
            names.insert(ns);
            last = ns;
        }
    }
    names.into_iter().map(str::to_string).collect()
}

/// The namespace before the `/` of a `namespace/name` text.
fn before_slash(ns_name: &str) -> Option<&str> {
    ns_name.split_once('/').map(|(ns, _)| ns)
}

/// The namespace of the row built from `source` in `view` (`None`: a cluster-wide object,
/// such as a node or pool lint, or a view the scope does not apply to).
pub fn row_namespace<'a>(
    a: &'a Analysis,
    moves: &MoveIndex,
    view: View,
    source: usize,
) -> Option<&'a str> {
    match view {
        View::Moves => match moves.entries.get(source)? {
            MoveEntry::Move(pair) => {
                before_slash(Merged::of(a, *pair)?.primary()?.fields().workload)
            }
            // Under a scope the Moves rows are built flat: no group rows.
            MoveEntry::Group { .. } => None,
        },
        View::Journal => match &a.journal {
            JournalView::Valid(j, _) => {
                j.entries.get(source).map(|e| e.workload.namespace.as_str())
            }
            _ => None,
        },
        // `Kind namespace/name`, or `Node name` / `Pool name` (cluster-wide).
        View::Lints => a
            .lints
            .get(source)
            .and_then(|l| l.object.split_once(' '))
            .and_then(|(_, object)| before_slash(object)),
        View::Pools | View::Nodes | View::Gangs => None,
    }
}

/// Whether `name` can be a Kubernetes namespace (an RFC 1123 label).
fn valid(name: &str) -> bool {
    (1..=63).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-')
}

/// `:ns NAME` (`None`, or `all` / `-`: every namespace): scopes the workload views.
pub fn set_scope(state: &mut AppState, name: Option<&str>) -> Vec<Effect> {
    let name = name.filter(|n| !CLEAR_WORDS.contains(n));
    if let Some(n) = name.filter(|n| !valid(n)) {
        notify(
            state,
            format!("not a namespace name: {n}"),
            NoticeLevel::Error,
        );
        return vec![Effect::Redraw];
    }
    state.namespace_scope = name.map(str::to_string);
    let text = match name {
        Some(n) => format!("namespace {n}: Moves, Journal, Gangs and Lints show its rows"),
        None => "every namespace".to_string(),
    };
    notify(state, text, NoticeLevel::Info);
    // The Gangs tree is built scoped and the tables filter their rows as they refresh.
    nav::rebuild_models(state);
    vec![Effect::Redraw]
}
