//! Configuration: `config.toml`, themes and keymaps. The shipped themes and keymaps are
//! embedded, so the binary works with nothing installed; the user's files override them key by
//! key. A malformed user file is an error naming file, key and expected form, never a panic.
//!
//! Owns: `Config`, `Overrides`, `load`, the embedded presets.

pub mod error;
pub mod fleet;
pub mod key;
pub mod keymap;
pub mod keymap_file;
pub mod paths;
pub mod settings;
pub mod style;
pub mod theme;

use std::fs;
use std::path::{Path, PathBuf};

pub use error::{ConfigError, Notice};
pub use key::{Key, KeyCode};
pub use keymap::{Binding, BindingHelp, Keymap, Resolution, PALETTE_ONLY};
pub use keymap_file::Mode;
pub use paths::ConfigPaths;
pub use settings::{LogLevel, Settings};
pub use theme::{Slot, Theme};

use error::{parse_toml, quoted_list};
use keymap_file::{parse_keymap, KeymapFile};
use settings::parse_settings;
use theme::{parse_theme, ThemeFile};

/// The shipped themes: (name, TOML text). The first is the fallback base of user themes.
pub const SHIPPED_THEMES: &[(&str, &str)] = &[
    ("default", include_str!("../../themes/default.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
    ("colorblind", include_str!("../../themes/colorblind.toml")),
];

/// The shipped keymaps: (name, TOML text). The first is the fallback base of user keymaps.
pub const SHIPPED_KEYMAPS: &[(&str, &str)] = &[
    ("default", include_str!("../../keymaps/default.toml")),
    ("vim", include_str!("../../keymaps/vim.toml")),
];

/// Command-line choices that beat `config.toml` (`--theme NAME`, `--keymap NAME`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Overrides {
    /// `--theme NAME`.
    pub theme: Option<String>,
    /// `--keymap NAME`.
    pub keymap: Option<String>,
}

/// Everything configurable, loaded and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// `config.toml`'s settings (defaults when there is no file).
    pub settings: Settings,
    /// The theme in use.
    pub theme: Theme,
    /// Every theme available for `next-theme`: shipped ones first, then the user's, by name.
    pub themes: Vec<Theme>,
    /// The keymap in use.
    pub keymap: Keymap,
    /// The user file the theme in use was read from (`None`: a shipped theme as shipped).
    pub theme_file: Option<PathBuf>,
    /// The user file the keymap in use was read from (`None`: a shipped keymap as shipped).
    pub keymap_file: Option<PathBuf>,
    /// Non-fatal oddities to show once at startup.
    pub notices: Vec<Notice>,
}

/// The label of a shipped file in messages.
pub fn builtin_label(kind: &str, name: &str) -> String {
    format!("(built-in) {kind}/{name}.toml")
}

/// Loads the configuration from the embedded presets and the user's files at `paths`.
pub fn load(paths: &ConfigPaths, overrides: &Overrides) -> Result<Config, ConfigError> {
    let mut notices = Vec::new();
    let settings = load_settings(paths)?;
    let config_label = paths
        .config_file
        .as_deref()
        .map_or_else(|| "config.toml".to_string(), |p| p.display().to_string());

    let theme_files = user_files(paths.themes_dir().as_deref())?;
    let themes = load_themes(&theme_files, &mut notices)?;
    let (theme_name, theme_source) =
        chosen(&overrides.theme, &settings.theme, "--theme", &config_label);
    let theme = themes
        .iter()
        .find(|t| t.name == theme_name)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = themes.iter().map(|t| t.name.as_str()).collect();
            no_such(&theme_source, "theme", &theme_name, &names)
        })?;

    let keymap_files = user_files(paths.keymaps_dir().as_deref())?;
    let keymaps = load_keymaps(&keymap_files)?;
    let (keymap_name, keymap_source) = chosen(
        &overrides.keymap,
        &settings.keymap,
        "--keymap",
        &config_label,
    );
    let keymap = keymaps
        .iter()
        .find(|k| k.name == keymap_name)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = keymaps.iter().map(|k| k.name.as_str()).collect();
            no_such(&keymap_source, "keymap", &keymap_name, &names)
        })?;

    notices.extend(keymap.shadow_notices());
    Ok(Config {
        settings,
        theme_file: file_named(&theme_files, &theme.name),
        keymap_file: file_named(&keymap_files, &keymap.name),
        theme,
        themes,
        keymap,
        notices,
    })
}

/// `config.toml`'s settings alone (defaults when the platform file is absent), without the
/// themes and keymaps: what a command that draws nothing needs (the log level).
pub fn load_settings(paths: &ConfigPaths) -> Result<Settings, ConfigError> {
    match read_config_file(paths)? {
        Some((label, text)) => parse_settings(&label, &parse_toml(&label, &text)?),
        None => Ok(Settings::default()),
    }
}

/// The user file named `name` among `files` (name, path), if any.
fn file_named(files: &[(String, PathBuf)], name: &str) -> Option<PathBuf> {
    files
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, p)| p.clone())
}

/// The embedded presets alone (`default` theme and keymap).
pub fn builtin() -> Result<Config, ConfigError> {
    load(&ConfigPaths::builtin_only(), &Overrides::default())
}

