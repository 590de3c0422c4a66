//! What the views show and where the operator is in them: the current view, each view's table
//! state and rows, the Gangs tree's and the map's navigation, the open detail, the pool and
//! namespace scopes, and what the operator opened and is looking at in the Moves view.
//!
//! Owns: `ViewsState`, `Models`. Plain data.

use std::collections::BTreeSet;

use crate::action::View;
use crate::app::detail::DetailModel;
use crate::app::model::gangs::{GangNav, GangTree};
use crate::app::model::map::layout::MapNav;
use crate::app::model::map::PoolMap;
use crate::app::model::moves::{HeldOrder, MoveIndex};
use crate::app::table::{TableModel, TableView};

/// Row models of every view, built from one feed generation.
#[derive(Debug, Clone, Default)]
pub struct Models {
    /// The feed generation of the shown feed.
    pub generation: Option<u64>,
    /// Per view (`View::index`): the generation its rows were built from (`None` = stale).
    pub built: [Option<u64>; View::COUNT],
    /// Pools view rows.
    pub pools: TableModel,
    /// Nodes view rows.
    pub nodes: TableModel,
    /// Moves view rows.
    pub moves: TableModel,
    /// What each Moves row stands for (merged move or advisory group), and its counts.
    pub move_index: MoveIndex,
    /// Journal view rows.
    pub journal: TableModel,
    /// Lints view rows.
    pub lints: TableModel,
    /// Gangs tree.
    pub gangs: GangTree,
    /// The map of every pool, aligned with the analysis's pools (built with the Pools rows).
    pub pool_maps: Vec<PoolMap>,
    /// Fleet view rows (built from `AppState::fleet`, not from the shown feed).
    pub fleet: crate::app::model::fleet::FleetModel,
}

impl Models {
    /// The table model of a list view (`None` for Gangs).
    pub fn table(&self, view: View) -> Option<&TableModel> {
        match view {
            View::Pools => Some(&self.pools),
            View::Nodes => Some(&self.nodes),
            View::Moves => Some(&self.moves),
            View::Journal => Some(&self.journal),
            View::Lints => Some(&self.lints),
            View::Fleet => Some(&self.fleet.table),
            View::Gangs => None,
        }
    }
}

/// The views and the operator's place in them.
#[derive(Debug)]
pub struct ViewsState {
    /// The current view.
    pub(in crate::app) view: View,
    /// Per-view table state, indexed by `View::index`.
    pub(in crate::app) tables: [TableView; View::COUNT],
    /// Row models of the shown feed.
    pub(in crate::app) models: Models,
    /// Gangs tree navigation (open branches, selection), kept across feeds.
    pub(in crate::app) gang_nav: GangNav,
    /// The Pools view's map: full size or not, its scroll and layout.
    pub(in crate::app) pool_map: MapNav,
    /// The open detail pane's model (Nodes, Moves, Journal), rebuilt on every feed.
    pub(in crate::app) detail: Option<DetailModel>,
    /// Scroll of the detail pane, in lines.
    pub(in crate::app) detail_scroll: usize,
    /// Nodes view scoped to one pool (Enter on a pool).
    pub(in crate::app) pool_scope: Option<String>,
    /// Workload views scoped to one namespace (`:ns`; `app::namespace`).
    pub(in crate::app) namespace_scope: Option<String>,
    /// Advisory groups of the Moves view the operator opened (their reasons), kept across feeds.
    pub(in crate::app) moves_open: BTreeSet<String>,
    /// The Moves rows' order the operator is looking at (`app::update::order`); `None`
    /// until the next build takes it.
    pub(in crate::app) moves_held: Option<HeldOrder>,
    /// A selected move that went into a closed group, and that group's row key: the selection
    /// goes back to the move when it leaves the group, unless the operator moved it.
    pub(in crate::app) moves_follow: Option<(String, String)>,
    /// The Pending list, the unblock plan walk and the what-if shown (`app::model::pending`).
    pub(in crate::app) pending_nav: crate::app::model::pending::PendingNav,
}

impl Default for ViewsState {
    fn default() -> Self {
        ViewsState {
            view: View::Pools,
            tables: Default::default(),
            models: Models::default(),
            gang_nav: GangNav::default(),
            pool_map: MapNav::default(),
            detail: None,
            detail_scroll: 0,
            pool_scope: None,
            namespace_scope: None,
            moves_open: BTreeSet::new(),
            moves_held: None,
            moves_follow: None,
            pending_nav: Default::default(),
        }
    }
}
