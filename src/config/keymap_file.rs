//! Keymap files as written: one table per mode holding a `keymap` array of
//! `{ on = "c" | ["g", "g"], action = "cordon-node", desc = "..." }` entries. Parsing checks
//! each entry and, within one file and mode, that no key sequence is bound twice and none is
//! the start of another.
//!
//! Owns: `Mode`, `Entry`, `Origin`, `KeymapFile`, `parse_keymap`.

use std::collections::BTreeMap;
use std::fmt;

use crate::action::{Action, View};

use super::error::{kind_of, quoted_list, reject_unknown_keys, show_value, ConfigError};
use super::key::{display_sequence, Key, EXPECTED_KEY};

/// An input mode: which keymap table applies. Names are the keymap file's tables; a view's is
/// the view's own (`View::table`), so the view list is `action::View`'s alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// Everywhere except dialogs and text input: quit, help, views.
    Global,
    /// Any list view: movement, sort, filter, freeze, open.
    Table,
    /// One view's own keys.
    View(View),
    /// A detail pane (node, move, journal entry).
    Detail,
    /// The key help overlay.
    Help,
    /// A confirm dialog before a write. Modal: no other table applies.
    Confirm,
    /// The `:` command palette. Modal: unbound keys are typed text.
    Palette,
    /// The `/` filter prompt. Modal: unbound keys are typed text.
    Filter,
}

/// The modes after the views, in the order docs/keymaps.md lists them.
const AFTER_VIEWS: [Mode; 5] = [
    Mode::Detail,
    Mode::Help,
    Mode::Confirm,
    Mode::Palette,
    Mode::Filter,
];

/// `[view, table, global]` for each view, in `View::ALL` order (a view's lookup chain).
static VIEW_CHAINS: [[Mode; 3]; View::COUNT] = {
    let mut chains = [[Mode::Global; 3]; View::COUNT];
    let mut i = 0;
    while i < View::COUNT {
        chains[i] = [Mode::View(View::ALL[i]), Mode::Table, Mode::Global];
        i += 1;
    }
    chains
};

impl Mode {
    /// Every mode, in the order docs/keymaps.md lists them: global, table, the views in tab
    /// order, then detail, help, confirm, palette, filter.
    pub const ALL: &'static [Mode] = &{
        let mut all = [Mode::Global; 2 + View::COUNT + AFTER_VIEWS.len()];
        all[1] = Mode::Table;
        let mut i = 0;
        while i < View::COUNT {
            all[2 + i] = Mode::View(View::ALL[i]);
            i += 1;
        }
        let mut j = 0;
        while j < AFTER_VIEWS.len() {
            all[2 + View::COUNT + j] = AFTER_VIEWS[j];
            j += 1;
        }
        all
    };

    /// The table name in keymap files.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Global => "global",
            Mode::Table => "table",
            Mode::View(view) => view.table(),
            Mode::Detail => "detail",
            Mode::Help => "help",
            Mode::Confirm => "confirm",
            Mode::Palette => "palette",
            Mode::Filter => "filter",
        }
    }

    /// The mode of a table name.
    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// The tables consulted for this mode, first match wins: a view falls back to `table`
    /// then `global`; dialogs and prompts are modal and consult only their own table.
    pub fn chain(self) -> &'static [Mode] {
        match self {
            Mode::Global => &[Mode::Global],
            Mode::Table => &[Mode::Table, Mode::Global],
            Mode::View(view) => &VIEW_CHAINS[view.index()],
            Mode::Detail => &[Mode::Detail, Mode::Global],
            Mode::Help => &[Mode::Help, Mode::Global],
            Mode::Confirm => &[Mode::Confirm],
            Mode::Palette => &[Mode::Palette],
            Mode::Filter => &[Mode::Filter],
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The action name that removes a binding inherited from the base keymap.
pub const UNBIND: &str = "none";

/// Where a binding was written: for conflict messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The file, as the operator knows it.
    pub file: String,
    /// The mode table it is in.
    pub mode: Mode,
    /// The entry's 1-based position in its mode's `keymap` array.
    pub entry: usize,
}

