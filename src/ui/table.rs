//! Draws a row model window as a table: only the visible rows are turned into widgets, so a
//! frame costs the same with 10 or 10,000 rows behind it. Columns that do not fit are dropped
//! from the right; the selection is marked by a symbol as well as the selection style.
//!
//! Owns: `draw_table`. Must not import `cluster`, `tokio` or `kube`.

use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Row, Table, TableState};
use ratatui::Frame;

use crate::app::table::{ColWidth, Column, TableModel, TableView};
use crate::ui::theme::{Slot, Theme};

fn fitted(columns: &[Column], width: u16) -> usize {
    let need = |n: usize| -> u16 {
        columns[..n]
            .iter()
            .map(|c| match c.width {
                ColWidth::Fixed(w) | ColWidth::Min(w) => w + 1,
            })
            .sum::<u16>()
            + 2
    };
    let mut n = columns.len();
    while n > 2 && need(n) > width {
        n -= 1;
    }
    n
}

/// Draws `model` through `view` in `area` under `title`.
pub fn draw_table(
    frame: &mut Frame,
    area: Rect,
    model: &TableModel,
    view: &TableView,
    title: String,
    theme: &Theme,
) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Slot::BorderFocused))
        .title(Span::styled(title, theme.style(Slot::Header)));
    let height = usize::from(area.height.saturating_sub(3));
    let n = fitted(&model.columns, area.width.saturating_sub(2));
    let columns = &model.columns[..n];
    let header = Row::new(columns.iter().enumerate().map(|(i, c)| {
        let mark = match view.sort {
            Some((col, false)) if col == i => "↑",
            Some((col, true)) if col == i => "↓",
            _ => "",
        };
        Line::from(format!("{}{mark}", c.title))
    }))
    .style(theme.style(Slot::Header));
    let end = (view.offset + height).min(view.visible.len());
    let rows = view.visible[view.offset.min(end)..end].iter().map(|i| {
        let row = &model.rows[*i];
        Row::new(row.cells.iter().take(n).zip(columns).map(|(cell, col)| {
            let line = Line::styled(cell.text.as_str(), theme.tone(cell.tone));
            if col.numeric {
                line.alignment(Alignment::Right)
            } else {
                line
            }
        }))
    });
    let widths = columns.iter().map(|c| match c.width {
        ColWidth::Fixed(w) => Constraint::Length(w),
        ColWidth::Min(w) => Constraint::Min(w),
    });
    let table = Table::new(rows, widths)
        .header(header)
        .block(block)
        .column_spacing(1)
        .row_highlight_style(theme.style(Slot::Selection))
        .highlight_symbol("▶");
    let mut state = TableState::default();
    if !view.visible.is_empty() {
        state.select(Some(view.selected.saturating_sub(view.offset)));
    }
    frame.render_stateful_widget(table, area, &mut state);
    if view.visible.is_empty() {
        let inner = Rect::new(area.x + 2, area.y + 2, area.width.saturating_sub(4), 1);
        let why = if model.rows.is_empty() {
            "no rows"
        } else {
            "no rows match the filter"
        };
        frame.render_widget(
            Line::styled(why, theme.style(Slot::Muted)),
            inner.intersection(area),
        );
    }
}

/// The table title: view name, shown/total rows, filter, sort.
pub fn title(name: &str, model: &TableModel, view: &TableView, extra: &str) -> String {
    let mut t = format!(" {name} [{}/{}]", view.visible.len(), model.rows.len());
    if view.filter.is_active() {
        t.push_str(&format!(" /{}", view.filter.text));
    }
    if let Some((c, desc)) = view.sort {
        if let Some(col) = model.columns.get(c) {
            t.push_str(&format!(
                " sort:{}{}",
                col.title,
                if desc { "↓" } else { "↑" }
            ));
        }
    }
    t.push_str(extra);
    t.push(' ');
    t
}
