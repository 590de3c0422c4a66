//! Modal overlays: help, the `:` palette, the confirm dialog (the exact change, its checks and
//! warnings), the reject choice, the reason input, an object's YAML (over the body) and the
//! question before quitting.
//!
//! Owns: `draw_modals`.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::dialogs::{confirm_width, ConfirmDialog, Modal, ReasonPurpose, YamlPane};
use crate::app::keys::Mode;
use crate::app::layout::screen;
use crate::app::palette::{palette_entries, PaletteEntry};
use crate::app::state::AppState;
use crate::ui::theme::{Slot, Theme};
use crate::ui::{centered, rect};

/// "Quit ome-top? y/n", with what else leaves at once.
fn draw_quit(frame: &mut Frame, full: Rect, theme: &Theme) {
    let key = |k: &'static str| Span::styled(k, theme.style(Slot::Accent));
    let lines = vec![
        Line::from(vec![
            Span::raw("Quit ome-top? "),
            key("y"),
            Span::raw("/"),
            key("n"),
        ]),
        Line::styled("ctrl-c and :q quit at once", theme.style(Slot::Muted)),
    ];
    let area = centered(full, 34, 4);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines).block(boxed(" Quit ".into(), theme, false)),
        area,
    );
}

fn boxed<'a>(title: String, theme: &Theme, danger: bool) -> Block<'a> {
    let slot = if danger {
        Slot::Danger
    } else {
        Slot::BorderFocused
    };
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(slot))
        .title(Span::styled(title, theme.style(Slot::Header)))
}

/// Draws every modal, bottom first.
pub fn draw_modals(frame: &mut Frame, full: Rect, state: &AppState, theme: &Theme) {
    for m in state.modals() {
        match m {
            Modal::Help { scroll } => {
                crate::ui::help::draw_help(frame, full, state, *scroll, theme)
            }
            Modal::Palette {
                input, selected, ..
            } => draw_palette(frame, full, state, input, *selected, theme),
            Modal::FilterInput { .. } => {}
            Modal::Confirm(d) => draw_confirm(frame, full, state, d, theme),
            Modal::Yaml(p) => draw_yaml(frame, full, state, p, theme),
            Modal::QuitConfirm => draw_quit(frame, full, theme),
            Modal::RejectChoice { workload, .. } => {
                let lines = vec![
                    Line::from(format!("Reject the move of {workload}:")),
                    Line::from(""),
                    Line::from(vec![
                        Span::styled("  d ", theme.style(Slot::Accent)),
                        Span::raw("dismiss locally (with a reason; hidden until it changes)"),
                    ]),
                    Line::from(vec![
                        Span::styled("  o ", theme.style(Slot::Accent)),
                        Span::raw("opt the workload out (alfred.ome.io/movable: \"false\")"),
                    ]),
                    Line::from(vec![
                        Span::styled("  esc ", theme.style(Slot::Accent)),
                        Span::raw("cancel"),
                    ]),
                ];
                let area = centered(full, 70, 7);
                frame.render_widget(Clear, area);
                frame.render_widget(
                    Paragraph::new(lines).block(boxed(" Reject move ".into(), theme, false)),
                    area,
                );
            }
            Modal::ReasonInput {
                prompt,
                buffer,
                purpose,
            } => {
                // New policy values are a longer line than a reason, and write nothing.
                let policy = *purpose == ReasonPurpose::WhatIfPolicy;
                let (width, title) = match policy {
                    true => (
                        full.width.saturating_sub(4).min(110),
                        " What if — nothing is written ",
                    ),
                    false => (70, " Reason "),
                };
                let area = centered(full, width, 4);
                let lines = vec![
                    Line::styled(prompt.clone(), theme.style(Slot::Muted)),
                    Line::from(vec![
                        Span::raw(format!("> {buffer}")),
                        Span::styled("▏", theme.style(Slot::Accent)),
                    ]),
                ];
                frame.render_widget(Clear, area);
                frame.render_widget(
                    Paragraph::new(lines).block(boxed(title.into(), theme, false)),
                    area,
                );
            }
        }
    }
}

/// The YAML pane over the body: the lines from its scroll on, wrapped (a long annotation stays
/// readable), with the position in the title.
fn draw_yaml(frame: &mut Frame, full: Rect, state: &AppState, p: &YamlPane, theme: &Theme) {
    let area = rect(screen(state).body, full);
    let height = usize::from(area.height.saturating_sub(2));
    let object = p.fetch.object();
    let (title, lines) = match &p.lines {
        None => (
            format!(" {object} YAML (esc close) "),
            vec![Line::styled(
                format!("reading {object}…"),
                theme.style(Slot::Muted),
            )],
        ),
        Some(all) => {
            let first = p.scroll.min(all.len());
            let last = (first + height).min(all.len());
            let title = format!(
                " {object} YAML · lines {}–{last} of {} (esc close) ",
                first + 1,
                all.len()
            );
            let shown = all[first..last].iter().map(|l| Line::raw(l.as_str()));
            (title, shown.collect())
        }
    };
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .style(theme.style(Slot::Text))
            .block(boxed(title, theme, false)),
        area,
    );
}

