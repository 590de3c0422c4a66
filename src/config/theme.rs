//! Themes: named semantic slots (`health.ok`, `frag.high`, `selection`...) mapped to
//! `ratatui::Style` in one place. Widgets ask for a slot, never for a colour.
//!
//! Owns: `Slot`, `Theme`, `ThemeFile`, `parse_theme`. From ratatui only `style`.

use std::collections::BTreeMap;

use ratatui::style::Style;

use super::error::{kind_of, show_value, ConfigError, Notice};
use super::style::{parse_style, STYLE_FIELDS};

/// Declares `Slot` with its dotted name, in one table.
macro_rules! slots {
    ($($(#[$doc:meta])* $variant:ident => $name:literal;)+) => {
        /// A semantic style slot. Names are stable: theme files use them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Slot {
            $($(#[$doc])* $variant,)+
        }

        impl Slot {
            /// Every slot, in the order docs/themes.md lists them.
            pub const ALL: &'static [Slot] = &[$(Slot::$variant,)+];

            /// The dotted name used in theme files.
            pub fn name(self) -> &'static str {
                match self {
                    $(Slot::$variant => $name,)+
                }
            }
        }
    };
}

slots! {
    /// Ordinary text.
    Text => "text";
    /// Secondary text: ages, units, unset values.
    Muted => "muted";
    /// Titles of panes and dialogs.
    Title => "title";
    /// The header line (context, API status, freshness).
    Header => "header";
    /// The footer line (key hints).
    Footer => "footer";
    /// A key in the footer's hints.
    FooterKey => "footer.key";
    /// A view tab that is not shown.
    Tab => "tab";
    /// The view tab that is shown.
    TabActive => "tab.active";
    /// Pane borders.
    Border => "border";
    /// The border of the pane with focus.
    BorderFocused => "border.focused";
    /// The selected row.
    Selection => "selection";
    /// Gauges and sparklines (pool scores).
    Gauge => "gauge";
    /// Destructive or failed things: the confirm dialog of a write, errors, blocking banners.
    Danger => "danger";
    /// Attention without failure: stale sources, reconnecting, read-only.
    Warning => "warning";
    /// Neutral information: notices, progress.
    Info => "info";
    /// Node health `Clear`.
    HealthOk => "health.ok";
    /// Node health `Suspect`.
    HealthSuspect => "health.suspect";
    /// Node health `Unknown`.
    HealthUnknown => "health.unknown";
    /// Node health `Unhealthy`.
    HealthFailed => "health.failed";
    /// Fragmentation below the pool's threshold band.
    FragLow => "frag.low";
    /// Fragmentation near the threshold.
    FragMid => "frag.mid";
    /// Fragmentation above the threshold.
    FragHigh => "frag.high";
    /// A pool-map node with no GPU free.
    MapNone => "map.none";
    /// A pool-map node with some GPUs free.
    MapSome => "map.some";
    /// A pool-map node with every GPU free.
    MapWhole => "map.whole";
    /// A pool-map node excluded for maintenance, a cordon, scale-down or spot.
    MapExcluded => "map.excluded";
}

impl Slot {
    /// The slot of a dotted name.
    pub fn from_name(name: &str) -> Option<Slot> {
        Slot::ALL.iter().copied().find(|s| s.name() == name)
    }
}

/// One theme file, parsed: the slots it sets and the theme it builds on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ThemeFile {
    /// `extends = "NAME"`: the theme whose slots this file overrides (user themes only;
    /// `None` means the shipped theme of the same name, else `default`).
    pub extends: Option<String>,
    /// The slots the file sets, each replacing the base's style whole.
    pub styles: BTreeMap<Slot, Style>,
}

/// A complete theme: a style for every slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    /// The theme's name (its file name without `.toml`).
    pub name: String,
    /// One style per slot, indexed by `Slot as usize`.
    styles: Vec<Style>,
}

impl Theme {
    /// A theme built from `base` with the slots of `file` replacing it, slot by slot.
    pub fn overlay(name: &str, base: &Theme, file: &ThemeFile) -> Theme {
        let mut styles = base.styles.clone();
        for (slot, style) in &file.styles {
            styles[*slot as usize] = *style;
        }
        Theme {
            name: name.to_string(),
            styles,
        }
    }

    /// A theme from a file alone; slots it leaves out are the terminal's plain style.
    pub fn from_file(name: &str, file: &ThemeFile) -> Theme {
        let plain = Theme {
            name: name.to_string(),
            styles: vec![Style::default(); Slot::ALL.len()],
        };
        Theme::overlay(name, &plain, file)
    }

