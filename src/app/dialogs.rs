//! Overlays and dialogs: help, the `:` palette, the `/` filter input, the confirm dialog that
//! states the exact change, the reject choice, the reason input, an object's YAML and the
//! question before quitting.
//!
//! Owns: `Modal`, `ConfirmDialog`, `ReasonPurpose`, `YamlPane` (what the palette lists is
//! `app::palette`'s). Plain data.

use crate::action::Action;
use crate::app::model::moves::RequestedMove;
use crate::app::table::Tone;
use crate::protocol::{Fetch, Op};

/// A confirm dialog: what will change, the checks behind it, and the op it sends.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfirmDialog {
    /// Title, e.g. `Cordon node gpu-01`.
    pub title: String,
    /// The exact change, checks and warnings, one line each.
    pub lines: Vec<(String, Tone)>,
    /// The op sent on confirm (its reason is filled in then); `None` = cannot confirm.
    pub op: Option<Op>,
    /// Why confirming is refused (a check failed), if it is.
    pub blocked: Option<String>,
    /// Whether `r` may add an optional reason.
    pub reason_allowed: bool,
    /// The reason typed so far.
    pub reason: Option<String>,
    /// Whether failing checks may be overridden with `o` (journal clearing).
    pub overridable: bool,
    /// The override is armed.
    pub override_armed: bool,
    /// The request to track once the op succeeds (approve).
    pub tracks: Option<RequestedMove>,
}

impl ConfirmDialog {
    /// Whether `confirm` would send now.
    pub fn can_confirm(&self) -> bool {
        self.op.is_some() && (self.blocked.is_none() || (self.overridable && self.override_armed))
    }
}

/// What a reason input is for.
#[derive(Debug, Clone, PartialEq)]
pub enum ReasonPurpose {
    /// The optional reason of the confirm dialog beneath.
    ConfirmReason,
    /// Dismiss a move locally.
    Dismiss {
        /// Identity key.
        key: String,
        /// Content fingerprint.
        fingerprint: String,
    },
    /// Opt the move's workload out (a confirm dialog follows).
    OptOut {
        /// The move's identity key.
        key: String,
    },
}

/// An object's YAML, read on demand: a scrollable, read-only text pane.
#[derive(Debug, Clone, PartialEq)]
pub struct YamlPane {
    /// The read it shows.
    pub fetch: Fetch,
    /// The YAML's lines; `None` while the read is on its way.
    pub lines: Option<Vec<String>>,
    /// Scroll in lines.
    pub scroll: usize,
}

/// One overlay.
#[derive(Debug, Clone, PartialEq)]
pub enum Modal {
    /// Key help, generated from the key table.
    Help {
        /// Scroll in lines.
        scroll: usize,
    },
    /// The `:` palette.
    Palette {
        /// Typed text.
        input: String,
        /// Selected match.
        selected: usize,
        /// The operator picked the selected match with ↑/↓ (else Enter runs only a match the
        /// typed line names exactly).
        chosen: bool,
    },
    /// Editing the current view's filter (applied as typed).
    FilterInput {
        /// The filter text before editing (restored on Esc).
        before: String,
        /// The cursor, as a byte offset into the filter text (on a character boundary).
        cursor: usize,
    },
    /// Confirm a write (boxed: far larger than the other overlays).
    Confirm(Box<ConfirmDialog>),
    /// Reject a move: dismiss locally or opt the workload out.
    RejectChoice {
        /// The move's identity key.
        key: String,
        /// Its `ns/name`.
        workload: String,
    },
    /// An object's YAML (`show-yaml`).
    Yaml(YamlPane),
    /// "Quit ome-top? y/n": `q` on a list view asks before leaving (Ctrl-C and `:q` do not).
    QuitConfirm,
    /// A line of text (a reason).
    ReasonInput {
        /// What it is for.
        purpose: ReasonPurpose,
        /// Prompt.
        prompt: String,
        /// Typed text.
        buffer: String,
    },
}

/// What the pane's keys do, in footer order: the actions that share a hint, and its word (the
/// keys are the `[detail]` table's, else `[global]`'s).
pub const YAML_PANE_KEYS: [(&[Action], &str); 5] = [
    (&[Action::Down, Action::Up], "Scroll"),
    (&[Action::PageDown, Action::PageUp], "Page"),
    (&[Action::Top, Action::Bottom], "Top/end"),
    (&[Action::ShowYaml], "Read again"),
    (&[Action::Back], "Close"),
];
