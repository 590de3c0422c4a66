//! The Pools view's map pane: the answer to "why is this pod Pending while GPUs are free"
//! (free GPUs, the largest request one node fits now and after the repack, the pending GPU
//! pods by size and age), the visible lines of cells (only those are written to the buffer,
//! so a frame costs the same at 10 or 10,000 nodes) and the legend; full size, each node's
//! name with its cell, the selected one reversed. The layouts come from
//! `app::model::map::{layout, named}`.
//!
//! Owns: `draw_map`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::action::Action;
use crate::app::keys::{key_label, Mode};
use crate::app::layout::Area;
use crate::app::model::map::layout::{cell_area, legend_lines, MapLayout, ANSWER_LINES};
use crate::app::model::map::{Band, Exclusion, MapCell, Piece, PoolMap};
use crate::app::state::{AppState, View};
use crate::fmt::count;
use crate::ui::theme::{Slot, Theme};

/// The style of every band and health mark, looked up once per frame.
struct CellStyles {
    none: Style,
    some: Style,
    whole: Style,
    excluded: Style,
    /// Unhealthy yet still taking new pods: the failed colour, reversed, so it stands out.
    open_unhealthy: Style,
    unhealthy: Style,
    unknown: Style,
    suspect: Style,
    label: Style,
}

impl CellStyles {
    fn new(theme: &Theme) -> Self {
        CellStyles {
            none: theme.style(Slot::MapNone),
            some: theme.style(Slot::MapSome),
            whole: theme.style(Slot::MapWhole),
            excluded: theme.style(Slot::MapExcluded),
            open_unhealthy: theme
                .style(Slot::HealthFailed)
                .add_modifier(Modifier::REVERSED),
            unhealthy: theme.style(Slot::HealthFailed),
            unknown: theme.style(Slot::HealthUnknown),
            suspect: theme.style(Slot::HealthDegraded),
            label: theme.style(Slot::Muted),
        }
    }

    fn of(&self, c: &MapCell) -> Style {
        match (c.band(), c.exclusion) {
            // Free GPUs Alfred counts on a node the kubelet does not report ready.
            (_, None) if c.not_ready => self.unknown,
            (_, Some(Exclusion::UnhealthySchedulable)) => self.open_unhealthy,
            (_, Some(Exclusion::Unhealthy)) => self.unhealthy,
            (_, Some(Exclusion::Unknown)) => self.unknown,
            (_, Some(Exclusion::Suspect)) => self.suspect,
            (Band::Excluded, _) => self.excluded,
            (Band::None, _) => self.none,
            (Band::Some, _) => self.some,
            (Band::Whole, _) => self.whole,
        }
    }
}

fn pieces(p: &[Piece], theme: &Theme) -> Line<'static> {
    Line::from(
        p.iter()
            .map(|(t, tone)| Span::styled(t.clone(), theme.tone(*tone)))
            .collect::<Vec<_>>(),
    )
}

/// "H100 map · one cell per node · 60 nodes in 15 ome.io/rack domains (rack-h100-…)": what a
/// cell stands for first, so a narrow pane keeps it; full size, each node by name.
fn title(map: &PoolMap, layout: &MapLayout, full: bool) -> String {
    let nodes = count(map.cells.len() as u64);
    let domains = count(map.groups.len() as u64);
    let by = match &map.key {
        Some(k) if map.prefix.is_empty() => format!(" in {domains} {k} domains"),
        Some(k) => format!(" in {domains} {k} domains ({}…)", map.prefix),
        None => String::new(),
    };
    let what = if full {
        "each node by name".to_string()
    } else {
        layout.describe(map)
    };
    format!(" {} map · {what} · {nodes} nodes{by} ", map.pool)
}

/// The legend: the free-GPU glyphs, then each exclusion present with its count.
fn legend(map: &PoolMap, styles: &CellStyles) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
    let cell = |free, total| MapCell {
        free,
        total,
        exclusion: None,
        not_ready: false,
    };
    let whole = cell(map.max_total, map.max_total);
    let some = match map.max_total {
        0..=2 => "1".to_string(),
        t @ 3..=10 => format!("1-{}", t - 1),
        _ => "1-9 +".to_string(),
    };
    let mut free = vec![Span::styled("·", styles.none), Span::raw(" no GPU free  ")];
    if map.max_total > 1 {
        free.push(Span::styled(some, styles.some));
        free.push(Span::raw(" GPUs free  "));
    }
    free.push(Span::styled(whole.glyph().to_string(), styles.whole));
    free.push(Span::raw(" whole node free"));
    let mut excluded = Vec::new();
    for (e, n) in &map.excluded {
        let mark = MapCell {
            free: 0,
            total: 0,
            exclusion: Some(*e),
            not_ready: false,
        };
        let sep = if excluded.is_empty() { "" } else { "  " };
        excluded.push(Span::raw(sep));
        excluded.push(Span::styled(e.glyph().to_string(), styles.of(&mark)));
        excluded.push(Span::raw(format!(" {} {n}", e.word())));
    }
    if excluded.is_empty() {
        excluded.push(Span::styled("no node excluded", styles.label));
    }
    let not_ready = map
        .cells
        .iter()
        .filter(|c| c.not_ready && c.exclusion.is_none())
        .count();
    if not_ready > 0 {
        excluded.push(Span::raw("  "));
        // A sample cell: the pool's whole-node digit, in the colour of unknown health.
        excluded.push(Span::styled(whole.glyph().to_string(), styles.unknown));
        let nodes = if not_ready == 1 { "node" } else { "nodes" };
        excluded.push(Span::raw(format!(
            " not ready: {not_ready} {nodes}, GPUs still counted as free"
        )));
    }
    (free, excluded)
}

