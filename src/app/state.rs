//! The app's whole state: the latest feed and the frozen copy, the current view, per-view table
//! state, the modal stack, pending operations and notices. The UI draws from it; only
//! `app::update` mutates it.
//!
//! Owns: `AppState`, `PendingOp`, `IdSource`, `Models` (`View` is `action`'s, shared with the
//! keymap). Plain data.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;

use chrono::Offset;

pub use crate::action::View;
use crate::app::contexts::Contexts;
use crate::app::detail::{DetailKind, DetailModel};
use crate::app::dialogs::Modal;
use crate::app::keys::{Chord, KeyResolver};
use crate::app::model::gangs::{GangNav, GangTree};
use crate::app::model::map::layout::MapNav;
use crate::app::model::map::PoolMap;
pub use crate::app::model::moves::{Dismissed, RequestedMove};
use crate::app::model::moves::{HeldOrder, MoveIndex};
pub use crate::app::notices::{Notice, NoticeLevel, Notices, NOTICE_SECONDS};
use crate::app::table::{TableModel, TableView};
use crate::engine::model::{MigrationPhase, Time};
use crate::protocol::{Feed, Op, SourceKind};

/// Score samples kept per pool for the sparkline.
pub const SCORE_HISTORY: usize = 120;

/// A command sent and not yet answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingOp {
    /// What was sent.
    pub op: Op,
    /// When.
    pub sent_at: Time,
}

/// One health transition from the history store (filled in when the store is plugged in):
/// when ome-top observed the node and what it observed.
pub type HealthTransition = crate::engine::timeline::Observed;

/// An operator action on a node as the history store's audit log recorded it, for the node
/// detail (the reason the operator wrote included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeAction {
    /// When it ended.
    pub at: Time,
    /// Who.
    pub actor: String,
    /// The action's name (`cordon-node`).
    pub action: String,
    /// How it ended (`done`, `conflict`, `refused`, `failed`).
    pub result: String,
    /// The reason the operator wrote, if any.
    pub reason: Option<String>,
    /// What changed or why not.
    pub message: String,
}

/// Produces request UUIDs (lower-case). `run.rs` passes a random source; tests a counter.
pub trait IdSource: Send {
    /// A fresh UUID.
    fn next_uuid(&mut self) -> String;
}

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

/// Everything the UI shows and the reducer changes. Only `app` writes the fields that are
/// `pub(in crate::app)` (the UI reads them through the accessors); the public ones are the run
/// layer's to set up before the loop (time zone, themes, keys, contexts, dismissals, the
/// history store's notices).
pub struct AppState {
    /// The newest feed received.
    pub(in crate::app) latest: Option<Arc<Feed>>,
    /// The feed the views show while frozen (`None` = live).
    pub(in crate::app) frozen: Option<Arc<Feed>>,
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
    /// The kubeconfig's contexts and a switch in progress (`:ctx`; `app::contexts`).
    pub(in crate::app) contexts: Contexts,
    /// The watched fleet (`ome-top fleet`, `:fleet`; `app::fleet`), `None` with one cluster.
    pub(in crate::app) fleet: Option<crate::app::fleet::Fleet>,
    /// Overlays and dialogs, top last.
    pub(in crate::app) modals: Vec<Modal>,
    /// Commands sent, by id.
    pub(in crate::app) pending: BTreeMap<u64, PendingOp>,
    /// The next command id.
    pub(in crate::app) next_op_id: u64,
    /// Notices, newest last (bounded).
    pub(in crate::app) notices: Notices,
    /// Requests written this session.
    pub(in crate::app) requested: Vec<RequestedMove>,
    /// The IR `status.migrations[]` phase last seen per requested UUID (absent until the
    /// consumer records the request); see `app::update::track`.
    pub(in crate::app) request_phases: HashMap<String, MigrationPhase>,
    /// Dismissed moves: identity key → the dismissal.
    pub(in crate::app) dismissed: HashMap<String, Dismissed>,
    /// Advisory groups of the Moves view the operator opened (their reasons), kept across feeds.
    pub(in crate::app) moves_open: BTreeSet<String>,
    /// The Moves rows' order the operator is looking at (`app::update::order`); `None`
    /// until the next build takes it.
    pub(in crate::app) moves_held: Option<HeldOrder>,
    /// A selected move that went into a closed group, and that group's row key: the selection
    /// goes back to the move when it leaves the group, unless the operator moved it.
    pub(in crate::app) moves_follow: Option<(String, String)>,
    /// Score history per pool, in thousandths (0..=1000), oldest first, ≤ `SCORE_HISTORY`.
    pub(in crate::app) score_history: BTreeMap<String, VecDeque<u64>>,
    /// The selected node's health history from the local store (`None` = store not plugged).
    pub(in crate::app) node_history: Option<Vec<HealthTransition>>,
    /// The open node's recorded operator actions (`None` = not read, or store not plugged).
    pub(in crate::app) node_actions: Option<Vec<NodeAction>>,
    /// The health answers from the history store (flaps per node, repair time per pool) for
    /// the Nodes view's columns (`None` = store not plugged).
    pub(in crate::app) nodes_health: Option<Arc<crate::engine::timeline::NodesHealth>>,
    /// The start of the demo run the history store records under (`None` elsewhere): the
    /// node detail's timeline says which run it shows.
    pub(in crate::app) history_run_started: Option<Time>,
    /// The Pending list, the unblock plan walk and the what-if shown (`app::model::pending`).
    pub(in crate::app) pending_nav: crate::app::model::pending::PendingNav,
    /// Keys typed so far of an unfinished sequence.
    pub(in crate::app) pending_keys: Vec<Chord>,
    /// Terminal size (columns, rows).
    pub(in crate::app) size: (u16, u16),
    /// The last time the reducer saw.
    pub(in crate::app) now: Time,
    /// The operator's time zone for shown times (the run layer sets the local one; UTC until
    /// then, so tests read the same everywhere).
    pub(in crate::app) utc_offset: chrono::FixedOffset,
    /// Theme names (palette, `next-theme`), and the current one's index.
    pub(in crate::app) themes: Vec<String>,
    /// Index into `themes`.
    pub(in crate::app) theme: usize,
    /// Set by `quit`.
    pub(in crate::app) quitting: bool,
    /// Key → action resolution.
    pub(in crate::app) keys: Box<dyn KeyResolver>,
    /// Request UUIDs.
    pub(in crate::app) ids: Box<dyn IdSource>,
}

