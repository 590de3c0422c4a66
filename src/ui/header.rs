//! The header (context, API status, Alfred mode, read-only state; per-source freshness), the
//! view tabs, and the API-unreachable banner.
//!
//! Owns: `draw_header`, `draw_tabs`, `draw_banner`, `api_text`, `source_text`. Must not import
//! `cluster`, `tokio` or `kube`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::app::layout::tab_spans;
use crate::app::state::{AppState, View};
use crate::app::times::when;
use crate::app::views::age;
use crate::engine::alfred_config::Mode;
use crate::engine::model::Time;
use crate::protocol::{ApiStatus, Feed, Presence, SourceKind, SourceState};
use crate::ui::theme::{Slot, Theme};

/// The API status in words.
pub fn api_text(api: &ApiStatus, now: Time) -> (String, Slot) {
    match api {
        ApiStatus::Connecting => ("API connecting…".into(), Slot::HealthDegraded),
        ApiStatus::Connected => ("✓ connected".into(), Slot::HealthOk),
        ApiStatus::Reconnecting { since, .. } => (
            format!("API ✗ reconnecting for {}", age(now, Some(*since))),
            Slot::HealthFailed,
        ),
        ApiStatus::Forbidden { what } => (format!("API ✗ forbidden: {what}"), Slot::HealthFailed),
        ApiStatus::Offline => ("offline snapshot".into(), Slot::Muted),
        ApiStatus::Simulated => ("simulated".into(), Slot::Accent),
    }
}

/// One source's freshness: `nodes 12s old`, `journal absent`, `inferencereplicas CRD absent`;
/// while a list of it runs, its progress: `pods 23,500 listed…`.
pub fn source_text(s: &SourceState, now: Time) -> (String, Slot) {
    if let Some(n) = s.listing.filter(|n| *n > 0) {
        return (
            format!("{} {} listed…", s.name, grouped(n)),
            Slot::HealthDegraded,
        );
    }
    match s.presence {
        Presence::Pending => (format!("{} …", s.name), Slot::HealthDegraded),
        Presence::Present => match s.last_change {
            Some(t) => (format!("{} {} old", s.name, age(now, Some(t))), Slot::Text),
            None => (s.name.to_string(), Slot::Text),
        },
        Presence::Absent => (format!("{} absent", s.name), Slot::Muted),
        Presence::CrdAbsent => (format!("{} CRD absent", s.name), Slot::Muted),
        Presence::Forbidden => (format!("{} ✗ forbidden", s.name), Slot::HealthFailed),
    }
}

/// `23500` as `23,500`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn context(feed: &Feed) -> String {
    match &feed.source {
        SourceKind::Live(ctx) => format!("ctx {ctx}"),
        SourceKind::Snapshot(path) => format!("snapshot {path}"),
        SourceKind::Demo(seed) => format!("demo seed {seed}"),
    }
}

fn sep<'a>(theme: &Theme) -> Span<'a> {
    Span::styled(" │ ", theme.style(Slot::Border))
}

/// The first header line; `brand` prints `ome-top`, `why` the read-only reason.
fn first_line<'a>(
    state: &AppState,
    feed: &Feed,
    theme: &Theme,
    (brand, why): (bool, bool),
) -> Vec<Span<'a>> {
    let a = &feed.analysis;
    let (api, api_slot) = api_text(&feed.api, state.now);
    let mode = match a.config.mode {
        Mode::Execute => "execute",
        Mode::RecommendOnly => "recommend-only",
    };
    let alfred = if a.config_present {
        format!("Alfred {mode}")
    } else {
        "Alfred not installed".into()
    };
    let mut first = Vec::new();
    if brand {
        first.push(Span::styled("ome-top", theme.style(Slot::Header)));
        first.push(sep(theme));
    }
    first.push(Span::raw(context(feed)));
    first.push(sep(theme));
    first.push(Span::styled(api, theme.style(api_slot)));
    first.push(sep(theme));
    let degraded = theme.style(Slot::HealthDegraded);
    first.push(match &feed.permissions.read_only {
        Some(reason) if why => Span::styled(format!("READ-ONLY ({reason})"), degraded),
        Some(_) => Span::styled("READ-ONLY", degraded),
        None => Span::styled("read-write", theme.style(Slot::Danger)),
    });
    first.push(sep(theme));
    first.push(Span::raw(alfred));
    if state.frozen.is_some() {
        first.push(sep(theme));
        first.push(Span::styled("❄ FROZEN", theme.style(Slot::Accent)));
    }
    first
}