    /// The style of a slot.
    pub fn style(&self, slot: Slot) -> Style {
        self.styles.get(slot as usize).copied().unwrap_or_default()
    }
}

/// Parses a theme file. Unknown slots are notices (a typo only loses a colour); a bad colour,
/// modifier or field type is an error.
pub fn parse_theme(
    file: &str,
    table: &toml::Table,
    notices: &mut Vec<Notice>,
) -> Result<ThemeFile, ConfigError> {
    let mut out = ThemeFile::default();
    for (key, value) in table {
        match (key.as_str(), value) {
            ("extends", toml::Value::String(name)) => out.extends = Some(name.clone()),
            ("extends", other) => {
                let at = format!("extends = {}", show_value(other));
                let problem = kind_of(other);
                return Err(ConfigError::new(file, at, problem, "a theme name"));
            }
            (_, toml::Value::Table(inner)) => walk_slots(file, key, inner, &mut out, notices)?,
            (_, other) => return Err(not_a_slot_table(file, key, other)),
        }
    }
    Ok(out)
}

/// Reads the slot `path` (if the table has style fields) and its dotted children.
fn walk_slots(
    file: &str,
    path: &str,
    table: &toml::Table,
    out: &mut ThemeFile,
    notices: &mut Vec<Notice>,
) -> Result<(), ConfigError> {
    let has_children = table.values().any(toml::Value::is_table);
    let has_fields = table.keys().any(|k| STYLE_FIELDS.contains(&k.as_str()));
    if has_fields || !has_children {
        let style = parse_style(file, path, table)?;
        match Slot::from_name(path) {
            Some(slot) => {
                out.styles.insert(slot, style);
            }
            None => notices.push(Notice {
                file: file.to_string(),
                message: format!("unknown theme slot `{path}` ignored (see docs/themes.md)"),
            }),
        }
    }
    for (key, value) in table {
        let child = format!("{path}.{key}");
        match value {
            toml::Value::Table(inner) => walk_slots(file, &child, inner, out, notices)?,
            _ if STYLE_FIELDS.contains(&key.as_str()) => {}
            other => return Err(not_a_slot_table(file, &child, other)),
        }
    }
    Ok(())
}

/// The error for a value where a slot table belongs.
fn not_a_slot_table(file: &str, path: &str, value: &toml::Value) -> ConfigError {
    ConfigError::new(
        file,
        format!("{path} = {}", show_value(value)),
        kind_of(value),
        "a slot table like `text = { fg = \"white\", modifiers = [\"bold\"] }` \
         (style fields are fg, bg, modifiers)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Modifier};

    fn parse(text: &str) -> (Result<ThemeFile, ConfigError>, Vec<Notice>) {
        let mut notices = Vec::new();
        let table: toml::Table = text.parse().unwrap();
        (parse_theme("t.toml", &table, &mut notices), notices)
    }

    #[test]
    fn nested_and_dotted_slots_parse() {
        let (file, notices) = parse(
            r#"
text = { fg = "white" }
health.ok = { fg = "green" }
[border]
fg = "gray"
[border.focused]
fg = "cyan"
modifiers = ["bold"]
"#,
        );
        let file = file.unwrap();
        assert!(notices.is_empty());
        assert_eq!(
            file.styles[&Slot::HealthOk],
            Style::default().fg(Color::Green)
        );
        assert_eq!(file.styles[&Slot::Border], Style::default().fg(Color::Gray));
        assert_eq!(
            file.styles[&Slot::BorderFocused],
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD)
        );
        assert_eq!(file.styles.len(), 4);
    }

    #[test]
    fn unknown_slots_are_notices_not_errors() {
        let (file, notices) = parse("health.okay = { fg = \"green\" }\n");
        assert!(file.unwrap().styles.is_empty());
        assert_eq!(
            notices[0].message,
            "unknown theme slot `health.okay` ignored (see docs/themes.md)"
        );
    }

    #[test]
    fn overlay_replaces_only_the_named_slots() {
        let (base, _) = parse("text = { fg = \"white\" }\nmuted = { fg = \"gray\" }\n");
        let base = Theme::from_file("base", &base.unwrap());
        let (user, _) = parse("muted = { fg = \"dark-gray\" }\n");
        let theme = Theme::overlay("mine", &base, &user.unwrap());
        assert_eq!(theme.style(Slot::Text), Style::default().fg(Color::White));
        assert_eq!(
            theme.style(Slot::Muted),
            Style::default().fg(Color::DarkGray)
        );
        assert_eq!(theme.name, "mine");
    }

    #[test]
    fn slot_names_round_trip() {
        for slot in Slot::ALL {
            assert_eq!(Slot::from_name(slot.name()), Some(*slot));
        }
    }
}
