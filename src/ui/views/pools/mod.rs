//! The Pools view: the pool table, and for the selected pool its map (`map.rs`), a score
//! gauge against Alfred's threshold (a bar with the threshold marked, readable without
//! colour), the per-size ladder and a sparkline of the score over the session.
//!
//! Owns: `draw_pools`, `score_bar`.

pub mod map;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Sparkline};
use ratatui::Frame;

use crate::app::state::{AppState, View};
use crate::app::table::columns::{clip, text_width};
use crate::app::views::{frag_tone, frag_word};
use crate::engine::pools::PoolReport;
use crate::ui::table::{draw_table, title};
use crate::ui::theme::{Slot, Theme};

/// A `width`-cell bar: `█` up to the score, `░` beyond, `┃` at the threshold.
pub fn score_bar(score: f64, threshold: f64, width: usize) -> String {
    let cell =
        |x: f64| ((x.clamp(0.0, 1.0) * width as f64).round() as usize).min(width.saturating_sub(1));
    let filled = (score.clamp(0.0, 1.0) * width as f64).round() as usize;
    let mark = cell(threshold);
    (0..width)
        .map(|i| {
            if i == mark {
                '┃'
            } else if i < filled {
                '█'
            } else {
                '░'
            }
        })
        .collect()
}

fn ladder(p: &PoolReport) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(format!(
        "{:>5} {:>6} {:>13} {:>15}",
        "SIZE", "WEIGHT", "SLOTS obs/best", "FRAG obs/best"
    ))];
    for s in &p.sizes {
        lines.push(Line::from(format!(
            "{:>5} {:>6.3} {:>13} {:>15}",
            s.size,
            s.weight,
            format!("{}/{}", s.slots_observed, s.slots_best),
            format!("{:.3}/{:.3}", s.frag_observed, s.frag_best)
        )));
    }
    lines.push(Line::from(format!(
        "largest fit now {} GPU · after repack {} · movable pods {}",
        p.largest_fit_now, p.largest_fit_after, p.movable_pods
    )));
    lines
}

fn draw_panel(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let Some(feed) = state.shown() else { return };
    let Some(p) = state
        .selected_source(View::Pools)
        .and_then(|i| feed.analysis.pools.get(i))
    else {
        return;
    };
    let threshold = feed
        .analysis
        .config
        .policies
        .defragmentation
        .fragmentation_threshold;
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Slot::Border))
        .title(Span::styled(
            clip(&format!(" {} ", p.name), left.width.saturating_sub(2)).into_owned(),
            theme.style(Slot::Header),
        ));
    let inner = block.inner(left);
    frame.render_widget(block, left);
    let tone = frag_tone(p.score, threshold);
    let verdict = if p.above_threshold {
        "▲ above"
    } else {
        "below"
    };
    let head = format!("score {:.3} ({})", p.score, frag_word(tone));
    let tail = format!(" · threshold {threshold:.3} ┃ · {verdict}");
    // A narrow panel cuts the threshold part with `…`; the score itself always shows.
    let tail = clip(&tail, inner.width.saturating_sub(text_width(&head))).into_owned();
    let mut lines = vec![
        Line::from(vec![Span::styled(
            score_bar(
                p.score,
                threshold,
                usize::from(inner.width.saturating_sub(2)).min(50),
            ),
            theme.tone(tone),
        )]),
        Line::from(vec![Span::styled(head, theme.tone(tone)), Span::raw(tail)]),
    ];
    lines.extend(ladder(p));
    frame.render_widget(Paragraph::new(lines), inner);
    let history: Vec<u64> = state
        .score_history()
        .get(&p.name)
        .map(|h| h.iter().copied().collect())
        .unwrap_or_default();
    let spark = Sparkline::default()
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme.style(Slot::Border))
                .title(
                    clip(
                        &format!(" score over session ({} samples, max 1.0) ", history.len()),
                        right.width.saturating_sub(2),
                    )
                    .into_owned(),
                ),
        )
        .data(&history)
        .max(1000)
        .style(theme.tone(tone));
    frame.render_widget(spark, right);
}

/// Draws the pool table in `table`, the selected pool's panel in `panel` and its map in
/// `map` (each only when it has rows).
pub fn draw_pools(
    frame: &mut Frame,
    [table, panel, map]: [Rect; 3],
    state: &AppState,
    theme: &Theme,
) {
    let model = &state.models().pools;
    let tv = state.table(View::Pools);
    if table.height > 0 {
        draw_table(
            frame,
            table,
            model,
            tv,
            title("Pools", model, tv, ""),
            theme,
        );
    }
    if panel.height > 0 {
        draw_panel(frame, panel, state, theme);
    }
    if map.height > 0 {
        crate::ui::views::pools::map::draw_map(frame, map, state, theme);
    }
}

#[cfg(test)]
mod tests {
    use super::score_bar;

    #[test]
    fn bar_marks_the_threshold_and_fills_to_the_score() {
        let bar: Vec<char> = score_bar(0.5, 0.25, 20).chars().collect();
        assert_eq!(bar.len(), 20);
        assert_eq!(bar[5], '┃');
        assert_eq!(bar.iter().filter(|c| **c == '█').count(), 9);
        assert_eq!(bar[19], '░');
    }
}
