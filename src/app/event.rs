//! What happens to the app: input, a new feed, an op or a read finishing, time passing, and
//! history rows arriving. `run.rs` turns terminal and channel events into these.
//!
//! Owns: `Event`. Plain data (crossterm event *types* only).

use std::sync::Arc;

use crossterm::event::{KeyEvent, MouseEvent};

use crate::action::Action;
use crate::app::contexts::ContextEntry;
use crate::app::state::HealthTransition;
use crate::engine::model::Time;
use crate::protocol::{Feed, Fetch, OpOutcome};

/// An input to `app::update`.
#[derive(Debug, Clone)]
pub enum Event {
    /// A key press (releases and repeats are ignored by the reducer).
    Key(KeyEvent),
    /// A mouse event (click selects, wheel scrolls).
    Mouse(MouseEvent),
    /// The terminal was resized to (columns, rows).
    Resize(u16, u16),
    /// A new feed from the data source.
    Feed(Arc<Feed>),
    /// A command finished.
    OpDone {
        /// The command id.
        id: u64,
        /// Its outcome.
        outcome: OpOutcome,
    },
    /// A read finished.
    Fetched {
        /// What was read.
        fetch: Fetch,
        /// The text, or why not.
        result: Result<String, crate::protocol::FetchError>,
    },
    /// Time passed (notice expiry, ages).
    Tick(Time),
    /// An action from outside the keymap (tests, the palette).
    Action(Action),
    /// The history store's transitions for the node whose detail is open.
    NodeHistory {
        /// Node name.
        node: String,
        /// Transitions, any order.
        rows: Vec<HealthTransition>,
    },
    /// The history store's audit rows about the node whose detail is open.
    NodeActions {
        /// Node name.
        node: String,
        /// Its recorded operator actions, oldest first.
        actions: Vec<crate::app::state::NodeAction>,
    },
    /// The history store's health answers were computed again (after new rows, or as time
    /// passed): the Nodes view's columns and an open node timeline are refreshed.
    NodesHealth(Arc<crate::engine::timeline::NodesHealth>),
    /// The history store could not record something, or reported a problem when it opened
    /// (one line, shown as a notice).
    HistoryFailed(String),
    /// The run layer connected to the context asked for (`Effect::SwitchContext`).
    ContextSwitched {
        /// The new context's first synced feed.
        feed: Arc<Feed>,
        /// The dismissals its history store holds, by identity key.
        dismissed: Vec<(String, crate::app::state::Dismissed)>,
        /// The kubeconfig's contexts, re-read.
        contexts: Vec<ContextEntry>,
        /// What opening its history store reported.
        notices: Vec<String>,
    },
    /// The fleet's run layer: the contexts it watches, or one member's new state.
    Fleet(crate::app::fleet::FleetEvent),
    /// The switch to `context` failed; the session stays where it was.
    ContextFailed {
        /// The context asked for.
        context: String,
        /// Why, on one line.
        error: String,
    },
}