/// One entry of a keymap file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The key sequence (at least one key).
    pub keys: Vec<Key>,
    /// The action; `None` for `action = "none"` (remove an inherited binding).
    pub action: Option<Action>,
    /// The help text; `None` means the action's own description.
    pub desc: Option<String>,
    /// Where it was written.
    pub origin: Origin,
}

/// A parsed keymap file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeymapFile {
    /// `extends = "NAME"`: the keymap this file overrides (user keymaps only; `None` means the
    /// shipped keymap of the same name, else `default`).
    pub extends: Option<String>,
    /// Entries per mode, in file order.
    pub modes: BTreeMap<Mode, Vec<Entry>>,
}

/// Parses a keymap file and checks it for conflicts within each mode.
pub fn parse_keymap(file: &str, table: &toml::Table) -> Result<KeymapFile, ConfigError> {
    let mut out = KeymapFile::default();
    let mode_names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
    for (key, value) in table {
        if key == "extends" {
            let name = value.as_str().ok_or_else(|| {
                let at = format!("extends = {}", show_value(value));
                ConfigError::new(file, at, kind_of(value), "a keymap name")
            })?;
            out.extends = Some(name.to_string());
            continue;
        }
        let Some(mode) = Mode::from_name(key) else {
            let expected = format!("\"extends\" or a mode table: {}", quoted_list(&mode_names));
            return Err(ConfigError::new(
                file,
                format!("[{key}]"),
                "unknown mode",
                expected,
            ));
        };
        let entries = parse_mode(file, mode, value)?;
        check_conflicts(&entries, &[])?;
        out.modes.insert(mode, entries);
    }
    Ok(out)
}

/// Parses `[mode] keymap = [...]`.
fn parse_mode(file: &str, mode: Mode, value: &toml::Value) -> Result<Vec<Entry>, ConfigError> {
    let expected = "a table with `keymap = [{ on = \"c\", action = \"...\", desc = \"...\" }]`";
    let Some(table) = value.as_table() else {
        let problem = kind_of(value);
        return Err(ConfigError::new(
            file,
            format!("{mode} = {}", show_value(value)),
            problem,
            expected,
        ));
    };
    reject_unknown_keys(file, &format!("[{mode}] "), table, &["keymap"])?;
    let Some(list) = table.get("keymap") else {
        return Ok(Vec::new());
    };
    let Some(items) = list.as_array() else {
        let at = format!("[{mode}] keymap = {}", show_value(list));
        return Err(ConfigError::new(file, at, kind_of(list), expected));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_entry(file, mode, i + 1, item))
        .collect()
}

/// Parses one `{ on, action, desc }` entry.
fn parse_entry(file: &str, mode: Mode, n: usize, item: &toml::Value) -> Result<Entry, ConfigError> {
    let here = format!("[{mode}] entry {n}");
    let Some(table) = item.as_table() else {
        let problem = kind_of(item);
        let expected = "a table like { on = \"c\", action = \"cordon-node\", desc = \"...\" }";
        return Err(ConfigError::new(file, here, problem, expected));
    };
    reject_unknown_keys(file, &format!("{here}: "), table, &["on", "action", "desc"])?;
    let keys = parse_on(file, &here, table.get("on"))?;
    let action = parse_action(file, &here, table.get("action"))?;
    let desc = match table.get("desc") {
        None => None,
        Some(toml::Value::String(s)) => Some(s.clone()),
        Some(other) => {
            let at = format!("{here}: desc = {}", show_value(other));
            return Err(ConfigError::new(file, at, kind_of(other), "a string"));
        }
    };
    let origin = Origin {
        file: file.to_string(),
        mode,
        entry: n,
    };
    Ok(Entry {
        keys,
        action,
        desc,
        origin,
    })
}

