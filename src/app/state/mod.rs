//! The app's whole state, by concern: the feeds (`feed`), the views and the operator's place
//! in them (`views`), the overlays (`overlays`), notices, the writes in flight and tracked
//! (`ops`), the clusters (`clusters`), history answers (`history`), settings (`settings`) and
//! the run's clock and terminal (`session`). The UI draws from it through the accessors; only
//! `app::update` mutates it.
//!
//! Owns: `AppState` (the sub-states are its files'; `View` is `action`'s, shared with the
//! keymap). Plain data.

pub mod history;
pub mod ops;
pub mod session;
pub mod views;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

pub use crate::action::View;
use crate::app::contexts::Contexts;
use crate::app::detail::{DetailKind, DetailModel};
use crate::app::dialogs::Modal;
use crate::app::keys::KeyResolver;
use crate::app::model::gangs::GangNav;
use crate::app::model::map::layout::MapNav;
pub use crate::app::model::moves::{Dismissed, RequestedMove};
pub use crate::app::notices::{Notice, NoticeLevel, Notices, NOTICE_SECONDS};
use crate::app::table::TableView;
use crate::engine::model::{MigrationPhase, Time};
use crate::protocol::{Feed, SourceKind};
pub use history::{HealthTransition, HistoryState, NodeAction, SCORE_HISTORY};
pub use ops::{IdSource, OpsState, PendingOp};
pub use session::{Clusters, FeedState, Overlays, Session, Settings};
pub use views::{Models, ViewsState};

/// Everything the UI shows and the reducer changes, a sub-state per concern. Only `app` writes
/// them (`pub(in crate::app)`): the UI reads them through the accessors, the run layer sets up
/// through `app::setup` before the loop (time zone, themes, keys, contexts, dismissals).
pub struct AppState {
    /// The newest feed and the frozen copy.
    pub(in crate::app) feed: FeedState,
    /// The current view, each view's rows and table state, the open detail, the scopes.
    pub(in crate::app) views: ViewsState,
    /// Overlays and dialogs, and a key sequence being typed.
    pub(in crate::app) overlays: Overlays,
    /// Notices, newest last (bounded).
    pub(in crate::app) notices: Notices,
    /// Commands in flight, requests tracked, dismissals.
    pub(in crate::app) ops: OpsState,
    /// The kubeconfig's contexts and the watched fleet.
    pub(in crate::app) clusters: Clusters,
    /// History answers the views show.
    pub(in crate::app) history: HistoryState,
    /// Keys, themes, time zone.
    pub(in crate::app) settings: Settings,
    /// The reducer's clock, the terminal size, whether `quit` ran.
    pub(in crate::app) session: Session,
}

impl AppState {
    /// A fresh state before the first feed.
    pub fn new(keys: Box<dyn KeyResolver>, ids: Box<dyn IdSource>, now: Time) -> Self {
        AppState {
            feed: FeedState::default(),
            views: ViewsState::default(),
            overlays: Overlays::default(),
            notices: Notices::default(),
            ops: OpsState::new(ids),
            clusters: Clusters::default(),
            history: HistoryState::default(),
            settings: Settings::new(keys),
            session: Session::new(now),
        }
    }

    /// The newest feed received.
    pub fn latest(&self) -> &Option<Arc<Feed>> {
        &self.feed.latest
    }

    /// The feed the views show while frozen (`None` = live).
    pub fn frozen(&self) -> &Option<Arc<Feed>> {
        &self.feed.frozen
    }

    /// The current view.
    pub fn view(&self) -> View {
        self.views.view
    }

    /// Row models of the shown feed.
    pub fn models(&self) -> &Models {
        &self.views.models
    }

    /// Gangs tree navigation.
    pub fn gang_nav(&self) -> &GangNav {
        &self.views.gang_nav
    }

    /// The Pools view's map: full size or not, its scroll and layout.
    pub fn pool_map(&self) -> &MapNav {
        &self.views.pool_map
    }

    /// The open detail pane's model.
    pub fn detail(&self) -> &Option<DetailModel> {
        &self.views.detail
    }

    /// Scroll of the detail pane, in lines.
    pub fn detail_scroll(&self) -> usize {
        self.views.detail_scroll
    }

    /// The pool the Nodes view is scoped to.
    pub fn pool_scope(&self) -> Option<&str> {
        self.views.pool_scope.as_deref()
    }

    /// The namespace the workload views are scoped to.
    pub fn namespace_scope(&self) -> Option<&str> {
        self.views.namespace_scope.as_deref()
    }

    /// Overlays and dialogs, top last.
    pub fn modals(&self) -> &Vec<Modal> {
        &self.overlays.modals
    }

