//! The screen shown while a large snapshot file loads, before there is anything else to
//! draw: the file, a gauge of the bytes read (JSON) and the objects read so far, then that the
//! analysis runs.
//!
//! Owns: `Loading`, `draw_loading`.

use crate::fmt::count;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Gauge, Paragraph};
use ratatui::Frame;

use crate::ui::centered;
use crate::ui::theme::{Slot, Theme};

/// How far a load has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loading {
    /// Reading: bytes read (0 when the format cannot tell) of `total`, and objects.
    Reading {
        /// Bytes of the file read.
        bytes: u64,
        /// The file's size in bytes.
        total: u64,
        /// Objects read.
        objects: usize,
    },
    /// Read; the analysis of this many objects runs.
    Analysing {
        /// Objects read.
        objects: usize,
    },
}

/// Megabytes with one decimal (`93.4 MB`).
fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Draws the loading screen of `file`.
pub fn draw_loading(frame: &mut Frame, theme: &Theme, file: &str, loading: Loading) {
    let area = centered(frame.area(), 72, 6);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Slot::BorderFocused))
        .title(Line::styled(
            " ome-top: reading a snapshot ",
            theme.style(Slot::Header),
        ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let row = |i: u16| Rect {
        y: inner.y + i,
        height: 1,
        ..inner
    };
    frame.render_widget(Paragraph::new(file.to_string()), row(0));
    let (ratio, words) = match loading {
        Loading::Reading {
            bytes,
            total,
            objects,
        } if bytes > 0 && total > 0 => (
            (bytes as f64 / total as f64).clamp(0.0, 1.0),
            format!(
                "{} of {} · {} objects",
                mb(bytes),
                mb(total),
                count(objects as u64)
            ),
        ),
        Loading::Reading { total, objects, .. } => (
            0.0,
            format!(
                "{} objects read of a {} file",
                count(objects as u64),
                mb(total)
            ),
        ),
        Loading::Analysing { objects } => (
            1.0,
            format!("{} objects read; analysing…", count(objects as u64)),
        ),
    };
    let gauge = Gauge::default()
        .gauge_style(theme.style(Slot::Accent))
        .ratio(ratio);
    frame.render_widget(gauge, row(1));
    frame.render_widget(
        Paragraph::new(words).style(theme.style(Slot::Muted)),
        row(2),
    );
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // Tests may fail loudly.

    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn screen(loading: Loading) -> String {
        let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
        t.draw(|f| draw_loading(f, &Theme::default_theme(), "/tmp/big.json", loading))
            .unwrap();
        format!("{}", t.backend())
    }

    #[test]
    fn the_loading_screen_says_how_far_the_read_is() {
        let s = screen(Loading::Reading {
            bytes: 93_400_000,
            total: 200_000_000,
            objects: 123_456,
        });
        assert!(s.contains("/tmp/big.json"), "{s}");
        assert!(s.contains("47%"), "{s}");
        assert!(s.contains("93.4 MB of 200.0 MB · 123,456 objects"), "{s}");
        let s = screen(Loading::Reading {
            bytes: 0,
            total: 5_000_000,
            objects: 7,
        });
        assert!(s.contains("7 objects read of a 5.0 MB file"), "{s}");
        let s = screen(Loading::Analysing { objects: 1_000 });
        assert!(s.contains("1,000 objects read; analysing…"), "{s}");
    }
}
