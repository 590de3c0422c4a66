//! The `:ns` scope: the workload views (Moves, Journal, Gangs, Lints) show the rows of one
//! namespace; Pools and Nodes are cluster-wide and ignore it. Also the namespaces the data
//! holds (what `:ns` lists) and the namespace of a workload row.
//!
//! Owns: `applies`, `seen`, `row_namespace`, `CLEAR_WORDS` (`app::update::namespace` sets the
//! scope). Plain data.

use std::collections::BTreeSet;

use crate::app::state::View;
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
/// such as a node or pool lint, or a view the scope does not apply to). The Moves rows are
/// built for the scope instead (`views::moves::in_namespace`), so that its advisory groups
/// count its moves only.
pub fn row_namespace(a: &Analysis, view: View, source: usize) -> Option<&str> {
    match view {
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
        View::Moves | View::Pools | View::Nodes | View::Gangs | View::Fleet => None,
    }
}