impl AppState {
    /// A fresh state before the first feed.
    pub fn new(keys: Box<dyn KeyResolver>, ids: Box<dyn IdSource>, now: Time) -> Self {
        AppState {
            latest: None,
            frozen: None,
            view: View::Pools,
            tables: Default::default(),
            models: Models::default(),
            gang_nav: GangNav::default(),
            pool_map: MapNav::default(),
            detail: None,
            detail_scroll: 0,
            pool_scope: None,
            namespace_scope: None,
            contexts: Contexts::default(),
            fleet: None,
            modals: Vec::new(),
            pending: BTreeMap::new(),
            next_op_id: 1,
            notices: Notices::default(),
            requested: Vec::new(),
            request_phases: HashMap::new(),
            dismissed: HashMap::new(),
            moves_open: BTreeSet::new(),
            moves_held: None,
            moves_follow: None,
            score_history: BTreeMap::new(),
            node_history: None,
            node_actions: None,
            nodes_health: None,
            history_run_started: None,
            pending_nav: Default::default(),
            pending_keys: Vec::new(),
            size: (80, 24),
            now,
            utc_offset: chrono::Utc.fix(),
            themes: vec!["default".into()],
            theme: 0,
            quitting: false,
            keys,
            ids,
        }
    }

    /// The newest feed received.
    pub fn latest(&self) -> &Option<Arc<Feed>> {
        &self.latest
    }

    /// The feed the views show while frozen (`None` = live).
    pub fn frozen(&self) -> &Option<Arc<Feed>> {
        &self.frozen
    }

    /// The current view.
    pub fn view(&self) -> View {
        self.view
    }

    /// Row models of the shown feed.
    pub fn models(&self) -> &Models {
        &self.models
    }

    /// Gangs tree navigation.
    pub fn gang_nav(&self) -> &GangNav {
        &self.gang_nav
    }

    /// The Pools view's map: full size or not, its scroll and layout.
    pub fn pool_map(&self) -> &MapNav {
        &self.pool_map
    }

    /// The open detail pane's model.
    pub fn detail(&self) -> &Option<DetailModel> {
        &self.detail
    }

    /// Scroll of the detail pane, in lines.
    pub fn detail_scroll(&self) -> usize {
        self.detail_scroll
    }

    /// The pool the Nodes view is scoped to.
    pub fn pool_scope(&self) -> Option<&str> {
        self.pool_scope.as_deref()
    }

    /// The namespace the workload views are scoped to.
    pub fn namespace_scope(&self) -> Option<&str> {
        self.namespace_scope.as_deref()
    }

    /// Overlays and dialogs, top last.
    pub fn modals(&self) -> &Vec<Modal> {
        &self.modals
    }

