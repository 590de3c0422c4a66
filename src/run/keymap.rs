//! Plugs the configured keymap (`config::Keymap`, loaded from `keymaps/*.toml` and the user's
//! overrides) into the reducer's `KeyResolver` seam, so every action is remappable. The only
//! source of keys: with no user files the embedded `keymaps/default.toml` applies.
//!
//! Owns: `ConfigKeys`.

use std::str::FromStr;

use crossterm::event::KeyEvent;

use crate::app::keys::{Binding, Chord, KeyResolution, KeyResolver, Mode};
use crate::config::{
    ConfigError, ConfigPaths, Key, Keymap, Mode as TableMode, Overrides, Resolution,
};

/// A loaded keymap behind the reducer's resolver trait.
pub struct ConfigKeys(pub Keymap);

impl ConfigKeys {
    /// The shipped keymap `name` (`default`, `vim`) as `config::load` builds it with no user
    /// files, the loader the binary uses. Fails only on a name that is not shipped.
    pub fn shipped(name: &str) -> Result<ConfigKeys, ConfigError> {
        let overrides = Overrides {
            theme: None,
            keymap: Some(name.to_string()),
        };
        let config = crate::config::load(&ConfigPaths::builtin_only(), &overrides)?;
        Ok(ConfigKeys(config.keymap))
    }
}

fn table(mode: Mode) -> TableMode {
    match mode {
        Mode::Global => TableMode::Global,
        Mode::View(view) => TableMode::View(view),
        Mode::Detail => TableMode::Detail,
        Mode::Confirm => TableMode::Confirm,
        Mode::Help => TableMode::Help,
        Mode::Palette => TableMode::Palette,
    }
}

/// `g g` / `<C-c>` as written in keymaps → chords; `None` if a key does not parse.
fn chords(keys: &str) -> Option<Vec<Chord>> {
    keys.split_whitespace()
        .map(|k| Key::from_str(k).ok().map(|k| Chord::of(&k.to_event())))
        .collect()
}

impl KeyResolver for ConfigKeys {
    fn resolve(&self, mode: Mode, seq: &[Chord]) -> KeyResolution {
        let events: Vec<KeyEvent> = seq.iter().map(|c| KeyEvent::new(c.code, c.mods)).collect();
        match self.0.resolve(table(mode), &events) {
            Resolution::Action(a) => KeyResolution::Action(a),
            Resolution::Prefix => KeyResolution::Pending,
            Resolution::Unbound => KeyResolution::Unbound,
        }
    }

    /// The bindings that work in `mode`; for a view, its own and the shared `[table]` ones
    /// (the footer adds `[global]` hints itself).
    fn bindings(&self, mode: Mode) -> Vec<Binding> {
        self.0
            .bindings(table(mode))
            .into_iter()
            .filter(|b| mode == Mode::Global || b.mode != TableMode::Global)
            .filter_map(|b| {
                Some(Binding {
                    keys: chords(&b.keys)?,
                    action: b.action,
                    desc: b.desc,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{Action, View};
    use crossterm::event::{KeyCode, KeyModifiers};

    fn ch(c: char) -> Chord {
        Chord::of(&KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    }

    #[test]
    fn shipped_keymaps_resolve_through_the_seam() {
        let vim = ConfigKeys::shipped("vim").unwrap();
        assert_eq!(
            vim.resolve(Mode::View(View::Nodes), &[ch('g')]),
            KeyResolution::Pending
        );
        assert_eq!(
            vim.resolve(Mode::View(View::Nodes), &[ch('g'), ch('g')]),
            KeyResolution::Action(Action::Top)
        );
        assert!(vim
            .bindings(Mode::View(View::Nodes))
            .iter()
            .any(|b| b.action == Action::CordonNode));
        assert!(ConfigKeys::shipped("emacs").is_err());
    }

    #[test]
    fn view_tables_fall_back_to_table_and_global() {
        let k = ConfigKeys::shipped("default").unwrap();
        assert_eq!(
            k.resolve(Mode::View(View::Nodes), &[ch('c')]),
            KeyResolution::Action(Action::CordonNode)
        );
        assert_eq!(
            k.resolve(Mode::View(View::Nodes), &[ch('j')]),
            KeyResolution::Action(Action::Down)
        );
        // `q` goes back, and on a list asks before quitting; Ctrl-C quits at once.
        assert_eq!(
            k.resolve(Mode::View(View::Nodes), &[ch('q')]),
            KeyResolution::Action(Action::BackOrQuit)
        );
        let ctrl_c = Chord::of(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert_eq!(
            k.resolve(Mode::View(View::Nodes), &[ctrl_c]),
            KeyResolution::Action(Action::Quit)
        );
        // Pools binds `c` for the full-size map's node, not `u`.
        assert_eq!(
            k.resolve(Mode::View(View::Pools), &[ch('c')]),
            KeyResolution::Action(Action::CordonNode)
        );
        assert_eq!(
            k.resolve(Mode::View(View::Pools), &[ch('u')]),
            KeyResolution::Unbound
        );
    }

    #[test]
    fn a_detail_uses_the_detail_table() {
        let k = ConfigKeys::shipped("default").unwrap();
        assert_eq!(
            k.resolve(Mode::Detail, &[ch('q')]),
            KeyResolution::Action(Action::Back)
        );
        assert_eq!(
            k.resolve(Mode::Detail, &[ch('a')]),
            KeyResolution::Action(Action::ApproveMove)
        );
        assert_eq!(
            k.resolve(Mode::Detail, &[ch('1')]),
            KeyResolution::Action(Action::ViewPools)
        );
    }

    #[test]
    fn confirm_mode_does_not_leak_global_keys() {
        let k = ConfigKeys::shipped("default").unwrap();
        // `q` cancels a dialog (back one level); a view key does nothing there.
        assert_eq!(
            k.resolve(Mode::Confirm, &[ch('q')]),
            KeyResolution::Action(Action::Cancel)
        );
        assert_eq!(k.resolve(Mode::Confirm, &[ch('1')]), KeyResolution::Unbound);
        let enter = Chord::of(&KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        assert_eq!(k.resolve(Mode::Confirm, &[enter]), KeyResolution::Unbound);
    }
}
