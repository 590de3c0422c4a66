//! Draws a row model window as a table: only the visible rows are turned into widgets, so a
//! frame costs the same with 10 or 10,000 rows behind it. Which columns show depends on the
//! width alone, least important dropped first (`app::table::columns::fit`); the selection is marked by a symbol as well as the selection style.
//!
//! Owns: `draw_table`.

use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, HighlightSpacing, Row, Table, TableState};
use ratatui::Frame;

use crate::app::table::columns::{clip, fit, text_width};
use crate::app::table::{Column, TableModel, TableView};
use crate::ui::theme::{Slot, Theme};

/// The shown columns (indices into the model's) and their widths in `room` cells: the
/// layout's columns (wide-only ones in the wide layout only), chosen for the room alone
/// (`app::table::columns::fit`), then as wide as their content allows.
fn layout(model: &TableModel, view: &TableView, room: u16) -> Vec<(usize, u16)> {
    let wide = view.wide;
    let natural = |i: usize| {
        let cells = view.widths.get(i).copied().unwrap_or(0);
        // The sort mark is one more cell on its title.
        let mark = u16::from(view.sort.is_some_and(|(c, _)| c == i));
        cells.max(text_width(model.columns[i].title) + mark)
    };
    let shown: Vec<usize> = (0..model.columns.len())
        .filter(|i| wide || !model.columns[*i].wide_only)
        .collect();
    let columns: Vec<Column> = shown.iter().map(|i| model.columns[*i]).collect();
    let content: Vec<u16> = shown.iter().map(|i| natural(*i)).collect();
    fit(&columns, &content, room, wide)
        .into_iter()
        .map(|(k, w)| (shown[k], w))
        .collect()
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
        .title(Span::styled(
            clip(&title, area.width.saturating_sub(2)).into_owned(),
            theme.style(Slot::Header),
        ));
    let height = usize::from(area.height.saturating_sub(3));
    // Borders take two cells and the selection symbol one.
    let cols = layout(model, view, area.width.saturating_sub(3));
    let header = Row::new(cols.iter().map(|(i, w)| {
        let mark = match view.sort {
            Some((col, false)) if col == *i => "↑",
            Some((col, true)) if col == *i => "↓",
            _ => "",
        };
        let title = format!("{}{mark}", model.columns[*i].title);
        Line::from(clip(&title, *w).into_owned())
    }))
    .style(theme.style(Slot::Header));
    let end = (view.offset + height).min(view.visible.len());
    let rows = view.visible[view.offset.min(end)..end].iter().map(|r| {
        let row = &model.rows[*r];
        Row::new(cols.iter().map(|(i, w)| {
            let Some(cell) = row.cells.get(*i) else {
                return Line::default();
            };
            let line = Line::styled(clip(&cell.text, *w).into_owned(), theme.tone(cell.tone));
            if model.columns[*i].numeric {
                line.alignment(Alignment::Right)
            } else {
                line
            }
        }))
    });
    let widths = cols.iter().map(|(_, w)| Constraint::Length(*w));
    let table = Table::new(rows, widths)
        .header(header)
        .block(block)
        .column_spacing(1)
        .row_highlight_style(theme.style(Slot::Selection))
        .highlight_symbol("▶")
        .highlight_spacing(HighlightSpacing::Always);
    let mut state = TableState::default();
    if !view.visible.is_empty() {
        state.select(Some(view.selected.saturating_sub(view.offset)));
    }
    frame.render_stateful_widget(table, area, &mut state);
    if view.visible.is_empty() {
        let inner = Rect::new(area.x + 2, area.y + 2, area.width.saturating_sub(4), 1);
        let why = if model.rows.is_empty() {
            "no rows"
        } else if view.filter.is_active() {
            "no rows match the filter"
        } else {
            "no rows in this namespace or pool"
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
