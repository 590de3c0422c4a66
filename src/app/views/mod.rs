//! Builds a view's row models from one feed, once per feed generation and only for views that are
//! shown, plus the small formatting helpers they share (`cells`: ages, health words, fragmentation
//! bands).
//!
//! Owns: `build_view`, `build_models`. Plain data.

pub mod cells;
pub mod context;
pub mod detail;
pub mod gangs;
pub mod journal;
pub mod legends;
pub mod lints;
pub mod moves;
pub mod nodes;
pub mod pending;
pub mod pools;

use crate::app::model::gangs::GangTree;
use crate::app::state::{Models, View};
use crate::app::views::moves::MoveOptions;
pub use crate::fmt::{age, age_secs};
use crate::protocol::Feed;
pub use cells::{frag_tone, frag_word, health_cell, health_label};

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
            models.pool_maps = crate::app::model::map::pool_maps(snap, a);
        }
        View::Nodes => models.nodes = crate::app::views::nodes::node_rows(snap, a),
        View::Moves => (models.moves, models.move_index) = moves::move_rows(feed, moves),
        View::Journal => models.journal = crate::app::views::journal::journal_rows(a),
        View::Gangs => models.gangs = GangTree::build(snap, a, namespace),
        View::Lints => models.lints = crate::app::views::lints::lint_rows(a),
        // The fleet's rows come from every member's feed, not the shown one
        // (`app::update::fleet`).
        View::Fleet => return,
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