fn draw_cells(buf: &mut Buffer, area: Rect, state: &AppState, map: &PoolMap, s: &CellStyles) {
    let nav = state.pool_map();
    let layout = &nav.layout;
    let label_width = layout.label_width;
    let right = area.x.saturating_add(area.width);
    for row in 0..area.height {
        let y = area.y + row;
        for seg in layout.line(nav.offset + usize::from(row)) {
            let x = area.x.saturating_add(seg.x);
            if let Some(g) = seg.label.and_then(|g| map.groups.get(g)) {
                let width = usize::from(label_width.saturating_sub(1));
                buf.set_stringn(x, y, &g.label, width, s.label);
            }
            let x0 = x.saturating_add(label_width);
            let room = usize::from(right.saturating_sub(x0));
            for j in 0..seg.len.min(room) {
                let Some(c) = layout.cell(map, seg.start + j) else {
                    break;
                };
                if let Some(cell) = buf.cell_mut((x0 + j as u16, y)) {
                    cell.set_char(c.glyph()).set_style(s.of(&c));
                }
            }
        }
    }
}

/// The full-size map: each node's tile (its name, cut with `…` when too long, and its cell)
/// after its domain's value; the selected tile reversed.
fn draw_named(buf: &mut Buffer, area: Rect, state: &AppState, map: &PoolMap, s: &CellStyles) {
    let nav = state.pool_map();
    let named = &nav.named;
    let selected = nav.selected_cell();
    let right = usize::from(area.x + area.width);
    for row in 0..area.height {
        let y = area.y + row;
        let Some(line) = named.lines.get(nav.offset + usize::from(row)) else {
            break;
        };
        for cell in line.start..line.start + line.len {
            let (column, label) = named.column(map, line, cell);
            let x = usize::from(area.x) + column;
            if x + named.name_width + 2 > right {
                break;
            }
            if let Some(g) = label.and_then(|g| map.groups.get(g)) {
                let width = named.label_width.saturating_sub(2);
                let lx = (x - named.label_width) as u16;
                buf.set_stringn(lx, y, cut(&g.domain, width), width, s.label);
            }
            let (Some(c), Some(name)) = (map.cells.get(cell), map.names.get(cell)) else {
                break;
            };
            let text = format!("{:<w$} ", cut(name, named.name_width), w = named.name_width);
            let (mut name_style, mut cell_style) = (Style::default(), s.of(c));
            if selected == Some(cell) {
                name_style = name_style.add_modifier(Modifier::REVERSED);
                cell_style = cell_style.add_modifier(Modifier::REVERSED);
            }
            let x = x as u16;
            buf.set_stringn(x, y, &text, named.name_width + 1, name_style);
            if let Some(b) = buf.cell_mut((x + named.name_width as u16 + 1, y)) {
                b.set_char(c.glyph()).set_style(cell_style);
            }
        }
    }
}

/// `text` in at most `width` columns, ending in `…` when cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The selected node as the full-size map's note names it: ` gpu-a ·`, or, when it is
/// unhealthy yet still takes new pods, that and the key that cordons it.
fn selected_words(state: &AppState) -> String {
    let nav = state.pool_map();
    let Some((cell, map)) = nav
        .selected_cell()
        .zip(nav.pool.and_then(|p| state.models().pool_maps.get(p)))
    else {
        return String::new();
    };
    let Some(name) = map.names.get(cell) else {
        return String::new();
    };
    let open = Exclusion::UnhealthySchedulable;
    if map.cells.get(cell).and_then(|c| c.exclusion) != Some(open) {
        return format!(" {name} ·");
    }
    let cordon = state
        .keys()
        .bindings(Mode::View(View::Pools))
        .into_iter()
        .find(|b| b.action == Action::CordonNode)
        .map_or_else(String::new, |b| {
            format!(" {}: cordon ·", key_label(&b.keys))
        });
    format!(" {name}: {} ·{cordon}", open.word())
}

