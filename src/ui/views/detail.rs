//! A detail pane (node, move, journal entry): prebuilt lines with tones, scrolled.
//!
//! Owns: `draw_detail`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::detail::DetailModel;
use crate::ui::theme::{Slot, Theme};

/// Draws `d` in `area` from line `scroll`.
pub fn draw_detail(frame: &mut Frame, area: Rect, d: &DetailModel, scroll: usize, theme: &Theme) {
    let height = usize::from(area.height.saturating_sub(2));
    let lines: Vec<Line> = d
        .lines
        .iter()
        .skip(scroll)
        .take(height)
        .map(|l| Line::styled(l.text.as_str(), theme.tone(l.tone)))
        .collect();
    let title = format!(" {} (esc back) ", d.title);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Slot::BorderFocused))
        .title(Span::styled(title, theme.style(Slot::Header)));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block),
        area,
    );
}
