//! Overlays and dialogs: help, the `:` palette, the `/` filter input, the confirm dialog that
//! states the exact change, the reject choice, the reason input, an object's YAML and the
//! question before quitting.
//!
//! Owns: `Modal`, `ConfirmDialog` (its body wrapped and scrolled), `confirm_width`,
//! `ReasonPurpose`, `YamlPane` (what the palette lists is
//! `app::palette`'s). Plain data.

use crate::action::Action;
use crate::app::keys::{key_label, Binding};
use crate::app::model::moves::RequestedMove;
use crate::app::table::Tone;
use crate::app::wrap::wrap;
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
    /// Body rows scrolled off the top: a dialog taller than the screen scrolls with ↑/↓.
    pub scroll: u16,
}

/// The confirm dialog's width, borders included, on a screen `cols` wide.
pub fn confirm_width(cols: u16) -> u16 {
    cols.saturating_sub(8).min(110)
}

impl ConfirmDialog {
    /// The body as drawn `inner` columns wide: each line wrapped whole (nothing a decision
    /// needs is cut), a blank row, then the reason when one was typed.
    pub fn body_rows(&self, inner: usize) -> Vec<(String, Tone)> {
        let reason = self
            .reason
            .iter()
            .map(|r| (format!("reason: {r}"), Tone::Normal));
        let lines = self.lines.iter().cloned();
        let blank = std::iter::once((String::new(), Tone::Normal));
        lines
            .chain(blank)
            .chain(reason)
            .flat_map(|(text, tone)| wrap(&text, inner).into_iter().map(move |r| (r, tone)))
            .collect()
    }

    /// The lines below the body, each a list of `(text, is a key)`: why confirming is
    /// refused, the override, then the keys (`confirm` from `bindings`, the confirm table's).
    pub fn tail(&self, bindings: &[Binding]) -> Vec<Vec<(String, bool)>> {
        let mut tail = Vec::new();
        if let Some(why) = &self.blocked {
            tail.push(vec![(format!("✗ cannot confirm: {why}"), false)]);
            if self.overridable {
                let armed = if self.override_armed {
                    "ARMED — confirming overrides it (o disarms)"
                } else {
                    "off — press o, then confirm, to go ahead anyway"
                };
                tail.push(vec![(format!("override: {armed}"), false)]);
            }
        }
        let mut keys = Vec::new();
        for (action, word) in [(Action::Confirm, "confirm"), (Action::Cancel, "cancel")] {
            let labels: Vec<String> = (bindings.iter())
                .filter(|b| b.action == action)
                .map(|b| key_label(&b.keys))
                .collect();
            if !labels.is_empty() {
                keys.push((format!("{} ", labels.join("/")), true));
                keys.push((format!("{word}  "), false));
            }
        }
        if self.reason_allowed {
            keys.extend([("r ".into(), true), ("add reason  ".into(), false)]);
        }
        if self.overridable {
            keys.extend([("o ".into(), true), ("override".into(), false)]);
        }
        tail.push(keys);
        tail
    }

    /// Scrolls the body `delta` rows on a `size` screen, never past the row that shows its
    /// end (`bindings`: the confirm table's, whose keys the tail lists).
    pub fn scroll_by(&mut self, delta: i32, (cols, rows): (u16, u16), bindings: &[Binding]) {
        let inner = usize::from(confirm_width(cols).saturating_sub(2));
        let body = self.body_rows(inner).len();
        let tail: usize = (self.tail(bindings).iter())
            .map(|l| {
                wrap(
                    &l.iter().map(|(t, _)| t.as_str()).collect::<String>(),
                    inner,
                )
                .len()
            })
            .sum();
        // The tallest dialog: the screen but a row above and below, borders, the tail and the
        // row that says more is hidden.
        let shown = usize::from(rows.saturating_sub(4))
            .saturating_sub(tail + 1)
            .max(1);
        let last = u16::try_from(body.saturating_sub(shown)).unwrap_or(u16::MAX);
        let next = i32::from(self.scroll).saturating_add(delta).max(0);
        self.scroll = u16::try_from(next).unwrap_or(u16::MAX).min(last);
    }
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
    /// New values of Alfred's policy for a what-if (nothing is written).
    WhatIfPolicy,
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
