//! What key and mouse handling asks of the reducer: an effect to carry out, an action to
//! apply, or one change of the state. Input and the palette read the state and answer with
//! these; the reducer (`app::update::msgs`) alone carries them out, in order, so no key handler
//! writes the state or calls back into `app::update`.
//!
//! Owns: `Msg`, `effects`, `redraw`. Plain data.

use crate::action::{Action, View};
use crate::app::dialogs::{Modal, ReasonPurpose};
use crate::app::effect::Effect;
use crate::app::keys::Chord;
use crate::app::notices::NoticeLevel;

/// One thing input asks the reducer for.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// Side work for the run layer (a redraw, a fetch, …).
    Effect(Effect),
    /// An action to apply to the view, as if its key were pressed with no overlay on top.
    Action(Action),
    /// The keys typed so far of an unfinished sequence (empty: none).
    PendingKeys(Vec<Chord>),
    /// A notice for the notice line, at the reducer's time.
    Notice(String, NoticeLevel),
    /// Opens an overlay on top.
    PushModal(Modal),
    /// Closes the overlay on top.
    PopModal,
    /// The overlay on top, as edited (a scroll, a prompt's text, the palette's selection).
    SetModal(Modal),
    /// The current view's filter text, applied as typed.
    Filter(String),
    /// Sorts the current view by its column at this index (Shift+letter; again: reversed).
    SortByColumn(usize),
    /// A reason prompt finished with this text (trimmed; possibly empty).
    Reason {
        /// What the prompt was for.
        purpose: ReasonPurpose,
        /// The text typed.
        reason: String,
    },
    /// An action with the YAML pane on top.
    YamlPane(Action),
    /// Switches to the theme of this name (`:theme NAME`).
    Theme(String),
    /// Switches to the kubeconfig context of this name (`:ctx NAME`).
    Context(String),
    /// Scopes the workload views to a namespace (`:ns NAME`; `None`: every namespace).
    Namespace(Option<String>),
    /// Scrolls the Pools view's map by this many rows (the mouse wheel over it).
    ScrollMap(isize),
    /// Moves the selection by this many rows (the mouse wheel).
    Step(isize),
    /// Shows a view (a click on its tab).
    ShowView(View),
    /// Selects the Gangs tree's line at this position (a click).
    SelectGang(usize),
    /// Selects the current view's visible row at this position (a click).
    SelectRow(usize),
}

/// `effects` as messages, in order.
pub fn effects(effects: Vec<Effect>) -> Vec<Msg> {
    effects.into_iter().map(Msg::Effect).collect()
}

/// A redraw.
pub fn redraw() -> Vec<Msg> {
    vec![Msg::Effect(Effect::Redraw)]
}