    /// Commands sent and not yet answered, by id.
    pub fn pending(&self) -> &BTreeMap<u64, PendingOp> {
        &self.pending
    }

    /// Requests written this session.
    pub fn requested(&self) -> &Vec<RequestedMove> {
        &self.requested
    }

    /// The IR phase last seen per requested UUID.
    pub fn request_phases(&self) -> &HashMap<String, MigrationPhase> {
        &self.request_phases
    }

    /// Score history per pool, in thousandths, oldest first.
    pub fn score_history(&self) -> &BTreeMap<String, VecDeque<u64>> {
        &self.score_history
    }

    /// The selected node's health history from the local store.
    pub fn node_history(&self) -> &Option<Vec<HealthTransition>> {
        &self.node_history
    }

    /// The open node's recorded operator actions.
    pub fn node_actions(&self) -> &Option<Vec<NodeAction>> {
        &self.node_actions
    }

    /// The health answers from the history store.
    pub fn nodes_health(&self) -> &Option<Arc<crate::engine::timeline::NodesHealth>> {
        &self.nodes_health
    }

    /// The Pending list, the unblock plan walk and the what-if shown.
    pub fn pending_nav(&self) -> &crate::app::model::pending::PendingNav {
        &self.pending_nav
    }

    /// Terminal size (columns, rows).
    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    /// The last time the reducer saw.
    pub fn now(&self) -> Time {
        self.now
    }

    /// Whether `quit` ran.
    pub fn quitting(&self) -> bool {
        self.quitting
    }

    /// The feed the views show: the frozen copy, else the latest.
    pub fn shown(&self) -> Option<&Arc<Feed>> {
        self.frozen.as_ref().or(self.latest.as_ref())
    }

    /// The context the shown data comes from (`None` in the demo and on a snapshot).
    pub fn current_context(&self) -> Option<&str> {
        match &self.latest.as_ref()?.source {
            SourceKind::Live(ctx) => Some(ctx),
            SourceKind::Snapshot(_) | SourceKind::Demo(_) => None,
        }
    }

    /// The table state of `view`.
    pub fn table(&self, view: View) -> &TableView {
        &self.tables[view.index()]
    }

    /// The kubeconfig's contexts and a switch in progress.
    pub fn contexts(&self) -> &Contexts {
        &self.contexts
    }

    /// The watched fleet, when more than one cluster is watched.
    pub fn fleet(&self) -> Option<&crate::app::fleet::Fleet> {
        self.fleet.as_ref()
    }

    /// The notices, newest last.
    pub fn notices(&self) -> &Notices {
        &self.notices
    }

    /// Dismissed moves: identity key → the dismissal.
    pub fn dismissed(&self) -> &HashMap<String, Dismissed> {
        &self.dismissed
    }

    /// The start of the demo run the history store records under.
    pub fn history_run_started(&self) -> Option<Time> {
        self.history_run_started
    }

    /// The operator's time zone for shown times.
    pub fn utc_offset(&self) -> chrono::FixedOffset {
        self.utc_offset
    }

    /// Theme names, in `next-theme` order.
    pub fn themes(&self) -> &[String] {
        &self.themes
    }

    /// Key → action resolution.
    pub fn keys(&self) -> &dyn KeyResolver {
        self.keys.as_ref()
    }

    /// The newest notice still in force at `self.now`.
    pub fn notice(&self) -> Option<&Notice> {
        self.notices.in_force(self.now)
    }

    /// The current theme's name.
    pub fn theme_name(&self) -> &str {
        self.themes
            .get(self.theme)
            .map_or("default", String::as_str)
    }

    /// The row index (into the view's model rows) of the selection, and its source index.
    pub fn selected_source(&self, view: View) -> Option<usize> {
        let model = self.models.table(view)?;
        let row = self.table(view).selected_row()?;
        model.rows.get(row).map(|r| r.source)
    }

    /// The source index of the row an action in `view` applies to: the open detail's object
    /// when that view's detail is open (under a filter the table selection can move while the
    /// detail stays on its object), else the selected row.
    pub fn action_source(&self, view: View) -> Option<usize> {
        let key = match (view, self.detail.as_ref().map(|d| &d.kind)) {
            (View::Nodes, Some(DetailKind::Node(k)))
            | (View::Moves, Some(DetailKind::Move(k)))
            | (View::Journal, Some(DetailKind::Journal(k))) => k,
            _ => return self.selected_source(view),
        };
        let model = self.models.table(view)?;
        model.rows.iter().find(|r| r.key == *key).map(|r| r.source)
    }
}
