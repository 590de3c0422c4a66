//! Detail panes (node, move, journal entry) as lines of text with tones, built when the pane
//! opens and again on every feed, so a frame only copies lines.
//!
//! Owns: `DetailKind`, `DetailModel`, `DetailLine`, `Lines`, `check_line` (`app::views::detail`
//! builds the panes). Plain data.

use crate::app::table::Tone;

/// What a detail pane shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DetailKind {
    /// A node, by name.
    Node(String),
    /// A move, by identity key.
    Move(String),
    /// A journal entry, by UUID.
    Journal(String),
    /// A placement lint, by row key.
    Lint(String),
    /// Why a pending GPU pod (or its gang) waits and its unblock plan, by `namespace/name`.
    Pending(String),
    /// A what-if of a change to a node, by node name (nothing is written).
    WhatIf(String),
}

/// One line of a detail pane.
#[derive(Debug, Clone, PartialEq)]
pub struct DetailLine {
    /// Text (states spelled out in words).
    pub text: String,
    /// Colour slot.
    pub tone: Tone,
}

/// A built detail pane.
#[derive(Debug, Clone, PartialEq)]
pub struct DetailModel {
    /// What it shows.
    pub kind: DetailKind,
    /// Pane title.
    pub title: String,
    /// Lines, top to bottom.
    pub lines: Vec<DetailLine>,
}

/// The first words of the line a pane gets when its object leaves the feed.
pub const GONE_MARK: &str = "⚠ no longer in the current data";

impl DetailModel {
    /// The pane kept open after its object left the feed: what it showed last, under a line
    /// that says so (a pane never closes or jumps by itself; esc closes it).
    pub fn gone(mut self, why: &str) -> Self {
        let line = DetailLine {
            text: format!("{GONE_MARK}: {why}; below is what it showed last (esc goes back)"),
            tone: Tone::Degraded,
        };
        match self.lines.first() {
            Some(first) if first.text.starts_with(GONE_MARK) => self.lines[0] = line,
            _ => self.lines.insert(0, line),
        }
        self
    }
}

/// Accumulates detail lines.
#[derive(Debug, Default)]
pub struct Lines(pub Vec<DetailLine>);

impl Lines {
    /// A section heading (preceded by a blank line unless first).
    pub fn heading(&mut self, text: impl Into<String>) {
        if !self.0.is_empty() {
            self.push("", Tone::Normal);
        }
        self.push(text, Tone::Accent);
    }

    /// A line.
    pub fn push(&mut self, text: impl Into<String>, tone: Tone) {
        self.0.push(DetailLine {
            text: text.into(),
            tone,
        });
    }

    /// A plain line.
    pub fn line(&mut self, text: impl Into<String>) {
        self.push(text, Tone::Normal);
    }
}

/// Check mark words used in checklists: readable without colour.
pub fn check_line(ok: Option<bool>, text: &str) -> (String, Tone) {
    match ok {
        Some(true) => (format!("[✓ met]     {text}"), Tone::Ok),
        Some(false) => (format!("[✗ not met] {text}"), Tone::Failed),
        None => (format!("[? unknown] {text}"), Tone::Unknown),
    }
}
