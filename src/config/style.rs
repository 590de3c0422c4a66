//! The style of one theme slot as a theme file writes it: `{ fg = "green", bg = "#1e1e2e",
//! modifiers = ["bold"] }`, with colours as ratatui's `Color::from_str` reads them (names,
//! `#rrggbb`, `N`) or `indexed:N`.
//!
//! Owns: `parse_color`, `parse_style`, `STYLE_FIELDS`. From ratatui only `style` (Style, Color,
//! Modifier).

use ratatui::style::{Color, Modifier, Style};

use super::error::{kind_of, quoted_list, show_value, ConfigError};

/// The fields of a style table.
pub const STYLE_FIELDS: &[&str] = &["fg", "bg", "modifiers"];

/// The expected form of a colour, quoted in error messages.
pub const EXPECTED_COLOR: &str = "a colour name like \"red\", \"light-blue\", \"dark-gray\" or \
     \"reset\", \"#rrggbb\", or \"indexed:N\" with N from 0 to 255";

/// Modifier names.
const MODIFIERS: &[(&str, Modifier)] = &[
    ("bold", Modifier::BOLD),
    ("dim", Modifier::DIM),
    ("italic", Modifier::ITALIC),
    ("underlined", Modifier::UNDERLINED),
    ("reversed", Modifier::REVERSED),
    ("crossed-out", Modifier::CROSSED_OUT),
];

/// Parses a colour: a name, `#rrggbb`, `indexed:N` or a bare `N` (0..=255). `None` when it
/// is none of these. Names and the numeric and hex forms are ratatui's `Color::from_str`, so a
/// theme reads colours the way ratatui spells them (case, `-`, `_` and spaces ignored; `grey`
/// and `bright-*` accepted); `indexed:N` is this crate's own spelling of the numeric form.
pub fn parse_color(text: &str) -> Option<Color> {
    let text = text.trim();
    if let Some(index) = text.strip_prefix("indexed:") {
        return index.trim().parse::<u8>().ok().map(Color::Indexed);
    }
    text.parse::<Color>().ok()
}

/// Parses the style fields of a slot table. `path` is the slot's dotted name, used in errors
/// (`health.ok.fg = "grene"`). Keys that are not style fields are the caller's business.
pub fn parse_style(file: &str, path: &str, table: &toml::Table) -> Result<Style, ConfigError> {
    let mut style = Style::default();
    for field in ["fg", "bg"] {
        let Some(value) = table.get(field) else {
            continue;
        };
        let at = format!("{path}.{field} = {}", show_value(value));
        let Some(text) = value.as_str() else {
            return Err(ConfigError::new(file, at, kind_of(value), EXPECTED_COLOR));
        };
        let color = parse_color(text)
            .ok_or_else(|| ConfigError::new(file, at, "unknown colour", EXPECTED_COLOR))?;
        style = if field == "fg" {
            style.fg(color)
        } else {
            style.bg(color)
        };
    }
    if let Some(value) = table.get("modifiers") {
        style = style.add_modifier(parse_modifiers(file, path, value)?);
    }
    Ok(style)
}

/// Parses `modifiers = ["bold", "italic"]`.
fn parse_modifiers(file: &str, path: &str, value: &toml::Value) -> Result<Modifier, ConfigError> {
    let names: Vec<&str> = MODIFIERS.iter().map(|(n, _)| *n).collect();
    let expected = format!("an array of {}", quoted_list(&names));
    let at = format!("{path}.modifiers = {}", show_value(value));
    let Some(items) = value.as_array() else {
        return Err(ConfigError::new(file, at, kind_of(value), expected));
    };
    let mut modifier = Modifier::empty();
    for item in items {
        let found = item
            .as_str()
            .and_then(|s| MODIFIERS.iter().find(|(n, _)| n.eq_ignore_ascii_case(s)));
        match found {
            Some((_, m)) => modifier |= *m,
            None => {
                let problem = format!("unknown modifier {}", show_value(item));
                return Err(ConfigError::new(file, at, problem, expected));
            }
        }
    }
    Ok(modifier)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_forms_parse() {
        assert_eq!(parse_color("red"), Some(Color::Red));
        assert_eq!(parse_color("Light-Blue"), Some(Color::LightBlue));
        assert_eq!(parse_color("dark_gray"), Some(Color::DarkGray));
        assert_eq!(parse_color("#0072B2"), Some(Color::Rgb(0, 0x72, 0xb2)));
        assert_eq!(parse_color("indexed:123"), Some(Color::Indexed(123)));
        assert_eq!(parse_color(" indexed: 7 "), Some(Color::Indexed(7)));
        assert_eq!(parse_color("123"), Some(Color::Indexed(123)));
        assert_eq!(parse_color("DarkGray"), Some(Color::DarkGray));
        assert_eq!(parse_color("dark grey"), Some(Color::DarkGray));
        assert_eq!(parse_color("reset"), Some(Color::Reset));
        let bad = [
            "grene",
            "#12345",
            "#12345g",
            "indexed:256",
            "indexed:",
            "indexed:red",
            "",
        ];
        for bad in bad {
            assert_eq!(parse_color(bad), None, "{bad}");
        }
    }

    /// Every name docs/themes.md lists, in the spellings it promises (`DarkGray`, `grey`).
    #[test]
    fn documented_names_keep_their_colours() {
        let names = [
            ("reset", Color::Reset),
            ("black", Color::Black),
            ("red", Color::Red),
            ("green", Color::Green),
            ("yellow", Color::Yellow),
            ("blue", Color::Blue),
            ("magenta", Color::Magenta),
            ("cyan", Color::Cyan),
            ("gray", Color::Gray),
            ("grey", Color::Gray),
            ("dark-gray", Color::DarkGray),
            ("dark-grey", Color::DarkGray),
            ("light-red", Color::LightRed),
            ("light-green", Color::LightGreen),
            ("light-yellow", Color::LightYellow),
            ("light-blue", Color::LightBlue),
            ("light-magenta", Color::LightMagenta),
            ("light-cyan", Color::LightCyan),
            ("white", Color::White),
        ];
        for (name, color) in names {
            assert_eq!(parse_color(name), Some(color), "{name}");
            assert_eq!(parse_color(&name.to_uppercase()), Some(color), "{name}");
            assert_eq!(parse_color(&name.replace('-', "_")), Some(color), "{name}");
        }
    }

    #[test]
    fn style_fields_build_a_style() {
        let table: toml::Table = r##"fg = "green"
bg = "#000000"
modifiers = ["bold", "Reversed"]"##
            .parse()
            .unwrap();
        let style = parse_style("t.toml", "health.ok", &table).unwrap();
        assert_eq!(
            style,
            Style::default()
                .fg(Color::Green)
                .bg(Color::Rgb(0, 0, 0))
                .add_modifier(Modifier::BOLD | Modifier::REVERSED)
        );
    }

    #[test]
    fn bad_modifiers_name_the_item() {
        let table: toml::Table = r#"modifiers = ["bold", "blink"]"#.parse().unwrap();
        let err = parse_style("t.toml", "title", &table).unwrap_err();
        assert_eq!(err.path, "title.modifiers = [\"bold\", \"blink\"]");
        assert_eq!(err.problem, "unknown modifier \"blink\"");
    }
}
