//! The app's whole state: the latest feed and the frozen copy, the current view, per-view table
//! state, the modal stack, pending operations and notices. The UI draws from it; only
//! `app::update` mutates it.
//!
//! Owns: `AppState`, `Notice`, `PendingOp`, `IdSource`, `Models` (`View` is `action`'s, shared with
//! the keymap). Plain data.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;

use chrono::Offset;

pub use crate::action::View;
use crate::app::contexts::Contexts;
use crate::app::detail::{DetailKind, DetailModel};
use crate::app::dialogs::Modal;
use crate::app::keys::{Chord, KeyResolver};
use crate::app::table::{TableModel, TableView};
use crate::app::views::gangs::{GangNav, GangTree};
use crate::app::views::map::layout::MapNav;
use crate::app::views::map::PoolMap;
use crate::app::views::moves::MoveIndex;
use crate::engine::model::{MigrationPhase, Time};
use crate::protocol::{Feed, Op};

/// How long a notice stays in the notice line, in seconds.
pub const NOTICE_SECONDS: i64 = 8;
/// Score samples kept per pool for the sparkline.
pub const SCORE_HISTORY: usize = 120;

/// Severity of a notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeLevel {
    /// Information (an op was sent or finished).
    Info,
    /// A refusal or a failure.
    Error,
}

/// One line in the notice bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The text.
    pub text: String,
    /// Severity.
    pub level: NoticeLevel,
    /// When it was raised.
    pub at: Time,
}

/// A command sent and not yet answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingOp {
    /// What was sent.
    pub op: Op,
    /// When.
    pub sent_at: Time,
}

/// A migration request this session wrote, tracked to its end in the move detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestedMove {
    /// The request UUID.
    pub uuid: String,
    /// `ns/name`.
    pub workload: String,
    /// Component name.
    pub component: String,
    /// Instance index.
    pub instance: i64,
}

/// One health transition from the history store (filled in when the store is plugged in):
/// when ome-top observed the node and what it observed.
pub type HealthTransition = crate::engine::timeline::Observed;

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
            View::Gangs => None,
        }
    }
}

/// Everything the UI shows and the reducer changes.
pub struct AppState {
    /// The newest feed received.
    pub latest: Option<Arc<Feed>>,
    /// The feed the views show while frozen (`None` = live).
    pub frozen: Option<Arc<Feed>>,
    /// The current view.
    pub view: View,
    /// Per-view table state, indexed by `View::index`.
    pub tables: [TableView; View::COUNT],
    /// Row models of the shown feed.
    pub models: Models,
    /// Gangs tree navigation (open branches, selection), kept across feeds.
    pub gang_nav: GangNav,
    /// The Pools view's map: full size or not, its scroll and layout.
    pub pool_map: MapNav,
    /// The open detail pane's model (Nodes, Moves, Journal), rebuilt on every feed.
    pub detail: Option<DetailModel>,
    /// Scroll of the detail pane, in lines.
    pub detail_scroll: usize,
    /// Nodes view scoped to one pool (Enter on a pool).
    pub pool_scope: Option<String>,
    /// Workload views scoped to one namespace (`:ns`; `app::namespace`).
    pub namespace_scope: Option<String>,
    /// The kubeconfig's contexts and a switch in progress (`:ctx`; `app::contexts`).
    pub contexts: Contexts,
    /// Overlays and dialogs, top last.
    pub modals: Vec<Modal>,
    /// Commands sent, by id.
    pub pending: BTreeMap<u64, PendingOp>,
    /// The next command id.
    pub next_op_id: u64,
    /// Notices, newest last (bounded).
    pub notices: VecDeque<Notice>,
    /// Requests written this session.
    pub requested: Vec<RequestedMove>,
    /// The IR `status.migrations[]` phase last seen per requested UUID (absent until the
    /// consumer records the request); see `app::track`.
    pub request_phases: HashMap<String, MigrationPhase>,
    /// Dismissed moves: identity key → content fingerprint at dismissal.
    pub dismissed: HashMap<String, String>,
    /// Advisory groups of the Moves view the operator opened (their reasons), kept across feeds.
    pub moves_open: BTreeSet<String>,
    /// Score history per pool, in thousandths (0..=1000), oldest first, ≤ `SCORE_HISTORY`.
    pub score_history: BTreeMap<String, VecDeque<u64>>,
    /// The selected node's health history from the local store (`None` = store not plugged).
    pub node_history: Option<Vec<HealthTransition>>,
    /// The fleet answers from the history store (flaps per node, repair time per pool) for
    /// the Nodes view's columns (`None` = store not plugged).
    pub fleet_health: Option<Arc<crate::engine::timeline::FleetHealth>>,
    /// Keys typed so far of an unfinished sequence.
    pub pending_keys: Vec<Chord>,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// The last time the reducer saw.
    pub now: Time,
    /// The operator's time zone for shown times (the run layer sets the local one; UTC until
    /// then, so tests read the same everywhere).
    pub utc_offset: chrono::FixedOffset,
    /// Theme names (palette, `next-theme`), and the current one's index.
    pub themes: Vec<String>,
    /// Index into `themes`.
    pub theme: usize,
    /// Set by `quit`.
    pub quitting: bool,
    /// Key → action resolution.
    pub keys: Box<dyn KeyResolver>,
    /// Request UUIDs.
    pub ids: Box<dyn IdSource>,
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
            modals: Vec::new(),
            pending: BTreeMap::new(),
            next_op_id: 1,
            notices: VecDeque::new(),
            requested: Vec::new(),
            request_phases: HashMap::new(),
            dismissed: HashMap::new(),
            moves_open: BTreeSet::new(),
            score_history: BTreeMap::new(),
            node_history: None,
            fleet_health: None,
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

    /// The feed the views show: the frozen copy, else the latest.
    pub fn shown(&self) -> Option<&Arc<Feed>> {
        self.frozen.as_ref().or(self.latest.as_ref())
    }

    /// The table state of `view`.
    pub fn table(&self, view: View) -> &TableView {
        &self.tables[view.index()]
    }

    /// The newest notice still in force at `self.now`.
    pub fn notice(&self) -> Option<&Notice> {
        self.notices
            .back()
            .filter(|n| (self.now - n.at).num_seconds() < NOTICE_SECONDS)
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