    /// Commands sent and not yet answered, by id.
    pub fn pending(&self) -> &BTreeMap<u64, PendingOp> {
        &self.ops.pending
    }

    /// Requests written this session.
    pub fn requested(&self) -> &Vec<RequestedMove> {
        &self.ops.requested
    }

    /// The IR phase last seen per requested UUID.
    pub fn request_phases(&self) -> &HashMap<String, MigrationPhase> {
        &self.ops.request_phases
    }

    /// Score history per pool, in thousandths, oldest first.
    pub fn score_history(&self) -> &BTreeMap<String, VecDeque<u64>> {
        &self.history.score_history
    }

    /// The selected node's health history from the local store.
    pub fn node_history(&self) -> &Option<Vec<HealthTransition>> {
        &self.history.node_history
    }

    /// The open node's recorded operator actions.
    pub fn node_actions(&self) -> &Option<Vec<NodeAction>> {
        &self.history.node_actions
    }

    /// The health answers from the history store.
    pub fn nodes_health(&self) -> &Option<Arc<crate::engine::timeline::NodesHealth>> {
        &self.history.nodes_health
    }

    /// The Pending list, the unblock plan walk and the what-if shown.
    pub fn pending_nav(&self) -> &crate::app::model::pending::PendingNav {
        &self.views.pending_nav
    }

    /// Terminal size (columns, rows).
    pub fn size(&self) -> (u16, u16) {
        self.session.size
    }

    /// The last time the reducer saw.
    pub fn now(&self) -> Time {
        self.session.now
    }

    /// Whether `quit` ran.
    pub fn quitting(&self) -> bool {
        self.session.quitting
    }

    /// The feed the views show: the frozen copy, else the latest.
    pub fn shown(&self) -> Option<&Arc<Feed>> {
        self.feed.frozen.as_ref().or(self.feed.latest.as_ref())
    }

    /// The context the shown data comes from (`None` in the demo and on a snapshot).
    pub fn current_context(&self) -> Option<&str> {
        match &self.feed.latest.as_ref()?.source {
            SourceKind::Live(ctx) => Some(ctx),
            SourceKind::Snapshot(_) | SourceKind::Demo(_) => None,
        }
    }

    /// The table state of `view`.
    pub fn table(&self, view: View) -> &TableView {
        &self.views.tables[view.index()]
    }

    /// The kubeconfig's contexts and a switch in progress.
    pub fn contexts(&self) -> &Contexts {
        &self.clusters.contexts
    }

    /// The watched fleet, when more than one cluster is watched.
    pub fn fleet(&self) -> Option<&crate::app::fleet::Fleet> {
        self.clusters.fleet.as_ref()
    }

    /// The notices, newest last.
    pub fn notices(&self) -> &Notices {
        &self.notices
    }

    /// Dismissed moves: identity key → the dismissal.
    pub fn dismissed(&self) -> &HashMap<String, Dismissed> {
        &self.ops.dismissed
    }

    /// The start of the demo run the history store records under.
    pub fn history_run_started(&self) -> Option<Time> {
        self.history.history_run_started
    }

    /// The operator's time zone for shown times.
    pub fn utc_offset(&self) -> chrono::FixedOffset {
        self.settings.utc_offset
    }

    /// Theme names, in `next-theme` order.
    pub fn themes(&self) -> &[String] {
        &self.settings.themes
    }

    /// Key → action resolution.
    pub fn keys(&self) -> &dyn KeyResolver {
        self.settings.keys.as_ref()
    }

    /// The newest notice still in force at `self.session.now`.
    pub fn notice(&self) -> Option<&Notice> {
        self.notices.in_force(self.session.now)
    }

    /// The current theme's name.
    pub fn theme_name(&self) -> &str {
        self.settings
            .themes
            .get(self.settings.theme)
            .map_or("default", String::as_str)
    }

    /// The row index (into the view's model rows) of the selection, and its source index.
    pub fn selected_source(&self, view: View) -> Option<usize> {
        let model = self.views.models.table(view)?;
        let row = self.table(view).selected_row()?;
        model.rows.get(row).map(|r| r.source)
    }

    /// The source index of the row an action in `view` applies to: the open detail's object
    /// when that view's detail is open (under a filter the table selection can move while the
    /// detail stays on its object), else the selected row.
    pub fn action_source(&self, view: View) -> Option<usize> {
        let key = match (view, self.views.detail.as_ref().map(|d| &d.kind)) {
            (View::Nodes, Some(DetailKind::Node(k)))
            | (View::Moves, Some(DetailKind::Move(k)))
            | (View::Journal, Some(DetailKind::Journal(k))) => k,
            _ => return self.selected_source(view),
        };
        let model = self.views.models.table(view)?;
        model.rows.iter().find(|r| r.key == *key).map(|r| r.source)
    }
}