/// Parses `on`: one key string or a non-empty array of them.
fn parse_on(file: &str, here: &str, on: Option<&toml::Value>) -> Result<Vec<Key>, ConfigError> {
    let expected = format!("{EXPECTED_KEY}, or an array of keys like [\"g\", \"g\"]");
    let Some(on) = on else {
        return Err(ConfigError::new(file, here, "missing `on`", expected));
    };
    let at = format!("{here}: on = {}", show_value(on));
    let strings: Vec<&toml::Value> = match on {
        toml::Value::String(_) => vec![on],
        toml::Value::Array(items) if !items.is_empty() => items.iter().collect(),
        toml::Value::Array(_) => {
            return Err(ConfigError::new(file, at, "an empty array", expected));
        }
        other => {
            return Err(ConfigError::new(file, at, kind_of(other), expected));
        }
    };
    strings
        .into_iter()
        .map(|value| {
            let Some(text) = value.as_str() else {
                let problem = format!("{} in the array", kind_of(value));
                return Err(ConfigError::new(
                    file,
                    at.clone(),
                    problem,
                    expected.clone(),
                ));
            };
            text.parse::<Key>()
                .map_err(|e| ConfigError::new(file, at.clone(), e.to_string(), expected.clone()))
        })
        .collect()
}

/// Parses `action`: an action name, or `none` to unbind.
fn parse_action(
    file: &str,
    here: &str,
    action: Option<&toml::Value>,
) -> Result<Option<Action>, ConfigError> {
    let expected = "an action name like \"cordon-node\" (docs/keymaps.md lists them), \
                    or \"none\" to remove a binding";
    let Some(value) = action else {
        return Err(ConfigError::new(file, here, "missing `action`", expected));
    };
    let at = format!("{here}: action = {}", show_value(value));
    match value.as_str() {
        Some(UNBIND) => Ok(None),
        Some(name) => name
            .parse::<Action>()
            .map(Some)
            .map_err(|_| ConfigError::new(file, at, "unknown action", expected)),
        None => Err(ConfigError::new(file, at, kind_of(value), expected)),
    }
}

/// Checks `entries` against each other and against `others` (bindings already in the mode):
/// no sequence twice, none the start of another. The error names the later entry.
pub fn check_conflicts(entries: &[Entry], others: &[Entry]) -> Result<(), ConfigError> {
    // An unbinding entry binds nothing, so it cannot conflict.
    for (i, entry) in entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.action.is_some())
    {
        let earlier = entries[..i].iter().chain(others);
        for other in earlier.filter(|o| o.action.is_some()) {
            if let Some(err) = conflict(entry, other) {
                return Err(err);
            }
        }
    }
    Ok(())
}

/// The conflict between a new entry and an existing one, if any.
fn conflict(entry: &Entry, other: &Entry) -> Option<ConfigError> {
    let (file, n) = (&entry.origin.file, entry.origin.entry);
    let ours = display_sequence(&entry.keys);
    let theirs = display_sequence(&other.keys);
    let by = describe(other, file);
    let problem = if entry.keys == other.keys {
        format!("already bound by {by}")
    } else if other.keys.starts_with(&entry.keys) {
        format!("is the start of \"{theirs}\", bound by {by}")
    } else if entry.keys.starts_with(&other.keys) {
        format!("starts with \"{theirs}\", bound by {by}")
    } else {
        return None;
    };
    let mode = entry.origin.mode;
    Some(ConfigError::new(
        file,
        format!("[{mode}] entry {n}: on = \"{ours}\""),
        problem,
        "each key sequence bound once per mode, and none the start of another",
    ))
}

/// `entry 2 (top)`, or `(built-in) keymaps/vim.toml entry 2 (top)` for another file.
fn describe(other: &Entry, file: &str) -> String {
    let action = other.action.map_or(UNBIND, Action::name);
    if other.origin.file == file {
        format!("entry {} ({action})", other.origin.entry)
    } else {
        format!(
            "{} entry {} ({action})",
            other.origin.file, other.origin.entry
        )
    }
}
