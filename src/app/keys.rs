//! Key → action resolution for the reducer: the `KeyResolver` seam the configured keymap plugs
//! into (`run::keymap`; the embedded `keymaps/default.toml` unless the operator picks another),
//! and key-sequence state. There is no built-in key table: every key comes from a keymap file.
//!
//! Owns: `Mode`, `Chord`, `KeyResolution`, `KeyResolver`, `Binding`, `key_label`. Plain data on
//! crossterm key *types*.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::action::{Action, View};

/// Which key table applies: the current view, or the modal on top. Names match the keymap
/// file's tables (`[global]`, `[nodes]`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Keys that work everywhere unless a more specific table binds them.
    Global,
    /// A view (its table falls back to `[table]`, then `[global]`).
    View(View),
    /// An open detail pane (node, move, journal entry, lint) with no modal on top.
    Detail,
    /// A confirm or choice dialog.
    Confirm,
    /// The help overlay.
    Help,
    /// The `:` command palette (its keys choose and run; unbound keys are typed text).
    Palette,
}

impl Mode {
    /// The keymap table name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Global => "global",
            Mode::View(view) => view.table(),
            Mode::Detail => "detail",
            Mode::Confirm => "confirm",
            Mode::Help => "help",
            Mode::Palette => "palette",
        }
    }
}

/// A key with its modifiers (SHIFT is folded into upper-case characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chord {
    /// The key.
    pub code: KeyCode,
    /// CONTROL / ALT only.
    pub mods: KeyModifiers,
}

impl Chord {
    /// The chord of a crossterm key event.
    pub fn of(key: &KeyEvent) -> Self {
        Chord {
            code: key.code,
            mods: key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT),
        }
    }
}

/// What a key sequence means in a mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyResolution {
    /// The sequence is bound to this action.
    Action(Action),
    /// The sequence is a prefix of a longer binding: wait for the next key.
    Pending,
    /// Nothing is bound.
    Unbound,
}

/// One binding as help and the footer show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The key sequence (one or more chords).
    pub keys: Vec<Chord>,
    /// The action it triggers.
    pub action: Action,
    /// The description (the keymap's `desc`, else the action's).
    pub desc: String,
}

/// Resolves key sequences to actions. `run::keymap::ConfigKeys` implements it over a loaded
/// `config::Keymap`.
pub trait KeyResolver: Send {
    /// The meaning of `seq` (the keys typed since the last resolution) in `mode`; a mode's own
    /// table wins over `[global]`.
    fn resolve(&self, mode: Mode, seq: &[Chord]) -> KeyResolution;
    /// Every binding of `mode` (not including `[global]`), in display order.
    fn bindings(&self, mode: Mode) -> Vec<Binding>;
}

/// A chord as the help and footer print it: `j`, `G`, `ctrl-c`, `esc`, `enter`, `pgdn`.
pub fn chord_label(c: &Chord) -> String {
    let key = match c.code {
        KeyCode::Char(' ') => "space".to_string(),
        KeyCode::Char(ch) => ch.to_string(),
        KeyCode::Enter => "enter".into(),
        KeyCode::Esc => "esc".into(),
        KeyCode::Tab => "tab".into(),
        KeyCode::BackTab => "shift-tab".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::PageUp => "pgup".into(),
        KeyCode::PageDown => "pgdn".into(),
        KeyCode::Home => "home".into(),
        KeyCode::End => "end".into(),
        other => format!("{other:?}").to_lowercase(),
    };
    let mut out = String::new();
    if c.mods.contains(KeyModifiers::CONTROL) {
        out.push_str("ctrl-");
    }
    if c.mods.contains(KeyModifiers::ALT) {
        out.push_str("alt-");
    }
    out.push_str(&key);
    out
}

/// A key sequence as printed: chords separated by spaces (`g g`).
pub fn key_label(keys: &[Chord]) -> String {
    keys.iter().map(chord_label).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(c: char) -> Chord {
        Chord {
            code: KeyCode::Char(c),
            mods: KeyModifiers::NONE,
        }
    }

    #[test]
    fn labels_read_like_the_keymap_file() {
        assert_eq!(key_label(&[ch('g'), ch('g')]), "g g");
        let ctrl_c = Chord {
            code: KeyCode::Char('c'),
            mods: KeyModifiers::CONTROL,
        };
        assert_eq!(chord_label(&ctrl_c), "ctrl-c");
        assert_eq!(key_label(&[ch(' ')]), "space");
    }
}
