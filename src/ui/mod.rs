//! The view: draws one frame from `&AppState` (never mutates it) with a `Theme`. Layout comes
//! from `app::layout` so mouse hits and drawing agree.
//!
//! Colours only via `theme`.

pub mod dialogs;
pub mod footer;
pub mod header;
pub mod help;
pub mod loading;
pub mod table;
pub mod theme;
pub mod views;

use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use crate::app::layout::{screen, Area, MIN_HEIGHT, MIN_WIDTH};
use crate::app::state::AppState;
use crate::ui::theme::{Slot, Theme};

/// A layout area as a ratatui rectangle, clipped to the frame.
pub fn rect(a: Area, frame: Rect) -> Rect {
    Rect::new(a.x, a.y, a.width, a.height).intersection(frame)
}

/// A `w`×`h` rectangle centred in `area` (shrunk to fit).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, state: &AppState, theme: &Theme) {
    let full = frame.area();
    if full.width < MIN_WIDTH || full.height < MIN_HEIGHT {
        let text = vec![
            Line::from("terminal too small"),
            Line::from(format!(
                "{}×{} — ome-top needs at least {MIN_WIDTH}×{MIN_HEIGHT}",
                full.width, full.height
            )),
        ];
        let p = Paragraph::new(text)
            .alignment(Alignment::Center)
            .style(theme.style(Slot::Danger))
            .wrap(Wrap { trim: true });
        frame.render_widget(p, centered(full, full.width, 2));
        return;
    }
    let s = screen(state);
    header::draw_header(frame, rect(s.header, full), state, theme);
    header::draw_tabs(frame, rect(s.tabs, full), state, theme);
    header::draw_banner(frame, rect(s.banner, full), state, theme);
    views::draw_body(frame, &s, full, state, theme);
    footer::draw_notice(frame, rect(s.notice, full), state, theme);
    footer::draw_footer(frame, rect(s.footer, full), state, theme);
    footer::draw_long_notice(frame, full, state, theme);
    dialogs::draw_modals(frame, full, state, theme);
}
