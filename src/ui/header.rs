//! The header (context, API status, Alfred mode, read-only state; per-source freshness), the
//! view tabs with the pool and namespace scopes, and the banner (a context switch connecting,
//! the API unreachable).
//!
//! Owns: `draw_header`, `draw_tabs`, `draw_banner`, `api_text`, `source_text`.

use chrono::FixedOffset;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::app::layout::tab_spans;
use crate::app::namespace;
use crate::app::state::{AppState, View};
use crate::engine::alfred_config::Mode;
use crate::engine::model::Time;
use crate::fmt::{age, count};
use crate::fmt::{local, when};
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
        ApiStatus::Offline => ("offline".into(), Slot::Muted),
        ApiStatus::Simulated => ("simulated".into(), Slot::Accent),
    }
}

/// One source's freshness: `nodes 12s old`, `journal absent`, `inferencereplicas CRD absent`;
/// while a list of it runs, its progress: `pods 23,500 listed…`.
pub fn source_text(s: &SourceState, now: Time) -> (String, Slot) {
    if let Some(n) = s.listing.filter(|n| *n > 0) {
        return (
            format!("{} {} listed…", s.name, count(n as u64)),
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

/// Where the data comes from: a context, a snapshot by the time it was taken (what its ages
/// count from), the demo.
fn context(feed: &Feed, tz: FixedOffset) -> String {
    match &feed.source {
        SourceKind::Live(ctx) => format!("ctx {ctx}"),
        SourceKind::Snapshot(_) => format!("snapshot of {}", local(feed.analysis.now, tz)),
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
    let (api, api_slot) = api_text(&feed.api, state.now());
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
    first.push(Span::raw(context(feed, state.utc_offset())));
    if let Some(fleet) = state.fleet() {
        // One cluster shown, the others still watched: esc goes back to them.
        let n = fleet.members.len();
        first.push(Span::styled(
            format!(" (fleet of {n} watched)"),
            theme.style(Slot::Muted),
        ));
    }
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
    if state.frozen().is_some() {
        first.push(sep(theme));
        first.push(Span::styled("❄ FROZEN", theme.style(Slot::Accent)));
    }
    first
}

/// The second header line: a badge per ConfigMap that exists but cannot be read, the
/// read-only reason when it did not fit above, each source's freshness, the warning count,
/// and an offline feed's "data as of".
fn second_line<'a>(
    state: &AppState,
    feed: &Feed,
    theme: &Theme,
    (reason, width): (bool, u16),
) -> Vec<Span<'a>> {
    let mut items: Vec<Span> = Vec::new();
    for badge in crate::app::banner::badges(&feed.analysis) {
        items.push(Span::styled(
            format!("✗ {badge}"),
            theme.style(Slot::HealthFailed),
        ));
    }
    if let Some(badge) = crate::app::banner::unowned_badge(feed) {
        items.push(Span::styled(
            format!("⚠ {badge}"),
            theme.style(Slot::HealthDegraded),
        ));
    }
    if let (true, Some(why)) = (reason, &feed.permissions.read_only) {
        items.push(Span::styled(
            format!("read-only: {why}"),
            theme.style(Slot::HealthDegraded),
        ));
    }
    let warnings = feed.warnings.len() + feed.analysis.warnings.len();
    // Room is left for the reason and the warning count beside the sources.
    let taken: usize =
        items.iter().map(|i| i.width() + 3).sum::<usize>() + if warnings > 0 { 16 } else { 0 };
    let room = u16::try_from(usize::from(width).saturating_sub(taken)).unwrap_or(0);
    items.extend(sources(state, feed, theme, room));
    if warnings > 0 {
        let noun = if warnings == 1 { "warning" } else { "warnings" };
        items.push(Span::styled(
            format!("⚠ {warnings} {noun}"),
            theme.style(Slot::HealthDegraded),
        ));
    }
    if let SourceKind::Snapshot(path) = &feed.source {
        items.push(Span::styled(
            format!("file {path}"),
            theme.style(Slot::Muted),
        ));
    } else if feed.sources.is_empty() {
        items.push(Span::styled(
            format!(
                "data as of {}",
                when(state.now(), feed.analysis.now, state.utc_offset())
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

/// Each source's freshness; when the line would not fit `width`, the listed sources collapse
/// into one count (`7 sources listed`) and only the ones that need a look are named.
fn sources<'a>(state: &AppState, feed: &Feed, theme: &Theme, width: u16) -> Vec<Span<'a>> {
    // The demo's world is in the process: every source it lists is current, whenever its
    // objects last changed (in sim time), so it reads as live, never as old.
    let simulated = feed.api == ApiStatus::Simulated;
    let all: Vec<(String, Slot, bool)> = feed
        .sources
        .iter()
        .map(|s| {
            let (text, slot) = match s.presence {
                Presence::Present if simulated && s.listing.is_none() => {
                    (format!("{} live", s.name), Slot::Text)
                }
                _ => source_text(s, state.now()),
            };
            (text, slot, s.presence == Presence::Present)
        })
        .collect();
    let len: usize = all.iter().map(|(t, ..)| t.chars().count() + 3).sum();
    if len <= usize::from(width) + 3 {
        return all
            .into_iter()
            .map(|(t, slot, _)| Span::styled(t, theme.style(slot)))
            .collect();
    }
    let listed = all.iter().filter(|(.., present)| *present).count();
    let noun = if listed == 1 { "source" } else { "sources" };
    let mut out = vec![Span::styled(
        format!("{listed} {noun} listed"),
        theme.style(Slot::Text),
    )];
    out.extend(
        all.into_iter()
            .filter(|(.., present)| !*present)
            .map(|(t, slot, _)| Span::styled(t, theme.style(slot))),
    );
    out
}

/// Draws the two header lines. On a narrow terminal the brand goes first, then the read-only
/// reason moves to the second line, so neither the context nor the write state is cut.
pub fn draw_header(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    if state.fleet().is_some() && (state.view() == View::Fleet || state.latest().is_none()) {
        crate::ui::views::fleet::draw_fleet_header(frame, area, state, theme);
        return;
    }
    let Some(feed) = state.latest().as_ref() else {
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
    let second = second_line(state, feed, theme, (reason_below, area.width));
    let top = Rect { height: 1, ..area };
    let below = Rect {
        y: area.y + 1,
        height: 1,
        ..area
    };
    frame.render_widget(Line::from(first), top);
    frame.render_widget(Line::from(second), below.intersection(area));
}

/// Draws the tabs and the pool, namespace and pending indicators.
pub fn draw_tabs(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let mut spans = Vec::new();
    for (v, label, ..) in tab_spans(state.fleet().is_some()) {
        let slot = if v == state.view() {
            Slot::TabActive
        } else {
            Slot::Muted
        };
        // Same width as the plain label; brackets mark the active tab without colour.
        let label = if v == state.view() {
            format!("[{}]", label.trim())
        } else {
            label
        };
        spans.push(Span::styled(label, theme.style(slot)));
        spans.push(Span::raw(" "));
    }
    if let (View::Nodes, Some(pool)) = (state.view(), state.pool_scope()) {
        spans.push(Span::styled(
            format!(" pool:{pool}"),
            theme.style(Slot::Accent),
        ));
    }
    if let Some(ns) = state.namespace_scope() {
        // Pools and Nodes are cluster-wide: the scope shows there, dimmed.
        let slot = if namespace::applies(state.view()) {
            Slot::Accent
        } else {
            Slot::Muted
        };
        spans.push(Span::styled(format!(" ns:{ns}"), theme.style(slot)));
    }
    if !state.pending().is_empty() {
        spans.push(Span::styled(
            format!(" ⧗ {} pending", state.pending().len()),
            theme.style(Slot::HealthDegraded),
        ));
    }
    frame.render_widget(Line::from(spans), area);
}

/// `text` in at most `width` columns, shortened in the middle with `…` when longer.
fn shortened(text: &str, width: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= width {
        return text.to_string();
    }
    let keep = width.saturating_sub(1);
    let head: String = chars.iter().take(keep - keep / 2).collect();
    let tail: String = chars[chars.len() - keep / 2..].iter().collect();
    format!("{head}…{tail}")
}

/// One line per ConfigMap the view uses that exists but cannot be read; a narrow screen
/// shortens the reader's words, never what it is or what is shown instead.
fn draw_unreadable(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let style = theme
        .style(Slot::HealthDegraded)
        .add_modifier(ratatui::style::Modifier::REVERSED);
    for (i, u) in crate::app::banner::view_banner(state).iter().enumerate() {
        let (what, why, instead) = (u.what.as_str(), u.why.as_str(), u.instead.as_str());
        let fixed = 2 + what.chars().count() + instead.chars().count();
        let room = usize::from(area.width).saturating_sub(fixed).max(8);
        let text = format!("⚠ {what}{}{instead}", shortened(why, room));
        let line = Rect {
            y: area.y + i as u16,
            height: 1,
            ..area
        };
        frame.render_widget(Line::styled(text, style), line.intersection(area));
    }
}

/// Draws the context-switch or API-unreachable banner (when the area has height).
pub fn draw_banner(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    if let Some(s) = &state.contexts().switching {
        let from = state.current_context().unwrap_or("the previous context");
        let text = format!(
            "⟳ connecting to context {} for {} — still showing {from}",
            s.to,
            age(state.now(), Some(s.since))
        );
        let style = theme
            .style(Slot::HealthDegraded)
            .add_modifier(ratatui::style::Modifier::REVERSED);
        frame.render_widget(Line::styled(text, style), area);
        return;
    }
    let Some(feed) = state.latest().as_ref() else {
        return;
    };
    let text = match &feed.api {
        ApiStatus::Reconnecting { since, error } => format!(
            "⚠ API unreachable since {}: {error} — showing the last data (stale)",
            when(state.now(), *since, state.utc_offset())
        ),
        ApiStatus::Forbidden { what } => format!("⚠ API refused the identity: {what}"),
        _ => return draw_unreadable(frame, area, state, theme),
    };
    frame.render_widget(
        Line::styled(
            crate::app::table::columns::clip(&text, area.width).into_owned(),
            theme
                .style(Slot::Danger)
                .add_modifier(ratatui::style::Modifier::REVERSED),
        ),
        area,
    );
}