/// The full-size map's note: the lines shown, the selected node (and, unhealthy yet still
/// schedulable, the cordon key), how to select and open it, the way back; what does not fit
/// `width` is left out, the arrows' hint first, the selected node last.
fn full_note(state: &AppState, (rows, width): (u16, u16), back: Option<&str>) -> String {
    let nav = state.pool_map();
    let total = nav.line_count();
    let page = usize::from(rows).max(1);
    let lines = if total > page {
        let last = (nav.offset + page).min(total);
        format!(" lines {}–{last} of {total} ·", nav.offset + 1)
    } else {
        String::new()
    };
    let back = back.map_or_else(String::new, |k| format!(" · {k}: back"));
    let selected = selected_words(state);
    let room = usize::from(width).saturating_sub(4);
    [
        format!("{lines}{selected} arrows: select · enter: open{back} "),
        format!("{lines}{selected} enter: open{back} "),
        format!("{selected} enter: open{back} "),
        format!("{}{back} ", selected.trim_end_matches(" ·")),
        format!("{lines} enter: open{back} "),
    ]
    .into_iter()
    .find(|n| n.chars().count() <= room)
    .unwrap_or_else(|| format!("{lines}{back} "))
}

/// The bottom border's note: which lines show and the key of the full-size map, when the
/// map does not fit (`rows`: cell rows of the pane, 0 when it shows only the answer;
/// `width`: the pane's); full size, the selection's note (`full_note`).
fn scroll_note(state: &AppState, (rows, width): (u16, u16)) -> Option<String> {
    let nav = state.pool_map();
    let total = nav.line_count();
    let key = state
        .keys()
        .bindings(Mode::View(View::Pools))
        .into_iter()
        .find(|b| b.action == Action::PoolMap)
        .map(|b| key_label(&b.keys));
    let full = match (&key, nav.full) {
        (Some(k), false) => format!(" · {k}: full size"),
        (Some(k), true) => format!(" · {k}: back"),
        (None, _) => String::new(),
    };
    if rows == 0 {
        return key.map(|k| format!(" {k}: show the map "));
    }
    if nav.full {
        return Some(full_note(state, (rows, width), key.as_deref()));
    }
    let page = usize::from(rows);
    (total > page).then(|| {
        let last = (nav.offset + page).min(total);
        format!(" lines {}–{last} of {total}{full} ", nav.offset + 1)
    })
}

/// Draws the selected pool's map in `area` (the pane, borders included).
pub fn draw_map(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let nav = state.pool_map();
    let Some(map) = nav.pool.and_then(|p| state.models().pool_maps.get(p)) else {
        return;
    };
    let styles = CellStyles::new(theme);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(if nav.full {
            Slot::BorderFocused
        } else {
            Slot::Border
        }))
        .title(Span::styled(
            // A narrow pane cuts the title with `…`.
            crate::app::table::columns::clip(
                &title(map, &nav.layout, nav.full),
                area.width.saturating_sub(2),
            )
            .into_owned(),
            theme.style(Slot::Header),
        ));
    let c = cell_area(Area {
        x: area.x,
        y: area.y,
        width: area.width,
        height: area.height,
    });
    if let Some(note) = scroll_note(state, (c.height, area.width)) {
        block = block.title_bottom(Line::styled(note, theme.style(Slot::Muted)).right_aligned());
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let answer = vec![pieces(&map.fits, theme), pieces(&map.pending, theme)];
    let answer_rect = Rect::new(inner.x, inner.y, inner.width, ANSWER_LINES);
    frame.render_widget(Paragraph::new(answer), answer_rect.intersection(inner));
    if c.height == 0 {
        return;
    }
    let cells = Rect::new(c.x, c.y, c.width, c.height).intersection(inner);
    if nav.full {
        draw_named(frame.buffer_mut(), cells, state, map, &styles);
    } else {
        draw_cells(frame.buffer_mut(), cells, state, map, &styles);
    }
    let (free, excluded) = legend(map, &styles);
    let legend_h = legend_lines(area.width);
    let y = inner.y + inner.height.saturating_sub(legend_h);
    let legend_rect = Rect::new(inner.x, y, inner.width, legend_h).intersection(inner);
    let lines = if legend_h == 1 {
        let mut one = free;
        one.push(Span::styled("  │  ", styles.label));
        one.extend(excluded);
        vec![Line::from(one)]
    } else {
        vec![Line::from(free), Line::from(excluded)]
    };
    frame.render_widget(Paragraph::new(lines), legend_rect);
}