fn draw_palette(
    frame: &mut Frame,
    full: Rect,
    state: &AppState,
    input: &str,
    selected: usize,
    theme: &Theme,
) {
    let area = centered(full, 64, full.height.saturating_sub(6).min(20));
    let entries = palette_entries(state, input);
    let height = usize::from(area.height.saturating_sub(3));
    let first = selected.saturating_sub(height.saturating_sub(1));
    let mut lines = vec![Line::from(vec![
        Span::styled(":", theme.style(Slot::Accent)),
        Span::raw(input.to_string()),
        Span::styled("▏", theme.style(Slot::Accent)),
    ])];
    for (i, e) in entries.iter().enumerate().skip(first).take(height) {
        let style = match e {
            _ if i == selected => theme.style(Slot::Selection),
            PaletteEntry::Unavailable(_) => theme.style(Slot::Muted),
            _ => theme.style(Slot::Text),
        };
        let mark = if i == selected { "▶ " } else { "  " };
        lines.push(Line::styled(format!("{mark}{}", e.label()), style));
    }
    if entries.is_empty() {
        lines.push(Line::styled(
            "  no match (enter runs the line as typed)",
            theme.style(Slot::Muted),
        ));
    }
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines).block(boxed(" Command palette ".into(), theme, false)),
        area,
    );
}

/// What decides the keystroke: why confirming is refused, the override, the keys the confirm
/// table binds (`ConfirmDialog::tail`, the rows the reducer scrolls around). Drawn below the
/// body and never cut off: on a short terminal the body scrolls instead.
fn confirm_tail(state: &AppState, d: &ConfirmDialog, theme: &Theme) -> Vec<Line<'static>> {
    let bindings = state.keys().bindings(Mode::Confirm);
    let tail = d.tail(&bindings);
    let last = tail.len().saturating_sub(1);
    let style = |i: usize, key: bool| match (i, key) {
        (_, true) => theme.style(Slot::Accent),
        (0, false) if d.blocked.is_some() && i < last => theme.style(Slot::Danger),
        (_, false) if i < last => theme.style(Slot::HealthDegraded),
        _ => Style::default(),
    };
    tail.into_iter()
        .enumerate()
        .map(|(i, pieces)| {
            let spans: Vec<Span> = (pieces.into_iter())
                .map(|(text, key)| Span::styled(text, style(i, key)))
                .collect();
            Line::from(spans)
        })
        .collect()
}

fn draw_confirm(frame: &mut Frame, full: Rect, state: &AppState, d: &ConfirmDialog, theme: &Theme) {
    let width = confirm_width(full.width);
    let inner = width.saturating_sub(2);
    // Every line wrapped whole, the same rows the reducer scrolls through.
    let rows = d.body_rows(usize::from(inner));
    let tail = Paragraph::new(confirm_tail(state, d, theme)).wrap(Wrap { trim: false });
    // The rows ratatui's word wrap really takes (a long word after a space, such as an
    // annotation value, starts a row of its own, which a width-based count misses).
    let tail_rows = u16::try_from(tail.line_count(inner)).unwrap_or(u16::MAX);
    let body_rows = u16::try_from(rows.len()).unwrap_or(u16::MAX);
    let height = body_rows
        .saturating_add(tail_rows)
        .saturating_add(2)
        .min(full.height.saturating_sub(2));
    let area = centered(full, width, height);
    let block = boxed(format!(" {} ", d.title), theme, true);
    let inside = block.inner(area);
    let tail_rows = tail_rows.min(inside.height);
    let split = inside.height - tail_rows;
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    // Taller than the screen, the body scrolls and its last row says where it is.
    let clipped = body_rows > split && split > 0;
    let shown = if clipped { split - 1 } else { split };
    let first = usize::from(d.scroll.min(body_rows.saturating_sub(shown)));
    let lines: Vec<Line> = (rows.iter().skip(first).take(usize::from(shown)))
        .map(|(text, tone)| Line::styled(text.clone(), theme.tone(*tone)))
        .collect();
    frame.render_widget(
        Paragraph::new(lines),
        Rect {
            height: shown,
            ..inside
        },
    );
    if clipped {
        let last = first + usize::from(shown);
        let how = if last < rows.len() {
            "↓ shows the rest"
        } else {
            "↑ goes back"
        };
        let more = format!("rows {}–{last} of {body_rows} · {how}", first + 1);
        let at = Rect {
            y: inside.y + shown,
            height: 1,
            ..inside
        };
        frame.render_widget(Line::styled(more, theme.style(Slot::Accent)), at);
    }
    frame.render_widget(
        tail,
        Rect {
            y: inside.y + split,
            height: tail_rows,
            ..inside
        },
    );
}