/// The second header line: the read-only reason when it did not fit above, each source's
/// freshness, the warning count, and an offline feed's "data as of".
fn second_line<'a>(state: &AppState, feed: &Feed, theme: &Theme, reason: bool) -> Vec<Span<'a>> {
    let mut items: Vec<Span> = Vec::new();
    if let (true, Some(why)) = (reason, &feed.permissions.read_only) {
        items.push(Span::styled(
            format!("read-only: {why}"),
            theme.style(Slot::HealthDegraded),
        ));
    }
    for s in &feed.sources {
        let (text, slot) = source_text(s, state.now);
        items.push(Span::styled(text, theme.style(slot)));
    }
    let warnings = feed.warnings.len() + feed.analysis.warnings.len();
    if warnings > 0 {
        let noun = if warnings == 1 { "warning" } else { "warnings" };
        items.push(Span::styled(
            format!("⚠ {warnings} {noun}"),
            theme.style(Slot::HealthDegraded),
        ));
    }
    if feed.sources.is_empty() {
        items.push(Span::styled(
            format!(
                "data as of {}",
                when(state.now, feed.analysis.now, state.utc_offset)
            ),
            theme.style(Slot::Muted),
        ));
    }
    let mut second = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            second.push(Span::styled(" · ", theme.style(Slot::Muted)));
        }
        second.push(item);
    }
    second
}

/// Draws the two header lines. On a narrow terminal the brand goes first, then the read-only
/// reason moves to the second line, so neither the context nor the write state is cut.
pub fn draw_header(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let Some(feed) = state.latest.as_ref() else {
        let line = Line::from(vec![
            Span::styled("ome-top", theme.style(Slot::Header)),
            sep(theme),
            Span::styled("loading…", theme.style(Slot::HealthDegraded)),
        ]);
        frame.render_widget(line, area);
        return;
    };
    let fits =
        |spans: &[Span]| spans.iter().map(Span::width).sum::<usize>() <= usize::from(area.width);
    let mut reason_below = false;
    let mut first = first_line(state, feed, theme, (true, true));
    if !fits(&first) {
        first = first_line(state, feed, theme, (false, true));
    }
    if !fits(&first) && feed.permissions.read_only.is_some() {
        first = first_line(state, feed, theme, (false, false));
        reason_below = true;
    }
    let second = second_line(state, feed, theme, reason_below);
    let top = Rect { height: 1, ..area };
    let below = Rect {
        y: area.y + 1,
        height: 1,
        ..area
    };
    frame.render_widget(Line::from(first), top);
    frame.render_widget(Line::from(second), below.intersection(area));
}

/// Draws the tabs and the scope/pending indicators.
pub fn draw_tabs(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let mut spans = Vec::new();
    for (v, label, ..) in tab_spans() {
        let slot = if v == state.view {
            Slot::TabActive
        } else {
            Slot::Muted
        };
        // Same width as the plain label; brackets mark the active tab without colour.
        let label = if v == state.view {
            format!("[{}]", label.trim())
        } else {
            label
        };
        spans.push(Span::styled(label, theme.style(slot)));
        spans.push(Span::raw(" "));
    }
    if let (View::Nodes, Some(pool)) = (state.view, &state.pool_scope) {
        spans.push(Span::styled(
            format!(" pool:{pool}"),
            theme.style(Slot::Accent),
        ));
    }
    if !state.pending.is_empty() {
        spans.push(Span::styled(
            format!(" ⧗ {} pending", state.pending.len()),
            theme.style(Slot::HealthDegraded),
        ));
    }
    frame.render_widget(Line::from(spans), area);
}

/// Draws the API-unreachable banner (when the area has height).
pub fn draw_banner(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let Some(feed) = state.latest.as_ref() else {
        return;
    };
    let text = match &feed.api {
        ApiStatus::Reconnecting { since, error } => format!(
            "⚠ API unreachable since {}: {error} — showing the last data (stale)",
            when(state.now, *since, state.utc_offset)
        ),
        ApiStatus::Forbidden { what } => format!("⚠ API refused the identity: {what}"),
        _ => return,
    };
    frame.render_widget(
        Line::styled(
            text,
            theme
                .style(Slot::Danger)
                .add_modifier(ratatui::style::Modifier::REVERSED),
        ),
        area,
    );
}
