//! The Fleet view: every watched cluster's pools in one table, in the order of what needs a
//! hand first, and below it a line per ladder size saying where a request of that size fits
//! now and after a repack.
//!
//! Owns: `draw_fleet`, `draw_fleet_header`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::app::state::{AppState, View};
use crate::protocol::SourceKind;
use crate::ui::table::{draw_table, title};
use crate::ui::theme::{Slot, Theme};

/// Draws the fleet table in `table` and the answer lines in `panel`.
pub fn draw_fleet(frame: &mut Frame, table: Rect, panel: Rect, state: &AppState, theme: &Theme) {
    let model = &state.models().fleet;
    let tv = state.table(View::Fleet);
    let extra = " · enter opens a cluster".to_string();
    draw_table(
        frame,
        table,
        &model.table,
        tv,
        title("Fleet", &model.table, tv, &extra),
        theme,
    );
    if panel.height < 3 {
        return;
    }
    let text = model.panel_lines(panel.width.saturating_sub(2));
    let lines: Vec<Line> = match text.is_empty() {
        true => vec![Line::styled(
            "no cluster has answered yet",
            theme.style(Slot::Muted),
        )],
        false => text
            .into_iter()
            .map(|l| Line::styled(l, theme.style(Slot::Text)))
            .collect(),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Slot::Border))
        .title(" Where a request fits (GPUs on one node; in brackets: room for that many) ");
    frame.render_widget(Paragraph::new(lines).block(block), panel);
}

/// The Fleet view's header: how many contexts are watched and how many are connected (first
/// lists complete: their rows are current), how many others answer but are still listing or
/// reconnecting, which cluster Enter last opened, and that the view writes nothing.
pub fn draw_fleet_header(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let Some(fleet) = state.fleet() else { return };
    let (n, answered, connected) = (fleet.members.len(), fleet.answered(), fleet.connected());
    let health = match connected == n {
        true => theme.style(Slot::HealthOk),
        false => theme.style(Slot::HealthDegraded),
    };
    let syncing = answered.saturating_sub(connected);
    let count = match syncing {
        0 => format!("{connected}/{n} connected"),
        k => format!("{connected}/{n} connected · {k} syncing"),
    };
    let simulated = matches!(
        state.latest().as_ref().map(|f| &f.source),
        Some(SourceKind::Demo(_))
    );
    let shown = match (state.latest().as_ref(), simulated) {
        (Some(f), true) => format!("shown: {}", f.source.cluster_name().unwrap_or_default()),
        (Some(_), false) => match state.current_context() {
            Some(ctx) => format!("shown: ctx {ctx}"),
            None => "no cluster shown".to_string(),
        },
        (None, _) => "no cluster shown".to_string(),
    };
    let members = match simulated {
        true => format!("demo fleet of {n} simulated clusters"),
        false => format!("fleet of {n} contexts, all watched"),
    };
    let first = Line::from(vec![
        Span::styled("ome-top", theme.style(Slot::Header)),
        Span::styled(" │ ", theme.style(Slot::Border)),
        Span::raw(members),
        Span::styled(" │ ", theme.style(Slot::Border)),
        Span::styled(count, health),
        Span::styled(" │ ", theme.style(Slot::Border)),
        Span::raw(shown),
    ]);
    let second = Line::styled(
        "enter opens a cluster's views · esc returns here · this view writes nothing",
        theme.style(Slot::Muted),
    );
    frame.render_widget(first, Rect { height: 1, ..area });
    let below = Rect {
        y: area.y + 1,
        height: 1,
        ..area
    };
    frame.render_widget(second, below.intersection(area));
}
