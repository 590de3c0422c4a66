//! The theme: semantic slots (health, fragmentation bands, pool-map cells, selection, borders,
//! danger, muted, header) mapped to ratatui styles in one place. A thin adapter: the config
//! crate's themes replace the built-ins; widgets never hold colour literals.
//!
//! Owns: `Theme`, `Slot`, `THEME_NAMES`.

use ratatui::style::{Color, Modifier, Style};

use crate::app::table::Tone;

/// Built-in theme names (the palette and `next-theme` cycle through them).
pub const THEME_NAMES: [&str; 2] = ["default", "mono"];

/// A semantic style slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// `health.ok`.
    HealthOk,
    /// `health.degraded`.
    HealthDegraded,
    /// `health.failed`.
    HealthFailed,
    /// `health.unknown`.
    HealthUnknown,
    /// `frag.low`.
    FragLow,
    /// `frag.mid`.
    FragMid,
    /// `frag.high`.
    FragHigh,
    /// `selection`.
    Selection,
    /// `border`.
    Border,
    /// `border.focused`.
    BorderFocused,
    /// `danger`.
    Danger,
    /// `muted`.
    Muted,
    /// `header`.
    Header,
    /// `accent`.
    Accent,
    /// `text`.
    Text,
    /// `tab.active`.
    TabActive,
    /// `map.none`.
    MapNone,
    /// `map.some`.
    MapSome,
    /// `map.whole`.
    MapWhole,
    /// `map.excluded`.
    MapExcluded,
}

/// Styles per slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    /// Theme name.
    pub name: String,
    styles: Vec<(Slot, Style)>,
}

impl Theme {
    /// The built-in theme `name` (`default` when unknown).
    pub fn by_name(name: &str) -> Theme {
        match name {
            "mono" => Theme::mono(),
            _ => Theme::default_theme(),
        }
    }

    /// Colours on a dark or light terminal background.
    pub fn default_theme() -> Theme {
        let fg = |c: Color| Style::new().fg(c);
        Theme {
            name: "default".into(),
            styles: vec![
                (Slot::HealthOk, fg(Color::Green)),
                (Slot::HealthDegraded, fg(Color::Yellow)),
                (
                    Slot::HealthFailed,
                    fg(Color::Red).add_modifier(Modifier::BOLD),
                ),
                (Slot::HealthUnknown, fg(Color::Magenta)),
                (Slot::FragLow, fg(Color::Green)),
                (Slot::FragMid, fg(Color::Yellow)),
                (Slot::FragHigh, fg(Color::Red).add_modifier(Modifier::BOLD)),
                (
                    Slot::Selection,
                    Style::new().add_modifier(Modifier::REVERSED),
                ),
                (Slot::Border, fg(Color::DarkGray)),
                (Slot::BorderFocused, fg(Color::Cyan)),
                (Slot::Danger, fg(Color::Red)),
                (Slot::Muted, fg(Color::DarkGray)),
                (Slot::Header, fg(Color::Cyan).add_modifier(Modifier::BOLD)),
                (Slot::Accent, fg(Color::Cyan).add_modifier(Modifier::BOLD)),
                (Slot::Text, Style::new()),
                (
                    Slot::TabActive,
                    Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
                ),
                (Slot::MapNone, fg(Color::DarkGray)),
                (Slot::MapSome, fg(Color::Yellow)),
                (
                    Slot::MapWhole,
                    fg(Color::Green).add_modifier(Modifier::BOLD),
                ),
                (Slot::MapExcluded, fg(Color::Cyan)),
            ],
        }
    }

    /// No colours at all: every state reads from its symbol or word.
    pub fn mono() -> Theme {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let mut t = Theme::default_theme();
        t.name = "mono".into();
        for (slot, style) in &mut t.styles {
            *style = match slot {
                Slot::Selection | Slot::TabActive => Style::new().add_modifier(Modifier::REVERSED),
                Slot::HealthFailed
                | Slot::FragHigh
                | Slot::Danger
                | Slot::Header
                | Slot::Accent => bold,
                Slot::Muted | Slot::Border | Slot::MapNone => {
                    Style::new().add_modifier(Modifier::DIM)
                }
                Slot::MapWhole => bold,
                _ => Style::new(),
            };
        }
        t
    }

    /// A configured theme (`themes/*.toml`, user overrides) mapped onto the view's slots.
    pub fn from_config(t: &crate::config::Theme) -> Theme {
        use crate::config::Slot as C;
        let pairs = [
            (Slot::HealthOk, C::HealthOk),
            (Slot::HealthDegraded, C::HealthSuspect),
            (Slot::HealthFailed, C::HealthFailed),
            (Slot::HealthUnknown, C::HealthUnknown),
            (Slot::FragLow, C::FragLow),
            (Slot::FragMid, C::FragMid),
            (Slot::FragHigh, C::FragHigh),
            (Slot::Selection, C::Selection),
            (Slot::Border, C::Border),
            (Slot::BorderFocused, C::BorderFocused),
            (Slot::Danger, C::Danger),
            (Slot::Muted, C::Muted),
            (Slot::Header, C::Header),
            (Slot::Accent, C::Title),
            (Slot::Text, C::Text),
            (Slot::TabActive, C::TabActive),
            (Slot::MapNone, C::MapNone),
            (Slot::MapSome, C::MapSome),
            (Slot::MapWhole, C::MapWhole),
            (Slot::MapExcluded, C::MapExcluded),
        ];
        Theme {
            name: t.name.clone(),
            styles: pairs.iter().map(|(ui, c)| (*ui, t.style(*c))).collect(),
        }
    }

    /// The style of a slot.
    pub fn style(&self, slot: Slot) -> Style {
        self.styles
            .iter()
            .find(|(s, _)| *s == slot)
            .map_or(Style::new(), |(_, st)| *st)
    }

    /// The style of a row tone.
    pub fn tone(&self, tone: Tone) -> Style {
        self.style(match tone {
            Tone::Normal => Slot::Text,
            Tone::Ok => Slot::HealthOk,
            Tone::Degraded => Slot::HealthDegraded,
            Tone::Failed => Slot::HealthFailed,
            Tone::Unknown => Slot::HealthUnknown,
            Tone::FragLow => Slot::FragLow,
            Tone::FragMid => Slot::FragMid,
            Tone::FragHigh => Slot::FragHigh,
            Tone::Danger => Slot::Danger,
            Tone::Muted => Slot::Muted,
            Tone::Accent => Slot::Accent,
        })
    }
}
