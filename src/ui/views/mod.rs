//! The view bodies: loading, a detail pane, or the current view (Pools with its panel, or the
//! Pending list under it; the list views, the Gangs tree).
//!
//! Owns: `draw_body`.

pub mod detail;
pub mod fleet;
pub mod gangs;
pub mod journal;
pub mod lists;
pub mod pending;
pub mod pools;

use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::app::layout::Screen;
use crate::app::state::{AppState, View};
use crate::protocol::ApiStatus;
use crate::ui::rect;
use crate::ui::theme::{Slot, Theme};

/// Draws the body for the current state.
pub fn draw_body(frame: &mut Frame, s: &Screen, full: Rect, state: &AppState, theme: &Theme) {
    let body = rect(s.body, full);
    if state.view() == View::Fleet && state.fleet().is_some() {
        let (table, panel) = (rect(s.table, full), rect(s.panel, full));
        fleet::draw_fleet(frame, table, panel, state, theme);
        return;
    }
    let Some(feed) = state.shown() else {
        // A fleet shows no cluster until the operator opens one: nothing is loading.
        let text = match state.fleet().is_some() {
            true => vec![
                Line::from("no cluster shown"),
                Line::from("7 shows the Fleet view: enter on a row opens that cluster's views"),
            ],
            false => vec![
                Line::from("loading…"),
                Line::from("waiting for the first complete view of the cluster"),
            ],
        };
        let p = Paragraph::new(text)
            .alignment(Alignment::Center)
            .style(theme.style(Slot::Muted))
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .border_style(theme.style(Slot::Border)),
            );
        frame.render_widget(p, body);
        return;
    };
    if matches!(feed.api, ApiStatus::Connecting) && feed.snapshot.nodes.is_empty() {
        let p = Paragraph::new("loading… initial lists in progress")
            .alignment(Alignment::Center)
            .style(theme.style(Slot::Muted));
        frame.render_widget(p, body);
        return;
    }
    if let Some(d) = state.detail() {
        detail::draw_detail(frame, body, d, state.detail_scroll(), theme);
        return;
    }
    let table = rect(s.table, full);
    let panel = rect(s.panel, full);
    match state.view() {
        View::Pools if state.pending_nav().open => pending::draw_pending(frame, body, state, theme),
        View::Pools => {
            let map = rect(s.map, full);
            pools::draw_pools(frame, [table, panel, map], state, theme);
        }
        View::Gangs => gangs::draw_gangs(frame, body, state, theme),
        View::Journal => journal::draw_journal(frame, table, panel, state, theme),
        v => lists::draw_list(frame, table, state, v, theme),
    }
}