/// The name chosen for a theme or keymap and where the choice was made, for messages.
fn chosen(flag: &Option<String>, setting: &str, flag_name: &str, file: &str) -> (String, String) {
    match flag {
        Some(name) => (name.clone(), flag_name.to_string()),
        None => (setting.to_string(), file.to_string()),
    }
}

/// The error for a theme or keymap name that names nothing.
fn no_such(source: &str, kind: &str, name: &str, names: &[&str]) -> ConfigError {
    ConfigError::new(
        source,
        format!("{kind} = \"{name}\""),
        format!("no such {kind}"),
        format!("one of {}", quoted_list(names)),
    )
}

/// The config file's label and text; `None` when it is optional and absent.
fn read_config_file(paths: &ConfigPaths) -> Result<Option<(String, String)>, ConfigError> {
    let Some(file) = paths.config_file.as_deref() else {
        return Ok(None);
    };
    if !paths.required && !file.exists() {
        return Ok(None);
    }
    read_file(file).map(Some)
}

/// A user file's label (its path) and text.
fn read_file(file: &Path) -> Result<(String, String), ConfigError> {
    let label = file.display().to_string();
    match fs::read_to_string(file) {
        Ok(text) => Ok((label, text)),
        Err(e) => Err(ConfigError::new(
            &label,
            "",
            format!("cannot read: {e}"),
            "",
        )),
    }
}

/// The `*.toml` files of `dir` (name, path), sorted by name; none when it is absent.
fn user_files(dir: Option<&Path>) -> Result<Vec<(String, PathBuf)>, ConfigError> {
    let Some(dir) = dir.filter(|d| d.is_dir()) else {
        return Ok(Vec::new());
    };
    let label = dir.display().to_string();
    let entries = fs::read_dir(dir)
        .map_err(|e| ConfigError::new(&label, "", format!("cannot list: {e}"), ""))?;
    let mut files: Vec<(String, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
        .collect();
    files.sort();
    Ok(files)
}

/// The base a user file builds on: `extends`, else the shipped file of the same name, else
/// the first shipped one. Only shipped presets can be extended, so there are no cycles.
fn base_name<'a>(
    label: &str,
    extends: Option<&'a str>,
    name: &'a str,
    shipped: &[(&'a str, &str)],
) -> Result<&'a str, ConfigError> {
    let names: Vec<&str> = shipped.iter().map(|(n, _)| *n).collect();
    match extends {
        Some(base) if names.contains(&base) => Ok(base),
        Some(base) => Err(ConfigError::new(
            label,
            format!("extends = \"{base}\""),
            "not a built-in name",
            format!("one of {}", quoted_list(&names)),
        )),
        None if names.contains(&name) => Ok(name),
        None => Ok(names.first().copied().unwrap_or(name)),
    }
}

/// The shipped themes with the user's files laid over them.
fn load_themes(
    user_files: &[(String, PathBuf)],
    notices: &mut Vec<Notice>,
) -> Result<Vec<Theme>, ConfigError> {
    let mut themes = Vec::new();
    for (name, text) in SHIPPED_THEMES {
        let label = builtin_label("themes", name);
        let file = parse_theme(&label, &parse_toml(&label, text)?, notices)?;
        themes.push(Theme::from_file(name, &file));
    }
    for (name, path) in user_files {
        let (label, text) = read_file(path)?;
        let file: ThemeFile = parse_theme(&label, &parse_toml(&label, &text)?, notices)?;
        let base = base_name(&label, file.extends.as_deref(), name, SHIPPED_THEMES)?;
        let base_theme = themes.iter().find(|t| t.name == base).cloned();
        let Some(base_theme) = base_theme else {
            continue;
        };
        let theme = Theme::overlay(name, &base_theme, &file);
        match themes.iter_mut().find(|t| t.name == *name) {
            Some(slot) => *slot = theme,
            None => themes.push(theme),
        }
    }
    Ok(themes)
}

/// The shipped keymaps with the user's files laid over them.
fn load_keymaps(user_files: &[(String, PathBuf)]) -> Result<Vec<Keymap>, ConfigError> {
    let mut shipped = Vec::new();
    for (name, text) in SHIPPED_KEYMAPS {
        let label = builtin_label("keymaps", name);
        let file = parse_keymap(&label, &parse_toml(&label, text)?)?;
        shipped.push(Keymap::from_file(name, &file));
    }
    let mut keymaps = shipped.clone();
    for (name, path) in user_files {
        let (label, text) = read_file(path)?;
        let file: KeymapFile = parse_keymap(&label, &parse_toml(&label, &text)?)?;
        let base = base_name(&label, file.extends.as_deref(), name, SHIPPED_KEYMAPS)?;
        let Some(base_keymap) = shipped.iter().find(|k| k.name == base) else {
            continue;
        };
        let keymap = Keymap::overlay(name, base_keymap, &file)?;
        match keymaps.iter_mut().find(|k| k.name == *name) {
            Some(slot) => *slot = keymap,
            None => keymaps.push(keymap),
        }
    }
    Ok(keymaps)
}
